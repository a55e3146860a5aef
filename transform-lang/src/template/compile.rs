//! Template -> compiled nodes, collecting every error with its location.

use std::ops::Range;
use std::sync::Arc;

use super::lenient::SourceMap;
use super::{ExprNode, Node, ObjectNode, Prop};
use crate::error::{
    CompileError, CompileErrorKind, CompileErrors, EvalError, EvalErrorKind, Location, NodePart,
    Res,
};
use crate::expr::{Expr, ExprError, parse_call_or_literal};
use crate::functions::{self, KeyForm, Placement};
use crate::settings::Settings;
use crate::value::ser::write_str;
use crate::value::{Map, Shape, Value};

pub(crate) fn compile(
    template: &Value,
    settings: &Settings,
    source: Option<&SourceMap>,
) -> Result<Node, CompileErrors> {
    let mut c = Compiler {
        settings,
        source,
        errors: Vec::new(),
    };
    let root = c.root(template);
    if c.errors.is_empty() {
        Ok(root)
    } else {
        Err(CompileErrors(c.errors))
    }
}

/// Compiles a template built at run time (`#applyover`).
pub(crate) fn compile_runtime(template: &Value, settings: &Settings) -> Res<Node> {
    compile(template, settings, None).map_err(|e| {
        EvalError::new(
            EvalErrorKind::InvalidTemplate,
            format!(
                "the template built at run time does not compile: {}",
                e.0.first()
                    .map(std::string::ToString::to_string)
                    .unwrap_or_default()
            ),
        )
    })
}

struct Compiler<'a> {
    settings: &'a Settings,
    source: Option<&'a SourceMap>,
    errors: Vec<CompileError>,
}

fn child_pointer(parent: &str, token: &str) -> String {
    let mut p = String::with_capacity(parent.len() + token.len() + 1);
    p.push_str(parent);
    p.push('/');
    for c in token.chars() {
        match c {
            '~' => p.push_str("~0"),
            '/' => p.push_str("~1"),
            c => p.push(c),
        }
    }
    p
}

