//! A QuickBooks Online company on loopback, answering the catalog definition
//! (`catalog/quickbooks-online/definition.yaml`) as the real API does: creates get the next
//! `Id` with `SyncToken` "0", sparse updates must carry the current `SyncToken` (else fault
//! 5010), reads return the stored object, an invoice's `CustomerRef` must name a customer
//! (else fault 2500), a repeated `requestid` gets the first answer again, and the lookup query
//! `select Id from Customer where DisplayName = '…'` finds what was created. A second
//! customer with the same `DisplayName` is refused (fault 6240), as QuickBooks refuses it.
//!
//! Every company id in the path (`/v3/company/<id>/…`) has its own books, in memory: they
//! start empty each time the server starts. Started with [`Limits`]
//! ([`QuickBooks::start_limited`]) each company also keeps the vendor's request limits,
//! answering 429 over them, and `GET /stats` tells what each company admitted and refused.

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub use crate::throttle::Limits;
use crate::throttle::too_many_requests;

/// The entity kinds the catalog definition pushes, with the path segment and the field the
/// lookup searches.
const KINDS: [(&str, &str, &str); 2] = [
    ("customer", "Customer", "DisplayName"),
    ("invoice", "Invoice", "DocNumber"),
];

/// The books of every company, by company id.
type Companies = HashMap<String, Books>;

/// One company's objects, by (kind, Id).
#[derive(Debug, Default)]
struct Books {
    next_id: u64,
    objects: HashMap<(String, String), Value>,
    /// The (kind, Id) each `requestid` created.
    request_ids: HashMap<String, (String, String)>,
}

/// The company, serving until dropped.
pub struct QuickBooks {
    server: MockServer,
    companies: Arc<Mutex<Companies>>,
}

impl QuickBooks {
    /// Serves an empty company on `listener` (a loopback port the caller bound).
    pub async fn start(listener: TcpListener) -> QuickBooks {
        QuickBooks::serve(listener, None).await
    }

    /// Serves empty companies that each keep `limits` (429 over them), with `GET /stats`.
    pub async fn start_limited(listener: TcpListener, limits: Limits) -> QuickBooks {
        QuickBooks::serve(listener, Some(limits)).await
    }

    async fn serve(listener: TcpListener, limits: Option<Limits>) -> QuickBooks {
        let server = MockServer::builder().listener(listener).start().await;
        let companies = Arc::new(Mutex::new(Companies::new()));
        let throttle = limits.map(|limits| Throttle {
            limits,
            traffic: Arc::new(Mutex::new(crate::throttle::Companies::new())),
            start: Instant::now(),
            started_unix_ms: unix_ms_now(),
        });
        Mock::given(path_regex(
            r"^/v3/company/[^/]+/((customer|invoice)(/[0-9]+)?|query)$",
        ))
        .respond_with(Api {
            companies: companies.clone(),
            throttle: throttle.clone(),
        })
        .mount(&server)
        .await;
        if let Some(throttle) = throttle {
            Mock::given(method("GET"))
                .and(path("/stats"))
                .respond_with(throttle)
                .mount(&server)
                .await;
        }
        QuickBooks { server, companies }
    }

    /// Where the server listens (`http://127.0.0.1:8701`).
    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// The base URL of company `company` (any id names a company), for `--base-url`.
    pub fn base_url(&self, company: &str) -> String {
        format!("{}/v3/company/{company}", self.server.uri())
    }

    /// The objects of `kind` (`Customer`, `Invoice`) company `company` holds, as stored.
    pub fn objects(&self, company: &str, kind: &str) -> Vec<Value> {
        let companies = self
            .companies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        companies.get(company).map_or_else(Vec::new, |books| {
            books
                .objects
                .iter()
                .filter(|((k, _), _)| k == kind)
                .map(|(_, object)| object.clone())
                .collect()
        })
    }

    /// How many objects of `kind` (`Customer`, `Invoice`) company `company` holds.
    pub fn count(&self, company: &str, kind: &str) -> usize {
        let companies = self
            .companies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        companies.get(company).map_or(0, |books| {
            books.objects.keys().filter(|(k, _)| k == kind).count()
        })
    }
}

