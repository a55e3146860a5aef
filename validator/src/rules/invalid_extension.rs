//! `InvalidExtension`: the `x-syncdef` extension holds a key or value the engine refuses.

use syncdef_definitions::extension::{EXTENSION_KEY, Extension};
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_definitions::path_match::Resolution;
use syncdef_definitions::pointer;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reads `x-syncdef` (retries, rate limits, conflict rules, the idempotency key, lookups)
    /// with the reader the push engine uses, and reports what it refuses at the value at fault:
    /// an unknown or misspelt key, a value of the wrong type, zero attempts, a status that is
    /// not an error, a limit of 0, a conflict path outside its `$.a[0][*].b` subset, an empty
    /// key name, a lookup that is not a GET or whose placeholders are not `{body.Member}`.
    ///
    /// ## Why is this bad?
    /// The engine refuses to load a definition whose `x-syncdef` it cannot read: every push
    /// and sync of it fails, although the rest of the definition lints clean.
    ///
    /// ## Example
    /// ```yaml
    /// x-syncdef:
    ///   retry: {maxAttempts: 0}
    ///   rateLimit: {requestsPerMinute: 500, concurency: 10}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// x-syncdef:
    ///   retry: {maxAttempts: 1}        # 1: no retry
    ///   rateLimit: {requestsPerMinute: 500, concurrency: 10}
    /// ```
    pub struct InvalidExtension {
        title: "the `x-syncdef` extension holds a key or value the engine refuses",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    if ctx.extension_problems.is_empty() {
        return check_lookup_paths(ctx, sink, &ctx.extension);
    }
    for error in &ctx.extension_problems {
        let d = sink
            .diagnostic(Rule::InvalidExtension, error.span, error.message.clone())
            .with_pointer(error.pointer.clone())
            .with_help(if error.pointer.starts_with("/x-syncdef/pull") {
                "see docs/pull.md, `x-syncdef.pull`, for the keys and their values"
            } else {
                "see docs/reliability.md, `x-syncdef` schema, for the keys and their values"
            });
        sink.push(d);
    }
}

/// Each lookup's `path` must name an operation of the document, as push paths must, and its
/// `ids` must be a JSONPath (the engine refuses to load the definition otherwise).
fn check_lookup_paths(ctx: &Context, sink: &mut Sink, extension: &Extension) {
    let paths = ctx.doc.paths();
    for (entry, lookup) in extension.lookup.iter().flatten() {
        let at = |key: &str| {
            ctx.doc
                .root()
                .get(EXTENSION_KEY)
                .and_then(|x| x.get("lookup"))
                .and_then(|l| l.get(entry))
                .and_then(|e| e.get(key))
        };
        if let (Err(e), Some(node)) = (syncdef_transform::JsonPath::parse(&lookup.ids), at("ids")) {
            let d = sink
                .diagnostic(
                    Rule::InvalidExtension,
                    node.span,
                    format!("the lookup of `{entry}` reads its ids at `{}`, which is not a JSONPath: {e}", lookup.ids),
                )
                .with_pointer(pointer::join([EXTENSION_KEY, "lookup", entry.as_str(), "ids"]))
                .with_help("write the JSONPath to the ids in the answer: `$.QueryResponse.Customer[*].Id`");
            sink.push(d);
        }
        let found = OperationRef::parse(&lookup.path)
            .is_ok_and(|r| matches!(paths.resolve(&r), Resolution::Found { .. }));
        if found {
            continue;
        }
        let Some(node) = at("path") else { continue };
        let d = sink
            .diagnostic(
                Rule::InvalidExtension,
                node.span,
                format!("the lookup of `{entry}` searches `{}`, which names no operation of the document", lookup.path),
            )
            .with_pointer(pointer::join([EXTENSION_KEY, "lookup", entry.as_str(), "path"]))
            .with_help("name a GET operation of `paths` as push paths are named: `/query/get`");
        sink.push(d);
    }
}
