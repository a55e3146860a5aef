//! Loopback fakes for the sync tests: a platform serving hundreds of accounts and invoices
//! through `$filter`/`$orderby`/paging (X-Api-Version 3 envelope), and a QuickBooks Online
//! company answering as the catalog definition expects, with injectable faults.

#![allow(dead_code)] // Each test binary uses a different subset.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub mod central;

/// The environment of a sync against the fakes: an access token for the external system, and
/// fixed platform credentials (the platform's token endpoint accepts anything).
pub const SYNC_ENV: [(&str, &str); 5] = [
    ("SYNCDEF_ACCESS_TOKEN", "qbo-token"),
    ("SYNCDEF_PLATFORM_CLIENT_KEY", "key"),
    ("SYNCDEF_PLATFORM_CLIENT_SECRET", "secret"),
    ("SYNCDEF_PLATFORM_USERNAME", "user"),
    ("SYNCDEF_PLATFORM_PASSWORD", "password"),
];

/// The platform's records, shared with the responders so tests can change them between runs.
#[derive(Default)]
pub struct Data {
    pub accounts: BTreeMap<i64, Value>,
    pub invoices: BTreeMap<String, Value>,
    /// Products, payments and orders, by GUID; contacts by integer id.
    pub products: BTreeMap<String, Value>,
    pub payments: BTreeMap<String, Value>,
    pub subscriptions: BTreeMap<String, Value>,
    pub orders: BTreeMap<String, Value>,
    pub order_items: HashMap<String, Vec<Value>>,
    pub contacts: BTreeMap<i64, Value>,
    pub items: HashMap<String, Vec<Value>>,
    /// Price lists, each with its items (of every product): `/api/products/{id}/pricelists`
    /// lists those with an item of the product, `/api/pricelists/{id}/items` their items.
    pub price_lists: Vec<(Value, Vec<Value>)>,
    /// Changed right after the next account listing is served: (account id, new updatedAt
    /// in seconds). Simulates an edit on the platform while a run pages through accounts.
    pub edit_after_listing: Option<(i64, u32)>,
    /// Listings answer 503 while set.
    pub listing_down: bool,
    /// The largest page the platform serves, whatever `size` asks for.
    pub page_cap: Option<usize>,
    /// How the listing misbehaves, if it does.
    pub listing_fault: Option<ListingFault>,
    /// Every JSON Patch the platform took: (account id, the operations).
    pub patches: Vec<(i64, Value)>,
    /// Every account the platform created, as posted.
    pub account_creates: Vec<Value>,
    /// Creates of accounts answer this much later (they are carried out at once).
    pub create_delay: Option<std::time::Duration>,
}

/// The catalog definition `text` without its lookups: a kept idempotency key alone then settles
/// a create of unknown outcome.
pub fn without_lookups(text: &str) -> String {
    let (head, rest) = text
        .split_once("  lookup:\n")
        .expect("the catalog declares lookups");
    let tail = &rest[rest
        .find("synchronization:")
        .expect("the synchronization section")..];
    format!("{head}{tail}")
}

/// `n` seconds after 2026-01-01T00:00:00Z, as the platform writes it.
pub fn stamp(n: u32) -> String {
    format!(
        "2026-01-01T{:02}:{:02}:{:02}Z",
        n / 3600,
        (n / 60) % 60,
        n % 60
    )
}

