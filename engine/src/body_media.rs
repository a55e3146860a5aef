//! A request body written in the media type its operation declares: JSON as the template
//! renders it, a form (`application/x-www-form-urlencoded`) or a multipart body
//! (`multipart/form-data`) from the fields of that JSON value. Which media type, and which
//! fields, is `syncdef_definitions::openapi` (`request_media`, `FieldLayout`), the same reading
//! the linter's SD802, SD814 and SD815 make; this file writes the bytes.
//!
//! The multipart body is written here rather than with reqwest's `multipart::Form`, which picks
//! a random boundary for each request: the bytes would differ between two pushes of the same
//! record (the idempotency key is derived from them) and between a dry-run and the push it
//! shows, and the transport, which takes the body as bytes, would have to know about forms.
//! The boundary is derived from the parts instead, so the same fields always give the same
//! bytes.

use std::sync::Arc;

use bytes::Bytes;
use sha2::{Digest, Sha256};
use syncdef_definitions::Node;
use syncdef_definitions::openapi::{
    BodyEncoding, Field, FieldLayout, MediaChoice, Unwritable, WRITTEN_MEDIA_TYPES, request_media,
};

/// The media type JSON bodies are sent as when the operation declares none.
const JSON: &str = "application/json";

/// How the bodies of one call are written.
#[derive(Debug)]
pub(crate) struct BodyMedia {
    /// The `Content-Type` of a JSON or form body, the media type as the operation declares it
    /// (`application/json; charset=utf-8`); a multipart body adds its boundary.
    content_type: Arc<str>,
    /// The fields of a form or multipart body; `None` for JSON.
    layout: Option<FieldLayout>,
}

/// A body as it is sent.
pub(crate) struct Written {
    pub bytes: Bytes,
    /// Its `Content-Type`, when it is not the `application/json` every request with a body
    /// carries by default.
    pub content_type: Option<Arc<str>>,
}

impl BodyMedia {
    /// JSON, `application/json`: the bodies of an operation that declares no media type.
    pub fn json() -> BodyMedia {
        BodyMedia {
            content_type: Arc::from(JSON),
            layout: None,
        }
    }

