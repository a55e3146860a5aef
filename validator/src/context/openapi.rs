//! The OpenAPI objects the semantic rules look at: every parameter-like object (parameters,
//! headers, media types, which carry a `schema` and examples of it) and every schema, found
//! once over the spanned tree, each with its place (which writes its JSON pointer); and every
//! operation, read from `paths` as it is asked for.
//!
//! The walk follows the fields OpenAPI defines (`paths`, `components`, `properties`, `items`,
//! ...), never arbitrary members: an example value shaped like a schema is not a schema. A
//! `$ref` is not followed: its target is visited where it is written, so each object is
//! reported once whatever the number of references to it.

use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::pointer;
use syncdef_definitions::{Member, Node};

/// One operation of `paths`.
#[derive(Clone, Copy)]
pub(crate) struct Operation<'a> {
    /// The `paths` key.
    pub template: &'a str,
    pub method: HttpMethod,
    pub node: Node<'a>,
}

impl Operation<'_> {
    /// `/paths/<template>/<method>`.
    pub fn pointer(&self) -> String {
        let mut out = String::from("/paths");
        pointer::push(&mut out, self.template);
        pointer::push(&mut out, self.method.as_str());
        out
    }
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
    pub node: Node<'a>,
    pub place: Place,
}

/// A schema object written inline (not a `$ref`).
pub(crate) struct Schema<'a> {
    pub node: Node<'a>,
    pub place: Place,
    /// Whether it is a member of an `allOf`, whose `required` may name its siblings'
    /// properties.
    pub in_all_of: bool,
}

/// The operations, parameter-like objects and schemas of one document, in document order
/// within each list.
pub(crate) struct OpenApiObjects<'a> {
    /// The document, which pointers are written from.
    root: Node<'a>,
    pub holders: Vec<Holder<'a>>,
    pub schemas: Vec<Schema<'a>>,
    /// The steps of every place recorded, each naming its parent: places share their prefixes,
    /// and a pointer is written out only when a rule asks for it (a pointer string per schema
    /// was a tenth of the memory of linting GitHub's description).
    steps: Steps,
}

/// Where an object was found; [`OpenApiObjects::pointer`] writes its JSON pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place(u32);

/// One step of a place below its parent (`NO_PARENT` for the root): the position of a member
/// in its object, or of an item in its array (`ITEM` set). Eight bytes: there is one per
/// schema of the document; the key is read from the tree when a pointer is written.
struct Step {
    parent: u32,
    position: u32,
}

/// Marks the position of an item (positions are below 2^29: see the tree's limits).
const ITEM: u32 = 1 << 31;

const NO_PARENT: u32 = u32::MAX;

/// The recorded steps, in chunks of a fixed size. There is a step per schema of a document,
/// and a list that doubles holds its old and its new copy at once while it grows, then keeps
/// up to half of its last size unused: on Microsoft Graph's description that was the lint's
/// peak of memory.
#[derive(Default)]
struct Steps {
    chunks: Vec<Vec<Step>>,
}

/// 64 KiB of steps.
const STEPS_PER_CHUNK: usize = 4096;

impl Steps {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "one step per member or item of the definition, which the loader refuses past 4 GiB, so fewer than `u32::MAX`"
    )]
    fn push(&mut self, step: Step) -> u32 {
        let full = self
            .chunks
            .last()
            .is_none_or(|c| c.len() == STEPS_PER_CHUNK);
        if full {
            self.chunks.push(Vec::with_capacity(STEPS_PER_CHUNK));
        }
        let before = (self.chunks.len() - 1) * STEPS_PER_CHUNK;
        let Some(chunk) = self.chunks.last_mut() else {
            return NO_PARENT;
        };
        chunk.push(step);
        (before + chunk.len() - 1) as u32
    }

    fn get(&self, at: u32) -> Option<&Step> {
        let at = at as usize;
        self.chunks
            .get(at / STEPS_PER_CHUNK)?
            .get(at % STEPS_PER_CHUNK)
    }

    /// Gives back what the last chunk does not use.
    fn shrink_to_fit(&mut self) {
        if let Some(last) = self.chunks.last_mut() {
            last.shrink_to_fit();
        }
        self.chunks.shrink_to_fit();
    }
}

/// A member (by its key in the tree) or an item's index.
#[derive(Clone, Copy)]
enum Token {
    Member(u32),
    Index(u32),
}

/// The path being walked: its tokens, each with the step it was recorded as, once it was.
#[derive(Default)]
struct Path {
    tokens: Vec<(Token, Option<u32>)>,
}

/// How a kind of object under `components` is walked.
type Visit<'a> = fn(&mut OpenApiObjects<'a>, Node<'a>, &mut Path);

/// Schemas nest; a document deeper than this is SD103's finding, not ours to walk.
const MAX_SCHEMA_DEPTH: u32 = 64;