/// The GUID of invoice `n`.
pub fn invoice_id(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

impl Data {
    /// `n` products (every seventh retired: `isDeleted`), stamped after every account, each
    /// priced in a euro price list (product `i` at `i`.50 a month) and every second one in a
    /// dollar list too.
    pub fn with_products(mut self, n: u32) -> Self {
        let mut euro = Vec::new();
        let mut dollar = Vec::new();
        for i in 1..=n {
            let id = format!("10000000-0000-4000-8000-{i:012}");
            let price = |list: u32, amount: f64| {
                json!({
                    "id": list * 100_000 + i, "productId": id, "productName": format!("Product {i}"),
                    "unitId": "month", "unitName": "Month", "pricingMethod": "Flat",
                    "amount": amount,
                })
            };
            euro.push(price(1, f64::from(i) + 0.5));
            if i % 2 == 0 {
                dollar.push(price(2, f64::from(i) + 0.75));
            }
            self.products.insert(
                id.clone(),
                json!({
                    "id": id, "code": format!("SKU-{i}"), "name": format!("Product {i}"),
                    "isActive": true, "isDeleted": i % 7 == 0,
                    "createdAt": stamp(0), "updatedAt": stamp(50_000 + i),
                }),
            );
        }
        let list = |id: u32, name: &str, currency: &str| json!({"id": id, "name": name, "isActive": true, "currency": currency});
        self.price_lists = vec![
            (list(1, "Retail EUR", "EUR"), euro),
            (list(2, "Retail USD", "USD"), dollar),
        ];
        self
    }

    /// `n` orders of two items each, each of an account of the first `accounts`.
    pub fn with_orders(mut self, n: u32, accounts: u32) -> Self {
        for i in 1..=n {
            let id = format!("30000000-0000-4000-8000-{i:012}");
            let account = i64::from((i - 1) % accounts.max(1) + 1);
            self.orders.insert(
                id.clone(),
                json!({
                    "id": id, "code": format!("SO-{i}"), "name": format!("Order {i}"),
                    "accountId": account, "accountName": format!("Account {account}"),
                    "createdAt": "2026-01-03T00:00:00Z", "updatedAt": stamp(70_000 + i),
                }),
            );
            let items = (1..=2)
                .map(|k| {
                    json!({"id": format!("{id}-{k}"), "productName": format!("Line {k}"),
                                 "quantity": k, "unitPrice": 10 * k, "isBundle": false})
                })
                .collect();
            self.order_items.insert(id, items);
        }
        self
    }

    /// `n` contacts, each of an account of the first `accounts`.
    pub fn with_contacts(mut self, n: u32, accounts: u32) -> Self {
        for i in 1..=n {
            let account = i64::from((i - 1) % accounts.max(1) + 1);
            self.contacts.insert(
                i64::from(i),
                json!({
                    "id": i, "firstName": "Person", "lastName": format!("{i}"),
                    "email": format!("person{i}@example.com"), "accountId": account,
                    "accountName": format!("Account {account}"),
                    "createdAt": stamp(0), "updatedAt": stamp(80_000 + i),
                }),
            );
        }
        self
    }

    /// `n` subscriptions, each of an account of the first `accounts` (by `accountId`, as the
    /// spec's filter properties name it), stamped after the payments.
    pub fn with_subscriptions(mut self, n: u32, accounts: u32) -> Self {
        for i in 1..=n {
            let id = format!("30000000-0000-4000-8000-{i:012}");
            let account = i64::from((i - 1) % accounts.max(1) + 1);
            self.subscriptions.insert(
                id.clone(),
                json!({
                    "id": id, "name": format!("Subscription {i}"), "accountId": account,
                    "accountName": format!("Account {account}"), "productName": "Cloud seat",
                    "quantity": i % 5 + 1, "startDate": "2026-01-01", "automaticRenewal": true,
                    "createdAt": stamp(0), "updatedAt": stamp(70_000 + i),
                }),
            );
        }
        self
    }

    /// `n` payments, each of an account of the first `accounts`, stamped after the products.
    pub fn with_payments(mut self, n: u32, accounts: u32) -> Self {
        for i in 1..=n {
            let id = format!("20000000-0000-4000-8000-{i:012}");
            let account = i64::from((i - 1) % accounts.max(1) + 1);
            self.payments.insert(
                id.clone(),
                json!({
                    "id": id, "accountId": account, "accountName": format!("Account {account}"),
                    "amount": 100 + i, "paymentDate": "2026-01-05T00:00:00Z",
                    "paymentMethodName": format!("Transfer {i}"),
                    "createdAt": stamp(0), "updatedAt": stamp(60_000 + i),
                }),
            );
        }
        self
    }

    /// `accounts` accounts and `invoices` invoices (two items each). Timestamps come in
    /// groups of seven equal values, so groups straddle page boundaries.
    pub fn generate(accounts: u32, invoices: u32) -> Self {
        let mut data = Data::default();
        for n in 1..=accounts {
            let id = i64::from(n);
            data.accounts.insert(
                id,
                json!({
                    "id": id,
                    "name": format!("Account {n}"),
                    "phone": format!("+30 210 555 {n:04}"),
                    "corpEmail": format!("billing{n}@example.com"),
                    "isTaxable": n % 2 == 0,
                    "addresses": [{"isBilling": true, "address1": format!("{n} Main Street"),
                                   "city": "Athens", "countryName": "Greece", "postCode": "10563"}],
                    "accountCurrency": {"currency": {"mnemonic": "EUR", "name": "Euro"}},
                    "createdAt": stamp(0),
                    "updatedAt": stamp(n / 7 * 7),
                }),
            );
        }
        for n in 1..=invoices {
            let id = invoice_id(n);
            let account = i64::from((n - 1) % accounts.max(1) + 1);
            data.invoices.insert(
                id.clone(),
                json!({
                    "id": id,
                    "code": format!("INV-{n:05}"),
                    "invoiceDate": "2026-01-01T00:00:00Z",
                    "dueDate": "2026-01-31",
                    "billingToId": account,
                    "account": {"id": account, "name": format!("Account {account}")},
                    "billingAccount": {"id": account, "accountCurrency": {"currency": {"mnemonic": "EUR"}}},
                    "createdAt": stamp(0),
                    "updatedAt": stamp(10_000 + n / 5 * 5),
                }),
            );
            data.items.insert(
                id,
                vec![
                    json!({"id": n * 10, "productName": "Backup", "quantity": 2, "unitPrice": 9.5}),
                    json!({"id": n * 10 + 1, "productName": "Support", "quantity": 1, "unitPrice": 100}),
                ],
            );
        }
        data
    }
}

/// A listing that does not do what it is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListingFault {
    /// `$filter` is ignored: every listing starts from the oldest record.
    IgnoresFilter,
    /// The page asked for is ignored: every page holds the first page's records.
    IgnoresPage,
    /// `pageCount` says 1 whatever the records need.
    OnePageCount,
}

