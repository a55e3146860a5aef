//! An operation object: its parameters, request body and responses.

use crate::extension::{ParameterPlace, is_engine_header};
use crate::node::Node;

use super::resolve;

/// An operation object of a document.
#[derive(Clone, Copy, Debug)]
pub struct Operation<'d> {
    root: Node<'d>,
    /// The operation object.
    pub node: Node<'d>,
}

/// The media type object a request body or response describes JSON with.
#[derive(Clone, Copy, Debug)]
pub struct MediaType<'d> {
    /// The media type's name (`application/json`, `application/vnd.api+json`).
    pub name: &'d str,
    /// `schema`, as written (it may be a `$ref`).
    pub schema: Option<Node<'d>>,
    /// The media type object.
    pub node: Node<'d>,
}

impl<'d> Operation<'d> {
    pub(super) fn new(root: Node<'d>, node: Node<'d>) -> Self {
        Operation { root, node }
    }

    /// The responses, references followed, with their status codes as written (`200`, `2XX`,
    /// `default`), in document order.
    pub fn responses(&self) -> impl Iterator<Item = (&'d str, Node<'d>)> + use<'d> {
        let root = self.root;
        super::members(self.node.get("responses"))
            .filter_map(move |m| Some((m.key.name, resolve(root, Some(m.value))?)))
    }

    /// The success (`2xx`, `2XX`) responses, in document order.
    #[must_use]
    pub fn success_responses(&self) -> Vec<Node<'d>> {
        self.responses()
            .filter(|(code, _)| code.starts_with('2'))
            .map(|(_, r)| r)
            .collect()
    }

    /// The request body object, references followed.
    #[must_use]
    pub fn request_body(&self) -> Option<Node<'d>> {
        resolve(self.root, self.node.get("requestBody"))
    }

    /// The parameters that apply to the operation, references followed: the operation's own,
    /// then those of `path_item` it does not redefine (same `name` and `in`).
    #[must_use]
    pub fn parameters(&self, path_item: Option<Node<'d>>) -> Vec<Node<'d>> {
        let own: Vec<Node<'d>> = self.resolved_parameters(Some(self.node));
        let inherited: Vec<Node<'d>> = self
            .resolved_parameters(path_item)
            .into_iter()
            .filter(|p| !own.iter().any(|o| parameter_key(o) == parameter_key(p)))
            .collect();
        own.into_iter().chain(inherited).collect()
    }

    fn resolved_parameters(&self, holder: Option<Node<'d>>) -> Vec<Node<'d>> {
        let root = self.root;
        super::array(holder.and_then(|h| h.get("parameters")))
            .filter_map(|p| resolve(root, Some(p)))
            .collect()
    }

    /// The JSON media type of a request body or response `holder` (references followed):
    /// `application/json` first, then any other JSON type (`+json`, `text/json`), parameters
    /// such as `; charset=utf-8` set aside ([`super::media::is_json`]).
    #[must_use]
    pub fn json_content(&self, holder: Node<'d>) -> Option<MediaType<'d>> {
        json_content(self.root, holder)
    }
}

/// A header or query parameter an operation declares: what `x-syncdef.parameters` can fill.
#[derive(Clone, Copy, Debug)]
pub struct SentParameter<'d> {
    /// `in`.
    pub place: ParameterPlace,
    /// `name`.
    pub name: &'d str,
    /// `required`.
    pub required: bool,
    /// The parameter object, references followed.
    pub node: Node<'d>,
}

impl<'d> Operation<'d> {
    /// The header and query parameters that apply to the operation (its own, then its path
    /// item's), leaving out the headers the engine writes itself, which OpenAPI says are
    /// ignored as parameters ([`ENGINE_HEADERS`](crate::extension::ENGINE_HEADERS)).
    #[must_use]
    pub fn sent_parameters(&self, path_item: Option<Node<'d>>) -> Vec<SentParameter<'d>> {
        self.parameters(path_item)
            .into_iter()
            .filter_map(|node| {
                let text = |key| node.get(key).and_then(Node::as_str);
                let place = ParameterPlace::of_openapi(text("in")?)?;
                let name = text("name")?;
                let engine_header = place == ParameterPlace::Header && is_engine_header(name);
                (!engine_header).then(|| SentParameter {
                    place,
                    name,
                    required: node.get("required").and_then(Node::as_bool) == Some(true),
                    node,
                })
            })
            .collect()
    }
}

/// What identifies a parameter: its `name` and `in`.
fn parameter_key<'a>(parameter: &Node<'a>) -> (Option<&'a str>, Option<&'a str>) {
    let text = |key| parameter.get(key).and_then(Node::as_str);
    (text("name"), text("in"))
}

/// See [`Operation::json_content`].
#[must_use]
pub fn json_content<'d>(root: Node<'d>, holder: Node<'d>) -> Option<MediaType<'d>> {
    let content = resolve(root, Some(holder))?.get("content")?.as_object()?;
    let pick = content
        .iter()
        .find(|m| super::media::essence(m.key.name) == "application/json")
        .or_else(|| content.iter().find(|m| super::media::is_json(m.key.name)))?;
    Some(MediaType {
        name: pick.key.name,
        schema: pick.value.get("schema"),
        node: pick.value,
    })
}

impl<'d> MediaType<'d> {
    /// The media type's example: `example`, or the `value` of the first of `examples`
    /// (references followed) that has one.
    #[must_use]
    pub fn example(&self, root: Node<'d>) -> Option<Node<'d>> {
        if let Some(example) = self.node.get("example") {
            return Some(example);
        }
        super::members(self.node.get("examples"))
            .find_map(|m| resolve(root, Some(m.value))?.get("value"))
    }
}
