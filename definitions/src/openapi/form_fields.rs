//! The fields of a form (`application/x-www-form-urlencoded`) or multipart
//! (`multipart/form-data`) request body: what the engine writes, and the linter checks, from the
//! JSON value a request template renders.
//!
//! OpenAPI 3.0 describes such a body with a schema of the value before it is serialized, and an
//! `encoding` map saying how each top-level property is written: `style` (`form`,
//! `spaceDelimited`, `pipeDelimited`, `deepObject`) and `explode` for forms, `contentType` for
//! both. A property the map does not name is written with the bracket convention Stripe and
//! the query-string parsers of Rails, PHP and `qs` read: `metadata[key]=v`,
//! `items[0][price]=p`. OpenAPI's own default (`form`, exploded) writes the members of an
//! object as top-level fields, losing the property's name, and has no form for an array of
//! objects; the bracket convention is total. Decisions the format leaves open:
//!
//! - `null` writes nothing, at any depth (an array keeps the positions of the other items):
//!   Stripe reads an empty value as "unset this field", so writing `null` as `""` would clear
//!   what a template only did not mention. A template that means to clear writes `""`.
//! - booleans are `true` and `false`; numbers are the JSON text the template writes (`2.10`);
//!   strings are their text, unquoted;
//! - an empty object or array writes nothing;
//! - in a multipart body each member is a part: a scalar as text, an object (or any value whose
//!   `contentType` is JSON) as JSON text (`application/json`, OpenAPI's default for objects),
//!   an array one part per item;
//! - `allowReserved` and an encoding's `headers` are not applied: values are always
//!   percent-encoded whole, and parts carry only their name and content type.

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::node::Node;

use super::media::{BodyEncoding, RequestMedia, is_json};

/// How one field is written (a top-level property's `encoding`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FieldEncoding {
    style: Style,
    explode: bool,
    /// `contentType`, the first when it lists several.
    content_type: Option<String>,
}

/// A form field's style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// The bracket convention (no `encoding` for the property, or `style: deepObject`).
    Brackets,
    /// `form`: comma-separated, or repeated fields when exploded.
    Form,
    /// `spaceDelimited`.
    Space,
    /// `pipeDelimited`.
    Pipe,
    /// A style no form field takes (`matrix`, `label`, `simple`): the property is not written.
    Unknown,
}

/// How a body of one media type is laid out into fields. Owned: the engine keeps one per call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    encoding: BodyEncoding,
    /// `encoding`, by property name, in document order.
    properties: Vec<(String, FieldEncoding, String)>,
}

/// One field of a form, or one part of a multipart body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name (`metadata[key]`), unencoded.
    pub name: String,
    /// Its value, unencoded.
    pub value: String,
    /// A part's `Content-Type` (multipart only): `None` for text.
    pub content_type: Option<String>,
}

/// Why a rendered body cannot be written in its media type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable {
    /// Where in the body (RFC 6901 JSON pointer, `""` for the body itself).
    pub pointer: String,
    /// What cannot be written, and how it could be.
    pub reason: String,
}

impl FieldLayout {
    /// The layout of bodies written as `media`; `None` for JSON, which has no fields.
    #[must_use]
    pub fn of(media: &RequestMedia<'_>) -> Option<FieldLayout> {
        if media.encoding == BodyEncoding::Json {
            return None;
        }
        let properties = super::members(media.media.node.get("encoding"))
            .map(|m| {
                let (encoding, style) = field_encoding(m.value);
                (m.key.name.to_owned(), encoding, style)
            })
            .collect();
        Some(FieldLayout {
            encoding: media.encoding,
            properties,
        })
    }

    /// Whether the fields are parts of a multipart body.
    #[must_use]
    pub fn is_multipart(&self) -> bool {
        self.encoding == BodyEncoding::Multipart
    }

