//! An action's `target`: a JSONPath (RFC 9535) query, compiled by `jsonpath-rust`, run over
//! the document as the actions before it left it, answering the places it selects.

use jsonpath_rust::parser::errors::JsonPathError;
use jsonpath_rust::parser::model::JpQuery;
use serde_json::Value;

use super::draft::Step;

/// A compiled target.
pub(crate) struct Target(JpQuery);

/// Why a target does not compile: what the parser says and the byte of the expression where
/// it stopped, when it says.
pub(crate) struct TargetError {
    pub message: String,
    pub offset: Option<usize>,
}

impl Target {
    /// Compiles `expression`.
    pub fn parse(expression: &str) -> Result<Target, TargetError> {
        jsonpath_rust::parser::parse_json_path(expression)
            .map(Target)
            .map_err(|error| explain(expression, &error))
    }

    /// The places the target selects in `document`, in the order the query gives them; a
    /// place it cannot name is left out.
    pub fn select(&self, document: &Value) -> Vec<Vec<Step>> {
        match jsonpath_rust::query::js_path_process(&self.0, document) {
            Ok(found) => found
                .into_iter()
                .filter_map(|found| normalized_path(&found.path))
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// The message and position of a parse error.
fn explain(expression: &str, error: &JsonPathError) -> TargetError {
    match error {
        JsonPathError::PestError(pest) => {
            let offset = match pest.location {
                pest::error::InputLocation::Pos(at) | pest::error::InputLocation::Span((at, _)) => {
                    at
                }
            };
            let found = expression[offset.min(expression.len())..]
                .chars()
                .next()
                .map_or("the end of the expression".to_owned(), |c| format!("`{c}`"));
            let message = if offset == 0 && !expression.starts_with('$') {
                "a JSONPath starts with `$`, the document's root".to_owned()
            } else {
                format!("unexpected {found} at column {}", offset + 1)
            };
            TargetError {
                message,
                offset: Some(offset),
            }
        }
        other => TargetError {
            message: other.to_string(),
            offset: None,
        },
    }
}

/// The steps of a normalized path (RFC 9535, section 2.7), as the query writes them:
/// `$['paths']['/customer'][0]`.
fn normalized_path(path: &str) -> Option<Vec<Step>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        rest = rest.strip_prefix('[')?;
        if let Some(quoted) = rest.strip_prefix('\'') {
            let (name, after) = quoted_name(quoted)?;
            steps.push(Step::Name(name));
            rest = after.strip_prefix(']')?;
        } else {
            let end = rest.find(']')?;
            steps.push(Step::Index(rest[..end].parse().ok()?));
            rest = &rest[end + 1..];
        }
    }
    Some(steps)
}

/// A name selector's value up to its closing quote, and what follows the quote.
fn quoted_name(text: &str) -> Option<(String, &str)> {
    let mut name = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' => return Some((name, &text[at + 1..])),
            '\\' => {
                let (_, escaped) = chars.next()?;
                match escaped {
                    'b' => name.push('\u{8}'),
                    'f' => name.push('\u{c}'),
                    'n' => name.push('\n'),
                    'r' => name.push('\r'),
                    't' => name.push('\t'),
                    'u' => {
                        let hex: String = (0..4)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        name.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    other => name.push(other),
                }
            }
            c => name.push(c),
        }
    }
    None
}

/// The JSON value at `path` below `value`.
pub(crate) fn value_at<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter()
        .try_fold(value, |value, step| match (value, step) {
            (Value::Object(map), Step::Name(name)) => map.get_mut(name),
            (Value::Array(items), Step::Index(i)) => items.get_mut(*i),
            _ => None,
        })
}

/// [`super::draft::Draft::merge`] on the JSON value the queries read.
pub(crate) fn merge_value(target: &mut Value, update: Value) {
    let (Value::Object(members), Value::Object(added)) = (target, update) else {
        return;
    };
    for (name, value) in added {
        match members.get_mut(&name) {
            None => {
                members.insert(name, value);
            }
            Some(existing) => match (existing, value) {
                (existing @ Value::Object(_), value @ Value::Object(_)) => {
                    merge_value(existing, value);
                }
                (Value::Array(items), Value::Array(more)) => items.extend(more),
                (existing, value) => *existing = value,
            },
        }
    }
}

/// [`super::draft::Draft::remove`] on the JSON value the queries read.
pub(crate) fn remove_value(parent: &mut Value, step: &Step) {
    match (parent, step) {
        (Value::Object(map), Step::Name(name)) => {
            map.remove(name);
        }
        (Value::Array(items), Step::Index(i)) if *i < items.len() => {
            items.remove(*i);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn selected_places_are_steps() {
        let doc = json!({"paths": {"/a'b": {"get": {}}, "/c": {"get": {}}}, "tags": [1, 2]});
        let target = Target::parse("$.paths[*].get").ok().expect("compiles");
        assert_eq!(
            target.select(&doc),
            [
                vec![
                    Step::Name("paths".into()),
                    Step::Name("/a'b".into()),
                    Step::Name("get".into())
                ],
                vec![
                    Step::Name("paths".into()),
                    Step::Name("/c".into()),
                    Step::Name("get".into())
                ],
            ]
        );
        let target = Target::parse("$.tags[1]").ok().expect("compiles");
        assert_eq!(
            target.select(&doc),
            [vec![Step::Name("tags".into()), Step::Index(1)]]
        );
        assert_eq!(
            Target::parse("$").ok().expect("compiles").select(&doc),
            [Vec::<Step>::new()]
        );
    }

    #[test]
    fn a_bad_expression_says_where() {
        let error = Target::parse("$.paths[?@.x ==]").err().expect("refused");
        assert_eq!(error.offset, Some(15), "{}", error.message);
        let error = Target::parse("paths").err().expect("refused");
        assert_eq!(error.offset, Some(0));
        assert!(
            error.message.contains("starts with `$`"),
            "{}",
            error.message
        );
    }
}