/// The fake platform.
pub struct Platform {
    pub server: MockServer,
    pub data: Arc<Mutex<Data>>,
}

impl Platform {
    pub async fn start(data: Data) -> Self {
        let server = MockServer::start().await;
        let data = Arc::new(Mutex::new(data));
        Mock::given(method("POST"))
            .and(path("/oauth/token"))
            .respond_with(ResponseTemplate::new(200).set_body_json(
                json!({"access_token": "platform-token", "token_type": "bearer", "expires_in": 3600}),
            ))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path_regex(
                r"^/api/(accounts|invoices|products|payments|subscriptions|orders|contacts|pricelists)(/[^/]+(/items|/pricelists)?)?$",
            ))
            .respond_with(PlatformResponder { data: data.clone() })
            .mount(&server)
            .await;
        Mock::given(path_regex(r"^/api/accounts(/[0-9]+)?$"))
            .respond_with(AccountWrites { data: data.clone() })
            .mount(&server)
            .await;
        Platform { server, data }
    }

    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// Changes account `id` with `change` and moves its `updatedAt` to `at`.
    pub fn touch_account(&self, id: i64, at: u32, change: impl FnOnce(&mut Value)) {
        let mut data = self.data.lock().expect("data");
        let account = data.accounts.get_mut(&id).expect("account");
        change(account);
        account["updatedAt"] = json!(stamp(at));
    }

    /// How many GET requests reached `path_prefix` (single records, lists).
    pub async fn gets(&self, path_prefix: &str) -> usize {
        self.server
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|r| r.method.as_str() == "GET" && r.url.path().starts_with(path_prefix))
            .count()
    }
}

struct PlatformResponder {
    data: Arc<Mutex<Data>>,
}

/// `POST /api/accounts` and `PATCH /api/accounts/{id}` (JSON Patch of top-level attributes);
/// each moves the account's `updatedAt` past every other.
struct AccountWrites {
    data: Arc<Mutex<Data>>,
}

impl Respond for AccountWrites {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut data = self.data.lock().expect("data");
        let latest = data
            .accounts
            .values()
            .filter_map(|a| a["updatedAt"].as_str().map(str::to_owned))
            .max()
            .unwrap_or_default();
        let next = (1..100_000)
            .map(stamp)
            .find(|s| *s > latest)
            .unwrap_or_else(|| stamp(99_999));
        let id = request
            .url
            .path()
            .rsplit('/')
            .next()
            .and_then(|i| i.parse::<i64>().ok());
        match (request.method.as_str(), id) {
            ("POST", None) => {
                let Ok(mut body) = serde_json::from_slice::<Value>(&request.body) else {
                    return ResponseTemplate::new(400);
                };
                data.account_creates.push(body.clone());
                let id = data.accounts.keys().max().copied().unwrap_or(0) + 1;
                body["id"] = json!(id);
                body["createdAt"] = json!(next.clone());
                body["updatedAt"] = json!(next);
                data.accounts.insert(id, body.clone());
                ResponseTemplate::new(201)
                    .set_delay(data.create_delay.unwrap_or_default())
                    .set_body_json(body)
            }
            ("PATCH", Some(id)) => {
                let Ok(ops) = serde_json::from_slice::<Value>(&request.body) else {
                    return ResponseTemplate::new(400);
                };
                let Some(account) = data.accounts.get_mut(&id) else {
                    return ResponseTemplate::new(404);
                };
                for op in ops.as_array().into_iter().flatten() {
                    let name = op["path"]
                        .as_str()
                        .unwrap_or_default()
                        .trim_start_matches('/');
                    match op["op"].as_str() {
                        Some("add" | "replace") => account[name] = op["value"].clone(),
                        Some("remove") => {
                            account.as_object_mut().map(|m| m.remove(name));
                        }
                        _ => return ResponseTemplate::new(400),
                    }
                }
                account["updatedAt"] = json!(next);
                let answer = account.clone();
                data.patches.push((id, ops));
                ResponseTemplate::new(200).set_body_json(answer)
            }
            _ => ResponseTemplate::new(405),
        }
    }
}