/// The limits every company keeps and what each saw.
#[derive(Clone)]
struct Throttle {
    limits: Limits,
    traffic: Arc<Mutex<crate::throttle::Companies>>,
    start: Instant,
    /// `start` on the wall clock, so that a benchmark can set the arrivals beside what it
    /// sampled of the machine (its CPU time) over the same seconds.
    started_unix_ms: u64,
}

fn unix_ms_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Throttle {
    /// Whether `company` may have a request now.
    fn admit(&self, company: &str) -> bool {
        let mut traffic = self
            .traffic
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        traffic
            .entry(company.to_owned())
            .or_default()
            .admit(&self.limits, Instant::now())
    }

    /// Per company, the requests admitted (and when) and those answered 429, with the limits
    /// and when the arrivals' clock started.
    fn stats(&self) -> Value {
        let traffic = self
            .traffic
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let companies: Map<String, Value> = traffic
            .iter()
            .map(|(id, t)| (id.clone(), t.report(self.start)))
            .collect();
        json!({
            "limits": {
                "requests": self.limits.requests,
                "windowMs": u64::try_from(self.limits.window.as_millis()).unwrap_or(u64::MAX),
                "concurrency": self.limits.concurrency,
                "latencyMs": u64::try_from(self.limits.latency.as_millis()).unwrap_or(u64::MAX),
            },
            "startedAtUnixMs": self.started_unix_ms,
            "companies": companies,
        })
    }
}

/// `GET /stats`: [`Throttle::stats`].
impl Respond for Throttle {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(self.stats())
    }
}

struct Api {
    companies: Arc<Mutex<Companies>>,
    throttle: Option<Throttle>,
}

impl Respond for Api {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        // The path matched `/v3/company/<id>/…`: the fourth segment is the company.
        let company = request.url.path().split('/').nth(3).unwrap_or_default();
        let Some(throttle) = &self.throttle else {
            return self.book(company, request);
        };
        if !throttle.admit(company) {
            return too_many_requests();
        }
        self.book(company, request)
            .set_delay(throttle.limits.latency)
    }
}

impl Api {
    /// What the company's books answer.
    fn book(&self, company: &str, request: &Request) -> ResponseTemplate {
        let mut companies = self
            .companies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let books = companies.entry(company.to_owned()).or_default();
        let segments: Vec<&str> = request.url.path().rsplit('/').take(2).collect();
        if segments.first() == Some(&"query") {
            return query(books, request);
        }
        let (segment, id) = match segments.as_slice() {
            [last, parent] if last.bytes().all(|b| b.is_ascii_digit()) => (*parent, Some(*last)),
            [last, ..] => (*last, None),
            [] => return ResponseTemplate::new(404),
        };
        let Some((_, kind, _)) = KINDS.iter().find(|(s, _, _)| *s == segment) else {
            return ResponseTemplate::new(404);
        };
        match (request.method.as_str(), id) {
            ("GET", Some(id)) => match books.objects.get(&(kind.to_string(), id.to_owned())) {
                Some(object) => answer(kind, object),
                None => fault(
                    "Object Not Found",
                    &format!("no {kind} with Id {id}"),
                    "610",
                ),
            },
            ("POST", None) => {
                let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(&request.body) else {
                    return fault(
                        "Request has invalid or unsupported property",
                        "the body is not a JSON object",
                        "2010",
                    );
                };
                if body.contains_key("Id") {
                    update(books, kind, body)
                } else {
                    create(books, kind, body, request)
                }
            }
            _ => ResponseTemplate::new(405),
        }
    }
}