impl<'a> OpenApiObjects<'a> {
    pub fn of(root: Node<'a>) -> Self {
        let mut found = OpenApiObjects {
            root,
            holders: Vec::new(),
            schemas: Vec::new(),
            steps: Steps::default(),
        };
        let mut at = Path::default();
        if let Some(paths_member) = root.member("paths")
            && let Some(paths) = paths_member.value.as_object()
        {
            for member in paths {
                with(&mut at, &[key(&paths_member), key(&member)], |at| {
                    found.path_item(member.value, at);
                });
            }
        }
        if let Some(components) = root.member("components") {
            found.components(components, &mut at);
        }
        // They live as long as the lint of the file: give back what growth left unused.
        found.holders.shrink_to_fit();
        found.steps.shrink_to_fit();
        found.schemas.shrink_to_fit();
        found
    }

    fn components(&mut self, components: Member<'a>, at: &mut Path) {
        let kinds: [(&str, Visit<'a>); 5] = [
            ("schemas", |s, n, at| s.schema(n, at, false, 0)),
            ("parameters", |s, n, at| {
                s.holder(HolderKind::Parameter, n, at);
            }),
            ("headers", |s, n, at| s.holder(HolderKind::Header, n, at)),
            ("requestBodies", Self::content_of),
            ("responses", Self::response),
        ];
        for (kind, visit) in kinds {
            let Some(group) = components.value.member(kind) else {
                continue;
            };
            for member in members(Some(group.value)) {
                with(at, &[key(&components), key(&group), key(&member)], |at| {
                    visit(self, member.value, at);
                });
            }
        }
    }

    fn path_item(&mut self, item: Node<'a>, at: &mut Path) {
        self.parameters(item.member("parameters"), at);
        for method in HttpMethod::ALL {
            let Some(operation) = item.member(method.as_str()) else {
                continue;
            };
            let node = &operation.value;
            with(at, &[key(&operation)], |at| {
                self.parameters(node.member("parameters"), at);
                if let Some(body) = node.member("requestBody") {
                    with(at, &[key(&body)], |at| self.content_of(body.value, at));
                }
                if let Some(responses) = node.member("responses") {
                    for member in members(Some(responses.value)) {
                        with(at, &[key(&responses), key(&member)], |at| {
                            self.response(member.value, at);
                        });
                    }
                }
            });
        }
    }

    fn parameters(&mut self, list: Option<Member<'a>>, at: &mut Path) {
        let Some(list) = list else {
            return;
        };
        for (i, parameter) in list.value.as_array().unwrap_or_default().iter().enumerate() {
            with(at, &[key(&list), index(i)], |at| {
                self.holder(HolderKind::Parameter, parameter, at);
            });
        }
    }

    fn response(&mut self, response: Node<'a>, at: &mut Path) {
        if let Some(headers) = response.member("headers") {
            for member in members(Some(headers.value)) {
                with(at, &[key(&headers), key(&member)], |at| {
                    self.holder(HolderKind::Header, member.value, at);
                });
            }
        }
        self.content_of(response, at);
    }

    /// The media types under `content` of a request body, response, parameter or header.
    fn content_of(&mut self, holder: Node<'a>, at: &mut Path) {
        let Some(content) = holder.member("content") else {
            return;
        };
        for member in members(Some(content.value)) {
            with(at, &[key(&content), key(&member)], |at| {
                self.holder(HolderKind::MediaType, member.value, at);
            });
        }
    }

    fn holder(&mut self, kind: HolderKind, node: Node<'a>, at: &mut Path) {
        if node.get("$ref").is_some() || node.as_object().is_none() {
            return;
        }
        let place = self.place(at);
        self.holders.push(Holder { kind, node, place });
        if let Some(schema) = node.member("schema") {
            with(at, &[key(&schema)], |at| {
                self.schema(schema.value, at, false, 0);
            });
        }
        if kind != HolderKind::MediaType {
            self.content_of(node, at);
        }
    }

    fn schema(&mut self, node: Node<'a>, at: &mut Path, in_all_of: bool, depth: u32) {
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
            if let Some(child) = node.member(name) {
                with(at, &[key(&child)], |at| {
                    self.schema(child.value, at, false, depth + 1);
                });
            }
        }
        for name in ["properties", "patternProperties", "$defs"] {
            let Some(group) = node.member(name) else {
                continue;
            };
            for member in members(Some(group.value)) {
                with(at, &[key(&group), key(&member)], |at| {
                    self.schema(member.value, at, false, depth + 1);
                });
            }
        }
        for name in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            let Some(list) = node.member(name) else {
                continue;
            };
            for (i, child) in list.value.as_array().unwrap_or_default().iter().enumerate() {
                with(at, &[key(&list), index(i)], |at| {
                    self.schema(child, at, name == "allOf", depth + 1);
                });
            }
        }
    }

    /// The operations of `paths`, in document order (read from the tree as they are asked
    /// for: a list of them was a sixth of the lint's memory on 200,000 paths).
    pub fn operations(&self) -> impl Iterator<Item = Operation<'a>> + use<'a> {
        let paths = self
            .root
            .get("paths")
            .and_then(Node::as_object)
            .unwrap_or_default();
        paths.into_iter().flat_map(|path| {
            HttpMethod::ALL.into_iter().filter_map(move |method| {
                Some(Operation {
                    template: path.key.name,
                    method,
                    node: path.value.get(method.as_str())?,
                })
            })
        })
    }

    /// Records the path being walked as a place, sharing the steps its prefix already has.
    fn place(&mut self, at: &mut Path) -> Place {
        let mut parent = NO_PARENT;
        for (token, recorded) in &mut at.tokens {
            parent = if let Some(step) = recorded {
                *step
            } else {
                let position = match *token {
                    Token::Member(at) => at,
                    Token::Index(i) => i | ITEM,
                };
                let step = self.steps.push(Step { parent, position });
                *recorded = Some(step);
                step
            };
        }
        Place(parent)
    }

    /// The JSON pointer of `place` (`""` for the document root).
    pub fn pointer(&self, place: Place) -> String {
        let mut steps = Vec::new();
        let mut at = place.0;
        while let Some(step) = self.steps.get(at) {
            steps.push(step);
            at = step.parent;
        }
        let mut out = String::new();
        let mut node = Some(self.root);
        for step in steps.iter().rev() {
            let position = (step.position & !ITEM) as usize;
            if step.position & ITEM == 0 {
                let member = node.and_then(Node::as_object).and_then(|m| m.at(position));
                pointer::push(&mut out, member.map_or("", |m| m.key.name));
                node = member.map(|m| m.value);
            } else {
                pointer::push_index(&mut out, position);
                node = node
                    .and_then(Node::as_array)
                    .and_then(|items| items.get(position));
            }
        }
        out
    }
}

