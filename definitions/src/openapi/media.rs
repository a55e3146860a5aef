//! Media type names, and the one a request body is written in.
//!
//! An operation's `requestBody.content` may list several media types. The engine writes a body
//! in one of three ways ([`BodyEncoding`]); which media type it writes is chosen here, once, so
//! that the engine's request, the linter's body checks (SD802, SD814, SD815) and the request
//! body schema they all validate against agree. A media type is compared by its essence
//! (`type/subtype`, lower-cased, parameters such as `; charset=utf-8` set aside).

use crate::node::Node;

use super::operation::MediaType;
use super::resolve;

/// How the engine writes a request body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyEncoding {
    /// JSON text: `application/json`, a `+json` type (`application/merge-patch+json`), `text/json`.
    Json,
    /// `application/x-www-form-urlencoded`: `name=value` pairs, nested values with brackets.
    Form,
    /// `multipart/form-data`: one part per member.
    Multipart,
}

impl BodyEncoding {
    /// The encoding a media type is written with; `None` for one the engine does not write
    /// (`text/plain`, `application/xml`, a wildcard).
    #[must_use]
    pub fn of(media_type: &str) -> Option<BodyEncoding> {
        let essence = essence(media_type);
        if is_json_essence(&essence) {
            Some(BodyEncoding::Json)
        } else if essence == "application/x-www-form-urlencoded" {
            Some(BodyEncoding::Form)
        } else if essence == "multipart/form-data" {
            Some(BodyEncoding::Multipart)
        } else {
            None
        }
    }

    /// Whether the body must be an object (form fields and parts are its members).
    #[must_use]
    pub fn needs_object(self) -> bool {
        !matches!(self, BodyEncoding::Json)
    }
}

/// The media types the engine writes, as messages name them.
pub const WRITTEN_MEDIA_TYPES: &str = "JSON (`application/json` or a `+json` type), `application/x-www-form-urlencoded` and `multipart/form-data`";

/// `type/subtype` of a media type, lower-cased, without parameters or surrounding blanks.
#[must_use]
pub fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether a media type is JSON: `application/json`, a structured `+json` type, or the
/// older `text/json` and `application/x-json`, whatever its parameters.
#[must_use]
pub fn is_json(media_type: &str) -> bool {
    is_json_essence(&essence(media_type))
}

fn is_json_essence(essence: &str) -> bool {
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind != "*"
        && (subtype == "json" || subtype == "x-json" || subtype.ends_with("+json"))
        && !subtype.contains('*')
}

/// The media type a request body is written in, and how.
#[derive(Clone, Copy, Debug)]
pub struct RequestMedia<'d> {
    /// The media type object chosen, with its name as written.
    pub media: MediaType<'d>,
    /// How the body is written.
    pub encoding: BodyEncoding,
}

/// What an operation's request body offers the engine.
#[derive(Clone, Debug)]
pub enum MediaChoice<'d> {
    /// The media type the body is written in.
    Chosen(RequestMedia<'d>),
    /// The request body lists media types, none of which the engine writes.
    Unwritable {
        /// The media types declared, as written.
        declared: Vec<&'d str>,
    },
    /// The definition asks for a media type the operation does not declare.
    NotDeclared {
        /// The media type asked for.
        preferred: String,
        /// The media types declared, as written.
        declared: Vec<&'d str>,
    },
}

