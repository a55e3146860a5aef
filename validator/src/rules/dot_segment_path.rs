//! `DotSegmentPath`: an operation reference has a `.` or `..` path segment.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references (`push.create`, `push.update`, `push.delete`, `pull.read`,
    /// `pull.batchRead`, and `path` of `ApiPath` actions) with a `.` or `..` path segment,
    /// also written percent-encoded (`%2e`, `.%2E`, `%2e%2e`).
///
    /// ## Why is this bad?
    /// URLs are normalised before they are sent: a `..` segment removes the segment before it,
    /// so `/../../steal` under the server `https://h/api/v1` reaches `https://h/steal`, outside
    /// the external system's API, with the integration's bearer token. The push engine refuses
    /// such a URL; this finds the reference before any push does.
///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: https://api.example.com/api/v1
    /// # ...
    /// push:
    ///   create: /../../admin/customers/post
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// servers:
    ///   - url: https://api.example.com
    /// # ...
    /// push:
    ///   create: /admin/customers/post
    /// ```
    pub struct DotSegmentPath {
        title: "an operation reference has a `.` or `..` path segment",
        severity: Error,
    }
}

/// Whether `segment` is `.` or `..`, plainly or percent-encoded: the segments a URL parser
/// resolves away (WHATWG URL "single-dot" and "double-dot" segments). Shared with the push
/// engine, which refuses such a segment in every URL it builds.
#[must_use]
pub fn is_dot_segment(segment: &str) -> bool {
    [".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"]
        .iter()
        .any(|dots| segment.eq_ignore_ascii_case(dots))
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let Ok(parsed) = site.parsed else { continue };
            // The path is the reference's text up to the method; a fixed query is not a path.
            let path = parsed.path.split('?').next().unwrap_or_default();
            let mut at = 0;
            for segment in path.split('/') {
                let range = at..at + segment.len();
                at = range.end + 1;
                if !is_dot_segment(segment) {
                    continue;
                }
                let d = sink
                    .diagnostic(
                        Rule::DotSegmentPath,
                        ctx.span_in(site.text, range),
                        format!(
                            "`{}` has the path segment `{segment}`, which climbs out of the path it is in once the URL is normalised",
                            site.text.value
                        ),
                    )
                    .with_pointer(site.pointer)
                    .with_help("write the path as the external system's API documents it, without `.` or `..` segments; a request may never leave the server's base path, so the push engine refuses it");
                sink.push(d);
                // One finding per reference: the fix is to rewrite its path.
                break;
            }
        }
    }
}
