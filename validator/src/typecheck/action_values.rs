//! The values an entry's `Body` pre-actions put into its push, read from the sample answers of
//! their operations exactly as a dry-run reads them (the same sample answer, the same field
//! reading, the same stand-in for a field the answer lacks), so that a lint over sample records
//! renders the body the dry-run of those records sends.

use syncdef_definitions::answer::{field, scalar_text, stand_in};
use syncdef_definitions::model::{Action, ActionIn, ActionType};
use syncdef_definitions::openapi::{OpenApi, sample_response};

use crate::context::{Context, EntryInfo, Resolution};

/// `(name, value)` for each `name: source` mapping of the entry's `Body` pre-actions, in the
/// order the engine runs them (a later action's value for a name replaces an earlier one's).
pub(crate) fn sampled(ctx: &Context, info: &EntryInfo) -> Vec<(String, String)> {
    let mut values: Vec<(String, String)> = Vec::new();
    for (_, action) in info.actions().filter(|(pre, _)| *pre) {
        for (name, value) in read_by(ctx, info, action) {
            values.retain(|(known, _)| *known != name);
            values.push((name, value));
        }
    }
    values
}

/// What one action reads from its operation's sample answer.
fn read_by(ctx: &Context, info: &EntryInfo, action: &Action) -> Vec<(String, String)> {
    let is_api_path = action
        .kind
        .as_ref()
        .is_some_and(|k| k.value == ActionType::ApiPath);
    let into_body = action
        .placement
        .as_ref()
        .is_none_or(|p| p.value == ActionIn::Body);
    let Some(schema) = action.schema.as_ref().filter(|_| is_api_path && into_body) else {
        return Vec::new();
    };
    let Some(site) = info
        .operations
        .iter()
        .find(|o| o.operation.is_none() && o.pointer == action.pointer)
    else {
        return Vec::new();
    };
    let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
        return Vec::new();
    };
    let root = ctx.doc.root();
    let answer = sample_response(&root, &OpenApi::new(root).operation(operation));
    schema
        .fields
        .iter()
        .map(|f| {
            let (name, source) = (&f.name.value, &f.source.value);
            let value = field(&answer.body, source)
                .and_then(scalar_text)
                .unwrap_or_else(|| stand_in(source, &action.name.value));
            (name.clone(), value)
        })
        .collect()
}
