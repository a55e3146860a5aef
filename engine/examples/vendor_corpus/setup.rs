//! What the author of a definition sets in the overlay over a vendor's description before
//! the first push, where the description leaves it to whoever calls the API: the server the
//! pushes go to, and the credentials the chosen operation takes.

use serde_json::{Value as Json, json};
use syncdef_validator::rules::insecure_url::is_insecure_http;

/// The actions that make the description's first server one the engine sends to: an absolute
/// URL (a relative one, or none, is relative to where the description is published, its
/// `info.x-origin` in this corpus, as OpenAPI defines it; an absolute server the description
/// lists further down is preferred), over https (the engine and SD705 refuse plain http off
/// loopback: the author takes the vendor's https endpoint). Nothing when the servers are fine.
pub fn servers(document: &Json) -> Vec<Json> {
    let listed: Vec<&Json> = document
        .get("servers")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter(|s| s.get("url").and_then(Json::as_str).is_some())
        .collect();
    let url_of = |server: &Json| server["url"].as_str().unwrap_or_default().to_owned();
    let fine = |server: &Json| {
        let url = url_of(server);
        absolute(&url) && !is_insecure_http(&url) && !is_insecure_http(&with_defaults(server))
    };
    if !listed.is_empty() && listed.iter().all(|s| fine(s)) {
        return Vec::new();
    }
    let chosen = listed
        .iter()
        .find(|s| absolute(&url_of(s)))
        .or(listed.first())
        .map_or_else(|| json!({"url": "/"}), |s| (*s).clone());
    let mut url = url_of(&chosen);
    if !absolute(&url) {
        let Some(resolved) = origin(document).and_then(|o| resolve(&o, &url)) else {
            return Vec::new();
        };
        url = resolved;
    }
    if is_insecure_http(&url) {
        url = format!("https://{}", &url["http://".len()..]);
    }
    let mut server = chosen;
    server["url"] = Json::from(url.clone());
    // A scheme given by a variable (`{protocol}://`) defaults to https.
    if let Some(name) = url
        .split_once("://")
        .and_then(|(scheme, _)| scheme.strip_prefix('{')?.strip_suffix('}'))
        && let Some(variable) = server
            .get_mut("variables")
            .and_then(|v| v.get_mut(name))
            .and_then(Json::as_object_mut)
    {
        variable.insert("default".to_owned(), Json::from("https"));
        if let Some(Json::Array(allowed)) = variable.get_mut("enum")
            && !allowed.contains(&Json::from("https"))
        {
            allowed.push(Json::from("https"));
        }
    }
    let mut actions = Vec::new();
    if document.get("servers").is_some() {
        actions.push(json!({
            "description": "The vendor's servers, replaced by the one the pushes go to",
            "target": "$.servers",
            "remove": true,
        }));
    }
    actions.push(json!({
        "description": "The server the pushes go to, absolute and over https",
        "target": "$",
        "update": {"servers": [server]},
    }));
    actions
}

/// Whether a server URL names its scheme and host (`https://api.example.com`, `{scheme}://...`).
fn absolute(url: &str) -> bool {
    url.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && !scheme.contains('/') && !scheme.contains('?')
    })
}

/// Where the description is published (`info.x-origin[0].url`); when that is no web address
/// (a `blob:`), the provider's domain (`info.x-providerName`) over https.
fn origin(document: &Json) -> Option<String> {
    let info = document.get("info")?;
    let published = info
        .get("x-origin")
        .and_then(|origins| origins.as_array().map_or(Some(origins), |a| a.first()))
        .and_then(|first| first.get("url")?.as_str())
        .filter(|url| url::Url::parse(url).is_ok_and(|u| u.host_str().is_some()));
    match published {
        Some(url) => Some(url.to_owned()),
        None => Some(format!(
            "https://{}/",
            info.get("x-providerName")?.as_str()?
        )),
    }
}

/// A server's URL with its variables' defaults.
fn with_defaults(server: &Json) -> String {
    let mut url = server["url"].as_str().unwrap_or_default().to_owned();
    for (name, variable) in server
        .get("variables")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(default) = variable.get("default").and_then(Json::as_str) {
            url = url.replace(&format!("{{{name}}}"), default);
        }
    }
    url
}

/// `relative` read against `base`, its `{variables}` kept as written.
fn resolve(base: &str, relative: &str) -> Option<String> {
    let base = url::Url::parse(base).ok()?;
    if relative.starts_with('/') {
        let host = base.host_str()?;
        let port = base.port().map(|p| format!(":{p}")).unwrap_or_default();
        return Some(format!("{}://{host}{port}{relative}", base.scheme()));
    }
    base.join(relative).ok().map(String::from)
}

