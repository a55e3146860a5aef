//! Operation references: `"/v3/company/{realmId}/customer/post"`, a path template followed by
//! a slash and a lower-case HTTP method, with placeholders in the path.

use std::fmt;
use std::ops::Range;

/// An HTTP method of an OpenAPI path item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HttpMethod {
    /// `get`
    Get,
    /// `put`
    Put,
    /// `post`
    Post,
    /// `delete`
    Delete,
    /// `options`
    Options,
    /// `head`
    Head,
    /// `patch`
    Patch,
    /// `trace`
    Trace,
}

impl HttpMethod {
    /// Every method, in the order OpenAPI lists them.
    pub const ALL: [HttpMethod; 8] = [
        HttpMethod::Get,
        HttpMethod::Put,
        HttpMethod::Post,
        HttpMethod::Delete,
        HttpMethod::Options,
        HttpMethod::Head,
        HttpMethod::Patch,
        HttpMethod::Trace,
    ];

    /// The lower-case name, as OpenAPI path items and operation references write it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "get",
            HttpMethod::Put => "put",
            HttpMethod::Post => "post",
            HttpMethod::Delete => "delete",
            HttpMethod::Options => "options",
            HttpMethod::Head => "head",
            HttpMethod::Patch => "patch",
            HttpMethod::Trace => "trace",
        }
    }

    /// The upper-case name, as a request line carries it.
    #[must_use]
    pub fn as_upper_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Put => "PUT",
            HttpMethod::Post => "POST",
            HttpMethod::Delete => "DELETE",
            HttpMethod::Options => "OPTIONS",
            HttpMethod::Head => "HEAD",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Trace => "TRACE",
        }
    }

    /// The method named exactly `name` (lower case).
    #[must_use]
    pub fn from_lower(name: &str) -> Option<HttpMethod> {
        HttpMethod::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `{...}` placeholder in an operation reference's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The text between the braces.
    pub name: String,
    /// What it stands for.
    pub kind: PlaceholderKind,
    /// Byte range in the reference text, braces included.
    pub range: Range<usize>,
}

/// What a placeholder stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceholderKind {
    /// `{IntegrationId}`: the external id of the record being synchronized.
    IntegrationId,
    /// `{Account.IntegrationId}`, `{<Entry>.IntegrationId}`: the external id of a related
    /// record of another entry.
    EntryIntegrationId {
        /// The entry named before the dot.
        entry: String,
    },
    /// Any other name: a server variable if one is declared with that name (the validator
    /// checks it).
    Name,
}

/// A well-formed operation reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperationRef {
    /// The path template, without the method (`/v3/company/{realmId}/customer`).
    pub path: String,
    /// The method.
    pub method: HttpMethod,
    /// Byte range of the method in the reference text.
    pub method_range: Range<usize>,
    /// The placeholders of the path, in order.
    pub placeholders: Vec<Placeholder>,
}

/// Why an operation reference is malformed. Stable: the validator reports each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OperationRefErrorKind {
    /// The reference is empty.
    Empty,
    /// No `/method` at the end.
    MissingMethod,
    /// The last segment is not an HTTP method.
    UnknownMethod,
    /// The method is written in upper or mixed case.
    UpperCaseMethod,
    /// Nothing before the method.
    EmptyPath,
    /// The path does not start with `/`.
    RelativePath,
    /// A `{` without its `}`, or a `}` without its `{`.
    UnbalancedBrace,
    /// `{}`.
    EmptyPlaceholder,
}

/// A malformed operation reference: what, where in the text, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperationRefError {
    /// What is wrong.
    pub kind: OperationRefErrorKind,
    /// Byte range in the reference text at fault.
    pub range: Range<usize>,
    /// The message.
    pub message: String,
    /// What to do.
    pub help: String,
}

impl fmt::Display for OperationRefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OperationRefError {}