/// `2026-01-01T00:00:07.000` or `2026-01-01T00:00:07Z` or `2026-01-01` as comparable text.
fn norm(text: &str) -> String {
    let mut t: String = text.chars().take(19).collect();
    if t.len() == 10 {
        t.push_str("T00:00:00");
    }
    t
}

impl Respond for PlatformResponder {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut data = self.data.lock().expect("data");
        let segments: Vec<&str> = request
            .url
            .path()
            .trim_start_matches('/')
            .split('/')
            .collect();
        match segments.as_slice() {
            ["api", "accounts", id] => {
                match id.parse::<i64>().ok().and_then(|i| data.accounts.get(&i)) {
                    Some(a) => ResponseTemplate::new(200).set_body_json(a),
                    None => ResponseTemplate::new(404),
                }
            }
            ["api", "invoices", id] => match data.invoices.get(*id) {
                Some(i) => ResponseTemplate::new(200).set_body_json(i),
                None => ResponseTemplate::new(404),
            },
            ["api", "products", id] => match data.products.get(*id) {
                Some(p) => ResponseTemplate::new(200).set_body_json(p),
                None => ResponseTemplate::new(404),
            },
            ["api", "payments", id] => match data.payments.get(*id) {
                Some(p) => ResponseTemplate::new(200).set_body_json(p),
                None => ResponseTemplate::new(404),
            },
            ["api", "subscriptions", id] => match data.subscriptions.get(*id) {
                Some(s) => ResponseTemplate::new(200).set_body_json(s),
                None => ResponseTemplate::new(404),
            },
            ["api", "orders", id] => match data.orders.get(*id) {
                Some(o) => ResponseTemplate::new(200).set_body_json(o),
                None => ResponseTemplate::new(404),
            },
            ["api", "orders", id, "items"] => ResponseTemplate::new(200)
                .set_body_json(data.order_items.get(*id).cloned().unwrap_or_default()),
            ["api", "contacts", id] => {
                match id.parse::<i64>().ok().and_then(|i| data.contacts.get(&i)) {
                    Some(c) => ResponseTemplate::new(200).set_body_json(c),
                    None => ResponseTemplate::new(404),
                }
            }
            ["api", "invoices", id, "items"] => ResponseTemplate::new(200)
                .set_body_json(data.items.get(*id).cloned().unwrap_or_default()),
            ["api", "products", id, "pricelists"] => {
                let lists: Vec<&Value> = data
                    .price_lists
                    .iter()
                    .filter(|(_, items)| items.iter().any(|i| i["productId"] == *id))
                    .map(|(list, _)| list)
                    .collect();
                ResponseTemplate::new(200).set_body_json(lists)
            }
            ["api", "pricelists", id, "items"] => price_list_items(&data, id, request),
            ["api", _] if data.listing_down => {
                ResponseTemplate::new(503).set_body_string("maintenance")
            }
            ["api", collection] => {
                let records: Vec<Value> = match *collection {
                    "accounts" => data.accounts.values().cloned().collect(),
                    "products" => data.products.values().cloned().collect(),
                    "payments" => data.payments.values().cloned().collect(),
                    "subscriptions" => data.subscriptions.values().cloned().collect(),
                    "orders" => data.orders.values().cloned().collect(),
                    "contacts" => data.contacts.values().cloned().collect(),
                    _ => data.invoices.values().cloned().collect(),
                };
                let response = list(request, records, data.page_cap, data.listing_fault);
                if *collection == "accounts"
                    && let Some((id, at)) = data.edit_after_listing.take()
                    && let Some(account) = data.accounts.get_mut(&id)
                {
                    account["phone"] = json!("+30 210 999 9999");
                    account["updatedAt"] = json!(stamp(at));
                }
                response
            }
            _ => ResponseTemplate::new(404),
        }
    }
}

