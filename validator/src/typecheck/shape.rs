//! A request template's output shape, read statically from its tree, checked against the
//! request body schema; and the way back from an output JSON pointer to the template node
//! that produced it (for findings of a rendering).

use syncdef_definitions::platform::{FieldSchema, JsonType, Property};
use syncdef_definitions::{Node, NodeKind, Span};

/// Stands for a template's name key in shape walks (whose spans are file spans): what
/// [`producer`] answers for the template's root, and what [`check`] takes as its span.
pub(crate) const NAME_MARKER: Span = Span::empty(u32::MAX);

/// A mismatch between the template's shape and the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShapeFinding {
    /// The template span to underline (a key, or the template name for the root).
    pub span: Span,
    /// Output pointer of the object or value concerned (for deduplication with renderings).
    pub pointer: String,
    /// `required:<name>`, `additional:<name>`, `readOnly:<name>` or `type`.
    pub category: String,
    pub message: String,
    pub help: String,
}

/// What the static walk needs to know about `#valueof` reads.
pub(crate) trait ValueTypes {
    /// The JSON type an expression string (`#valueof($.account.name)`) produces, when known.
    fn expression_type(&self, text: &str, loop_depth: usize) -> Option<JsonType>;
}

/// Walks template `root` (named at `name_span`) against `schema`.
pub(crate) fn check(
    root: &Node,
    name_span: Span,
    schema: FieldSchema<'_>,
    types: &dyn ValueTypes,
    span_of: &dyn Fn(Span) -> Span,
) -> Vec<ShapeFinding> {
    let mut out = Vec::new();
    node(root, name_span, "", schema, types, span_of, 0, &mut out);
    out
}

/// One produced member: its key span, value, and whether an `#ifgroup` guards it.
struct Produced<'n> {
    key: &'n str,
    key_span: Span,
    value: Node<'n>,
    conditional: bool,
}

/// The members an object template produces, `#ifgroup` contents inlined; `None` when a key
/// is computed (`#eval`, bulk functions): then the member set is unknown.
fn produced<'n>(node: Node<'n>, conditional: bool, out: &mut Vec<Produced<'n>>) -> bool {
    let Some(members) = node.as_object() else {
        return true;
    };
    for m in members {
        let key: &str = m.key.name;
        if let Some(_cond) = key.strip_prefix("#ifgroup(") {
            if !produced(m.value, true, out) {
                return false;
            }
        } else if key.starts_with('#') {
            return false;
        } else {
            out.push(Produced {
                key,
                key_span: m.key.span,
                value: m.value,
                conditional,
            });
        }
    }
    true
}

/// Whether an object template is a `#loop` (one `#loop(...)` key: it renders as an array).
fn loop_body<'t>(node: &Node<'t>) -> Option<Node<'t>> {
    match node.as_object() {
        Some(members) => members
            .only()
            .filter(|only| only.key.name.starts_with("#loop("))
            .map(|only| only.value),
        _ => None,
    }
}

/// The type a template node produces, when known.
fn produced_type(node: &Node, types: &dyn ValueTypes, loop_depth: usize) -> Option<JsonType> {
    match &node.kind {
        NodeKind::Null => Some(JsonType::Null),
        NodeKind::Bool(_) => Some(JsonType::Boolean),
        NodeKind::Number(n) => Some(if n.value.as_f64().fract() == 0.0 {
            JsonType::Integer
        } else {
            JsonType::Number
        }),
        NodeKind::String(s) => {
            let text: &str = s.value;
            if text.starts_with('#') {
                types.expression_type(text, loop_depth)
            } else {
                Some(JsonType::String)
            }
        }
        NodeKind::Array(_) => Some(JsonType::Array),
        NodeKind::Object(_) if loop_body(node).is_some() => Some(JsonType::Array),
        NodeKind::Object(_) => {
            let mut members = Vec::new();
            produced(*node, false, &mut members).then_some(JsonType::Object)
        }
    }
}

/// `a string`, `an integer`.
fn article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

/// Whether a value of type `produced` may satisfy `allowed`. A `number` may be whole, so it is
/// not reported against `integer`: only a rendering can tell.
fn compatible(produced: JsonType, allowed: &[JsonType]) -> bool {
    allowed.is_empty()
        || allowed.contains(&produced)
        || (produced == JsonType::Integer && allowed.contains(&JsonType::Number))
        || (produced == JsonType::Number && allowed.contains(&JsonType::Integer))
}