/// The media type the engine writes the request body of `operation` (an operation object of
/// document `root`) in: `preferred` when the definition names one (`x-syncdef.requestMediaType`,
/// compared by essence), else JSON, else `application/x-www-form-urlencoded`, else
/// `multipart/form-data`, each the first declared of its kind. `None` when the operation
/// declares no request body media type at all.
#[must_use]
pub fn request_media<'d>(
    root: Node<'d>,
    operation: Node<'d>,
    preferred: Option<&str>,
) -> Option<MediaChoice<'d>> {
    let content = resolve(root, operation.get("requestBody"))?
        .get("content")?
        .as_object()?;
    if content.is_empty() {
        return None;
    }
    let declared: Vec<&'d str> = content.iter().map(|m| m.key.name).collect();
    let chosen = |name: &'d str, node: Node<'d>, encoding| {
        MediaChoice::Chosen(RequestMedia {
            media: MediaType {
                name,
                schema: node.get("schema"),
                node,
            },
            encoding,
        })
    };
    if let Some(preferred) = preferred {
        let wanted = essence(preferred);
        let found = content.iter().find(|m| essence(m.key.name) == wanted);
        return Some(match found {
            Some(m) => match BodyEncoding::of(m.key.name) {
                Some(encoding) => chosen(m.key.name, m.value, encoding),
                None => MediaChoice::Unwritable { declared },
            },
            None => MediaChoice::NotDeclared {
                preferred: preferred.to_owned(),
                declared,
            },
        });
    }
    for wanted in [
        BodyEncoding::Json,
        BodyEncoding::Form,
        BodyEncoding::Multipart,
    ] {
        // `application/json` itself before other JSON types, as `json_content` reads them.
        let exact = (wanted == BodyEncoding::Json)
            .then(|| {
                content
                    .iter()
                    .find(|m| essence(m.key.name) == "application/json")
            })
            .flatten();
        let found = exact.or_else(|| {
            content
                .iter()
                .find(|m| BodyEncoding::of(m.key.name) == Some(wanted))
        });
        if let Some(m) = found {
            return Some(chosen(m.key.name, m.value, wanted));
        }
    }
    Some(MediaChoice::Unwritable { declared })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Definition, SourceFile};

    #[test]
    fn media_types_are_compared_by_their_essence() {
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            " Application/JSON ;charset=UTF-8",
            "application/merge-patch+json",
            "application/vnd.api+json; version=2",
            "text/json",
        ] {
            assert_eq!(BodyEncoding::of(json), Some(BodyEncoding::Json), "{json}");
            assert!(is_json(json), "{json}");
        }
        for other in [
            "text/plain",
            "application/xml",
            "application/x-ndjson",
            "*/*",
            "application/*+json",
            "application/jsonl",
        ] {
            assert!(!is_json(other), "{other}");
        }
        assert_eq!(
            BodyEncoding::of("application/x-www-form-urlencoded; charset=utf-8"),
            Some(BodyEncoding::Form)
        );
        assert_eq!(
            BodyEncoding::of("multipart/form-data"),
            Some(BodyEncoding::Multipart)
        );
        assert_eq!(BodyEncoding::of("text/plain"), None);
    }

    fn choice(content: &str, preferred: Option<&str>) -> Option<String> {
        let text = format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    post:\n      requestBody:\n        content:\n{content}      responses: {{'200': {{description: ok}}}}\n"
        );
        let def = Definition::load(SourceFile::new("d.yaml", text)).expect("loads");
        let op = def.root().pointer("/paths/~1a/post").expect("operation");
        request_media(def.root(), op, preferred).map(|c| match c {
            MediaChoice::Chosen(m) => format!("{} {:?}", m.media.name, m.encoding),
            MediaChoice::Unwritable { declared } => format!("unwritable {declared:?}"),
            MediaChoice::NotDeclared {
                preferred,
                declared,
            } => {
                format!("not declared {preferred} {declared:?}")
            }
        })
    }

    #[test]
    fn json_is_chosen_first_then_form_then_multipart() {
        let all = "          multipart/form-data: {}\n          application/x-www-form-urlencoded: {}\n          application/vnd.x+json: {}\n          application/json; charset=utf-8: {}\n";
        assert_eq!(
            choice(all, None).as_deref(),
            Some("application/json; charset=utf-8 Json")
        );
        let forms =
            "          multipart/form-data: {}\n          application/x-www-form-urlencoded: {}\n";
        assert_eq!(
            choice(forms, None).as_deref(),
            Some("application/x-www-form-urlencoded Form")
        );
        assert_eq!(
            choice(
                "          text/plain: {}\n          multipart/form-data: {}\n",
                None
            )
            .as_deref(),
            Some("multipart/form-data Multipart")
        );
        assert_eq!(
            choice(
                "          text/plain: {}\n          application/xml: {}\n",
                None
            )
            .as_deref(),
            Some("unwritable [\"text/plain\", \"application/xml\"]")
        );
    }

    #[test]
    fn the_definition_may_prefer_another_declared_media_type() {
        let both =
            "          application/json: {}\n          application/x-www-form-urlencoded: {}\n";
        assert_eq!(
            choice(both, Some("Application/X-WWW-Form-Urlencoded")).as_deref(),
            Some("application/x-www-form-urlencoded Form")
        );
        assert_eq!(
            choice(both, Some("multipart/form-data")).as_deref(),
            Some(
                "not declared multipart/form-data [\"application/json\", \"application/x-www-form-urlencoded\"]"
            )
        );
        assert_eq!(
            choice("          text/plain: {}\n", Some("text/plain")).as_deref(),
            Some("unwritable [\"text/plain\"]")
        );
    }
}
