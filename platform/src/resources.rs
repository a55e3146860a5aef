//! Single records, child collections, sync options and partial updates (spec 4.3 to 4.5).
//!
//! Records are `serde_json::Value`: the spec does not show the platforms' full field lists,
//! and the engine reads them with JSONPath anyway. Ids are typed ([`crate::ids`]).

use json_patch::Patch;
use percent_encoding::utf8_percent_encode;
use reqwest::Method;
use serde_json::Value;

use crate::client::{Body, PlatformClient, parse_json};
use crate::error::PlatformError;
use crate::ids::{
    AccountId, InstallmentPlanId, InvoiceId, OrderId, OrderItemId, PaymentId, ProductId, RecordId,
    SubscriptionId, SystemId,
};
use crate::patch::check_supported;
use crate::query::{COMPONENT, Collection};
use syncdef_definitions::platform::modules as table;

/// The single-record route of a module of the module table, known at compile time.
const fn routes(module: &table::Module) -> table::Routes {
    match module.routes {
        Some(routes) => routes,
        None => panic!("the module has no single-record route"),
    }
}

const ACCOUNTS: table::Routes = routes(&table::ACCOUNTS);
const INVOICES: table::Routes = routes(&table::INVOICES);
const ORDERS: table::Routes = routes(&table::ORDERS);
const PRODUCTS: table::Routes = routes(&table::PRODUCTS);
const PAYMENTS: table::Routes = routes(&table::PAYMENTS);
const SUBSCRIPTIONS: table::Routes = routes(&table::SUBSCRIPTIONS);

/// The record route of `routes` for `id`, escaped so an id can never add a path level.
fn record_path(routes: table::Routes, id: &str) -> String {
    routes.record_path(&utf8_percent_encode(id, COMPONENT).to_string())
}

/// The items of a module of the module table (its one child collection), known at compile
/// time.
const fn items(module: &table::Module) -> table::ChildCollection {
    match module.children {
        [items] => *items,
        _ => panic!("the module has no single child collection"),
    }
}

const INVOICE_ITEMS: table::ChildCollection = items(&table::INVOICES);
const ORDER_ITEMS: table::ChildCollection = items(&table::ORDERS);

/// The items route of `items` for the record `id`, escaped.
fn items_path(items: table::ChildCollection, id: &str) -> String {
    items.path(&utf8_percent_encode(id, COMPONENT).to_string())
}

/// `/seg/seg/...` with each segment escaped, so an id can never add a path level.
fn path(segments: &[&str]) -> String {
    let mut out = String::new();
    for s in segments {
        out.push('/');
        out.extend(utf8_percent_encode(s, COMPONENT));
    }
    out
}

impl PlatformClient {
    /// GET of one record at an escaped path; `null` or an empty body is `None`.
    pub async fn get_optional(&self, path: &str) -> Result<Option<Value>, PlatformError> {
        let value = self.get_json(&self.url(path, None)).await?;
        Ok((!value.is_null()).then_some(value))
    }

    /// GET of one record at an escaped path; `null` is an error, since the record was asked
    /// for by id and a 2xx without it means the platform answered something unexpected.
    pub async fn get_record(&self, path: &str) -> Result<Value, PlatformError> {
        let url = self.url(path, None);
        let value = self.get_json(&url).await?;
        if value.is_null() {
            return Err(PlatformError::Decode {
                method: Method::GET,
                url: url.to_string(),
                reason: "expected a record, got null or nothing".to_owned(),
                body: String::new(),
            });
        }
        Ok(value)
    }

    /// GET of a list at an escaped path: a plain array, an envelope (pages are followed) or
    /// `null`, which is an empty list.
    pub async fn get_list(&self, path: &str) -> Result<Vec<Value>, PlatformError> {
        self.list_path(path).await
    }

    /// PATCH with a JSON Patch document at an escaped path. Operations other than `add`,
    /// `replace` and `remove` are refused before sending. Returns the answer's body, if any.
    pub async fn patch(
        &self,
        path: &str,
        document: &Patch,
    ) -> Result<Option<Value>, PlatformError> {
        check_supported(document)?;
        let url = self.url(path, None);
        let bytes = serde_json::to_vec(document)
            .map_err(|e| PlatformError::Usage(format!("cannot serialize the patch: {e}")))?;
        let text = self
            .execute(Method::PATCH, &url, &Body::JsonPatch(bytes))
            .await?;
        let value = parse_json(&Method::PATCH, &url, &text)?;
        Ok((!value.is_null()).then_some(value))
    }

    /// POST of a new record to a collection at an escaped path (`/api/accounts`,
    /// `/api/products`); returns the record as created. Not retried: a create sent twice may
    /// create twice.
    pub async fn create(&self, path: &str, record: &Value) -> Result<Value, PlatformError> {
        let url = self.url(path, None);
        let bytes = serde_json::to_vec(record)
            .map_err(|e| PlatformError::Usage(format!("cannot serialize the record: {e}")))?;
        let text = self.execute(Method::POST, &url, &Body::Json(bytes)).await?;
        parse_json(&Method::POST, &url, &text)
    }

    /// `GET <collection>/{id}`: one record of any collection of spec 2.1 (spec 4.4), e.g.
    /// `client.record(&collections::CONTACTS, &AccountId(5))`. Collections whose path has
    /// placeholders have no single-record route in the spec and are refused.
    pub async fn record(
        &self,
        collection: &Collection,
        id: &impl RecordId,
    ) -> Result<Value, PlatformError> {
        if !collection.path_params.is_empty() {
            return Err(PlatformError::Usage(format!(
                "{} has no single-record route in the spec; use get_record with the full path",
                collection.path
            )));
        }
        let id = utf8_percent_encode(&id.to_string(), COMPONENT).to_string();
        self.get_record(&format!("{}/{id}", collection.path)).await
    }