/// The action that gives the chosen operation a security requirement when it has none (SD704):
/// the document's first scheme the engine can send (an API key, HTTP basic or bearer,
/// OAuth2) as the document's requirement, its credentials given as every scheme's are
/// (`SYNCDEF_<SCHEME>_KEY`, ...); when the document declares no scheme, the API is called
/// without credentials, which the author says with `security: []` on the operation.
pub fn security(document: &Json, path: &str, item: &Json, operation: &Json) -> Vec<Json> {
    let declared = |node: &Json| node.get("security").and_then(Json::as_array).cloned();
    if declared(operation).is_some() || declared(document).is_some_and(|r| !r.is_empty()) {
        return Vec::new();
    }
    let sendable = sendable_scheme(document);
    if let Some((name, _)) = sendable {
        return vec![json!({
            "description": "The credentials the API takes, which the description declares but requires nowhere",
            "target": "$",
            "update": {"security": [{name.as_str(): []}]},
        })];
    }
    // A path item written as a `$ref` cannot be reached by its path.
    if item.get("$ref").is_some() {
        return Vec::new();
    }
    let quoted = path.replace('\\', "\\\\").replace('\'', "\\'");
    vec![json!({
        "description": "The operation takes no credentials",
        "target": format!("$.paths['{quoted}'].post"),
        "update": {"security": []},
    })]
}

/// The document's first security scheme the engine can send: an API key, HTTP basic or
/// bearer, OAuth2.
fn sendable_scheme(document: &Json) -> Option<(&String, &Json)> {
    let schemes = document
        .pointer("/components/securitySchemes")
        .and_then(Json::as_object);
    schemes.into_iter().flatten().find(|(_, scheme)| {
        let kind = scheme.get("type").and_then(Json::as_str);
        let http = scheme
            .get("scheme")
            .and_then(Json::as_str)
            .map(str::to_ascii_lowercase);
        match kind {
            Some("apiKey" | "oauth2") => true,
            Some("http") => matches!(http.as_deref(), Some("basic" | "bearer")),
            _ => false,
        }
    })
}

/// The names of the schemes the operation's requirements name (its own, else the document's,
/// else the one [`security`] adds).
fn required_schemes(document: &Json, operation: &Json) -> Vec<String> {
    let named = |node: &Json| {
        node.get("security")
            .and_then(Json::as_array)
            .filter(|r| !r.is_empty())
            .map(|requirements| {
                requirements
                    .iter()
                    .filter_map(Json::as_object)
                    .flat_map(|r| r.keys().cloned())
                    .collect::<Vec<_>>()
            })
    };
    if operation.get("security").is_some() {
        return named(operation).unwrap_or_default();
    }
    named(document)
        .or_else(|| sendable_scheme(document).map(|(name, _)| vec![name.clone()]))
        .unwrap_or_default()
}

/// The action giving the chosen operation's required header and query parameters their
/// values in `x-syncdef.parameters` (SD304), as an author who read the vendor's documentation
/// would: the parameter's `default`, `example` or first `enum` value, else a constant of its
/// schema (`value_of`). The engine's own headers (`Accept`, `Content-Type`, `Authorization`)
/// and what an API key scheme sends are left out.
pub fn parameters(
    document: &Json,
    follow: &dyn Fn(&Json) -> Json,
    item: &Json,
    operation: &Json,
    value_of: &dyn Fn(&Json) -> Json,
) -> Vec<Json> {
    let declared: Vec<Json> = [operation, item]
        .iter()
        .filter_map(|o| o.get("parameters").and_then(Json::as_array))
        .flatten()
        .map(follow)
        .collect();
    let required = required_schemes(document, operation);
    let keys: Vec<(String, String)> = document
        .pointer("/components/securitySchemes")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
        .filter(|(name, s)| {
            required.contains(name) && s.get("type").and_then(Json::as_str) == Some("apiKey")
        })
        .filter_map(|(_, s)| {
            Some((
                s.get("in")?.as_str()?.to_owned(),
                s.get("name")?.as_str()?.to_ascii_lowercase(),
            ))
        })
        .collect();
    let mut values = serde_json::Map::new();
    let mut seen = Vec::new();
    for parameter in &declared {
        let (Some(name), Some(place)) = (
            parameter.get("name").and_then(Json::as_str),
            parameter.get("in").and_then(Json::as_str),
        ) else {
            continue;
        };
        // An operation's own parameter overrides its path item's of the same name and place.
        let key = (place.to_owned(), name.to_ascii_lowercase());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let required = parameter.get("required") == Some(&Json::Bool(true));
        if !required
            || !matches!(place, "header" | "query")
            || (place == "header" && syncdef_definitions::extension::is_engine_header(name))
            || keys.contains(&key)
        {
            continue;
        }
        let schema = parameter.get("schema").map_or(Json::Null, follow);
        let value = ["default", "example"]
            .iter()
            .find_map(|k| schema.get(*k).or_else(|| parameter.get(*k)).cloned())
            .unwrap_or_else(|| value_of(&schema));
        let place_values = values
            .entry(place)
            .or_insert_with(|| Json::Object(serde_json::Map::new()));
        place_values[name] = Json::from(text_of(&value));
    }
    if values.is_empty() {
        return Vec::new();
    }
    vec![json!({
        "description": "The values of the operation's required header and query parameters",
        "target": "$",
        "update": {"x-syncdef": {"parameters": values}},
    })]
}