/// `$filter=updatedAt gt|ge datetime'…'`, `$orderby=updatedAt asc`, `page`, `size`.
/// The items of price list `id`, narrowed by `$filter=productId eq '<id>'` when asked.
fn price_list_items(data: &Data, id: &str, request: &Request) -> ResponseTemplate {
    let Some((_, items)) = data
        .price_lists
        .iter()
        .find(|(list, _)| list["id"].as_u64().is_some() && list["id"].as_u64() == id.parse().ok())
    else {
        return ResponseTemplate::new(404);
    };
    let filter: Option<String> = request
        .url
        .query_pairs()
        .find(|(k, _)| k == "$filter")
        .map(|(_, v)| v.into_owned());
    let product = match filter.as_deref() {
        None => None,
        Some(text) => match text
            .strip_prefix("productId eq '")
            .and_then(|t| t.strip_suffix('\''))
        {
            Some(product) => Some(product.to_owned()),
            None => return ResponseTemplate::new(400).set_body_string("bad filter"),
        },
    };
    let items: Vec<&Value> = items
        .iter()
        .filter(|i| product.as_deref().is_none_or(|p| i["productId"] == p))
        .collect();
    ResponseTemplate::new(200).set_body_json(items)
}

fn list(
    request: &Request,
    mut records: Vec<Value>,
    cap: Option<usize>,
    fault: Option<ListingFault>,
) -> ResponseTemplate {
    let query: HashMap<String, String> = request.url.query_pairs().into_owned().collect();
    if let Some(filter) = query
        .get("$filter")
        .filter(|_| fault != Some(ListingFault::IgnoresFilter))
    {
        let parts: Vec<&str> = filter.splitn(3, ' ').collect();
        let [property, op, literal] = parts.as_slice() else {
            return ResponseTemplate::new(400).set_body_string("bad filter");
        };
        assert_eq!(*property, "updatedAt", "the worker filters on updatedAt");
        let bound = norm(
            literal
                .trim_start_matches("datetime'")
                .trim_end_matches('\''),
        );
        records.retain(|r| {
            let at = norm(r["updatedAt"].as_str().unwrap_or_default());
            match *op {
                "gt" => at > bound,
                "ge" => at >= bound,
                other => panic!("unexpected operator {other}"),
            }
        });
    }
    assert_eq!(
        query.get("$orderby").map(String::as_str),
        Some("updatedAt asc")
    );
    // Ties in an undefined but stable order, as a database would give them.
    records.sort_by(|a, b| {
        norm(a["updatedAt"].as_str().unwrap_or_default())
            .cmp(&norm(b["updatedAt"].as_str().unwrap_or_default()))
            .then_with(|| a["id"].to_string().cmp(&b["id"].to_string()))
    });
    let size: usize = query
        .get("size")
        .and_then(|s| s.parse().ok())
        .unwrap_or(records.len().max(1));
    let size = cap.map_or(size, |c| size.min(c));
    let page: usize = query.get("page").and_then(|s| s.parse().ok()).unwrap_or(1);
    let total = records.len();
    match fault {
        Some(ListingFault::IgnoresPage) => {
            // Every page the first one, under the numbers of the page asked for.
            let first: Vec<Value> = records.into_iter().take(size).collect();
            envelope(&first, page, size, total, total.div_ceil(size))
        }
        Some(ListingFault::OnePageCount) => {
            let data: Vec<Value> = records
                .into_iter()
                .skip((page - 1) * size)
                .take(size)
                .collect();
            envelope(&data, page, size, total, 1)
        }
        _ => syncdef_mock::platform::page_of(records, request, size, page),
    }
}

/// A page with its numbers and no links: the client asks for the next page by number.
fn envelope(
    data: &[Value],
    page: usize,
    size: usize,
    total: usize,
    count: usize,
) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "data": data,
        "paging": {"page": page, "size": size, "offset": (page - 1) * size,
                   "totalCount": total, "pageCount": count},
        "links": {"self": null, "first": null, "last": null, "next": null, "previous": null},
    }))
}