    /// `GET /api/accounts/{id}`.
    pub async fn account(&self, id: AccountId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(ACCOUNTS, &id.to_string()))
            .await
    }

    /// `PATCH /api/accounts/{id}`.
    pub async fn patch_account(
        &self,
        id: AccountId,
        patch: &Patch,
    ) -> Result<Option<Value>, PlatformError> {
        self.patch(&record_path(ACCOUNTS, &id.to_string()), patch)
            .await
    }

    /// `GET /api/accounts/{id}/syncoptions/{systemId}`: the account's options for one
    /// external system; `None` when the platform answers null.
    pub async fn account_sync_options(
        &self,
        account: AccountId,
        system: &SystemId,
    ) -> Result<Option<Value>, PlatformError> {
        let account = account.to_string();
        self.get_optional(&path(&[
            "api",
            "accounts",
            &account,
            "syncoptions",
            &system.0,
        ]))
        .await
    }

    /// `GET /api/accounts/{id}/orderingpricelist`: `None` when no price list fits (spec 7.2).
    /// The spec does not name the product and unit parameters, so the caller passes them.
    pub async fn ordering_price_list(
        &self,
        account: AccountId,
        parameters: &[(&str, &str)],
    ) -> Result<Option<Value>, PlatformError> {
        let query: Vec<String> = parameters
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}={}",
                    utf8_percent_encode(k, COMPONENT),
                    utf8_percent_encode(v, COMPONENT)
                )
            })
            .collect();
        let account = account.to_string();
        let url = self.url(
            &path(&["api", "accounts", &account, "orderingpricelist"]),
            Some(&query.join("&")),
        );
        let value = self.get_json(&url).await?;
        Ok((!value.is_null()).then_some(value))
    }

    /// `GET /api/invoices/{id}` (a single-record read of a 2.1 collection, spec 4.4).
    pub async fn invoice(&self, id: &InvoiceId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(INVOICES, id.0.as_str())).await
    }

    /// `GET /api/invoices/{id}/items`: the invoice lines, each with its order item id.
    pub async fn invoice_items(&self, id: &InvoiceId) -> Result<Vec<Value>, PlatformError> {
        self.get_list(&items_path(INVOICE_ITEMS, id.0.as_str()))
            .await
    }

    /// `GET /api/invoices/{id}/orders`.
    pub async fn invoice_orders(&self, id: &InvoiceId) -> Result<Vec<Value>, PlatformError> {
        self.get_list(&path(&["api", "invoices", id.0.as_str(), "orders"]))
            .await
    }

    /// `GET /api/orders/{id}`.
    pub async fn order(&self, id: &OrderId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(ORDERS, id.0.as_str())).await
    }

    /// `GET /api/orders/{id}/items`.
    pub async fn order_items(&self, id: &OrderId) -> Result<Vec<Value>, PlatformError> {
        self.get_list(&items_path(ORDER_ITEMS, id.0.as_str())).await
    }

    /// `GET /api/orders/{id}/items/{itemId}`.
    pub async fn order_item(
        &self,
        order: &OrderId,
        item: &OrderItemId,
    ) -> Result<Value, PlatformError> {
        self.get_record(&path(&[
            "api",
            "orders",
            order.0.as_str(),
            "items",
            &item.0,
        ]))
        .await
    }

    /// `GET /api/products/{id}`.
    pub async fn product(&self, id: &ProductId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(PRODUCTS, id.0.as_str())).await
    }

    /// `PATCH /api/products/{id}`.
    pub async fn patch_product(
        &self,
        id: &ProductId,
        patch: &Patch,
    ) -> Result<Option<Value>, PlatformError> {
        self.patch(&record_path(PRODUCTS, id.0.as_str()), patch)
            .await
    }

    /// `GET /api/payments/{id}`.
    pub async fn payment(&self, id: &PaymentId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(PAYMENTS, id.0.as_str())).await
    }

    /// `GET /api/subscriptions/{id}`.
    pub async fn subscription(&self, id: &SubscriptionId) -> Result<Value, PlatformError> {
        self.get_record(&record_path(SUBSCRIPTIONS, id.0.as_str()))
            .await
    }

    /// `GET /api/subscriptions/{id}/currentInstallmentplan`: `None` when there is no active
    /// plan (spec 7.2).
    pub async fn current_installment_plan(
        &self,
        id: &SubscriptionId,
    ) -> Result<Option<Value>, PlatformError> {
        self.get_optional(&path(&[
            "api",
            "subscriptions",
            id.0.as_str(),
            "currentInstallmentplan",
        ]))
        .await
    }

    /// `GET /api/subscriptions/{id}/installmentplans`: empty when there are none (spec 7.2).
    pub async fn installment_plans(
        &self,
        id: &SubscriptionId,
    ) -> Result<Vec<Value>, PlatformError> {
        self.get_list(&path(&[
            "api",
            "subscriptions",
            id.0.as_str(),
            "installmentplans",
        ]))
        .await
    }

    /// `GET /api/installmentplans/{id}/installments`: empty when there are none (spec 7.2).
    pub async fn installments(&self, id: &InstallmentPlanId) -> Result<Vec<Value>, PlatformError> {
        self.get_list(&path(&["api", "installmentplans", &id.0, "installments"]))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::path;

    #[test]
    fn segments_are_escaped() {
        assert_eq!(path(&["api", "accounts", "5"]), "/api/accounts/5");
        assert_eq!(path(&["api", "x", "../a b/c"]), "/api/x/..%2Fa%20b%2Fc");
    }
}
