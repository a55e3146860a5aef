//! An operation object: its parameters, request body and responses.

use crate::node::Node;

use super::resolve;

/// An operation object of a document.
#[derive(Clone, Copy, Debug)]
pub struct Operation<'d> {
    root: &'d Node,
    /// The operation object.
    pub node: &'d Node,
}

/// The media type object a request body or response describes JSON with.
#[derive(Clone, Copy, Debug)]
pub struct MediaType<'d> {
    /// The media type's name (`application/json`, `application/vnd.api+json`).
    pub name: &'d str,
    /// `schema`, as written (it may be a `$ref`).
    pub schema: Option<&'d Node>,
    /// The media type object.
    pub node: &'d Node,
}

impl<'d> Operation<'d> {
    pub(super) fn new(root: &'d Node, node: &'d Node) -> Self {
        Operation { root, node }
    }

    /// The responses, references followed, with their status codes as written (`200`, `2XX`,
    /// `default`), in document order.
    pub fn responses(&self) -> impl Iterator<Item = (&'d str, &'d Node)> + use<'d> {
        let root = self.root;
        super::members(self.node.get("responses"))
            .filter_map(move |m| Some((&*m.key.name, resolve(root, Some(&m.value))?)))
    }

    /// The success (`2xx`, `2XX`) responses, in document order.
    #[must_use]
    pub fn success_responses(&self) -> Vec<&'d Node> {
        self.responses()
            .filter(|(code, _)| code.starts_with('2'))
            .map(|(_, r)| r)
            .collect()
    }

    /// The request body object, references followed.
    #[must_use]
    pub fn request_body(&self) -> Option<&'d Node> {
        resolve(self.root, self.node.get("requestBody"))
    }

    /// The parameters that apply to the operation, references followed: the operation's own,
    /// then those of `path_item` it does not redefine (same `name` and `in`).
    #[must_use]
    pub fn parameters(&self, path_item: Option<&'d Node>) -> Vec<&'d Node> {
        let own: Vec<&'d Node> = self.resolved_parameters(Some(self.node));
        let inherited: Vec<&'d Node> = self
            .resolved_parameters(path_item)
            .into_iter()
            .filter(|p| !own.iter().any(|o| parameter_key(o) == parameter_key(p)))
            .collect();
        own.into_iter().chain(inherited).collect()
    }

    fn resolved_parameters(&self, holder: Option<&'d Node>) -> Vec<&'d Node> {
        let root = self.root;
        super::array(holder.and_then(|h| h.get("parameters")))
            .filter_map(|p| resolve(root, Some(p)))
            .collect()
    }

    /// The JSON media type of a request body or response `holder` (references followed):
    /// `application/json` first, then any other JSON type (`+json`, `json` in the name).
    #[must_use]
    pub fn json_content(&self, holder: &'d Node) -> Option<MediaType<'d>> {
        json_content(self.root, holder)
    }
}

/// What identifies a parameter: its `name` and `in`.
fn parameter_key(parameter: &Node) -> (Option<&str>, Option<&str>) {
    let text = |key| parameter.get(key).and_then(Node::as_str);
    (text("name"), text("in"))
}

/// See [`Operation::json_content`].
#[must_use]
pub fn json_content<'d>(root: &'d Node, holder: &'d Node) -> Option<MediaType<'d>> {
    let content = resolve(root, Some(holder))?.get("content")?.as_object()?;
    let pick = content
        .iter()
        .find(|m| m.key.name.starts_with("application/json"))
        .or_else(|| content.iter().find(|m| m.key.name.contains("json")))?;
    Some(MediaType {
        name: &pick.key.name,
        schema: pick.value.get("schema"),
        node: &pick.value,
    })
}

impl<'d> MediaType<'d> {
    /// The media type's example: `example`, or the `value` of the first of `examples`
    /// (references followed) that has one.
    #[must_use]
    pub fn example(&self, root: &'d Node) -> Option<&'d Node> {
        if let Some(example) = self.node.get("example") {
            return Some(example);
        }
        super::members(self.node.get("examples"))
            .find_map(|m| resolve(root, Some(&m.value))?.get("value"))
    }
}