/// What the fake QuickBooks company holds and how it misbehaves.
#[derive(Default)]
pub struct Books {
    next_id: u64,
    /// Id -> (`SyncToken`, last body) per kind (`Customer`, `Invoice`).
    pub records: HashMap<(String, String), (u64, Value)>,
    /// Every create: (kind, `DisplayName` or `DocNumber`).
    pub creates: Vec<(String, String)>,
    /// Every update: (kind, Id).
    pub updates: Vec<(String, String)>,
    /// Creates of these names answer 400 with a Fault.
    pub refuse: HashSet<String>,
    /// Every update answers 500 without doing anything (the company's service is failing).
    pub fail_updates: bool,
    /// The create with this number (1-based) is carried out but its answer never comes in
    /// time: the caller sees a create of unknown outcome.
    pub stall_create: Option<usize>,
    /// Every create's answer comes this much later (the create is carried out at once): a
    /// slow company, so that several workers overlap.
    pub answer_delay: Option<std::time::Duration>,
    /// Every n-th create is carried out and its answer lost on the way back (a 502 from the
    /// company's gateway): the caller cannot tell whether it was made.
    pub lose_answer_every: Option<usize>,
    /// A record created is found by queries only this much later (QuickBooks' query service
    /// lags behind its writes): a lookup cannot see a create that is still on its way.
    pub query_lag: Option<std::time::Duration>,
    /// Answers a repeated `requestid` by creating again, as a system without idempotency
    /// keys does: only the state then keeps a create from being sent twice.
    pub ignore_request_ids: bool,
    /// When each record was created, for `query_lag`.
    pub created_at: HashMap<(String, String), std::time::Instant>,
    /// When each create arrived, in order.
    pub create_arrivals: Vec<std::time::Instant>,
    /// The answer each `requestid` got: QuickBooks answers a repeated one with what it did the
    /// first time, without doing it again.
    pub request_ids: HashMap<String, (String, String)>,
    /// Unix seconds of the last change (each write stamps the record with the next second).
    pub clock: i64,
}

impl Books {
    /// The next `MetaData.LastUpdatedTime`.
    pub fn stamp(&mut self) -> String {
        self.clock += 1;
        syncdef_worker::utc_text(self.clock)
    }

    /// Edits customer `id` as a QuickBooks user would: `change`, then a new version.
    pub fn edit_customer(&mut self, id: &str, change: impl FnOnce(&mut Value)) {
        let at = self.stamp();
        let (token, body) = self
            .records
            .get_mut(&("Customer".to_owned(), id.to_owned()))
            .expect("customer");
        change(body);
        body["MetaData"] = json!({"LastUpdatedTime": at});
        *token += 1;
    }

    /// A customer made in QuickBooks itself; its id.
    pub fn add_customer(&mut self, body: Value) -> String {
        self.next_id += 1;
        let id = self.next_id.to_string();
        let mut body = body;
        body["MetaData"] = json!({"LastUpdatedTime": self.stamp()});
        self.records
            .insert(("Customer".to_owned(), id.clone()), (0, body));
        id
    }
}

/// The fake QuickBooks Online company under `/qbo`.
pub struct QuickBooks {
    pub server: MockServer,
    pub books: Arc<Mutex<Books>>,
}

impl QuickBooks {
    pub async fn start() -> Self {
        let server = MockServer::start().await;
        let books = Arc::new(Mutex::new(Books::default()));
        Mock::given(path_regex(
            r"^/qbo/((customer|invoice|item|payment)(/[0-9]+)?|query)$",
        ))
        .respond_with(BooksResponder {
            books: books.clone(),
        })
        .mount(&server)
        .await;
        QuickBooks { server, books }
    }

    /// The base URL the engine sends to.
    pub fn base(&self) -> String {
        format!("{}/qbo", self.server.uri())
    }

    /// Creates per name: a name created twice is a duplicate.
    pub fn duplicates(&self) -> Vec<String> {
        let books = self.books.lock().expect("books");
        let mut seen = HashSet::new();
        books
            .creates
            .iter()
            .filter(|c| !seen.insert((*c).clone()))
            .map(|(k, n)| format!("{k} {n}"))
            .collect()
    }

    /// Fails the test when any name was created twice, naming them.
    pub fn assert_each_created_once(&self) {
        let duplicates = self.duplicates();
        assert!(duplicates.is_empty(), "created twice: {duplicates:?}");
    }

    pub fn creates(&self, kind: &str) -> usize {
        self.books
            .lock()
            .expect("books")
            .creates
            .iter()
            .filter(|(k, _)| k == kind)
            .count()
    }

    pub fn updates(&self, kind: &str) -> usize {
        self.books
            .lock()
            .expect("books")
            .updates
            .iter()
            .filter(|(k, _)| k == kind)
            .count()
    }

    /// The id QuickBooks gave the record created under `name`, if any.
    pub fn id_of(&self, kind: &str, name: &str) -> Option<String> {
        let books = self.books.lock().expect("books");
        books
            .records
            .iter()
            .find(|((k, _), (_, body))| k == kind && body[name_field(kind)] == name)
            .map(|((_, id), _)| id.clone())
    }

