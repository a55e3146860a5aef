//! Lists the platform shows beside a record, read with it for templates: a product's price
//! lists, each with the items of that list that price the product (the module table's
//! [`AttachedList`]s).

use reqwest::Method;
use serde_json::Value;
use syncdef_definitions::platform::modules::AttachedList;

use crate::client::PlatformClient;
use crate::error::PlatformError;
use crate::ids::record_id;
use crate::query::{Collection, Filter, Query};

impl PlatformClient {
    /// The elements of `list` for the record `id` (already checked and escaped as its record
    /// route takes it), each with the rows of its `each` collection that name the record (the
    /// items of one price list that price the product).
    pub async fn attached_list(
        &self,
        list: &AttachedList,
        id: &str,
    ) -> Result<Vec<Value>, PlatformError> {
        let path = list.path(id);
        let mut elements = self.get_list(&path).await?;
        let Some(each) = list.each else {
            return Ok(elements);
        };
        let collection = Collection::find(each.collection).ok_or_else(|| {
            PlatformError::Config(format!("no collection {} is known", each.collection))
        })?;
        let placeholder = collection.path_params.first().map_or("id", |p| p.name);
        for element in &mut elements {
            // Without its id an element's rows cannot be asked for: the read fails rather
            // than hand templates a list that looks complete and is not.
            let element_id =
                record_id(each.element_id, element).map_err(|e| PlatformError::Decode {
                    method: Method::GET,
                    url: self.url(&path, None).to_string(),
                    reason: format!("an element of the list cannot be read further: {e}"),
                    body: element.to_string().chars().take(200).collect(),
                })?;
            let query = Query::new(collection)
                .path_param(placeholder, element_id)
                .filter(Filter::eq(each.record_property, id));
            let rows = self.list_all(&query).await?;
            if let Value::Object(map) = element {
                map.insert(each.field.to_owned(), Value::Array(rows));
            }
        }
        Ok(elements)
    }
}