#[expect(
    clippy::too_many_arguments,
    reason = "the recursive walk of a template against its schema threads what every level reads (pointer, schema, types, span mapping, loop depth) and the findings"
)]
fn node(
    tpl: &Node,
    at: Span,
    pointer: &str,
    schema: FieldSchema<'_>,
    types: &dyn ValueTypes,
    span_of: &dyn Fn(Span) -> Span,
    loop_depth: usize,
    out: &mut Vec<ShapeFinding>,
) {
    let allowed = schema.types();
    if let Some(t) = produced_type(tpl, types, loop_depth)
        && !compatible(t, &allowed)
    {
        let what = match (&tpl.kind, t) {
            (NodeKind::String(s), _) if !s.value.starts_with('#') => {
                format!("the constant string {:?}", s.value)
            }
            (NodeKind::String(_), t) => format!("{} value", article(t.name())),
            (_, JsonType::Array) => "an array".to_owned(),
            (_, JsonType::Object) => "an object".to_owned(),
            (_, t) => format!("a constant {}", t.name()),
        };
        let wanted: Vec<&str> = allowed.iter().map(|t| t.name()).collect();
        out.push(ShapeFinding {
            span: span_of(at),
            pointer: pointer.to_owned(),
            category: "type".into(),
            message: format!(
                "the template produces {what} at {} where the request body schema wants {}",
                display(pointer),
                wanted.join(" or ")
            ),
            help: format!("produce {} here", article(&wanted.join(" or "))),
        });
        return;
    }
    if let Some(body) = loop_body(tpl) {
        if let Some(items) = schema.items() {
            node(
                &body,
                at,
                &format!("{pointer}/0"),
                items,
                types,
                span_of,
                loop_depth + 1,
                out,
            );
        }
        return;
    }
    match &tpl.kind {
        NodeKind::Array(items) => {
            if let Some(item_schema) = schema.items() {
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{pointer}/{i}");
                    node(
                        &item,
                        item.span,
                        &p,
                        item_schema,
                        types,
                        span_of,
                        loop_depth,
                        out,
                    );
                }
            }
        }
        NodeKind::Object(_) => object(tpl, at, pointer, schema, types, span_of, loop_depth, out),
        _ => {}
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "the recursive walk of a template against its schema threads what every level reads (pointer, schema, types, span mapping, loop depth) and the findings"
)]
fn object(
    tpl: &Node,
    at: Span,
    pointer: &str,
    schema: FieldSchema<'_>,
    types: &dyn ValueTypes,
    span_of: &dyn Fn(Span) -> Span,
    loop_depth: usize,
    out: &mut Vec<ShapeFinding>,
) {
    let mut members = Vec::new();
    if !produced(*tpl, false, &mut members) {
        return;
    }
    let closed = schema_closed(schema);
    for m in &members {
        let p = format!("{pointer}/{}", syncdef_definitions::pointer::escape(m.key));
        match schema.property(m.key) {
            // Nothing under a read-only property is taken either: one finding, at its key.
            Property::Known(s) if read_only(s) => {
                out.push(read_only_finding(
                    span_of(m.key_span),
                    pointer,
                    m.key,
                    ref_of(schema, m.key),
                ));
            }
            Property::Known(s) => {
                node(&m.value, m.key_span, &p, s, types, span_of, loop_depth, out);
            }
            Property::Unknown if closed => {
                let names = schema.property_names();
                let help = match crate::suggest::did_you_mean(m.key, names.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the schema allows: {}", super::name_list(&names)),
                };
                out.push(ShapeFinding {
                    span: span_of(m.key_span),
                    pointer: p,
                    category: format!("additional:{}", m.key),
                    message: format!(
                        "the request body schema does not allow `{}` in {}",
                        m.key,
                        display(pointer)
                    ),
                    help,
                });
            }
            _ => {}
        }
    }
    let has = |name: &str| {
        members
            .iter()
            .find(|m| m.key == name)
            .map(|m| m.conditional)
    };
    // `required` of the schema and its `allOf` parts must all be produced; of `anyOf`/`oneOf`
    // alternatives, one alternative's.
    let (all, alternatives) = required_sets(schema);
    for name in all {
        match has(&name) {
            Some(false) => {}
            conditional => out.push(missing(at, pointer, &name, conditional.is_some(), span_of)),
        }
    }
    if !alternatives.is_empty()
        && !alternatives
            .iter()
            .any(|alt| alt.iter().all(|n| has(n) == Some(false)))
    {
        let names: Vec<String> = alternatives.iter().map(|a| list_owned(a)).collect();
        out.push(ShapeFinding {
            span: span_of(at),
            pointer: pointer.to_owned(),
            category: "required:anyOf".into(),
            message: format!(
                "the template does not always produce the properties {} requires: one of {}",
                display(pointer),
                names.join("; or ")
            ),
            help: "add the properties of one alternative outside any `#ifgroup`".into(),
        });
    }
}