    /// How the request bodies of `operation` (of document `root`) are written: in the media
    /// type `preferred` names (`x-syncdef.requestMediaType`), else the one the engine chooses.
    ///
    /// # Errors
    /// Why none can be: the operation declares no media type the engine writes, or not the
    /// preferred one.
    pub fn of(
        root: Node<'_>,
        operation: Node<'_>,
        preferred: Option<&str>,
    ) -> Result<Self, String> {
        let listed = |declared: &[&str]| {
            declared
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match request_media(root, operation, preferred) {
            None => Ok(BodyMedia::json()),
            Some(MediaChoice::Chosen(media)) => Ok(BodyMedia {
                content_type: Arc::from(match media.encoding {
                    BodyEncoding::Multipart => "multipart/form-data",
                    BodyEncoding::Json | BodyEncoding::Form => media.media.name.trim(),
                }),
                layout: FieldLayout::of(&media),
            }),
            Some(MediaChoice::Unwritable { declared }) => Err(format!(
                "it is declared as {} only, and the engine writes {WRITTEN_MEDIA_TYPES}",
                listed(&declared)
            )),
            Some(MediaChoice::NotDeclared {
                preferred,
                declared,
            }) => Err(format!(
                "`x-syncdef.requestMediaType` names `{preferred}`, and it is declared as {} only",
                listed(&declared)
            )),
        }
    }

    /// The media type bodies are written as, for messages.
    pub fn name(&self) -> &str {
        &self.content_type
    }

    /// The body whose JSON text (as the template wrote it) is `json`, in this media type.
    ///
    /// # Errors
    /// The value the media type cannot hold (a form body that is not an object, ...).
    pub fn write(&self, json: &Bytes) -> Result<Written, Unwritable> {
        let own_type = || (*self.content_type != *JSON).then(|| Arc::clone(&self.content_type));
        let Some(layout) = &self.layout else {
            return Ok(Written {
                bytes: json.clone(),
                content_type: own_type(),
            });
        };
        let text = std::str::from_utf8(json).map_err(|e| Unwritable {
            pointer: String::new(),
            reason: format!("the body is not UTF-8 text ({e})"),
        })?;
        let fields = layout.fields(text)?;
        if layout.is_multipart() {
            let (boundary, bytes) = multipart(&fields);
            let content_type = format!("{}; boundary={boundary}", self.content_type);
            return Ok(Written {
                bytes: Bytes::from(bytes),
                content_type: Some(Arc::from(content_type)),
            });
        }
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        for field in &fields {
            form.append_pair(&field.name, &field.value);
        }
        Ok(Written {
            bytes: Bytes::from(form.finish()),
            content_type: own_type(),
        })
    }
}

/// A `multipart/form-data` body of `fields` (RFC 7578), and its boundary.
fn multipart(fields: &[Field]) -> (String, Vec<u8>) {
    let boundary = boundary(fields);
    let mut out = Vec::with_capacity(
        fields
            .iter()
            .map(|f| f.name.len() + f.value.len() + 96)
            .sum(),
    );
    for field in fields {
        out.extend_from_slice(b"--");
        out.extend_from_slice(boundary.as_bytes());
        out.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"");
        out.extend_from_slice(quoted_name(&field.name).as_bytes());
        out.extend_from_slice(b"\"\r\n");
        if let Some(content_type) = &field.content_type {
            out.extend_from_slice(b"Content-Type: ");
            out.extend_from_slice(content_type.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(field.value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"--");
    out.extend_from_slice(boundary.as_bytes());
    out.extend_from_slice(b"--\r\n");
    (boundary, out)
}

/// A boundary derived from the parts, so that the same fields always give the same body, and
/// found in none of them (hashed again with a counter in the unlikely case it is).
fn boundary(fields: &[Field]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut round: u64 = 0;
    loop {
        let mut hash = Sha256::new();
        hash.update(round.to_le_bytes());
        for field in fields {
            for part in [field.name.as_bytes(), field.value.as_bytes()] {
                hash.update((part.len() as u64).to_le_bytes());
                hash.update(part);
            }
        }
        let mut boundary = String::from("syncdef-");
        for b in &hash.finalize()[..12] {
            boundary.push(char::from(DIGITS[usize::from(b >> 4)]));
            boundary.push(char::from(DIGITS[usize::from(b & 0x0f)]));
        }
        // 96 bits of hash: a part holding the boundary is an accident of one in 2^96 per
        // position, so this ends at the first or second round.
        let found = fields
            .iter()
            .any(|f| f.value.contains(&boundary) || f.name.contains(&boundary));
        if !found {
            return boundary;
        }
        round += 1;
    }
}

/// A field name inside `name="…"`: quote, carriage return and line feed percent-encoded, as
/// the HTML standard's form submission writes them.
fn quoted_name(name: &str) -> String {
    name.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, value: &str, content_type: Option<&str>) -> Field {
        Field {
            name: name.to_owned(),
            value: value.to_owned(),
            content_type: content_type.map(str::to_owned),
        }
    }

    #[test]
    fn a_multipart_body_is_the_same_for_the_same_fields() {
        let fields = [
            field("name", "Ann \"A\"", None),
            field("we\"ird\r\n", "x", None),
            field("address", "{\"city\":\"Oslo\"}", Some("application/json")),
        ];
        let (boundary, body) = multipart(&fields);
        assert_eq!(multipart(&fields), (boundary.clone(), body.clone()));
        assert!(boundary.starts_with("syncdef-") && boundary.len() == 32);
        let text = String::from_utf8(body).unwrap();
        assert_eq!(
            text,
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn \"A\"\r\n\
                 --{boundary}\r\nContent-Disposition: form-data; name=\"we%22ird%0D%0A\"\r\n\r\nx\r\n\
                 --{boundary}\r\nContent-Disposition: form-data; name=\"address\"\r\nContent-Type: application/json\r\n\r\n{{\"city\":\"Oslo\"}}\r\n\
                 --{boundary}--\r\n"
            )
        );
        let other = multipart(&[field("name", "Bob", None)]).0;
        assert_ne!(other, boundary);
    }

    #[test]
    fn the_boundary_is_in_no_part() {
        let first = boundary(&[field("a", "b", None)]);
        let holding = [field("a", &format!("x{first}y"), None)];
        assert!(!holding[0].value.contains(boundary(&holding).as_str()));
    }
}
