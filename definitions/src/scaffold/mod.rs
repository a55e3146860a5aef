//! A starting definition for a vendor's OpenAPI description: an OpenAPI Overlay 1.0 that
//! `extends` the description, unedited, and adds a `synchronization` section with one entry
//! pushing through the operations chosen, its templates written from the request and answer
//! schemas.
//!
//! What it writes: the request templates fill every property the body requires (recursively,
//! `$ref`s followed, `allOf` merged), each read from the platform record field it stands for by
//! name and type (an address's from the record's billing address), or left as a constant of its
//! type; the optional properties that stand for a record field are written under an `#ifgroup`.
//! The response templates read the id, `success` and `errors` where the answer declares them.
//! An update reads its concurrency token first where the vendor asks for one; parameters every
//! request needs (a tenant header, a parent's path parameter) get server variables set per
//! company. What it could not decide (the constants, a variable's default, an answer without an
//! id) is listed in [`Scaffold::left`] with the JSON pointer where it is written, for the user
//! to check.
//!
//! ```
//! use syncdef_definitions::{Definition, SourceFile};
//! use syncdef_definitions::scaffold::{Request, scaffold};
//!
//! let vendor = r#"{"openapi": "3.0.3", "info": {"title": "Books", "version": "1"},
//!   "paths": {"/customers": {"post": {
//!     "requestBody": {"content": {"application/json": {"schema": {
//!       "type": "object", "required": ["displayName"],
//!       "properties": {"displayName": {"type": "string"}}}}}},
//!     "responses": {"201": {"description": "created", "content": {"application/json": {
//!       "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}}}"#;
//! let vendor = Definition::load(SourceFile::new("books.json", vendor)).expect("loads");
//! let request = Request::new("Account", "/customers/post", "./books.json");
//! let made = scaffold(&vendor, &request).expect("an overlay");
//! let entry = &made.overlay["actions"][0]["update"]["synchronization"]["Account"];
//! assert_eq!(entry["module"], "Accounts");
//! let templates = &entry["push"]["schemasTransformer"];
//! assert_eq!(templates["createRequest"]["displayName"], "#valueof($.account.name)");
//! assert_eq!(templates["createResponse"]["id"], "#valueof($.id)");
//! // What it could not decide, for the user: the description names no credentials.
//! assert_eq!(made.left[0].pointer, "/security");
//! ```

mod address;
mod body_token;
mod concurrency;
mod constant;
mod merged;
mod operation;
mod parameters;
mod record_field;
mod request;
mod response;

use std::fmt;

use serde_json::{Map, Value as Json, json};

use crate::Definition;
use crate::openapi::{MediaChoice, request_media};
use crate::platform::modules::{self, MODULES, Module};
use crate::pointer;
use body_token::BodyToken;
use record_field::RecordFields;
use request::{Feeds, RequestWriter};

/// What to write a starting definition for.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The entry's key (`Account`).
    pub entry: &'a str,
    /// The platform module; `None` for the module of the entry's record (`Account`:
    /// `Accounts`).
    pub module: Option<&'a str>,
    /// The create's operation reference, as `paths` writes it (`/Contacts/put`).
    pub create: &'a str,
    /// The update's operation reference (`/Contacts/{ContactID}/post`), if any.
    pub update: Option<&'a str>,
    /// The overlay's `extends`: where the description is, from the overlay.
    pub extends: &'a str,
}

impl<'a> Request<'a> {
    /// A request for entry `entry` creating through `create`, over the description at
    /// `extends`, with the entry's own module and no update.
    #[must_use]
    pub fn new(entry: &'a str, create: &'a str, extends: &'a str) -> Self {
        Request {
            entry,
            module: None,
            create,
            update: None,
            extends,
        }
    }
}

/// A starting definition.
#[derive(Clone, Debug)]
pub struct Scaffold {
    /// The overlay document.
    pub overlay: Json,
    /// What was left for the user to decide, in the order it is written.
    pub left: Vec<Left>,
}

/// A value written without knowing it is right.
#[derive(Clone, Debug, PartialEq)]
pub struct Left {
    /// Where, as a JSON pointer of the definition the overlay makes (as `syncdef lint`
    /// reports it).
    pub pointer: String,
    /// The value written.
    pub value: Json,
    /// Why it is that value and what to do.
    pub note: String,
}

/// Why no starting definition could be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaffoldError {
    /// `file:line:column` in the description, when the error is at a place of it.
    pub location: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub help: String,
}

