//! The platform modules the worker can read, and how: which collection lists changes, how a
//! full record is read with its child collections, and where a record names related records.

use std::str::FromStr;

use serde_json::Value;
use syncdef_platform::ids::{AccountId, InvoiceId, RecordId};
use syncdef_platform::query::Collection;
use syncdef_platform::{PlatformClient, PlatformError, collections};

/// A platform module supported by `syncdef sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    /// `Accounts`: `GET /api/accounts`, integer ids.
    Accounts,
    /// `Invoices`: `GET /api/invoices`, GUID ids; items read from `/items` into `items`.
    Invoices,
}

impl Module {
    /// The module named in a definition entry (`module: Accounts`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "Accounts" => Some(Module::Accounts),
            "Invoices" => Some(Module::Invoices),
            _ => None,
        }
    }

    /// The module of an engine entry plan, by its template root (`account`, `invoice`).
    pub fn from_root(root: &str) -> Option<Self> {
        match root {
            "account" => Some(Module::Accounts),
            "invoice" => Some(Module::Invoices),
            _ => None,
        }
    }

    /// The modules supported, for messages.
    pub const SUPPORTED: &'static str = "Accounts, Invoices";

    /// The collection whose `updatedAt` finds changed records.
    pub fn collection(self) -> &'static Collection {
        match self {
            Module::Accounts => &collections::ACCOUNTS,
            Module::Invoices => &collections::INVOICES,
        }
    }

    /// The platform id of a listed record, as text.
    pub fn id_of(self, record: &Value) -> Result<String, String> {
        let id = match self {
            Module::Accounts => AccountId::from_record(record).map(|i| i.to_string()),
            Module::Invoices => InvoiceId::from_record(record).map(|i| i.to_string()),
        };
        id.map_err(|e| e.to_string())
    }

    /// The full record with its child collections, as templates read it.
    pub async fn read(self, platform: &PlatformClient, id: &str) -> Result<Value, PlatformError> {
        match self {
            Module::Accounts => {
                let id = id.parse::<i64>().map_err(|_| {
                    PlatformError::Usage(format!("`{id}` is not an account id (an integer)"))
                })?;
                platform.account(AccountId(id)).await
            }
            Module::Invoices => {
                let id = InvoiceId::from_str(id).map_err(|e| {
                    PlatformError::Usage(format!("`{id}` is not an invoice id: {e}"))
                })?;
                let mut invoice = platform.invoice(&id).await?;
                let items = platform.invoice_items(&id).await?;
                // The catalog templates loop over `$.invoice.items`; the child collection is
                // the authority, whatever the invoice body carries.
                if let Value::Object(map) = &mut invoice {
                    map.insert("items".to_owned(), Value::Array(items));
                }
                Ok(invoice)
            }
        }
    }

    /// The platform id of the related record of module `target` that `record` names (an
    /// invoice's account), if it names one.
    pub fn related_id(self, target: Module, record: &Value) -> Option<String> {
        let pointers: &[&str] = match (self, target) {
            // The invoice's own account first; the bill-to account when only that is given.
            (Module::Invoices, Module::Accounts) => &[
                "/account/id",
                "/accountId",
                "/billingToId",
                "/billingAccount/id",
            ],
            _ => &[],
        };
        pointers
            .iter()
            .filter_map(|p| record.pointer(p))
            .find_map(|v| match v {
                Value::Number(n) => Some(n.to_string()),
                Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
                _ => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_invoice_names_its_account() {
        let invoice = json!({"account": {"id": 1042}, "billingToId": 7});
        assert_eq!(
            Module::Invoices.related_id(Module::Accounts, &invoice),
            Some("1042".to_owned())
        );
        let billed = json!({"billingToId": 7});
        assert_eq!(
            Module::Invoices.related_id(Module::Accounts, &billed),
            Some("7".to_owned())
        );
        assert_eq!(
            Module::Invoices.related_id(Module::Accounts, &json!({})),
            None
        );
    }
}
