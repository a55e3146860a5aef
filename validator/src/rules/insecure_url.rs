//! `InsecureUrl`: a server or OAuth2 URL uses plain `http` to a host other than loopback.

use std::net::{Ipv4Addr, Ipv6Addr};

use syncdef_definitions::Node;
use syncdef_definitions::pointer::escape;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::rules::security::schemes;

declare_rule! {
    /// ## What it does
    /// Reports server URLs (`servers[].url`) and OAuth2 URLs (`authorizationUrl`, `tokenUrl`,
    /// `refreshUrl` of any flow) that use plain `http://` to a host other than loopback
    /// (`127.0.0.0/8`, `::1`, `localhost`). A host given by a server variable
    /// (`http://{host}`) is reported too: it is not known to be loopback.
///
    /// ## Why is this bad?
    /// Every push request carries the integration's bearer token and the customer's records,
    /// and the token URL receives the client secret and refresh tokens. Over plain HTTP anyone
    /// on the way can read and replay them. The push engine refuses such a server or token
    /// URL; this finds it before any push does. Loopback stays allowed for local test servers.
///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: http://api.example.com
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// servers:
    ///   - url: https://api.example.com
    /// ```
    pub struct InsecureUrl {
        title: "a server or OAuth2 URL uses plain `http` to a host other than loopback",
        severity: Error,
    }
}

/// Whether `url` is plain `http` to a host other than loopback (`127.0.0.0/8`, `::1`,
/// `localhost`). Only the text is read, so that a URL with variables in it can be judged; a
/// host that is not a literal loopback address or `localhost` counts as remote. Shared with the
/// push engine, which refuses such server and token URLs.
#[must_use]
pub fn is_insecure_http(url: &str) -> bool {
    let url = url.trim();
    let Some(rest) = url
        .get(..7)
        .filter(|scheme| scheme.eq_ignore_ascii_case("http://"))
        .map(|_| &url[7..])
    else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
        || host.parse::<Ipv6Addr>().is_ok_and(|ip| ip.is_loopback());
    !loopback
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = &ctx.doc.root();
    let servers = root
        .get("servers")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for (i, server) in servers.iter().enumerate() {
        if let Some(url) = server.get("url") {
            report(sink, &url, &format!("/servers/{i}/url"), "the server URL");
        }
    }
    for scheme in schemes(root) {
        let flows = scheme
            .value
            .get("flows")
            .and_then(Node::as_object)
            .unwrap_or_default();
        for flow in flows {
            for key in ["authorizationUrl", "tokenUrl", "refreshUrl"] {
                let Some(url) = flow.value.get(key) else {
                    continue;
                };
                let pointer = format!(
                    "/components/securitySchemes/{}/flows/{}/{key}",
                    escape(scheme.key.name),
                    escape(flow.key.name)
                );
                let what = format!(
                    "the `{key}` (flow `{}` of `{}`)",
                    flow.key.name, scheme.key.name
                );
                report(sink, &url, &pointer, &what);
            }
        }
    }
}

fn report(sink: &mut Sink, url: &Node, pointer: &str, what: &str) {
    let Some(text) = url.as_str() else { return };
    if !is_insecure_http(text) {
        return;
    }
    let d = sink
        .diagnostic(
            Rule::InsecureUrl,
            url.span,
            format!("{what} is `{text}`: plain http to a host other than loopback"),
        )
        .with_pointer(pointer)
        .with_help("use https; plain http is accepted only for 127.0.0.0/8, ::1 and localhost (local test servers), and the push engine refuses it elsewhere");
    sink.push(d);
}

#[cfg(test)]
mod tests {
    use super::is_insecure_http;

    #[test]
    fn plain_http_is_insecure_except_to_loopback() {
        for url in [
            "http://api.example.com",
            "HTTP://api.example.com/v1",
            "http://{host}/v1",
            "http://127.0.0.1.evil.example/",
            "http://localhost.evil.example/",
            "http://user@api.example.com:80/",
            "http://[::2]/",
            "http://10.0.0.1:8080/",
        ] {
            assert!(is_insecure_http(url), "{url}");
        }
        for url in [
            "https://api.example.com",
            "http://127.0.0.1:8080/x",
            "http://127.255.0.9/",
            "http://localhost/",
            "http://LOCALHOST.:99/",
            "http://[::1]:8080/",
            "http://user:pw@127.0.0.1/",
            "ftp://example.com",
            "{scheme}://example.com",
        ] {
            assert!(!is_insecure_http(url), "{url}");
        }
    }
}