/// A parameter's value as the text sent: an array's items comma-separated (OpenAPI's
/// `style: form` and `simple`); braces, which would name a server variable, left out.
fn text_of(value: &Json) -> String {
    let text = match value {
        Json::String(s) => s.clone(),
        Json::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join(","),
        Json::Null => String::new(),
        other => other.to_string(),
    };
    let text: String = text.chars().filter(|c| !matches!(c, '{' | '}')).collect();
    if text.is_empty() {
        "1".to_owned()
    } else {
        text
    }
}

/// The actions declaring, as properties of any type, the names the vendor's schemas require
/// without declaring them (SD124's findings, by their JSON pointers `.../required/N`): the
/// local fix an author makes in the overlay, the vendor's file left as shipped.
pub fn undeclared_required<'a>(
    document: &Json,
    diagnostics: impl Iterator<Item = &'a syncdef_validator::Diagnostic>,
) -> Vec<Json> {
    let mut actions = Vec::new();
    for diagnostic in diagnostics.filter(|d| d.rule.code() == "SD124") {
        let Some(pointer) = &diagnostic.pointer else {
            continue;
        };
        let Some(at) = pointer.rfind("/required") else {
            continue;
        };
        let Some(name) = diagnostic.message.split('`').nth(1) else {
            continue;
        };
        let Some(target) = json_path(document, &pointer[..at]) else {
            continue;
        };
        actions.push(json!({
            "description": "A name the schema requires, declared",
            "target": target,
            "update": {"properties": {name: {}}},
        }));
    }
    actions
}

/// The JSONPath (RFC 9535) of the node at `pointer` in `document`: members in brackets, items
/// by index.
fn json_path(document: &Json, pointer: &str) -> Option<String> {
    let mut path = "$".to_owned();
    let mut node = document;
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        match node {
            Json::Array(items) => {
                let index: usize = segment.parse().ok()?;
                node = items.get(index)?;
                path.push_str(&format!("[{index}]"));
            }
            Json::Object(members) => {
                node = members.get(&segment)?;
                let quoted = segment.replace('\\', "\\\\").replace('\'', "\\'");
                path.push_str(&format!("['{quoted}']"));
            }
            _ => return None,
        }
    }
    Some(path)
}

/// The actions removing each `pattern` of the vendor's schemas that SD802 reports the product
/// cannot compile (`its request body schema does not compile: "<pattern>" is not a "regex"`):
/// what its message advises ("fix the schema"), where the author cannot edit the vendor's file.
pub fn uncompilable_patterns<'a>(
    document: &Json,
    diagnostics: impl Iterator<Item = &'a syncdef_validator::Diagnostic>,
) -> Vec<Json> {
    let mut patterns: Vec<String> = Vec::new();
    for diagnostic in diagnostics.filter(|d| d.rule.code() == "SD802") {
        let quoted = diagnostic
            .message
            .split_once("does not compile: ")
            .and_then(|(_, rest)| rest.split_once(" is not a \"regex\""))
            .map(|(quoted, _)| quoted);
        if let Some(pattern) = quoted.and_then(|q| serde_json::from_str::<String>(q).ok())
            && !patterns.contains(&pattern)
        {
            patterns.push(pattern);
        }
    }
    let mut places = Vec::new();
    for pattern in &patterns {
        holding_pattern(document, pattern, "$", &mut places);
    }
    places
        .into_iter()
        .map(|place| {
            json!({
                "description": "A pattern the engine cannot compile, removed",
                "target": format!("{place}['pattern']"),
                "remove": true,
            })
        })
        .collect()
}

/// The JSONPath of every object under `node` (at `path`) whose `pattern` is `pattern`.
fn holding_pattern(node: &Json, pattern: &str, path: &str, into: &mut Vec<String>) {
    match node {
        Json::Object(members) => {
            if members.get("pattern").and_then(Json::as_str) == Some(pattern) {
                into.push(path.to_owned());
            }
            for (key, value) in members {
                let quoted = key.replace('\\', "\\\\").replace('\'', "\\'");
                holding_pattern(value, pattern, &format!("{path}['{quoted}']"), into);
            }
        }
        Json::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                holding_pattern(item, pattern, &format!("{path}[{index}]"), into);
            }
        }
        _ => {}
    }
}