fn key(member: &Member<'_>) -> Token {
    Token::Member(u32::try_from(member.position()).unwrap_or(u32::MAX))
}

fn index(i: usize) -> Token {
    Token::Index(u32::try_from(i).unwrap_or(u32::MAX))
}

/// The members of an object node; none for anything else.
fn members(node: Option<Node<'_>>) -> syncdef_definitions::Members<'_> {
    node.and_then(Node::as_object).unwrap_or_default()
}

/// Runs `f` with `tokens` appended to the path `at`, then restores it.
fn with(at: &mut Path, tokens: &[Token], f: impl FnOnce(&mut Path)) {
    let len = at.tokens.len();
    at.tokens.extend(tokens.iter().map(|t| (*t, None)));
    f(at);
    at.tokens.truncate(len);
}

#[cfg(test)]
mod places {
    use std::sync::Arc;

    use syncdef_definitions::{LoadOptions, SourceFile};

    use super::{OpenApiObjects, Step};

    #[test]
    fn every_place_writes_the_pointer_of_its_object() {
        let text = r"
paths:
  /a/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200':
          content:
            application/json:
              schema: {type: object, properties: {x~y: {allOf: [{type: string}]}}}
components:
  schemas:
    S: {type: array, items: {type: integer}}
";
        let file = Arc::new(SourceFile::new("t.yaml", text));
        let doc =
            syncdef_definitions::load::load_with(file, &LoadOptions::default()).expect("loads");
        let root = doc.root();
        let found = OpenApiObjects::of(root);
        let schemas: Vec<String> = found
            .schemas
            .iter()
            .map(|s| found.pointer(s.place))
            .collect();
        assert_eq!(
            schemas,
            [
                "/paths/~1a~1{id}/parameters/0/schema",
                "/paths/~1a~1{id}/get/responses/200/content/application~1json/schema",
                "/paths/~1a~1{id}/get/responses/200/content/application~1json/schema/properties/x~0y",
                "/paths/~1a~1{id}/get/responses/200/content/application~1json/schema/properties/x~0y/allOf/0",
                "/components/schemas/S",
                "/components/schemas/S/items",
            ]
        );
        for schema in &found.schemas {
            assert_eq!(
                root.pointer(&found.pointer(schema.place))
                    .expect("resolves")
                    .identity(),
                schema.node.identity()
            );
        }
        assert_eq!(
            found
                .operations()
                .next()
                .map(|o| o.pointer())
                .unwrap_or_default(),
            "/paths/~1a~1{id}/get"
        );
        // One per object of the walk: kept small.
        assert_eq!(std::mem::size_of::<Step>(), 8);
    }
}