    /// The fields of the body whose JSON text is `json`, in the order its members are written.
    ///
    /// # Errors
    /// The first value the media type cannot hold: a body that is not an object, a nested
    /// value under a `style` that has no form for it, a property of an unknown style, an
    /// object or array under a `contentType` that is not JSON.
    pub fn fields(&self, json: &str) -> Result<Vec<Field>, Unwritable> {
        let unreadable = |e: serde_json::Error| Unwritable {
            pointer: String::new(),
            reason: format!("the body is not JSON ({e})"),
        };
        let raw: &RawValue = serde_json::from_str(json).map_err(unreadable)?;
        let Json::Object(members) = read(raw).map_err(unreadable)? else {
            return Err(Unwritable {
                pointer: String::new(),
                reason: format!(
                    "the body is {}, and the fields of {} are the members of an object: write an object",
                    read(raw).map_err(unreadable)?.a_kind(),
                    self.media_name()
                ),
            });
        };
        let mut out = Vec::new();
        for (name, value) in members {
            let pointer = format!("/{}", escape(&name));
            let encoding = self.properties.iter().find(|(p, _, _)| *p == name);
            if self.is_multipart() {
                part(
                    &mut out,
                    &name,
                    value,
                    encoding.map(|(_, e, _)| e),
                    &pointer,
                )?;
            } else {
                form_field(&mut out, &name, value, encoding, &pointer)?;
            }
        }
        Ok(out)
    }

    fn media_name(&self) -> &'static str {
        if self.is_multipart() {
            "`multipart/form-data`"
        } else {
            "`application/x-www-form-urlencoded`"
        }
    }
}

/// A property's `encoding` object read, with its `style` as written (for messages).
fn field_encoding(node: Node<'_>) -> (FieldEncoding, String) {
    let written = node.get("style").and_then(Node::as_str).unwrap_or("form");
    let style = match written {
        "form" => Style::Form,
        "spaceDelimited" => Style::Space,
        "pipeDelimited" => Style::Pipe,
        "deepObject" => Style::Brackets,
        _ => Style::Unknown,
    };
    let explode = node
        .get("explode")
        .and_then(Node::as_bool)
        // OpenAPI 3.0: `explode` defaults to true for `form`, false for the other styles.
        .unwrap_or(style == Style::Form);
    let content_type = node
        .get("contentType")
        .and_then(Node::as_str)
        .and_then(|t| t.split(',').next())
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    let encoding = FieldEncoding {
        style,
        explode,
        content_type,
    };
    (encoding, written.to_owned())
}

/// The fields one top-level member of a form writes.
fn form_field(
    out: &mut Vec<Field>,
    name: &str,
    value: &RawValue,
    encoding: Option<&(String, FieldEncoding, String)>,
    pointer: &str,
) -> Result<(), Unwritable> {
    let Some((_, encoding, written)) = encoding else {
        return brackets(out, name.to_owned(), value, pointer);
    };
    if encoding.content_type.as_deref().is_some_and(is_json) {
        if !matches!(read_at(value, pointer)?, Json::Null) {
            out.push(text(name.to_owned(), value.get().to_owned()));
        }
        return Ok(());
    }
    let separator = match encoding.style {
        Style::Brackets => return brackets(out, name.to_owned(), value, pointer),
        Style::Unknown => {
            return Err(Unwritable {
                pointer: pointer.to_owned(),
                reason: format!(
                    "the `encoding` of `{name}` has `style: {written}`, which no form field takes; use `form`, `spaceDelimited`, `pipeDelimited` or `deepObject`"
                ),
            });
        }
        Style::Form => ",",
        Style::Space => " ",
        Style::Pipe => "|",
    };
    // The pairs a flat style writes: an array's items, or an object's names and values.
    let (pairs, object) = match read_at(value, pointer)? {
        Json::Null => return Ok(()),
        Json::Scalar(s) => {
            out.push(text(name.to_owned(), s));
            return Ok(());
        }
        Json::Array(items) => (
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| (i.to_string(), item))
                .collect::<Vec<_>>(),
            false,
        ),
        Json::Object(members) => (members, true),
    };
    let mut flat: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (key, item) in pairs {
        let at = format!("{pointer}/{}", escape(&key));
        match read_at(item, &at)? {
            Json::Null => {}
            Json::Scalar(s) => flat.push((key, s)),
            nested => {
                return Err(Unwritable {
                    pointer: at,
                    reason: format!(
                        "`{name}` is written with `style: {written}`, which has no form for {} inside it; give `{name}` `style: deepObject` (brackets) or a JSON `contentType`",
                        nested.a_kind()
                    ),
                });
            }
        }
    }
    match (encoding.explode, object) {
        (true, true) => out.extend(flat.into_iter().map(|(k, v)| text(k, v))),
        (true, false) => out.extend(flat.into_iter().map(|(_, v)| text(name.to_owned(), v))),
        (false, object) if !flat.is_empty() => {
            let joined: Vec<String> = flat
                .into_iter()
                .flat_map(|(k, v)| if object { vec![k, v] } else { vec![v] })
                .collect();
            out.push(text(name.to_owned(), joined.join(separator)));
        }
        (false, _) => {}
    }
    Ok(())
}

