//! A billing platform on loopback: the records of a directory such as `catalog/records`,
//! served as the platform API serves them to `syncdef sync` (spec parts 2 and 5): a password
//! grant token endpoint, `$filter=updatedAt gt|ge datetime'…'`, `$orderby=updatedAt asc`,
//! `page`/`size` with the version 3 paging envelope, single records and an invoice's items.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::watched::WatchedRecords;

/// The platform records served, by collection (`accounts`, `invoices`) and id as text.
#[derive(Debug, Default, Clone)]
pub struct Records {
    collections: BTreeMap<&'static str, BTreeMap<String, Value>>,
}

/// Why a records directory could not be served.
#[derive(Debug)]
pub struct LoadError {
    /// The file (or directory) at fault.
    pub path: PathBuf,
    /// What is wrong and what to do.
    pub reason: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for LoadError {}

/// The collection a record file belongs to, by the `catalog/records` naming convention
/// (`account-*.json` are accounts, `invoice-*.json` invoices); other files are not records.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "the naming convention is lower case throughout: `Account-1.JSON` is not a record file"
)]
fn collection_of(file_name: &str) -> Option<&'static str> {
    if !file_name.ends_with(".json") {
        return None;
    }
    if file_name.starts_with("account-") {
        Some("accounts")
    } else if file_name.starts_with("invoice-") {
        Some("invoices")
    } else {
        None
    }
}

impl Records {
    /// Reads every `account-*.json` and `invoice-*.json` of `dir`: one bare platform record
    /// per file, with an `id` and an `updatedAt`.
    pub fn load(dir: &Path) -> Result<Records, LoadError> {
        let failed = |path: &Path, reason: String| LoadError {
            path: path.to_owned(),
            reason,
        };
        let entries = fs::read_dir(dir).map_err(|e| {
            failed(
                dir,
                format!("cannot list the records directory: {e}; give --records DIR"),
            )
        })?;
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        let mut records = Records::default();
        for file in files {
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let Some(collection) = collection_of(name) else {
                continue;
            };
            let text = fs::read_to_string(&file)
                .map_err(|e| failed(&file, format!("cannot read the record: {e}")))?;
            let record: Value = serde_json::from_str(&text).map_err(|e| {
                failed(
                    &file,
                    format!("line {}, column {}: not JSON: {e}", e.line(), e.column()),
                )
            })?;
            let id = match &record["id"] {
                Value::Number(n) => n.to_string(),
                Value::String(s) if !s.is_empty() => s.clone(),
                _ => return Err(failed(&file, "the record has no `id`; add one".to_owned())),
            };
            if !record["updatedAt"].is_string() {
                return Err(failed(
                    &file,
                    "the record has no `updatedAt` text; add one such as \"2026-11-20T16:02:44Z\""
                        .to_owned(),
                ));
            }
            records.insert(collection, id, record);
        }
        Ok(records)
    }

    /// Adds or replaces a record of `collection` (`accounts`, `invoices`).
    pub fn insert(&mut self, collection: &'static str, id: String, record: Value) {
        self.collections
            .entry(collection)
            .or_default()
            .insert(id, record);
    }

    /// How many records `collection` holds.
    pub fn count(&self, collection: &str) -> usize {
        self.collections.get(collection).map_or(0, BTreeMap::len)
    }

    fn get(&self, collection: &str, id: &str) -> Option<&Value> {
        self.collections.get(collection)?.get(id)
    }

    pub(crate) fn all(&self, collection: &str) -> Vec<Value> {
        self.collections
            .get(collection)
            .map(|c| c.values().cloned().collect())
            .unwrap_or_default()
    }
}

/// The platform, serving until dropped.
pub struct Platform {
    server: MockServer,
}

impl Platform {
    /// Serves `records` on `listener` (a loopback port the caller bound).
    pub async fn start(records: Records, listener: TcpListener) -> Platform {
        Platform::serve(Source::Fixed(Arc::new(records)), listener).await
    }

    /// Serves the records of `dir` as they are on disk at each request: a record edited while
    /// the platform runs is listed as edited.
    ///
    /// # Errors
    /// The directory or one of its records cannot be read now.
    pub async fn watch(dir: &Path, listener: TcpListener) -> Result<Platform, LoadError> {
        let watched = WatchedRecords::open(dir)?;
        Ok(Platform::serve(Source::Watched(watched), listener).await)
    }

    async fn serve(source: Source, listener: TcpListener) -> Platform {
        let server = MockServer::builder().listener(listener).start().await;
        // The password grant: any credentials are accepted, the token is not checked.
        Mock::given(method("POST"))
            .and(path("/oauth/token"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "access_token": "local-platform-token",
                "token_type": "bearer",
                "expires_in": 3600
            })))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path_regex(r"^/api/(accounts|invoices)(/[^/]+(/items)?)?$"))
            .respond_with(Collections { source })
            .mount(&server)
            .await;
        Platform { server }
    }

    /// The base URL to give `syncdef sync --platform`.
    pub fn uri(&self) -> String {
        self.server.uri()
    }
}

