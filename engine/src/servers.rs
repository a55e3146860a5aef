//! The external system's server URL: the definition's first server with its variables.

use std::collections::BTreeMap;
use std::sync::Arc;

use syncdef_definitions::openapi::OpenApi;
use syncdef_transform::Value;
use url::Url;

use crate::error::EngineError;
use crate::request::encode_value;
use syncdef_validator::rules::insecure_url::is_insecure_http;

/// A server variable as declared.
#[derive(Clone, Debug)]
pub(crate) struct Variable {
    pub name: String,
    pub default: String,
    pub allowed: Vec<String>,
}

/// The server URL template (`https://{environment}.api.intuit.com`) and its variables.
#[derive(Clone, Debug)]
pub(crate) struct ServerTemplate {
    pub url: String,
    pub variables: Vec<Variable>,
}

/// A server URL with every variable filled in.
#[derive(Clone, Debug)]
pub(crate) struct Server {
    pub base: Url,
    pub variables: BTreeMap<String, String>,
    /// `variables` as templates read them (`$.serverVariables`), built once per server rather
    /// than once per push.
    pub template_variables: Value,
}

impl ServerTemplate {
    /// The first server of the document: the vendor's instances use it, and the others are
    /// alternatives a user selects by overriding the base URL.
    pub fn from_openapi(api: OpenApi<'_>) -> Result<ServerTemplate, String> {
        let server = api.servers().next().ok_or(
            "the definition declares no `servers` with a `url`: add the external system's base URL",
        )?;
        let variables = server
            .variables
            .iter()
            .map(|v| {
                let default = v.default.ok_or_else(|| {
                    format!(
                        "the server variable `{}` has no string `default`, which OpenAPI requires; add one",
                        v.name
                    )
                })?;
                Ok(Variable {
                    name: v.name.to_owned(),
                    default: default.to_owned(),
                    allowed: v.allowed.iter().map(|a| (*a).to_owned()).collect(),
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(ServerTemplate {
            url: server.url.to_owned(),
            variables,
        })
    }

    /// How `value` of `v` goes into the URL: percent-encoded in the path (`Some`), as it is
    /// in the scheme, host or port (`None`), where a value that would change the URL's
    /// structure is refused.
    fn placed(&self, v: &Variable, value: &str) -> Result<Option<String>, EngineError> {
        let needle = format!("{{{}}}", v.name);
        let authority_end = self.url.find("://").map_or(0, |i| {
            self.url[i + 3..]
                .find('/')
                .map_or(self.url.len(), |j| i + 3 + j)
        });
        let at = self.url.find(&needle);
        // A variable that ends the authority (`https://api.ebay.com{basePath}`) and whose
        // value starts with `/` is the start of the path: the host is the template's.
        let starts_path = value.starts_with('/')
            && at.is_some_and(|i| {
                let after = &self.url[i + needle.len()..];
                i < authority_end && (after.is_empty() || after.starts_with(['/', '?']))
            });
        let in_authority = !starts_path && at.is_some_and(|i| i < authority_end);
        if value.is_empty()
            || value == "."
            || value == ".."
            || in_authority
                && value.chars().any(|c| {
                    matches!(c, '/' | '?' | '#' | '@' | '\\' | ':' | '%')
                        || c.is_whitespace()
                        || c.is_control()
                })
        {
            return Err(EngineError::configuration(format!(
                "server variable `{}` has the value `{value}`, which is empty, or in the host and holds a character that would change the URL (/ ? # @ \\ : % or a space)",
                v.name
            )));
        }
        if in_authority {
            return Ok(None);
        }
        if starts_path {
            let segments: Vec<String> = value
                .split('/')
                .map(|segment| encode_value(segment, false))
                .collect();
            return Ok(Some(segments.join("/")));
        }
        let quoted = at.is_some_and(|i| {
            self.url[..i].ends_with('\'') && self.url[i + needle.len()..].starts_with('\'')
        });
        Ok(Some(encode_value(value, quoted)))
    }

    /// The URL with `overrides` over the defaults, or `base` when the instance replaces the
    /// server URL (a sandbox, a proxy, a test server).
    ///
    /// A variable in the path (`Company('{company}')`) is percent-encoded like a placeholder.
    /// A variable in the scheme, host or port (`{environment}.api.intuit.com`) cannot be
    /// encoded, so a value that could change the URL's structure is refused there.
    pub fn resolve(
        &self,
        overrides: &BTreeMap<String, String>,
        base: Option<&Url>,
    ) -> Result<Server, EngineError> {
        let mut variables = BTreeMap::new();
        // Path-part values as they go into the URL; host-part values go in as they are.
        let mut encoded = BTreeMap::new();
        for v in &self.variables {
            let value = overrides.get(&v.name).unwrap_or(&v.default);
            if !v.allowed.is_empty() && !v.allowed.contains(value) {
                return Err(EngineError::configuration(format!(
                    "server variable `{}` is `{value}`, but the definition allows only {}",
                    v.name,
                    v.allowed.join(", ")
                )));
            }
            if let Some(text) = self.placed(v, value)? {
                encoded.insert(v.name.clone(), text);
            }
            variables.insert(v.name.clone(), value.clone());
        }
        for name in overrides.keys() {
            if !variables.contains_key(name) {
                let known: Vec<&str> = self.variables.iter().map(|v| v.name.as_str()).collect();
                return Err(EngineError::configuration(format!(
                    "`{name}` is not a server variable of the definition (it has: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        let base = if let Some(url) = base {
            url.clone()
        } else {
            let mut text = self.url.clone();
            for (name, value) in &variables {
                let value = encoded.get(name).unwrap_or(value);
                text = text.replace(&format!("{{{name}}}"), value);
            }
            Url::parse(&text).map_err(|e| {
                EngineError::configuration(format!(
                    "the server URL `{}` gives `{text}`, which is not a valid URL: {e}",
                    self.url
                ))
            })?
        };
        if !matches!(base.scheme(), "http" | "https") || base.host().is_none() {
            return Err(EngineError::configuration(format!(
                "the server URL `{base}` must be an absolute http or https URL"
            )));
        }
        // Every request carries the bearer token and the record: plain http only to a local
        // test server.
        if is_insecure_http(base.as_str()) {
            return Err(EngineError::configuration(format!(
                "the server URL `{base}` uses plain http to a host other than loopback; use https (plain http is accepted only for 127.0.0.0/8, ::1 and localhost, for local test servers)"
            )));
        }
        let template_variables = Value::object(
            variables
                .iter()
                .map(|(k, v)| (Arc::from(k.as_str()), Value::from(v.as_str())))
                .collect(),
        );
        Ok(Server {
            base,
            variables,
            template_variables,
        })
    }
}
