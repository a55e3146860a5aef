//! The core finds fast paths and special forms through the table's declarations: an entry
//! under another name keeps its form, and a name without the declaration gets none.

use super::{Allowed, BulkOp, Form, FuncDef, KeyForm, Reads, lookup, table};
use crate::expr::{Call, Expr, Route, parse_call_or_literal};

fn entry(name: &str) -> &'static FuncDef {
    lookup(name).unwrap_or_else(|| panic!("#{name} is in the table"))
}

/// `entry` as it would be if the table listed it under `name` with `form`.
fn declared(base: &str, name: &'static str, form: Form) -> &'static FuncDef {
    Box::leak(Box::new(FuncDef {
        name,
        form,
        ..*entry(base)
    }))
}

/// The parsed call `text` (of a table function, for its compiled arguments).
fn call(text: &str) -> Box<Call> {
    let mut errors = Vec::new();
    match parse_call_or_literal(text, 0..text.len(), '/', &mut errors, 0) {
        Expr::Call(c) if errors.is_empty() => c,
        other => panic!("{text} parses to a call: {other:?}, {errors:?}"),
    }
}

fn route_kind(r: &Route) -> &'static str {
    match r {
        Route::General => "general",
        Route::ValueOf(_) => "value-of",
        Route::Exists(_) => "exists",
        Route::IfCondition(_) => "if-condition",
    }
}

const CALLS: [(&str, &str, Form, &str); 3] = [
    ("valueof", "#valueof($.a.b)", Form::ScopeRead, "value-of"),
    ("exists", "#exists($.a)", Form::ExistsTest, "exists"),
    (
        "ifcondition",
        "#ifcondition(#valueof($.a),x,#valueof($.b),no)",
        Form::Choice,
        "if-condition",
    ),
];

#[test]
fn the_table_declares_every_special_form() {
    for (name, _, form, _) in CALLS {
        assert_eq!(entry(name).form, form, "#{name}");
    }
    let keys = [
        ("ifgroup", KeyForm::IfGroup),
        ("loop", KeyForm::Loop),
        ("eval", KeyForm::Eval),
        ("scope", KeyForm::Scope),
    ];
    for (name, form) in keys {
        assert_eq!(entry(name).form, Form::Key(form), "#{name}");
    }
    let ops = [
        ("copy", BulkOp::Copy),
        ("replace", BulkOp::Replace),
        ("delete", BulkOp::Delete),
    ];
    for (name, op) in ops {
        assert_eq!(entry(name).form, Form::Bulk(op), "#{name}");
    }
    assert_eq!(entry("valueof").reads, Reads::Scope { alias: 1 });
    // A function written only as a key or in a "#" array is evaluated by the object walk,
    // which knows it by its form alone.
    for f in table() {
        match f.placement {
            Allowed::Key => assert!(matches!(f.form, Form::Key(_)), "#{}", f.name),
            Allowed::Bulk => assert!(matches!(f.form, Form::Bulk(_)), "#{}", f.name),
            Allowed::Value | Allowed::KeyOrValue => {}
        }
    }
}

#[test]
fn an_entry_under_another_name_keeps_its_fast_path() {
    for (base, text, form, route) in CALLS {
        let renamed = declared(base, "renamed", form);
        let c = call(text);
        assert_eq!(route_kind(&Route::of(renamed, &c.args)), route, "#{base}");
    }
}

#[test]
fn a_name_without_the_declaration_gets_no_fast_path() {
    for (base, text, _, _) in CALLS {
        let plain = declared(base, entry(base).name, Form::Call);
        let c = call(text);
        assert_eq!(route_kind(&Route::of(plain, &c.args)), "general", "#{base}");
    }
}