impl Compiler<'_> {
    fn text_offset(&self, pointer: &str, part: NodePart) -> Option<usize> {
        self.source?.offset(pointer, part)
    }

    fn error(
        &mut self,
        kind: CompileErrorKind,
        message: String,
        help: Option<String>,
        pointer: &str,
        part: NodePart,
        range: Range<usize>,
    ) {
        let offset = self
            .text_offset(pointer, part)
            .map(|o| o + range.start..o + range.end);
        self.errors.push(CompileError {
            kind,
            message,
            help,
            location: Location {
                pointer: pointer.to_string(),
                part,
                range,
                offset,
            },
        });
    }

    fn too_deep(&mut self, pointer: &str, depth: usize) -> bool {
        if depth > self.settings.limits.max_depth {
            self.error(
                CompileErrorKind::TooDeep,
                format!(
                    "the template nests deeper than {} levels",
                    self.settings.limits.max_depth
                ),
                Some("flatten the template or raise limits.max_depth".into()),
                pointer,
                NodePart::Value,
                0..0,
            );
            return true;
        }
        false
    }

    fn root(&mut self, v: &Value) -> Node {
        match v {
            Value::Object(o) => self.object(o, "", 0),
            Value::Array(a) => self.array(a, "", 0),
            Value::String(s) => self.string(s, "", true),
            other => Node::Const(other.clone()),
        }
    }

    /// A property value (`in_property`) or an array item.
    fn value(&mut self, v: &Value, pointer: &str, depth: usize, in_property: bool) -> Node {
        match v {
            Value::Object(o) => self.object(o, pointer, depth + 1),
            Value::Array(a) => self.array(a, pointer, depth + 1),
            Value::String(s) => self.string(s, pointer, in_property),
            other => Node::Const(other.clone()),
        }
    }

    fn string(&mut self, s: &Arc<str>, pointer: &str, in_property: bool) -> Node {
        if !s.trim_start().starts_with('#') {
            let mut esc = [0u8; 4];
            let esc = self.settings.escape_char.encode_utf8(&mut esc);
            if in_property && s.starts_with(&*esc) && s[esc.len()..].starts_with('#') {
                return Node::Const(Value::from(&s[esc.len()..]));
            }
            return Node::Const(Value::String(s.clone()));
        }
        match self.expr(s, pointer, NodePart::Value, Placement::Value) {
            Expr::Lit(l) => Node::Const(l.value),
            expr @ Expr::Call(_) => Node::Expr(Box::new(ExprNode {
                expr,
                pointer: pointer.into(),
                part: NodePart::Value,
                text_offset: self.text_offset(pointer, NodePart::Value),
                unescape_result: in_property,
            })),
        }
    }

    /// Parses an expression and reports its errors at `pointer`.
    fn expr(&mut self, text: &str, pointer: &str, part: NodePart, placement: Placement) -> Expr {
        let mut errs: Vec<ExprError> = Vec::new();
        let e = parse_call_or_literal(text, 0..text.len(), self.settings.escape_char, &mut errs, 0);
        if let Expr::Call(call) = &e
            && !call.func.placement.allows(placement)
        {
            errs.push(ExprError {
                kind: CompileErrorKind::Misplaced,
                message: format!(
                    "#{} cannot be used {}",
                    call.func.name,
                    placement.describe()
                ),
                help: Some(call.func.placement.hint().into()),
                span: call.span.clone(),
            });
        }
        // Nested calls may only be value functions.
        e.visit(&mut |sub| {
            if let Expr::Call(c) = sub
                && !std::ptr::eq(sub, &raw const e)
                && !c.func.placement.allows(Placement::Value)
            {
                errs.push(ExprError {
                    kind: CompileErrorKind::Misplaced,
                    message: format!("#{} cannot be used as an argument", c.func.name),
                    help: Some(c.func.placement.hint().into()),
                    span: c.span.clone(),
                });
            }
        });
        errs.sort_by_key(|e| e.span.start);
        for err in errs {
            self.error(err.kind, err.message, err.help, pointer, part, err.span);
        }
        e
    }

    fn array(&mut self, items: &Arc<Vec<Value>>, pointer: &str, depth: usize) -> Node {
        if self.too_deep(pointer, depth) {
            return Node::Const(Value::Null);
        }
        let nodes: Vec<Node> = items
            .iter()
            .enumerate()
            .map(|(i, v)| self.value(v, &child_pointer(pointer, &i.to_string()), depth, false))
            .collect();
        if nodes.iter().all(|n| matches!(n, Node::Const(_))) {
            // Nothing to evaluate: keep the template's own array, shared.
            return Node::Const(Value::Array(items.clone()));
        }
        Node::Array(nodes.into_boxed_slice())
    }

    fn object(&mut self, map: &Map, pointer: &str, depth: usize) -> Node {
        if self.too_deep(pointer, depth) {
            return Node::Const(Value::Null);
        }
        let mut props = Vec::with_capacity(map.len());
        let mut plain = true;
        let mut all_const = true;
        for (key, v) in map {
            let ptr = child_pointer(pointer, key);
            let prop = self.property(key, v, &ptr, depth);
            if let Prop::Value { value, .. } = &prop {
                all_const &= matches!(value, Node::Const(_));
            } else {
                plain = false;
                all_const = false;
            }
            props.push(prop);
        }
        if all_const {
            let folded: Map = props
                .into_iter()
                .filter_map(|p| match p {
                    Prop::Value {
                        key,
                        value: Node::Const(v),
                    } => Some((key, v)),
                    _ => None,
                })
                .collect();
            return Node::Const(Value::object(folded));
        }
        let keys: Arc<[Arc<str>]> = if plain {
            props
                .iter()
                .filter_map(|p| match p {
                    Prop::Value { key, .. } => Some(key.clone()),
                    _ => None,
                })
                .collect()
        } else {
            Arc::new([])
        };
        let key_texts = keys
            .iter()
            .enumerate()
            .map(|(i, key)| {
                let mut text = String::from(if i == 0 { "{" } else { "," });
                write_str(key, &mut text);
                text.push(':');
                text.into_boxed_str()
            })
            .collect();
        Node::Object(Box::new(ObjectNode {
            props,
            plain,
            // A template object's keys are those of a map: distinct.
            keys: Shape::of_distinct(keys),
            key_texts,
        }))
    }

    fn key_expr(&mut self, key: &str, pointer: &str, placement: Placement) -> ExprNode {
        ExprNode {
            expr: self.expr(key, pointer, NodePart::Key, placement),
            pointer: pointer.into(),
            part: NodePart::Key,
            text_offset: self.text_offset(pointer, NodePart::Key),
            unescape_result: false,
        }
    }

    fn property(&mut self, key: &Arc<str>, v: &Value, pointer: &str, depth: usize) -> Prop {
        if key.as_ref() == "#"
            && let Value::Array(ops) = v
        {
            return self.bulk(ops, pointer);
        }
        // `ParsePropertyFunction` recognises only the property functions in keys; any
        // other key, call-shaped or not, is literal.
        if let Some(form) = key_function_name(key).and_then(functions::key_form) {
            let value = self.value(v, pointer, depth, true);
            let call = self.key_expr(key, pointer, Placement::Key);
            return match form {
                KeyForm::IfGroup => Prop::IfGroup { cond: call, value },
                KeyForm::Loop => Prop::Loop { call, value },
                KeyForm::Eval => Prop::Eval { key: call, value },
                KeyForm::Scope => Prop::Scope { call, value },
            };
        }
        if let Some(name) = key_function_name(key)
            && functions::lookup(name).is_none()
            && let Some(best) = functions::did_you_mean_key(name)
        {
            // JUST keeps unknown function-like keys literal; a near miss of a property
            // function is far more likely a typo than an intended key.
            let start = key.find('#').map_or(0, |i| i + 1);
            self.error(
                CompileErrorKind::UnknownFunction,
                format!("unknown property function #{name}"),
                Some(format!("did you mean #{best}?")),
                pointer,
                NodePart::Key,
                start..start + name.len(),
            );
        }
        Prop::Value {
            key: key.clone(),
            value: self.value(v, pointer, depth, true),
        }
    }

    fn bulk(&mut self, ops: &Arc<Vec<Value>>, pointer: &str) -> Prop {
        let mut out = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            let ptr = child_pointer(pointer, &i.to_string());
            let Some(text) = op.as_str().filter(|s| s.trim_start().starts_with('#')) else {
                self.error(
                    CompileErrorKind::Misplaced,
                    "the \"#\" array may only hold #copy, #replace and #delete calls".into(),
                    Some("move other values out of the \"#\" array".into()),
                    &ptr,
                    NodePart::Value,
                    0..0,
                );
                continue;
            };
            let expr = self.expr(text, &ptr, NodePart::Value, Placement::Bulk);
            if matches!(expr, Expr::Lit(_)) {
                self.error(
                    CompileErrorKind::Misplaced,
                    format!("'{}' is not a call: the \"#\" array holds #copy, #replace and #delete calls", text.trim()),
                    None,
                    &ptr,
                    NodePart::Value,
                    0..text.len(),
                );
                continue;
            }
            out.push(ExprNode {
                expr,
                pointer: ptr.as_str().into(),
                part: NodePart::Value,
                text_offset: self.text_offset(&ptr, NodePart::Value),
                unescape_result: false,
            });
        }
        Prop::Bulk { ops: out }
    }
}

/// The function name of a key that has the shape of a call.
fn key_function_name(key: &str) -> Option<&str> {
    let t = key.trim();
    if !t.starts_with('#') || !t.ends_with(')') {
        return None;
    }
    let open = t.find('(')?;
    (open > 1).then(|| &t[1..open])
}
