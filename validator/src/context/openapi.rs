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
    pub place: Place,
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
    pub place: Place,
}

/// A schema object written inline (not a `$ref`).
pub(crate) struct Schema<'a> {
    pub node: &'a Node,
    pub place: Place,
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
    /// The steps of every place recorded, each naming its parent: places share their prefixes,
    /// and a pointer is written out only when a rule asks for it (a pointer string per schema
    /// was a tenth of the memory of linting GitHub's description).
    steps: Vec<Step<'a>>,
}

/// Where an object was found; [`OpenApiObjects::pointer`] writes its JSON pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place(u32);

/// One step of a place below its parent (`NO_PARENT` for the root).
struct Step<'a> {
    parent: u32,
    token: Token<'a>,
}

const NO_PARENT: u32 = u32::MAX;

/// A member's key or an item's index.
#[derive(Clone, Copy)]
enum Token<'a> {
    Key(&'a str),
    Index(u32),
}

/// The path being walked: its tokens, each with the step it was recorded as, once it was.
#[derive(Default)]
struct Path<'a> {
    tokens: Vec<(Token<'a>, Option<u32>)>,
}

/// How a kind of object under `components` is walked.
type Visit<'a> = fn(&mut OpenApiObjects<'a>, &'a Node, &mut Path<'a>);

/// Schemas nest; a document deeper than this is SD103's finding, not ours to walk.
const MAX_SCHEMA_DEPTH: u32 = 64;

impl<'a> OpenApiObjects<'a> {
    pub fn of(root: &'a Node) -> Self {
        let mut found = OpenApiObjects::default();
        let mut at = Path::default();
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
                with(&mut at, &[key("paths"), key(&member.key.name)], |at| {
                    found.path_item(&member.key.name, &member.value, at);
                });
            }
        }
        if let Some(components) = root.get("components") {
            found.components(components, &mut at);
        }
        // They live as long as the lint of the file: give back what growth left unused.
        found.holders.shrink_to_fit();
        found.steps.shrink_to_fit();
        found.schemas.shrink_to_fit();
        found
    }

    fn components(&mut self, components: &'a Node, at: &mut Path<'a>) {
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
                with(
                    at,
                    &[key("components"), key(kind), key(&member.key.name)],
                    |at| {
                        visit(self, &member.value, at);
                    },
                );
            }
        }
    }

    fn path_item(&mut self, template: &'a str, item: &'a Node, at: &mut Path<'a>) {
        self.parameters(item.get("parameters"), at);
        for method in HttpMethod::ALL {
            let Some(node) = item.get(method.as_str()) else {
                continue;
            };
            with(at, &[key(method.as_str())], |at| {
                let place = self.place(at);
                self.operations.push(Operation {
                    template,
                    method,
                    node,
                    place,
                });
                self.parameters(node.get("parameters"), at);
                if let Some(body) = node.get("requestBody") {
                    with(at, &[key("requestBody")], |at| self.content_of(body, at));
                }
                for member in members(node.get("responses")) {
                    with(at, &[key("responses"), key(&member.key.name)], |at| {
                        self.response(&member.value, at);
                    });
                }
            });
        }
    }

    fn parameters(&mut self, list: Option<&'a Node>, at: &mut Path<'a>) {
        for (i, parameter) in list
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            with(at, &[key("parameters"), index(i)], |at| {
                self.holder(HolderKind::Parameter, parameter, at);
            });
        }
    }

    fn response(&mut self, response: &'a Node, at: &mut Path<'a>) {
        for member in members(response.get("headers")) {
            with(at, &[key("headers"), key(&member.key.name)], |at| {
                self.holder(HolderKind::Header, &member.value, at);
            });
        }
        self.content_of(response, at);
    }

    /// The media types under `content` of a request body, response, parameter or header.
    fn content_of(&mut self, holder: &'a Node, at: &mut Path<'a>) {
        for member in members(holder.get("content")) {
            with(at, &[key("content"), key(&member.key.name)], |at| {
                self.holder(HolderKind::MediaType, &member.value, at);
            });
        }
    }

    fn holder(&mut self, kind: HolderKind, node: &'a Node, at: &mut Path<'a>) {
        if node.get("$ref").is_some() || node.as_object().is_none() {
            return;
        }
        let place = self.place(at);
        self.holders.push(Holder { kind, node, place });
        if let Some(schema) = node.get("schema") {
            with(at, &[key("schema")], |at| self.schema(schema, at, false, 0));
        }
        if kind != HolderKind::MediaType {
            self.content_of(node, at);
        }
    }

    fn schema(&mut self, node: &'a Node, at: &mut Path<'a>, in_all_of: bool, depth: u32) {
        if depth > MAX_SCHEMA_DEPTH || node.get("$ref").is_some() || node.as_object().is_none() {
            return;
        }
        let place = self.place(at);
        self.schemas.push(Schema {
            node,
            place,
            in_all_of,
        });
        for name in ["items", "additionalProperties", "not"] {
            if let Some(child) = node.get(name) {
                with(at, &[key(name)], |at| {
                    self.schema(child, at, false, depth + 1)
                });
            }
        }
        for name in ["properties", "patternProperties", "$defs"] {
            for member in members(node.get(name)) {
                with(at, &[key(name), key(&member.key.name)], |at| {
                    self.schema(&member.value, at, false, depth + 1);
                });
            }
        }
        for name in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            let items = node.get(name).and_then(Node::as_array).unwrap_or_default();
            for (i, child) in items.iter().enumerate() {
                with(at, &[key(name), index(i)], |at| {
                    self.schema(child, at, name == "allOf", depth + 1);
                });
            }
        }
    }

    /// Records the path being walked as a place, sharing the steps its prefix already has.
    fn place(&mut self, at: &mut Path<'a>) -> Place {
        let mut parent = NO_PARENT;
        for (token, recorded) in &mut at.tokens {
            parent = match recorded {
                Some(step) => *step,
                None => {
                    let step = self.steps.len() as u32;
                    self.steps.push(Step {
                        parent,
                        token: *token,
                    });
                    *recorded = Some(step);
                    step
                }
            };
        }
        Place(parent)
    }

    /// The JSON pointer of `place` (`""` for the document root).
    pub fn pointer(&self, place: Place) -> String {
        let mut tokens = Vec::new();
        let mut at = place.0;
        while let Some(step) = self.steps.get(at as usize) {
            tokens.push(step.token);
            at = step.parent;
        }
        let mut out = String::new();
        for token in tokens.iter().rev() {
            match token {
                Token::Key(name) => pointer::push(&mut out, name),
                Token::Index(i) => pointer::push_index(&mut out, *i as usize),
            }
        }
        out
    }
}

fn key(name: &str) -> Token<'_> {
    Token::Key(name)
}

fn index(i: usize) -> Token<'static> {
    Token::Index(u32::try_from(i).unwrap_or(u32::MAX))
}

/// The members of an object node; none for anything else.
fn members(node: Option<&Node>) -> &[syncdef_definitions::Member] {
    node.and_then(Node::as_object).unwrap_or_default()
}

/// Runs `f` with `tokens` appended to the path `at`, then restores it.
fn with<'a>(at: &mut Path<'a>, tokens: &[Token<'a>], f: impl FnOnce(&mut Path<'a>)) {
    let len = at.tokens.len();
    at.tokens.extend(tokens.iter().map(|t| (*t, None)));
    f(at);
    at.tokens.truncate(len);
}