impl fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = &self.location {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ScaffoldError {}

/// The starting definition of `request` over the description `vendor`.
///
/// # Errors
/// A [`ScaffoldError`] when `vendor` is not an OpenAPI 3 description, when a reference is
/// malformed or names no operation of it, or when the module is not known.
pub fn scaffold(vendor: &Definition, request: &Request<'_>) -> Result<Scaffold, ScaffoldError> {
    check_openapi(vendor)?;
    check_new_entry(vendor, request.entry)?;
    let module = module_of(request)?;
    let mut written = Written {
        vendor,
        fields: RecordFields::of(module),
        push_at: pointer::join(["synchronization", request.entry, "push"]),
        push: Map::new(),
        templates: Map::new(),
        left: Vec::new(),
        chosen: Vec::new(),
    };
    written.step("create", request.create)?;
    if let Some(update) = request.update {
        written.step("update", update)?;
    }
    let Written {
        mut push,
        templates,
        mut left,
        chosen,
        ..
    } = written;
    let parameters = parameters::required_parameters(vendor, &chosen);
    left.extend(parameters.left);
    let api = vendor.openapi();
    let unsecured = chosen
        .iter()
        .any(|c| c.operation.node.get("security").is_none());
    if unsecured && api.security().next().is_none() {
        left.push(Left {
            pointer: "/security".into(),
            value: Json::Null,
            note: "the description says of no credentials (SD704): add its scheme under `components.securitySchemes` and a top-level `security` with an action of the overlay".into(),
        });
    }
    push.insert("schemasTransformer".into(), Json::Object(templates));
    let mut entry = Map::new();
    entry.insert("module".into(), json!(module.name));
    entry.insert("push".into(), Json::Object(push));
    let mut synchronization = Map::new();
    synchronization.insert(request.entry.to_owned(), Json::Object(entry));
    let mut update = json!({"synchronization": synchronization});
    if !parameters.values.is_empty() {
        update["x-syncdef"] = json!({"parameters": parameters.values});
    }
    let mut actions = vec![json!({
        "description": format!("How platform {} are pushed", module.name.to_lowercase()),
        "target": "$",
        "update": update,
    })];
    if !parameters.variables.is_empty() {
        actions.push(json!({
            "description": "Each company's values of the parameters every request sends",
            "target": "$.servers[*]",
            "update": {"variables": parameters.variables},
        }));
    }
    let overlay = json!({
        "overlay": "1.0.0",
        "info": {
            "title": format!("{} synchronization over {}", request.entry, title(vendor)),
            "version": "1.0.0",
        },
        "extends": request.extends,
        "actions": actions,
    });
    Ok(Scaffold { overlay, left })
}

/// The entry's `push` as it is written, step by step.
struct Written<'v> {
    vendor: &'v Definition,
    fields: RecordFields,
    /// The JSON pointer of the entry's `push` in the definition.
    push_at: String,
    push: Map<String, Json>,
    templates: Map<String, Json>,
    left: Vec<Left>,
    /// The operations chosen, in step order.
    chosen: Vec<operation::Chosen<'v>>,
}

impl Written<'_> {
    /// Writes step `step` (`create`, `update`) through the operation `text` names: its
    /// reference, its request template and its response template.
    fn step(&mut self, step: &str, text: &str) -> Result<(), ScaffoldError> {
        let api = self.vendor.openapi();
        let update = step == "update";
        let at = format!("{}/{step}", self.push_at);
        let option = format!("--{step}");
        let chosen = operation::choose(self.vendor, &option, text, update, &at)?;
        let feeds = if update {
            Feeds::Update {
                names_record: chosen.names_record,
            }
        } else {
            Feeds::Create
        };
        let schema = match request_media(api.root(), chosen.operation.node, None) {
            Some(MediaChoice::Chosen(media)) => media.media.schema.map(|s| api.schema(s)),
            _ => None,
        };
        let token = update
            .then(|| body_token::body_token(self.vendor, &chosen, schema.as_ref()))
            .flatten();
        let templates_at = format!("{}/schemasTransformer", self.push_at);
        let mut writer = RequestWriter::new(&self.fields, feeds)
            .with_token(token.as_ref().map(|t| t.property.clone()));
        let body = writer.body(schema.as_ref(), &format!("{templates_at}/{step}Request"));
        self.left.append(&mut writer.left);
        let response_at = format!("{templates_at}/{step}Response");
        let answer = response::response_template(&api, &chosen.operation, &response_at);
        self.left.extend(answer.left);
        self.push.insert(step.into(), json!(chosen.reference));
        if update {
            self.pre_actions(&chosen, &at, token);
        }
        self.templates.insert(format!("{step}Request"), body);
        self.templates
            .insert(format!("{step}Response"), answer.template);
        self.chosen.push(chosen);
        Ok(())
    }

    /// The update's `preSynchronizationAction`s: reading its concurrency token, for its body
    /// or for `If-Match`.
    fn pre_actions(&mut self, update: &operation::Chosen<'_>, at: &str, token: Option<BodyToken>) {
        let mut actions = Map::new();
        if let Some(token) = token {
            actions.insert(token.property, token.action);
        }
        match concurrency::if_match(&self.vendor.openapi(), update, at) {
            Some(concurrency::Token::Read(name, action)) => {
                actions.insert(name.to_owned(), action);
            }
            Some(concurrency::Token::Unread(left)) => self.left.push(left),
            None => {}
        }
        if !actions.is_empty() {
            self.push
                .insert("preSynchronizationAction".into(), Json::Object(actions));
        }
    }
}