/// The bracket convention: `name[key]` for an object's members, `name[i]` for an array's
/// items, as deep as the value goes.
fn brackets(
    out: &mut Vec<Field>,
    name: String,
    value: &RawValue,
    pointer: &str,
) -> Result<(), Unwritable> {
    match read_at(value, pointer)? {
        Json::Null => {}
        Json::Scalar(s) => out.push(text(name, s)),
        Json::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                brackets(out, format!("{name}[{i}]"), item, &format!("{pointer}/{i}"))?;
            }
        }
        Json::Object(members) => {
            for (key, item) in members {
                let at = format!("{pointer}/{}", escape(&key));
                brackets(out, format!("{name}[{key}]"), item, &at)?;
            }
        }
    }
    Ok(())
}

/// The parts one top-level member of a multipart body writes.
fn part(
    out: &mut Vec<Field>,
    name: &str,
    value: &RawValue,
    encoding: Option<&FieldEncoding>,
    pointer: &str,
) -> Result<(), Unwritable> {
    let declared = encoding.and_then(|e| e.content_type.clone());
    let as_json = declared.as_deref().is_some_and(is_json);
    let json_part = |raw: &RawValue| Field {
        name: name.to_owned(),
        value: raw.get().to_owned(),
        content_type: Some(
            declared
                .clone()
                .unwrap_or_else(|| "application/json".to_owned()),
        ),
    };
    match read_at(value, pointer)? {
        Json::Null => {}
        _ if as_json => out.push(json_part(value)),
        Json::Scalar(s) => out.push(Field {
            name: name.to_owned(),
            value: s,
            content_type: declared.clone(),
        }),
        Json::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                let at = format!("{pointer}/{i}");
                match read_at(item, &at)? {
                    Json::Null => {}
                    Json::Scalar(s) => out.push(Field {
                        name: name.to_owned(),
                        value: s,
                        content_type: declared.clone(),
                    }),
                    nested => {
                        not_json_part(declared.as_deref(), name, &nested, &at)?;
                        out.push(json_part(item));
                    }
                }
            }
        }
        object @ Json::Object(_) => {
            not_json_part(declared.as_deref(), name, &object, pointer)?;
            out.push(json_part(value));
        }
    }
    Ok(())
}

/// Refuses an object or array in a part whose declared `contentType` is not JSON.
fn not_json_part(
    declared: Option<&str>,
    name: &str,
    value: &Json<'_>,
    pointer: &str,
) -> Result<(), Unwritable> {
    match declared {
        Some(other) => Err(Unwritable {
            pointer: pointer.to_owned(),
            reason: format!(
                "the part `{name}` is declared `contentType: {other}`, which cannot hold {}; write text there, or declare a JSON `contentType`",
                value.a_kind()
            ),
        }),
        None => Ok(()),
    }
}

fn text(name: String, value: String) -> Field {
    Field {
        name,
        value,
        content_type: None,
    }
}

/// One JSON value, its members and items left as the text they are written as, so that a
/// number keeps its form (`2.10`) and an object its member order.
enum Json<'a> {
    Null,
    /// A number, a boolean, or a string's text.
    Scalar(String),
    Array(Vec<&'a RawValue>),
    Object(Vec<(String, &'a RawValue)>),
}

impl Json<'_> {
    fn a_kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Scalar(_) => "a single value",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

fn read(raw: &RawValue) -> Result<Json<'_>, serde_json::Error> {
    let text = raw.get();
    Ok(match text.as_bytes().first() {
        Some(b'{') => {
            let mut de = serde_json::Deserializer::from_str(text);
            Json::Object(de.deserialize_map(MembersVisitor)?)
        }
        Some(b'[') => Json::Array(serde_json::from_str(text)?),
        Some(b'"') => Json::Scalar(serde_json::from_str(text)?),
        Some(b'n') => Json::Null,
        _ => Json::Scalar(text.to_owned()),
    })
}

/// [`read`], its error located at `pointer` (only a body nested deeper than the JSON reader
/// goes fails here: the body was read whole before).
fn read_at<'a>(raw: &'a RawValue, pointer: &str) -> Result<Json<'a>, Unwritable> {
    read(raw).map_err(|e| Unwritable {
        pointer: pointer.to_owned(),
        reason: format!("the value cannot be read ({e})"),
    })
}

/// An object's members in their order, their values unparsed.
struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Vec<(String, &'de RawValue)>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = access.next_key::<String>()? {
            members.push((key, access.next_value::<&RawValue>()?));
        }
        Ok(members)
    }
}