fn create(
    books: &mut Books,
    kind: &str,
    body: Map<String, Value>,
    request: &Request,
) -> ResponseTemplate {
    let request_id = request
        .url
        .query_pairs()
        .find(|(k, _)| k == "requestid")
        .map(|(_, v)| v.into_owned());
    // A repeated `requestid` is answered with what the first request did, without doing it
    // again: that is how a create whose answer was lost is sent safely a second time.
    if let Some(found) = request_id.as_ref().and_then(|r| books.request_ids.get(r))
        && let Some(object) = books.objects.get(found)
    {
        return answer(kind, object);
    }
    if kind == "Customer" {
        let name = body.get("DisplayName").cloned().unwrap_or(Value::Null);
        if let Some(((_, id), _)) = books
            .objects
            .iter()
            .find(|((k, _), object)| k == kind && object["DisplayName"] == name)
        {
            return fault(
                "Duplicate Name Exists Error",
                &format!("The name supplied already exists. : Id={id}"),
                "6240",
            );
        }
    }
    if kind == "Invoice" {
        let customer = body
            .get("CustomerRef")
            .and_then(|r| r.get("value"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !books
            .objects
            .contains_key(&("Customer".to_owned(), customer.to_owned()))
        {
            return fault(
                "Invalid Reference Id",
                &format!("CustomerRef `{customer}` names no customer"),
                "2500",
            );
        }
    }
    books.next_id += 1;
    let id = books.next_id.to_string();
    let mut object = body;
    object.insert("Id".to_owned(), json!(id));
    object.insert("SyncToken".to_owned(), json!("0"));
    let object = Value::Object(object);
    let key = (kind.to_owned(), id);
    books.objects.insert(key.clone(), object.clone());
    if let Some(request_id) = request_id {
        books.request_ids.insert(request_id, key);
    }
    answer(kind, &object)
}

/// A sparse update: the fields sent replace the stored ones, if `SyncToken` is current.
fn update(books: &mut Books, kind: &str, body: Map<String, Value>) -> ResponseTemplate {
    let id = body
        .get("Id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let Some(stored) = books.objects.get_mut(&(kind.to_owned(), id.clone())) else {
        return fault(
            "Object Not Found",
            &format!("no {kind} with Id {id}"),
            "610",
        );
    };
    let current: u64 = stored["SyncToken"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    if body.get("SyncToken").and_then(Value::as_str) != Some(current.to_string().as_str()) {
        return fault(
            "Stale Object Error",
            &format!("{kind} {id} is at SyncToken {current}; read it again"),
            "5010",
        );
    }
    if let Value::Object(fields) = stored {
        fields.extend(body.into_iter().filter(|(k, _)| k != "sparse"));
        fields.insert("SyncToken".to_owned(), json!((current + 1).to_string()));
    }
    let object = stored.clone();
    answer(kind, &object)
}

/// `select Id from <Kind> where <field> = '<literal>'`, as the catalog's lookup asks it.
fn query(books: &Books, request: &Request) -> ResponseTemplate {
    let text = request
        .url
        .query_pairs()
        .find(|(k, _)| k == "query")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let Some((head, literal)) = text.split_once(" = '") else {
        return fault("QueryParserError", &format!("cannot read `{text}`"), "4000");
    };
    let Some((_, kind, field)) = KINDS
        .iter()
        .find(|(_, kind, _)| head.contains(&format!("from {kind}")))
    else {
        return fault(
            "QueryParserError",
            &format!("no known entity in `{text}`"),
            "4000",
        );
    };
    let value = literal
        .strip_suffix('\'')
        .unwrap_or(literal)
        .replace("\\'", "'")
        .replace("\\\\", "\\");
    let found: Vec<Value> = books
        .objects
        .iter()
        .filter(|((k, _), object)| k == kind && object[*field] == value.as_str())
        .map(|((_, id), _)| json!({ "Id": id }))
        .collect();
    let response = if found.is_empty() {
        json!({})
    } else {
        json!({ *kind: found })
    };
    ResponseTemplate::new(200).set_body_json(json!({ "QueryResponse": response }))
}

fn answer(kind: &str, object: &Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({ kind: object }))
}

fn fault(message: &str, detail: &str, code: &str) -> ResponseTemplate {
    ResponseTemplate::new(400).set_body_json(json!({
        "Fault": {"Error": [{"Message": message, "Detail": detail, "code": code}],
                  "type": "ValidationFault"}
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_say_when_the_arrivals_clock_started_on_the_wall_clock() {
        let before = unix_ms_now();
        let throttle = Throttle {
            limits: Limits::parse("2/60", "1", "0").expect("limits"),
            traffic: Arc::default(),
            start: Instant::now(),
            started_unix_ms: unix_ms_now(),
        };
        let after = unix_ms_now();
        assert!(throttle.admit("c1"));
        let stats = throttle.stats();
        let started = stats["startedAtUnixMs"].as_u64().expect("a number");
        assert!(
            (before..=after).contains(&started),
            "{started} not in {before}..={after}"
        );
        assert_eq!(stats["companies"]["c1"]["requests"], 1);
        assert_eq!(stats["limits"]["requests"], 2);
    }
}