/// Whether a property's schema (its `$ref` followed) is `readOnly: true`: OpenAPI 3.0 says such
/// a property "SHOULD NOT be sent as part of the request", and ignores a `$ref`'s siblings, so
/// a property written as a `$ref` is read-only by its target. The conversion keeps `readOnly`
/// as an annotation (and takes such properties out of `required`): the walk is over a request
/// schema, so a read-only property written is a finding.
fn read_only(schema: FieldSchema<'_>) -> bool {
    schema.json().get("readOnly") == Some(&serde_json::Value::Bool(true))
}

/// The `$ref` property `name` of `schema` (or of one of its composition parts) is written as,
/// to say where its read-only flag comes from.
fn ref_of(schema: FieldSchema<'_>, name: &str) -> Option<String> {
    let own = std::iter::once(schema);
    let composed = ["allOf", "anyOf", "oneOf"]
        .into_iter()
        .flat_map(|key| parts(schema, key));
    own.chain(composed).find_map(|part| {
        part.json()
            .get("properties")?
            .get(name)?
            .get("$ref")?
            .as_str()
            .map(str::to_owned)
    })
}

/// The finding for read-only property `name` written in the object at `pointer`: the same rule
/// as a property the schema does not allow (the body does not fit the schema as a request),
/// said as what it is.
pub(crate) fn read_only_finding(
    span: Span,
    pointer: &str,
    name: &str,
    via: Option<String>,
) -> ShapeFinding {
    let why = via.map_or_else(String::new, |r| {
        format!(" (its schema `{r}` is `readOnly`)")
    });
    ShapeFinding {
        span,
        pointer: format!("{pointer}/{}", syncdef_definitions::pointer::escape(name)),
        category: format!("readOnly:{name}"),
        message: format!(
            "`{name}` in {} is read-only{why}: the external system sets it and does not take it in a request",
            display(pointer)
        ),
        help: format!(
            "remove `{name}` from the template; if the system does take it, the description is wrong: correct it with an overlay"
        ),
    }
}

/// The read-only properties a rendered body writes, as (object pointer, name, `$ref`): the
/// rendering sees the keys a template computes (`#eval`, bulk functions), which the static
/// walk cannot.
pub(crate) fn read_only_written(
    value: &serde_json::Value,
    schema: FieldSchema<'_>,
) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    written(value, schema, "", &mut out, 0);
    out
}