impl OperationRef {
    /// Parses `text`, splitting at the last `/` into the path template and the method.
    ///
    /// # Errors
    /// An [`OperationRefError`] locating the first problem inside `text`.
    pub fn parse(text: &str) -> Result<OperationRef, OperationRefError> {
        const FORM: &str = "write the path followed by a slash and the lower-case method, e.g. `/v3/company/{realmId}/customer/post`";
        let err = |kind, range: Range<usize>, message: String, help: &str| OperationRefError {
            kind,
            range,
            message,
            help: help.to_owned(),
        };
        if text.trim().is_empty() {
            return Err(err(
                OperationRefErrorKind::Empty,
                0..text.len(),
                "the operation reference is empty".into(),
                FORM,
            ));
        }
        let Some(slash) = text.rfind('/') else {
            return Err(err(
                OperationRefErrorKind::MissingMethod,
                0..text.len(),
                format!("`{text}` has no `/method` at its end"),
                FORM,
            ));
        };
        let method_text = &text[slash + 1..];
        let method_range = slash + 1..text.len();
        if method_text.is_empty() {
            return Err(err(
                OperationRefErrorKind::MissingMethod,
                slash..text.len(),
                format!("`{text}` ends with `/` but names no method"),
                FORM,
            ));
        }
        let Some(method) = HttpMethod::from_lower(method_text) else {
            if let Some(m) = HttpMethod::from_lower(&method_text.to_ascii_lowercase()) {
                return Err(err(
                    OperationRefErrorKind::UpperCaseMethod,
                    method_range,
                    format!("the method `{method_text}` must be lower case"),
                    &format!("write `{}`", m.as_str()),
                ));
            }
            let kind = if method_text.contains('}') || text[..slash].is_empty() {
                OperationRefErrorKind::MissingMethod
            } else {
                OperationRefErrorKind::UnknownMethod
            };
            return Err(err(
                kind,
                method_range,
                format!("`{method_text}` is not an HTTP method"),
                "end the reference with one of /get, /put, /post, /delete, /patch, /head, /options, /trace",
            ));
        };
        let path = &text[..slash];
        if path.is_empty() {
            return Err(err(
                OperationRefErrorKind::EmptyPath,
                0..slash + 1,
                format!("`{text}` has a method but no path"),
                FORM,
            ));
        }
        if !path.starts_with('/') {
            return Err(err(
                OperationRefErrorKind::RelativePath,
                0..1,
                format!("the path `{path}` must start with `/`"),
                "write the path as it appears under `paths`, starting with `/`",
            ));
        }
        let placeholders = placeholders(path)?;
        Ok(OperationRef {
            path: path.to_owned(),
            method,
            method_range,
            placeholders,
        })
    }
}

/// The `{...}` placeholders of a path, checked for balance.
fn placeholders(path: &str) -> Result<Vec<Placeholder>, OperationRefError> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let unbalanced = |i: usize, c: char| OperationRefError {
        kind: OperationRefErrorKind::UnbalancedBrace,
        range: i..i + 1,
        message: format!("unbalanced `{c}` in the path"),
        help: "write each placeholder as `{Name}`, with one `{` and one `}`".into(),
    };
    for (i, c) in path.char_indices() {
        match c {
            '{' if open.is_some() => return Err(unbalanced(i, c)),
            '{' => open = Some(i),
            '}' => {
                let Some(start) = open.take() else {
                    return Err(unbalanced(i, c));
                };
                let name = &path[start + 1..i];
                if name.trim().is_empty() {
                    return Err(OperationRefError {
                        kind: OperationRefErrorKind::EmptyPlaceholder,
                        range: start..i + 1,
                        message: "empty placeholder `{}`".into(),
                        help: "name what fills it, e.g. `{IntegrationId}` or a server variable"
                            .into(),
                    });
                }
                out.push(Placeholder {
                    name: name.to_owned(),
                    kind: placeholder_kind(name),
                    range: start..i + 1,
                });
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        return Err(OperationRefError {
            kind: OperationRefErrorKind::UnbalancedBrace,
            range: start..path.len(),
            message: "a `{` in the path is never closed".into(),
            help: "close the placeholder with `}`".into(),
        });
    }
    Ok(out)
}

fn placeholder_kind(name: &str) -> PlaceholderKind {
    match name.split_once('.') {
        None if name == "IntegrationId" => PlaceholderKind::IntegrationId,
        Some((entry, "IntegrationId")) if !entry.is_empty() => {
            PlaceholderKind::EntryIntegrationId {
                entry: entry.to_owned(),
            }
        }
        _ => PlaceholderKind::Name,
    }
}

impl fmt::Display for OperationRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.path, self.method)
    }
}
