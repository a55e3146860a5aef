//! How a value breaks one keyword, worded as the request body check words a compiled
//! validator's error (`request_schema::describe`), so that a finding reads the same whichever
//! way it was decided.

use syncdef_definitions::{Node, NodeKind};

/// Why `value` breaks keyword `name` with argument `arg` (a keyword the walk decided breaks).
/// `has_required` says whether the object has, or need not have, a required member.
pub(super) fn of(
    name: &str,
    arg: &Node,
    value: &Node,
    nullable: bool,
    has_required: impl Fn(&str) -> bool,
) -> String {
    let limit = || number_text(arg);
    match name {
        "type" => format!(
            "type {}, the value is {}",
            types(arg, nullable),
            a_type(value)
        ),
        "enum" => enumeration(arg, value, nullable),
        "const" => "const, the value differs".to_owned(),
        "required" => match arg
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Node::as_str)
            .find(|n| !has_required(n))
        {
            Some(missing) => format!("required, the member `{missing}` is missing"),
            None => "required, a member is missing".to_owned(),
        },
        "minLength" | "maxLength" => {
            format!(
                "{name} {}, the value has {} characters",
                limit(),
                chars(value)
            )
        }
        "minItems" | "maxItems" => format!(
            "{name} {}, the array has {} items",
            limit(),
            value.as_array().map_or(0, |items| items.len())
        ),
        "minProperties" | "maxProperties" => format!(
            "{name} {}, the object has {} members",
            limit(),
            value.as_object().map_or(0, |members| members.len())
        ),
        "minimum" | "maximum" => format!("{name} {}, the value is {}", limit(), number_text(value)),
        "exclusiveMinimum" | "exclusiveMaximum" => {
            let bound = if name == "exclusiveMinimum" {
                "minimum"
            } else {
                "maximum"
            };
            format!(
                "exclusive {bound} {}, the value is {}",
                limit(),
                number_text(value)
            )
        }
        "anyOf" => "anyOf, the value fits none of the alternatives".to_owned(),
        "not" => "not, the value fits the schema it must not".to_owned(),
        other => format!("{other}, the value does not fit"),
    }
}

/// `oneOf` when `fitting` alternatives (none, or more than one) fit.
pub(super) fn one_of(fitting: usize) -> String {
    if fitting == 0 {
        "oneOf, the value fits none of the alternatives".to_owned()
    } else {
        "oneOf, the value fits more than one alternative".to_owned()
    }
}

/// `additionalProperties: false` against the members the schema does not declare.
pub(super) fn additional(names: &[&str]) -> String {
    let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "additionalProperties false, the schema does not allow {}",
        listed.join(", ")
    )
}

fn types(arg: &Node, nullable: bool) -> String {
    let mut names: Vec<&str> = match &arg.kind {
        NodeKind::String(s) => vec![&s.value],
        NodeKind::Array(items) => items.iter().filter_map(Node::as_str).collect(),
        _ => Vec::new(),
    };
    if nullable && arg.as_str().is_some() {
        names.push("null");
    }
    names.join(" or ")
}

fn enumeration(arg: &Node, value: &Node, nullable: bool) -> String {
    let listed = arg.as_array().map_or(0, |items| items.len());
    let has_null = arg.as_array().into_iter().flatten().any(Node::is_null);
    let count = listed + usize::from(nullable && !has_null);
    match &value.kind {
        NodeKind::String(_) => format!(
            "enum of {count} values, the value (a string of {} characters) is none of them",
            chars(value)
        ),
        _ => format!(
            "enum of {count} values, the value ({}) is none of them",
            a_type(value)
        ),
    }
}

fn chars(value: &Node) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

/// A number as written (`1e3` stays `1e3`), or the value's kind when it is none.
fn number_text(node: &Node) -> String {
    match &node.kind {
        NodeKind::Number(n) => n.text.to_string(),
        _ => node.type_name().to_owned(),
    }
}

fn a_type(value: &Node) -> &'static str {
    value.kind.described()
}
