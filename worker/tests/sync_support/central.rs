//! A Business Central company (API v2.0) on loopback, as the catalog definition talks to it:
//! customers, sales orders (with their lines inserted in the create) and contacts, each with
//! an ETag that an update must send back (`If-Match`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use wiremock::matchers::path_regex;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The company's records and what was done to them.
#[derive(Default)]
pub struct Company {
    next: u64,
    /// (entity set, id) -> (version, record).
    pub records: HashMap<(String, String), (u64, Value)>,
    /// Every create: (entity set, the name it was created with).
    pub creates: Vec<(String, String)>,
    /// Every update: (entity set, id).
    pub updates: Vec<(String, String)>,
}

impl Company {
    /// Creates of `set` so far.
    pub fn creates(&self, set: &str) -> usize {
        self.creates.iter().filter(|(s, _)| s == set).count()
    }

    /// Names created twice or more in `set`.
    pub fn duplicates(&self, set: &str) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.creates
            .iter()
            .filter(|(s, n)| s == set && !seen.insert(n.clone()))
            .map(|(_, n)| n.clone())
            .collect()
    }
}

/// The fake company under `/bc`.
pub struct BusinessCentral {
    pub server: MockServer,
    pub company: Arc<Mutex<Company>>,
}

impl BusinessCentral {
    pub async fn start() -> Self {
        let server = MockServer::start().await;
        let company = Arc::new(Mutex::new(Company::default()));
        Mock::given(path_regex(
            r"^/bc/(customers|salesOrders|contacts)(\([0-9a-f-]+\))?$",
        ))
        .respond_with(Responder {
            company: company.clone(),
        })
        .mount(&server)
        .await;
        BusinessCentral { server, company }
    }

    /// The base URL the engine sends to.
    pub fn base(&self) -> String {
        format!("{}/bc", self.server.uri())
    }
}

struct Responder {
    company: Arc<Mutex<Company>>,
}

fn etag(version: u64) -> String {
    format!("W/\"{version}\"")
}

fn error(status: u16, code: &str, message: &str) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .set_body_json(json!({"error": {"code": code, "message": message}}))
}

impl Respond for Responder {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut company = self.company.lock().expect("company");
        let last = request.url.path().rsplit('/').next().unwrap_or_default();
        let (set, id) = match last.split_once('(') {
            Some((set, rest)) => (set.to_owned(), Some(rest.trim_end_matches(')').to_owned())),
            None => (last.to_owned(), None),
        };
        match (request.method.as_str(), id) {
            ("POST", None) => {
                let Ok(body) = serde_json::from_slice::<Value>(&request.body) else {
                    return error(400, "BadRequest", "not JSON");
                };
                if set == "salesOrders" {
                    let customer = body["customerId"].as_str().unwrap_or_default().to_owned();
                    if !company
                        .records
                        .contains_key(&("customers".to_owned(), customer))
                    {
                        return error(
                            400,
                            "Internal_RecordNotFound",
                            "the customer does not exist",
                        );
                    }
                }
                company.next += 1;
                let id = format!("00000000-0000-4000-9000-{:012}", company.next);
                let name = body["displayName"]
                    .as_str()
                    .or_else(|| body["externalDocumentNumber"].as_str())
                    .unwrap_or_default()
                    .to_owned();
                let mut stored = body;
                stored["id"] = json!(id);
                company
                    .records
                    .insert((set.clone(), id.clone()), (1, stored.clone()));
                company.creates.push((set, name));
                stored["@odata.etag"] = json!(etag(1));
                ResponseTemplate::new(201).set_body_json(stored)
            }
            ("GET", Some(id)) => match company.records.get(&(set, id)) {
                Some((version, record)) => {
                    let mut record = record.clone();
                    record["@odata.etag"] = json!(etag(*version));
                    ResponseTemplate::new(200).set_body_json(record)
                }
                None => error(404, "Internal_RecordNotFound", "no such record"),
            },
            ("PATCH", Some(id)) => {
                let Ok(body) = serde_json::from_slice::<Value>(&request.body) else {
                    return error(400, "BadRequest", "not JSON");
                };
                let if_match = request
                    .headers
                    .get("if-match")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let key = (set.clone(), id.clone());
                let Some((version, record)) = company.records.get_mut(&key) else {
                    return error(404, "Internal_RecordNotFound", "no such record");
                };
                if if_match.as_deref() != Some(etag(*version).as_str()) {
                    return error(412, "Request_EntityChanged", "the record changed");
                }
                for (k, v) in body.as_object().into_iter().flatten() {
                    record[k] = v.clone();
                }
                *version += 1;
                let mut answer = record.clone();
                answer["@odata.etag"] = json!(etag(*version));
                company.updates.push((set, id));
                ResponseTemplate::new(200).set_body_json(answer)
            }
            _ => error(405, "BadRequest", "method not allowed"),
        }
    }
}