/// RFC 6901 escaping of one reference token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openapi::{MediaChoice, request_media};
    use crate::{Definition, SourceFile};

    fn layout(media: &str, encoding: &str) -> FieldLayout {
        let text = format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    post:\n      requestBody:\n        content:\n          {media}:\n            schema: {{type: object}}\n            encoding: {{{encoding}}}\n      responses: {{'200': {{description: ok}}}}\n"
        );
        let def = Definition::load(SourceFile::new("d.yaml", text)).expect("loads");
        let op = def.root().pointer("/paths/~1a/post").expect("operation");
        let Some(MediaChoice::Chosen(media)) = request_media(def.root(), op, None) else {
            panic!("no media type chosen");
        };
        FieldLayout::of(&media).expect("a form layout")
    }

    fn pairs(layout: &FieldLayout, json: &str) -> Vec<String> {
        layout
            .fields(json)
            .expect("writable")
            .into_iter()
            .map(|f| match f.content_type {
                Some(t) => format!("{}={} ({t})", f.name, f.value),
                None => format!("{}={}", f.name, f.value),
            })
            .collect()
    }

    #[test]
    fn nested_values_take_brackets_by_default() {
        let form = layout("application/x-www-form-urlencoded", "");
        assert_eq!(
            pairs(
                &form,
                r#"{"email":"a@b.c","amount":2.10,"livemode":false,"metadata":{"order":"6735","note":null},"items":[{"price":"p_1","quantity":2},null,{"price":"p_3"}],"empty":{},"gone":null}"#
            ),
            [
                "email=a@b.c",
                "amount=2.10",
                "livemode=false",
                "metadata[order]=6735",
                "items[0][price]=p_1",
                "items[0][quantity]=2",
                "items[2][price]=p_3",
            ]
        );
    }

    #[test]
    fn styles_and_explode_follow_the_encoding_object() {
        let form = layout(
            "application/x-www-form-urlencoded",
            "ids: {style: form, explode: false}, tags: {style: form}, pipes: {style: pipeDelimited}, spaced: {style: spaceDelimited}, address: {style: form}, point: {style: form, explode: false}, deep: {style: deepObject, explode: true}, filter: {contentType: application/json}",
        );
        assert_eq!(
            pairs(
                &form,
                r#"{"ids":[1,2,3],"tags":["a","b"],"pipes":["x","y"],"spaced":["s","t"],"address":{"city":"Oslo","zip":"0150"},"point":{"x":1,"y":2},"deep":{"a":{"b":1}},"filter":{"q":"x y"}}"#
            ),
            [
                "ids=1,2,3",
                "tags=a",
                "tags=b",
                "pipes=x|y",
                "spaced=s t",
                "city=Oslo",
                "zip=0150",
                "point=x,1,y,2",
                "deep[a][b]=1",
                r#"filter={"q":"x y"}"#,
            ]
        );
    }

    #[test]
    fn what_a_form_cannot_hold_is_located() {
        let form = layout(
            "application/x-www-form-urlencoded",
            "flat: {style: form}, odd: {style: matrix}",
        );
        for (json, pointer, says) in [
            (r"[1,2]", "", "the body is an array"),
            (r#""text""#, "", "the body is a single value"),
            (
                r#"{"flat":[{"a":1}]}"#,
                "/flat/0",
                "has no form for an object",
            ),
            (r#"{"odd":1}"#, "/odd", "`style: matrix`"),
        ] {
            let refused = form.fields(json).expect_err(json);
            assert_eq!(refused.pointer, pointer, "{json}");
            assert!(refused.reason.contains(says), "{json}: {}", refused.reason);
        }
    }

    #[test]
    fn multipart_parts_are_text_or_json() {
        let multipart = layout(
            "multipart/form-data",
            "meta: {contentType: application/json}, note: {contentType: text/markdown}",
        );
        assert_eq!(
            pairs(
                &multipart,
                r#"{"name":"Ann","count":3,"tags":["a",null,"b"],"address":{"city":"Oslo"},"meta":"raw","note":"*hi*","none":null}"#
            ),
            [
                "name=Ann",
                "count=3",
                "tags=a",
                "tags=b",
                r#"address={"city":"Oslo"} (application/json)"#,
                r#"meta="raw" (application/json)"#,
                "note=*hi* (text/markdown)",
            ]
        );
        let refused = multipart
            .fields(r#"{"note":{"a":1}}"#)
            .expect_err("an object as markdown");
        assert_eq!(refused.pointer, "/note");
    }
}