    /// Runs `run` until QuickBooks has carried out create `n`, whose answer it holds back, then
    /// drops it mid-create, as a killed process would leave it; the answers flow again after.
    pub async fn cut_short_at_create<T>(
        &self,
        n: usize,
        run: impl std::future::Future<Output = T>,
    ) {
        self.books.lock().expect("books").stall_create = Some(n);
        let books = self.books.clone();
        let stalled = async {
            while books.lock().expect("books").creates.len() < n {
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        };
        tokio::select! {
            _ = run => panic!("the run should have been cut short first"),
            () = stalled => {}
        }
        self.books.lock().expect("books").stall_create = None;
    }

    pub async fn request_count(&self) -> usize {
        self.server
            .received_requests()
            .await
            .unwrap_or_default()
            .len()
    }
}

struct BooksResponder {
    books: Arc<Mutex<Books>>,
}

impl Respond for BooksResponder {
    #[allow(
        clippy::too_many_lines,
        reason = "one fake endpoint per arm, read top to bottom as QuickBooks answers"
    )]
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut books = self.books.lock().expect("books");
        let segments: Vec<&str> = request
            .url
            .path()
            .trim_start_matches('/')
            .split('/')
            .collect();
        if segments.get(1) == Some(&"query") {
            return query(&books, request);
        }
        let kind = match segments.get(1) {
            Some(&"customer") => "Customer",
            Some(&"item") => "Item",
            Some(&"payment") => "Payment",
            _ => "Invoice",
        };
        // The token the tests give: the library's token provider, the binary's
        // SYNCDEF_ACCESS_TOKEN.
        if let Some(auth) = request.headers.get("authorization") {
            assert_eq!(auth.to_str().ok(), Some("Bearer qbo-token"));
        }
        match (request.method.as_str(), segments.get(2)) {
            ("GET", Some(id)) => match books.records.get(&(kind.to_owned(), (*id).to_owned())) {
                Some((token, body)) => {
                    let mut body = body.clone();
                    body["Id"] = json!(id);
                    body["SyncToken"] = json!(token.to_string());
                    ResponseTemplate::new(200).set_body_json(json!({ kind: body }))
                }
                None => fault(400, "Object Not Found", "610"),
            },
            ("POST", None) => {
                let Ok(body) = serde_json::from_slice::<Value>(&request.body) else {
                    return fault(400, "Request has invalid or unsupported property", "2010");
                };
                if let Some(id) = body["Id"].as_str() {
                    if books.fail_updates {
                        return fault(500, "Internal Server Error", "500");
                    }
                    let key = (kind.to_owned(), id.to_owned());
                    let Some((token, stored)) = books.records.get(&key).cloned() else {
                        return fault(400, "Object Not Found", "610");
                    };
                    if body["SyncToken"].as_str() != Some(token.to_string().as_str()) {
                        return fault(400, "Stale Object Error", "5010");
                    }
                    let mut merged = stored;
                    if let (Some(m), Some(b)) = (merged.as_object_mut(), body.as_object()) {
                        for (k, v) in b {
                            m.insert(k.clone(), v.clone());
                        }
                    }
                    merged["MetaData"] = json!({"LastUpdatedTime": books.stamp()});
                    books.records.insert(key, (token + 1, merged));
                    books.updates.push((kind.to_owned(), id.to_owned()));
                    return ResponseTemplate::new(200).set_body_json(
                        json!({ kind: {"Id": id, "SyncToken": (token + 1).to_string()} }),
                    );
                }
                let request_id = request
                    .url
                    .query_pairs()
                    .find(|(k, _)| k == "requestid")
                    .map(|(_, v)| v.into_owned());
                if let Some((kind, id)) = request_id
                    .as_ref()
                    .filter(|_| !books.ignore_request_ids)
                    .and_then(|r| books.request_ids.get(r))
                {
                    return ResponseTemplate::new(200)
                        .set_body_json(json!({ kind: {"Id": id, "SyncToken": "0"} }));
                }
                let name = body[name_field(kind)]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                if books.refuse.contains(&name) {
                    return fault(400, "Duplicate Name Exists Error", "6240");
                }
                if kind == "Invoice" || kind == "Payment" {
                    let customer = body["CustomerRef"]["value"].as_str().unwrap_or_default();
                    if !books
                        .records
                        .contains_key(&("Customer".to_owned(), customer.to_owned()))
                    {
                        return fault(400, "Invalid Reference Id", "2500");
                    }
                }
                books.next_id += 1;
                let id = books.next_id.to_string();
                let mut body = body;
                body["MetaData"] = json!({"LastUpdatedTime": books.stamp()});
                books
                    .records
                    .insert((kind.to_owned(), id.clone()), (0, body));
                books
                    .created_at
                    .insert((kind.to_owned(), id.clone()), std::time::Instant::now());
                books.creates.push((kind.to_owned(), name));
                books.create_arrivals.push(std::time::Instant::now());
                if let Some(request_id) = request_id {
                    books
                        .request_ids
                        .insert(request_id, (kind.to_owned(), id.clone()));
                }
                if books
                    .lose_answer_every
                    .is_some_and(|n| books.creates.len().is_multiple_of(n))
                {
                    return ResponseTemplate::new(502).set_body_string("Bad Gateway");
                }
                if books.stall_create == Some(books.creates.len()) {
                    return ResponseTemplate::new(200)
                        .set_delay(std::time::Duration::from_secs(600))
                        .set_body_json(json!({ kind: {"Id": id, "SyncToken": "0"} }));
                }
                ResponseTemplate::new(200)
                    .set_delay(books.answer_delay.unwrap_or_default())
                    .set_body_json(json!({ kind: {"Id": id, "SyncToken": "0"}, "time": "2026-11-21T11:58:12.099-08:00" }))
            }
            _ => ResponseTemplate::new(405),
        }
    }
}