/// The description's title, or its name when it has none.
/// A vendor's property name as the scaffold compares names: its ASCII letters and digits,
/// lower-cased (`Address_Line1`, `addressLine1` -> `addressline1`).
fn name_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .flat_map(char::to_lowercase)
        .collect()
}

fn title(vendor: &Definition) -> String {
    let info = vendor.root().get("info").and_then(|i| i.get("title"));
    info.and_then(crate::node::Node::as_str)
        .map_or_else(|| vendor.source.name().to_owned(), str::to_owned)
}

/// Refuses what is not an OpenAPI 3 description, at its place.
fn check_openapi(vendor: &Definition) -> Result<(), ScaffoldError> {
    let root = vendor.root();
    let at = |span| Some(vendor.source.describe(span));
    if root.as_object().is_none() {
        return Err(ScaffoldError {
            location: at(root.span),
            message: format!("the description is {}, not an OpenAPI document", root.kind.described()),
            help: "give the vendor's OpenAPI 3.0 or 3.1 description (a JSON or YAML object with `openapi` and `paths`)".into(),
        });
    }
    if let Some(swagger) = root.member("swagger") {
        return Err(ScaffoldError {
            location: at(swagger.key.span),
            message: "the description is Swagger 2.0; syncdef reads OpenAPI 3.0 and 3.1".into(),
            help: "convert it to OpenAPI 3 first (for example with swagger2openapi), then write the definition over the converted file".into(),
        });
    }
    let Some(version) = root.member("openapi") else {
        return Err(ScaffoldError {
            location: at(root.span),
            message: "the document has no `openapi` version: it is not an OpenAPI description"
                .into(),
            help: "give the vendor's OpenAPI 3.0 or 3.1 description (a JSON or YAML object with `openapi` and `paths`)".into(),
        });
    };
    if vendor.openapi().version().is_none() {
        return Err(ScaffoldError {
            location: at(version.value.span),
            message: "`openapi` does not name a version syncdef reads (3.0.x or 3.1.x)".into(),
            help: "give an OpenAPI 3.0 or 3.1 description".into(),
        });
    }
    Ok(())
}

/// Refuses an entry the description has already (it may be a definition itself): the
/// overlay's entry would be merged into it.
fn check_new_entry(vendor: &Definition, entry: &str) -> Result<(), ScaffoldError> {
    let sync = vendor.root().get("synchronization");
    let Some(existing) = sync.and_then(|s| s.member(entry)) else {
        return Ok(());
    };
    Err(ScaffoldError {
        location: Some(vendor.source.describe(existing.key.span)),
        message: format!("the description has an entry `{entry}` already"),
        help: "name another --entry (the module can stay, with --module)".into(),
    })
}

/// The module of `request`: named, or the one whose record the entry is named after.
fn module_of(request: &Request<'_>) -> Result<&'static Module, ScaffoldError> {
    let names: Vec<&str> = MODULES.iter().map(|m| m.name).collect();
    match request.module {
        Some(name) => modules::module(name).ok_or_else(|| ScaffoldError {
            location: None,
            message: format!("--module `{name}` is not a platform module"),
            help: format!("use one of: {}", names.join(", ")),
        }),
        None => MODULES
            .iter()
            .find(|m| m.record == request.entry || m.name == request.entry)
            .ok_or_else(|| ScaffoldError {
                location: None,
                message: format!(
                    "the entry `{}` is named after no platform record, so its module is not known",
                    request.entry
                ),
                help: format!("name it with --module, one of: {}", names.join(", ")),
            }),
    }
}

#[cfg(test)]
mod tests;
