//! The OpenAPI objects the semantic rules look at, found once over the spanned tree: every
//! operation, every parameter-like object (parameters, headers, media types, which carry a
//! `schema` and examples of it) and every schema, each with its JSON pointer.
//!
//! The walk follows the fields OpenAPI defines (`paths`, `components`, `properties`, `items`,
//! ...), never arbitrary members: an example value shaped like a schema is not a schema. A
//! `$ref` is not followed: its target is visited where it is written, so each object is
//! reported once whatever the number of references to it.

use syncdef_definitions::Node;
use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::pointer;

/// One operation of `paths`.
pub(crate) struct Operation<'a> {
    /// The `paths` key.
    pub template: &'a str,
    pub method: HttpMethod,
    pub node: &'a Node,
    /// `/paths/<template>/<method>`.
    pub pointer: String,
}

/// What a parameter-like object is: they share `schema`, `example` and `examples`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HolderKind {
    Parameter,
    Header,
    MediaType,
}

/// A parameter, header or media type object written inline (not a `$ref`).
pub(crate) struct Holder<'a> {
    pub kind: HolderKind,
    pub node: &'a Node,
    pub pointer: String,
}

/// A schema object written inline (not a `$ref`).
pub(crate) struct Schema<'a> {
    pub node: &'a Node,
    pub pointer: String,
    /// Whether it is a member of an `allOf`, whose `required` may name its siblings'
    /// properties.
    pub in_all_of: bool,
}

/// The operations, parameter-like objects and schemas of one document, in document order
/// within each list.
#[derive(Default)]
pub(crate) struct OpenApiObjects<'a> {
    pub operations: Vec<Operation<'a>>,
    pub holders: Vec<Holder<'a>>,
    pub schemas: Vec<Schema<'a>>,
}

/// How a kind of object under `components` is walked.
type Visit<'a> = fn(&mut OpenApiObjects<'a>, &'a Node, &mut String);

/// Schemas nest; a document deeper than this is SD103's finding, not ours to walk.
const MAX_SCHEMA_DEPTH: u32 = 64;

impl<'a> OpenApiObjects<'a> {
    pub fn of(root: &'a Node) -> Self {
        let mut found = OpenApiObjects::default();
        let mut at = String::new();
        if let Some(paths) = root.get("paths").and_then(Node::as_object) {
            // Counted first: doubling a list of 200,000 operations held two copies at once.
            let operations = paths
                .iter()
                .map(|p| {
                    HttpMethod::ALL
                        .iter()
                        .filter(|m| p.value.get(m.as_str()).is_some())
                        .count()
                })
                .sum();
            found.operations.reserve_exact(operations);
            for member in paths {
                with(&mut at, &["paths", &member.key.name], |at| {
                    found.path_item(&member.key.name, &member.value, at);
                });
            }
        }
        if let Some(components) = root.get("components") {
            found.components(components, &mut at);
        }
        // They live as long as the lint of the file: give back what growth left unused.
        found.holders.shrink_to_fit();
        found.schemas.shrink_to_fit();
        found
    }

    fn components(&mut self, components: &'a Node, at: &mut String) {
        let kinds: [(&str, Visit<'a>); 5] = [
            ("schemas", |s, n, at| s.schema(n, at, false, 0)),
            ("parameters", |s, n, at| {
                s.holder(HolderKind::Parameter, n, at)
            }),
            ("headers", |s, n, at| s.holder(HolderKind::Header, n, at)),
            ("requestBodies", Self::content_of),
            ("responses", Self::response),
        ];
        for (kind, visit) in kinds {
            for member in members(components.get(kind)) {
                with(at, &["components", kind, &member.key.name], |at| {
                    visit(self, &member.value, at);
                });
            }
        }
    }

    fn path_item(&mut self, template: &'a str, item: &'a Node, at: &mut String) {
        self.parameters(item.get("parameters"), at);
        for method in HttpMethod::ALL {
            let Some(node) = item.get(method.as_str()) else {
                continue;
            };
            with(at, &[method.as_str()], |at| {
                self.operations.push(Operation {
                    template,
                    method,
                    node,
                    pointer: at.clone(),
                });
                self.parameters(node.get("parameters"), at);
                if let Some(body) = node.get("requestBody") {
                    with(at, &["requestBody"], |at| self.content_of(body, at));
                }
                for member in members(node.get("responses")) {
                    with(at, &["responses", &member.key.name], |at| {
                        self.response(&member.value, at);
                    });
                }
            });
        }
    }

    fn parameters(&mut self, list: Option<&'a Node>, at: &mut String) {
        for (i, parameter) in list
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            with(at, &["parameters", &i.to_string()], |at| {
                self.holder(HolderKind::Parameter, parameter, at);
            });
        }
    }

    fn response(&mut self, response: &'a Node, at: &mut String) {
        for member in members(response.get("headers")) {
            with(at, &["headers", &member.key.name], |at| {
                self.holder(HolderKind::Header, &member.value, at);
            });
        }
        self.content_of(response, at);
    }

    /// The media types under `content` of a request body, response, parameter or header.
    fn content_of(&mut self, holder: &'a Node, at: &mut String) {
        for member in members(holder.get("content")) {
            with(at, &["content", &member.key.name], |at| {
                self.holder(HolderKind::MediaType, &member.value, at);
            });
        }
    }

    fn holder(&mut self, kind: HolderKind, node: &'a Node, at: &mut String) {
        if node.get("$ref").is_some() || node.as_object().is_none() {
            return;
        }
        self.holders.push(Holder {
            kind,
            node,
            pointer: at.clone(),
        });
        if let Some(schema) = node.get("schema") {
            with(at, &["schema"], |at| self.schema(schema, at, false, 0));
        }
        if kind != HolderKind::MediaType {
            self.content_of(node, at);
        }
    }

    fn schema(&mut self, node: &'a Node, at: &mut String, in_all_of: bool, depth: u32) {
        if depth > MAX_SCHEMA_DEPTH || node.get("$ref").is_some() || node.as_object().is_none() {
            return;
        }
        self.schemas.push(Schema {
            node,
            pointer: at.clone(),
            in_all_of,
        });
        for key in ["items", "additionalProperties", "not"] {
            if let Some(child) = node.get(key) {
                with(at, &[key], |at| self.schema(child, at, false, depth + 1));
            }
        }
        for key in ["properties", "patternProperties", "$defs"] {
            for member in members(node.get(key)) {
                with(at, &[key, &member.key.name], |at| {
                    self.schema(&member.value, at, false, depth + 1);
                });
            }
        }
        for key in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            let items = node.get(key).and_then(Node::as_array).unwrap_or_default();
            for (i, child) in items.iter().enumerate() {
                with(at, &[key, &i.to_string()], |at| {
                    self.schema(child, at, key == "allOf", depth + 1);
                });
            }
        }
    }
}

/// The members of an object node; none for anything else.
fn members(node: Option<&Node>) -> &[syncdef_definitions::Member] {
    node.and_then(Node::as_object).unwrap_or_default()
}

/// Runs `f` with `tokens` appended to the pointer `at`, then restores it.
fn with(at: &mut String, tokens: &[&str], f: impl FnOnce(&mut String)) {
    let len = at.len();
    for token in tokens {
        pointer::push(at, token);
    }
    f(at);
    at.truncate(len);
}
