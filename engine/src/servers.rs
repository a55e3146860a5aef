//! The external system's server URL: the definition's first server with its variables.

use std::collections::BTreeMap;

use openapiv3::OpenAPI;
use url::Url;

use crate::error::PushError;

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
}

impl ServerTemplate {
    /// The first server of the document: the vendor's instances use it, and the others are
    /// alternatives a user selects by overriding the base URL.
    pub fn from_openapi(api: &OpenAPI) -> Result<ServerTemplate, String> {
        let server = api
            .servers
            .first()
            .ok_or("the definition declares no `servers`: add the external system's base URL")?;
        let variables = server
            .variables
            .iter()
            .flatten()
            .map(|(name, v)| Variable {
                name: name.clone(),
                default: v.default.clone(),
                allowed: v.enumeration.clone(),
            })
            .collect();
        Ok(ServerTemplate {
            url: server.url.clone(),
            variables,
        })
    }

    /// The URL with `overrides` over the defaults, or `base` when the instance replaces the
    /// server URL (a sandbox, a proxy, a test server).
    ///
    /// Values are checked rather than encoded: a variable may sit in the host
    /// (`{environment}.api.intuit.com`), where percent-encoding is not allowed, so a value that
    /// could change the URL's structure is refused.
    pub fn resolve(
        &self,
        overrides: &BTreeMap<String, String>,
        base: Option<&Url>,
    ) -> Result<Server, PushError> {
        let mut variables = BTreeMap::new();
        for v in &self.variables {
            let value = overrides.get(&v.name).unwrap_or(&v.default);
            if !v.allowed.is_empty() && !v.allowed.contains(value) {
                return Err(PushError::configuration(format!(
                    "server variable `{}` is `{value}`, but the definition allows only {}",
                    v.name,
                    v.allowed.join(", ")
                )));
            }
            if value.is_empty()
                || value.chars().any(|c| {
                    matches!(c, '/' | '?' | '#' | '@' | '\\' | ':' | '%')
                        || c.is_whitespace()
                        || c.is_control()
                })
            {
                return Err(PushError::configuration(format!(
                    "server variable `{}` has the value `{value}`, which is empty or holds a character that would change the URL (/ ? # @ \\ : % or a space)",
                    v.name
                )));
            }
            variables.insert(v.name.clone(), value.clone());
        }
        for name in overrides.keys() {
            if !variables.contains_key(name) {
                let known: Vec<&str> = self.variables.iter().map(|v| v.name.as_str()).collect();
                return Err(PushError::configuration(format!(
                    "`{name}` is not a server variable of the definition (it has: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        let base = match base {
            Some(url) => url.clone(),
            None => {
                let mut text = self.url.clone();
                for (name, value) in &variables {
                    text = text.replace(&format!("{{{name}}}"), value);
                }
                Url::parse(&text).map_err(|e| {
                    PushError::configuration(format!(
                        "the server URL `{}` gives `{text}`, which is not a valid URL: {e}",
                        self.url
                    ))
                })?
            }
        };
        if !matches!(base.scheme(), "http" | "https") || base.host().is_none() {
            return Err(PushError::configuration(format!(
                "the server URL `{base}` must be an absolute http or https URL"
            )));
        }
        Ok(Server { base, variables })
    }
}