/// Where the served records come from.
enum Source {
    /// Given once.
    Fixed(Arc<Records>),
    /// A directory, as it is at each request.
    Watched(WatchedRecords),
}

struct Collections {
    source: Source,
}

impl Respond for Collections {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let records = match &self.source {
            Source::Fixed(records) => Arc::clone(records),
            Source::Watched(watched) => match watched.current() {
                Ok(records) => records,
                // The sync shows this message: the file to fix, then run it again.
                Err(error) => {
                    return ResponseTemplate::new(500)
                        .set_body_json(json!({ "message": error.to_string() }));
                }
            },
        };
        let segments: Vec<&str> = request.url.path().split('/').skip(2).collect();
        match segments.as_slice() {
            [collection] => list(request, records.all(collection)),
            [collection, id] => match records.get(collection, id) {
                Some(record) => ResponseTemplate::new(200).set_body_json(record),
                None => not_found(collection, id),
            },
            ["invoices", id, "items"] => match records.get("invoices", id) {
                Some(invoice) => ResponseTemplate::new(200)
                    .set_body_json(invoice.get("items").cloned().unwrap_or(json!([]))),
                None => not_found("invoices", id),
            },
            _ => ResponseTemplate::new(404),
        }
    }
}

fn not_found(collection: &str, id: &str) -> ResponseTemplate {
    ResponseTemplate::new(404)
        .set_body_json(json!({"message": format!("no record {id} in {collection}")}))
}

fn bad_request(message: &str) -> ResponseTemplate {
    ResponseTemplate::new(400).set_body_json(json!({ "message": message }))
}

/// `2026-01-01T00:00:07.000`, `2026-01-01T00:00:07Z` and `2026-01-01` as comparable text
/// (second precision: the catalog's records have no fractions).
fn comparable(stamp: &str) -> String {
    let mut text: String = stamp.chars().take(19).collect();
    if text.len() == 10 {
        text.push_str("T00:00:00");
    }
    text
}

fn updated_at(record: &Value) -> String {
    comparable(record["updatedAt"].as_str().unwrap_or_default())
}

/// Keeps the records `$filter` selects; only the `updatedAt` comparisons a sync sends.
fn filtered(filter: &str, records: Vec<Value>) -> Result<Vec<Value>, String> {
    let parts: Vec<&str> = filter.splitn(3, ' ').collect();
    let ["updatedAt", op, literal] = parts.as_slice() else {
        return Err(format!(
            "this local platform filters on `updatedAt gt|ge datetime'…'` only, not `{filter}`"
        ));
    };
    let bound = comparable(
        literal
            .trim_start_matches("datetime'")
            .trim_end_matches('\''),
    );
    let keep = |at: &String| match *op {
        "gt" => Ok(*at > bound),
        "ge" => Ok(*at >= bound),
        other => Err(format!("unsupported operator `{other}` in `{filter}`")),
    };
    let mut kept = Vec::new();
    for record in records {
        if keep(&updated_at(&record))? {
            kept.push(record);
        }
    }
    Ok(kept)
}

/// One page of a collection in the version 3 envelope.
fn list(request: &Request, records: Vec<Value>) -> ResponseTemplate {
    let query: HashMap<String, String> = request.url.query_pairs().into_owned().collect();
    let mut records = match query.get("$filter") {
        Some(filter) => match filtered(filter, records) {
            Ok(kept) => kept,
            Err(message) => return bad_request(&message),
        },
        None => records,
    };
    records.sort_by(|a, b| {
        updated_at(a)
            .cmp(&updated_at(b))
            .then_with(|| a["id"].to_string().cmp(&b["id"].to_string()))
    });
    let number = |name: &str, default: usize| {
        query
            .get(name)
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|n| *n > 0)
            .unwrap_or(default)
    };
    let size = number("size", 100);
    let page = number("page", 1);
    page_of(records, request, size, page)
}

/// Page `page` (from 1) of `size` records in the platform's paging envelope: `data`, `paging`,
/// and a `links.next` that repeats the request with the next page number while there is one.
pub fn page_of(
    records: Vec<Value>,
    request: &Request,
    size: usize,
    page: usize,
) -> ResponseTemplate {
    let (size, page) = (size.max(1), page.max(1));
    let total = records.len();
    let page_count = total.div_ceil(size).max(1);
    let data: Vec<Value> = records
        .into_iter()
        .skip((page - 1) * size)
        .take(size)
        .collect();
    let next = (page < page_count).then(|| {
        let mut url = request.url.clone();
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .into_owned()
            .filter(|(k, _)| k != "page")
            .collect();
        url.query_pairs_mut()
            .clear()
            .extend_pairs(kept)
            .append_pair("page", &(page + 1).to_string());
        json!({"uri": url.to_string(), "method": "GET", "headers": {"X-Api-Version": "3.0"}})
    });
    ResponseTemplate::new(200).set_body_json(json!({
        "data": data,
        "paging": {"page": page, "size": size, "offset": (page - 1) * size,
                   "totalCount": total, "pageCount": page_count},
        "links": {"self": null, "first": null, "last": null, "next": next, "previous": null},
    }))
}
