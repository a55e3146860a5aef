//! A `textDocument/didOpen` frame that carries a large text, read without the copies a
//! generic reading makes.
//!
//! Read as a `serde_json::Value`, the text of a 13 MB description is decoded into `serde_json`'s
//! scratch buffer (grown by doubling, to 16 MiB) and copied from there into its `String`,
//! while the frame itself is still held: at that moment the server held three times the text,
//! the most it ever held, and reading that value as an `lsp_server::Message` (an untagged
//! enum, which serde reads through a buffered copy of the value) copied the text once more.
//! Here the frame is read with the text borrowed as raw JSON, the text is decoded once into a
//! string of its final size, and the notification is made directly.

use lsp_server::{Message, Notification};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use syncdef_definitions::load::json_escape;

/// Frames from this size are read here; smaller ones cost little either way.
pub const LARGE_FRAME: usize = 1 << 20;

#[derive(Deserialize)]
struct Frame<'a> {
    jsonrpc: &'a str,
    method: String,
    #[serde(borrow)]
    params: Params<'a>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow, rename = "textDocument")]
    text_document: Item<'a>,
}

#[derive(Deserialize)]
struct Item<'a> {
    uri: Value,
    #[serde(rename = "languageId")]
    language_id: Value,
    version: Value,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// The `didOpen` notification `body` holds: `None` when the body is anything else (the
/// generic reading then answers it).
pub fn read(body: &[u8]) -> Option<Message> {
    let frame: Frame<'_> = serde_json::from_slice(body).ok()?;
    if frame.method != "textDocument/didOpen" || frame.jsonrpc != "2.0" {
        return None;
    }
    let item = frame.params.text_document;
    let text = decode_string(item.text.get())?;
    let mut document = Map::new();
    document.insert("uri".into(), item.uri);
    document.insert("languageId".into(), item.language_id);
    document.insert("version".into(), item.version);
    document.insert("text".into(), Value::String(text));
    let mut params = Map::new();
    params.insert("textDocument".into(), Value::Object(document));
    Some(Message::Notification(Notification {
        method: frame.method,
        params: Value::Object(params),
    }))
}

/// The value of JSON string literal `raw` (quotes included), decoded into a string of its
/// exact size; `None` when `raw` is not a valid JSON string.
fn decode_string(raw: &str) -> Option<String> {
    let body = raw.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(decoded_len(bytes)?);
    let mut run = 0;
    while let Some(skip) = memchr::memchr(b'\\', &bytes[run..]) {
        let at = run + skip;
        out.push_str(&body[run..at]);
        let (c, next) = json_escape::decode(bytes, at).ok()?;
        out.push(c);
        run = next;
    }
    out.push_str(&body[run..]);
    Some(out)
}

/// The length `body` (a JSON string literal's content) decodes to, counted without decoding:
/// the text between escapes, and the bytes of each escape's character.
fn decoded_len(body: &[u8]) -> Option<usize> {
    let mut len = 0;
    let mut at = 0;
    while let Some(skip) = memchr::memchr(b'\\', &body[at..]) {
        let (c, next) = json_escape::decode(body, at + skip).ok()?;
        len += skip + c.len_utf8();
        at = next;
    }
    Some(len + body.len() - at)
}

#[cfg(test)]
mod tests {
    use lsp_server::Message;
    use proptest::prelude::*;
    use serde_json::json;

    use super::{decode_string, read};

    #[test]
    fn a_did_open_reads_as_the_generic_reading_reads_it() {
        let message = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {
                "uri": "file:///a.yaml", "languageId": "yaml", "version": 3,
                "text": "openapi: 3.0.3\n\t\"é\" \u{1F600} \\ /\u{0}",
            }},
        });
        let body = message.to_string();
        let Some(Message::Notification(read)) = read(body.as_bytes()) else {
            panic!("a notification");
        };
        assert_eq!(read.method, "textDocument/didOpen");
        assert_eq!(read.params, message["params"]);
    }

    #[test]
    fn anything_else_is_left_to_the_generic_reading() {
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {}});
        assert!(read(change.to_string().as_bytes()).is_none());
        assert!(read(b"{not json").is_none());
        assert_eq!(
            decode_string(r#""\ud83d\ude00 \u00e9""#).as_deref(),
            Some("\u{1F600} é")
        );
        assert_eq!(decode_string(r#""\x""#), None);
        assert_eq!(decode_string(r#""\ud800x""#), None);
        assert_eq!(decode_string(r#""\u12""#), None);
    }

    proptest! {
        #[test]
        fn strings_decode_as_serde_json_decodes_them(text in "\\PC{0,40}|[\\x00-\\x7f]{0,40}") {
            let raw = serde_json::to_string(&text).expect("a string serializes");
            let decoded = decode_string(&raw);
            prop_assert_eq!(decoded.as_ref().map(String::capacity), Some(text.len()));
            prop_assert_eq!(decoded, Some(text));
        }
    }
}