fn written(
    value: &serde_json::Value,
    schema: FieldSchema<'_>,
    pointer: &str,
    out: &mut Vec<(String, String, Option<String>)>,
    depth: u32,
) {
    if depth > 64 {
        return;
    }
    match value {
        serde_json::Value::Object(members) => {
            for (name, member) in members {
                let Property::Known(s) = schema.property(name) else {
                    continue;
                };
                if read_only(s) {
                    out.push((pointer.to_owned(), name.clone(), ref_of(schema, name)));
                } else {
                    let escaped = syncdef_definitions::pointer::escape(name);
                    written(member, s, &format!("{pointer}/{escaped}"), out, depth + 1);
                }
            }
        }
        serde_json::Value::Array(items) => {
            if let Some(item_schema) = schema.items() {
                for (i, item) in items.iter().enumerate() {
                    written(item, item_schema, &format!("{pointer}/{i}"), out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

fn missing(
    at: Span,
    pointer: &str,
    name: &str,
    conditional: bool,
    span_of: &dyn Fn(Span) -> Span,
) -> ShapeFinding {
    let (message, help) = if conditional {
        (
            format!(
                "`{name}` is required in {} but the template produces it only when an `#ifgroup` condition holds",
                display(pointer)
            ),
            format!("move `{name}` out of the `#ifgroup`, or give it a value in every case"),
        )
    } else {
        (
            format!(
                "`{name}` is required in {} but the template never produces it",
                display(pointer)
            ),
            format!("add `{name}` to the template"),
        )
    };
    ShapeFinding {
        span: span_of(at),
        pointer: pointer.to_owned(),
        category: format!("required:{name}"),
        message,
        help,
    }
}

/// Whether some part of the schema says `additionalProperties: false`.
fn schema_closed(schema: FieldSchema<'_>) -> bool {
    let json = schema.json();
    json.get("additionalProperties") == Some(&serde_json::Value::Bool(false))
        || ["allOf"].iter().any(|k| {
            json.get(k)
                .and_then(serde_json::Value::as_array)
                .into_iter()
                .flatten()
                .any(|p| p.get("additionalProperties") == Some(&serde_json::Value::Bool(false)))
        })
}

/// The names every valid object has (own and `allOf` parts' `required`), and the
/// alternatives of `anyOf`/`oneOf` parts (each a list of names).
fn required_sets(schema: FieldSchema<'_>) -> (Vec<String>, Vec<Vec<String>>) {
    let mut all = Vec::new();
    let mut alternatives = Vec::new();
    collect_required(schema, &mut all, &mut alternatives, 0);
    (all, alternatives)
}

fn collect_required(
    schema: FieldSchema<'_>,
    all: &mut Vec<String>,
    alternatives: &mut Vec<Vec<String>>,
    depth: u32,
) {
    if depth > 8 {
        return;
    }
    let json = schema.json();
    for n in json
        .get("required")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
    {
        if !all.iter().any(|a| a == n) {
            all.push(n.to_owned());
        }
    }
    for part in parts(schema, "allOf") {
        collect_required(part, all, alternatives, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        let mut alts = Vec::new();
        for part in parts(schema, key) {
            let mut names = Vec::new();
            let mut nested = Vec::new();
            collect_required(part, &mut names, &mut nested, depth + 1);
            alts.push(names);
        }
        // An alternative without requirements is always satisfied: nothing to check.
        if !alts.is_empty() && alts.iter().all(|a| !a.is_empty()) && alternatives.is_empty() {
            *alternatives = alts;
        }
    }
}

fn parts<'s>(schema: FieldSchema<'s>, key: &str) -> Vec<FieldSchema<'s>> {
    schema
        .json()
        .get(key)
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| schema.sibling(p))
        .collect()
}

fn list_owned(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An output pointer for messages: `/BillAddr/City`, or `the body` for the root.
pub(crate) fn display(pointer: &str) -> String {
    if pointer.is_empty() {
        "the body".to_owned()
    } else {
        format!("`{pointer}`")
    }
}

/// The template node that produced the output at `pointer` (RFC 6901), with the span of the
/// key that names it: `#ifgroup` contents are looked through, an index of a `#loop` array is
/// the loop's body. Stops at the deepest node found.
pub(crate) fn producer<'n>(root: Node<'n>, root_span: Span, pointer: &str) -> (Node<'n>, Span) {
    let mut at = root;
    let mut span = root_span;
    for token in pointer.split('/').skip(1) {
        let token = syncdef_definitions::pointer::unescape(token);
        if let Some(body) = loop_body(&at) {
            at = body;
            continue;
        }
        match &at.kind {
            NodeKind::Array(items) => {
                match token.parse::<usize>().ok().and_then(|i| items.get(i)) {
                    Some(item) => {
                        span = item.span;
                        at = item;
                    }
                    None => break,
                }
            }
            NodeKind::Object(_) => {
                let mut members = Vec::new();
                produced(at, false, &mut members);
                match members.iter().find(|m| m.key == token) {
                    Some(m) => {
                        span = m.key_span;
                        at = m.value;
                    }
                    None => break,
                }
            }
            _ => break,
        }
    }
    (at, span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use syncdef_definitions::{LoadOptions, SourceFile};

    struct NoTypes;
    impl ValueTypes for NoTypes {
        fn expression_type(&self, text: &str, _: usize) -> Option<JsonType> {
            text.starts_with("#valueof($.n)")
                .then_some(JsonType::Integer)
        }
    }

    fn tree(text: &str) -> syncdef_definitions::Tree {
        let file = Arc::new(SourceFile::new("t.yaml", text));
        syncdef_definitions::load::load_with(file, &LoadOptions::default())
            .expect("loads")
            .tree
    }

    fn findings(template: &str, schema: &serde_json::Value) -> Vec<String> {
        let root_tree = tree(template);
        let root = root_tree.root();
        let schema = FieldSchema::in_document(schema, schema);
        check(&root, Span::empty(0), schema, &NoTypes, &|s| s)
            .into_iter()
            .map(|f| format!("{} {}", f.category, f.pointer))
            .collect()
    }

    #[test]
    fn required_additional_and_types() {
        let schema = json!({
            "type": "object",
            "required": ["a", "b"],
            "additionalProperties": false,
            "properties": {
                "a": {"type": "string"},
                "b": {"type": "integer"},
                "c": {"type": "array", "items": {"type": "object", "properties": {"d": {"type": "string"}}}}
            }
        });
        let got = findings(
            "\"#ifgroup(#exists($.x))\": {a: x}\nb: \"#valueof($.n)\"\nc: {\"#loop($.l)\": {d: 1}}\ne: 1\n",
            &schema,
        );
        assert_eq!(got, vec!["type /c/0/d", "additional:e /e", "required:a "]);
        // A constant string where an integer is required; an object where an array is.
        let got = findings("a: x\nb: \"7\"\nc: {d: x}\n", &schema);
        assert_eq!(got, vec!["type /b", "type /c"]);
    }

    #[test]
    fn a_read_only_property_written_is_one_finding_at_its_key() {
        // `Balance` read-only itself, `MetaData` by the schema its `$ref` points at: nothing
        // under it is walked (its `Nope` is not a second finding).
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "Name": {"type": "string"},
                "Balance": {"type": "number", "readOnly": true},
                "MetaData": {"$ref": "#/$defs/MetaData"},
                "Addr": {"type": "object", "properties": {"Id": {"type": "string", "readOnly": true}}}
            },
            "$defs": {"MetaData": {"type": "object", "readOnly": true, "additionalProperties": false}}
        });
        let got = findings(
            "Name: x\nBalance: 3\nMetaData: {Nope: 1}\nAddr: {Id: x}\n",
            &schema,
        );
        assert_eq!(
            got,
            vec![
                "readOnly:Balance /Balance",
                "readOnly:MetaData /MetaData",
                "readOnly:Id /Addr/Id"
            ]
        );
        let root = FieldSchema::in_document(&schema, &schema);
        assert_eq!(
            ref_of(root, "MetaData").as_deref(),
            Some("#/$defs/MetaData")
        );
        assert_eq!(ref_of(root, "Balance"), None);
    }

    #[test]
    fn a_rendered_body_is_walked_for_read_only_properties() {
        // What a template computes its keys for is seen only in its rendering.
        let schema = json!({
            "type": "object",
            "properties": {
                "Lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}},
                "Total": {"type": "number", "readOnly": true}
            },
            "$defs": {"Line": {"type": "object", "properties": {"Id": {"readOnly": true}, "Qty": {}}}}
        });
        let root = FieldSchema::in_document(&schema, &schema);
        let body = json!({"Total": 1, "Lines": [{"Qty": 1}, {"Id": "7", "Qty": 2}], "Other": 1});
        let got: Vec<(String, String)> = read_only_written(&body, root)
            .into_iter()
            .map(|(at, name, _)| (at, name))
            .collect();
        assert_eq!(
            got,
            vec![
                (String::new(), "Total".to_owned()),
                ("/Lines/1".to_owned(), "Id".to_owned())
            ]
        );
    }

    #[test]
    fn alternatives_need_one_complete_branch() {
        let schema = json!({"anyOf": [{"required": ["Name"]}, {"required": ["Id", "Token"]}]});
        assert!(findings("Id: 1\nToken: 2\n", &schema).is_empty());
        assert_eq!(findings("Id: 1\n", &schema), vec!["required:anyOf "]);
    }

    #[test]
    fn output_pointers_map_back_to_template_keys() {
        let text = "\"#ifgroup(#exists($.x))\":\n  Addr: {City: x}\nLine:\n  \"#loop($.l)\":\n    Qty: 1\n";
        let root_tree = tree(text);
        let root = root_tree.root();
        let (_, span) = producer(root, Span::empty(0), "/Addr/City");
        assert_eq!(&text[span.range()], "City");
        let (_, span) = producer(root, Span::empty(0), "/Line/3/Qty");
        assert_eq!(&text[span.range()], "Qty");
        // An output the template does not produce stops at the deepest producer.
        let (_, span) = producer(root, Span::empty(0), "/Nope");
        assert_eq!(span, Span::empty(0));
    }
}