fn name_field(kind: &str) -> &'static str {
    match kind {
        "Customer" => "DisplayName",
        "Item" => "Name",
        // A payment has no name: the create is logged with its private note.
        "Payment" => "PrivateNote",
        _ => "DocNumber",
    }
}

/// `select Id from <Kind> where <field> = '<literal>'`, as the catalog's lookups ask it.
fn query(books: &Books, request: &Request) -> ResponseTemplate {
    let Some(text) = request
        .url
        .query_pairs()
        .find(|(k, _)| k == "query")
        .map(|(_, v)| v.into_owned())
    else {
        return fault(400, "QueryParserError: no query", "4000");
    };
    if let Some(rest) =
        text.strip_prefix("select * from Customer where Metadata.LastUpdatedTime >= '")
    {
        return changed_customers(books, rest);
    }
    let Some((head, literal)) = text.split_once(" = '") else {
        return fault(400, "QueryParserError", "4000");
    };
    let kind = if head.contains("from Customer") {
        "Customer"
    } else {
        "Invoice"
    };
    let Some(literal) = literal.strip_suffix('\'') else {
        return fault(400, "QueryParserError: unterminated literal", "4000");
    };
    let value = literal.replace("\\'", "'").replace("\\\\", "\\");
    let found: Vec<Value> = books
        .records
        .iter()
        .filter(|((k, _), (_, body))| k == kind && body[name_field(kind)] == value.as_str())
        .filter(|(key, _)| {
            let lag = books.query_lag.unwrap_or_default();
            books
                .created_at
                .get(*key)
                .is_none_or(|at| at.elapsed() >= lag)
        })
        .map(|((_, id), _)| json!({"Id": id}))
        .collect();
    let answer = if found.is_empty() {
        json!({"QueryResponse": {}})
    } else {
        json!({"QueryResponse": { kind: found }})
    };
    ResponseTemplate::new(200).set_body_json(answer)
}

/// `…>= '<since>' startposition <n> maxresults <m>`: customers changed since, by id, paged.
fn changed_customers(books: &Books, rest: &str) -> ResponseTemplate {
    let Some((since, paging)) = rest.split_once("' startposition ") else {
        return fault(400, "QueryParserError", "4000");
    };
    let numbers: Vec<usize> = paging
        .split(" maxresults ")
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    let [start, max] = numbers[..] else {
        return fault(400, "QueryParserError: paging", "4000");
    };
    let mut found: Vec<(u64, Value)> = books
        .records
        .iter()
        .filter(|((k, _), (_, body))| {
            k == "Customer"
                && body["MetaData"]["LastUpdatedTime"]
                    .as_str()
                    .unwrap_or_default()
                    >= since
        })
        .map(|((_, id), (token, body))| {
            let mut body = body.clone();
            body["Id"] = json!(id);
            body["SyncToken"] = json!(token.to_string());
            (id.parse().unwrap_or(0), body)
        })
        .collect();
    found.sort_by_key(|(id, _)| *id);
    let page: Vec<Value> = found
        .into_iter()
        .skip(start.saturating_sub(1))
        .take(max)
        .map(|(_, body)| body)
        .collect();
    let answer = if page.is_empty() {
        json!({"QueryResponse": {}})
    } else {
        json!({"QueryResponse": {"Customer": page, "startPosition": start, "maxResults": max}})
    };
    ResponseTemplate::new(200).set_body_json(answer)
}

fn fault(status: u16, message: &str, code: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(json!({
        "Fault": {"Error": [{"Message": message, "Detail": message, "code": code}], "type": "ValidationFault"}
    }))
}
