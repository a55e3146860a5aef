//! `syncdef sync` against a hostile QuickBooks company, killed with SIGKILL at random points.
//!
//! The external system carries out creates and then loses their answers (a 502 from its
//! gateway, a body cut off), throttles every request after a lost create, echoes the bearer
//! token in headers and error bodies, and answers some creates with error bodies of megabytes.
//! Runs of the binary are killed at random moments, then a last run goes to the end. What must
//! hold afterwards, whatever the seed:
//!
//! - no customer is created twice;
//! - every account the platform lists is in the state: done (and its customer exists with the
//!   stored id), or failed or unknown (and reported by `syncdef sync status`); none is lost;
//! - a customer that exists belongs to a record that is done with its id, or unknown: never to
//!   a record the state calls failed (which would be re-created) or does not know;
//! - no secret (the access and refresh tokens, the client secret, the platform password)
//!   appears in any output, log or the state file, and no output or state grows with the error
//!   bodies.
//!
//! `CHAOS_SEED=n` replays one seed.

use crate::common;
// The loopback fakes live with the worker's own tests, which use them too.
use crate::sync_support;

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::dice::Dice;
use serde_json::{Value, json};
use sync_support::{Data, Platform};
use syncdef_worker::state::State;
use syncdef_worker::{RecordKey, RecordStatus, SqliteState};
use wiremock::matchers::path_regex;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const ACCOUNTS: u32 = 120;
const ACCESS_TOKEN: &str = "qbo-acc3ss-Chaos-9d21c0ffee";
const REFRESH_TOKEN: &str = "qbo-r3fresh-Chaos-11aa22bb";
const CLIENT_SECRET: &str = "cl1ent-s3cret-Chaos-55bb66";
const PLATFORM_PASSWORD: &str = "pl4tf0rm-Pa55-Chaos-7f3e";
const SECRETS: [&str; 4] = [
    ACCESS_TOKEN,
    REFRESH_TOKEN,
    CLIENT_SECRET,
    PLATFORM_PASSWORD,
];
/// The size of the error bodies some creates get.
const HUGE: usize = 6 * 1024 * 1024;

/// What the hostile company did and holds.
#[derive(Default)]
struct Company {
    next_id: u64,
    /// Customers by id: (`SyncToken`, `DisplayName`).
    customers: HashMap<String, (u64, String)>,
    /// Every create carried out, by `DisplayName`.
    creates: Vec<String>,
    /// The customer each `requestid` made: a repeat is answered with it, not carried out.
    request_ids: HashMap<String, String>,
    /// Requests still to throttle (a storm after a lost answer).
    storm: u32,
    faults_on: bool,
    lost: u32,
    echoed: u32,
    huge: u32,
}

struct Hostile {
    company: Arc<Mutex<Company>>,
    dice: Mutex<Dice>,
}

impl Hostile {
    fn roll(&self, percent: u64) -> bool {
        self.dice.lock().expect("dice").chance(percent)
    }
}

fn customer_json(id: &str, token: u64, name: &str) -> Value {
    json!({"Customer": {"Id": id, "SyncToken": token.to_string(), "DisplayName": name}})
}

fn throttled() -> ResponseTemplate {
    ResponseTemplate::new(429).insert_header("retry-after", "0")
}

/// An answer that shows the caller's credentials back: in headers, in a JSON member whose name
/// is on no mask list, and in the fault's text.
fn echo(authorization: &str) -> ResponseTemplate {
    ResponseTemplate::new(400)
        .insert_header(
            "www-authenticate",
            format!("Bearer error=\"invalid_request\", echo=\"{authorization}\"").as_str(),
        )
        .insert_header("x-echo", authorization)
        .set_body_json(json!({
            "Fault": {"Error": [{
                "Message": "Request has invalid or unsupported property",
                "Detail": format!("the request sent {authorization}"),
                "code": "2010"
            }], "type": "ValidationFault"},
            "received": {"auth": authorization}
        }))
}

impl Respond for Hostile {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut company = self.company.lock().expect("company");
        let faults = company.faults_on;
        if faults && company.storm > 0 {
            company.storm -= 1;
            return throttled();
        }
        let path = request.url.path().trim_start_matches("/qbo/").to_owned();
        let authorization = request
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        match (request.method.as_str(), path.as_str()) {
            ("GET", "query") => query(&company, request),
            ("GET", read) => {
                let id = read.trim_start_matches("customer/");
                match company.customers.get(id) {
                    Some((token, name)) => {
                        ResponseTemplate::new(200).set_body_json(customer_json(id, *token, name))
                    }
                    None => ResponseTemplate::new(400).set_body_json(
                        json!({"Fault": {"Error": [{"Message": "Object Not Found", "code": "610"}]}}),
                    ),
                }
            }
            ("POST", "customer") => {
                let Ok(body) = serde_json::from_slice::<Value>(&request.body) else {
                    return ResponseTemplate::new(400);
                };
                if let Some(id) = body["Id"].as_str() {
                    return update(&mut company, id, &body);
                }
                drop(company);
                self.create(request, &body, &authorization, faults)
            }
            _ => ResponseTemplate::new(405),
        }
    }
}

impl Hostile {
    fn create(
        &self,
        request: &Request,
        body: &Value,
        authorization: &str,
        faults: bool,
    ) -> ResponseTemplate {
        if faults && self.roll(8) {
            self.company.lock().expect("company").echoed += 1;
            return echo(authorization);
        }
        if faults && self.roll(3) {
            self.company.lock().expect("company").huge += 1;
            let message = "x".repeat(HUGE);
            return ResponseTemplate::new(400).set_body_json(
                json!({"Fault": {"Error": [{"Message": message, "Detail": authorization, "code": "6000"}]}}),
            );
        }
        let name = body["DisplayName"].as_str().unwrap_or_default().to_owned();
        let request_id = request
            .url
            .query_pairs()
            .find(|(k, _)| k == "requestid")
            .map(|(_, v)| v.into_owned());
        let mut company = self.company.lock().expect("company");
        let id = if let Some(id) = request_id.as_ref().and_then(|r| company.request_ids.get(r)) {
            id.clone()
        } else {
            company.next_id += 1;
            let id = company.next_id.to_string();
            company.customers.insert(id.clone(), (0, name.clone()));
            company.creates.push(name.clone());
            if let Some(r) = request_id {
                company.request_ids.insert(r, id.clone());
            }
            id
        };
        let answer = customer_json(&id, 0, &name);
        if faults && self.roll(12) {
            // Carried out, and the answer is lost; every request after it is throttled for a
            // while, so that the repeats run out of attempts.
            company.lost += 1;
            company.storm = 4;
            return if self.roll(50) {
                ResponseTemplate::new(502)
            } else {
                let text = answer.to_string();
                ResponseTemplate::new(200)
                    .insert_header("content-type", "application/json")
                    .set_body_string(&text[..text.len() / 2])
            };
        }
        ResponseTemplate::new(200).set_body_json(answer)
    }
}

fn update(company: &mut Company, id: &str, body: &Value) -> ResponseTemplate {
    let Some((token, name)) = company.customers.get(id).cloned() else {
        return ResponseTemplate::new(400).set_body_json(
            json!({"Fault": {"Error": [{"Message": "Object Not Found", "code": "610"}]}}),
        );
    };
    if body["SyncToken"].as_str() != Some(token.to_string().as_str()) {
        return ResponseTemplate::new(400).set_body_json(
            json!({"Fault": {"Error": [{"Message": "Stale Object Error", "code": "5010"}]}}),
        );
    }
    let name = body["DisplayName"].as_str().map_or(name, str::to_owned);
    company
        .customers
        .insert(id.to_owned(), (token + 1, name.clone()));
    ResponseTemplate::new(200).set_body_json(customer_json(id, token + 1, &name))
}

/// `select Id from Customer where DisplayName = '…'`, the catalog's lookup.
fn query(company: &Company, request: &Request) -> ResponseTemplate {
    let text = request
        .url
        .query_pairs()
        .find(|(k, _)| k == "query")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let Some(literal) = text
        .split_once(" = '")
        .and_then(|(_, l)| l.strip_suffix('\''))
    else {
        return ResponseTemplate::new(400);
    };
    let name = literal.replace("\\'", "'").replace("\\\\", "\\");
    let found: Vec<Value> = company
        .customers
        .iter()
        .filter(|(_, (_, n))| *n == name)
        .map(|(id, _)| json!({"Id": id}))
        .collect();
    ResponseTemplate::new(200).set_body_json(if found.is_empty() {
        json!({"QueryResponse": {}})
    } else {
        json!({"QueryResponse": {"Customer": found}})
    })
}

/// What one run of the binary printed, and whether it was killed.
struct Output {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// Runs `syncdef` with `args`; kills it with SIGKILL after `kill_after` if it is still running.
fn run(args: &[String], env: &[(String, String)], kill_after: Option<Duration>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_syncdef"))
        .args(args)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "debug")
        .env_remove("SYNCDEF_PLATFORM_CREDENTIALS")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the syncdef binary starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if kill_after.is_some_and(|k| started.elapsed() >= k) {
            // std's kill is SIGKILL on Unix: no destructor, no flush, like a crash.
            child.kill().expect("kill");
            let _ = child.wait();
            break None;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "a run took over 4 minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    Output {
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
        code: status.and_then(|s| s.code()),
    }
}

struct Rig {
    platform: Platform,
    server: MockServer,
    company: Arc<Mutex<Company>>,
    dir: tempfile::TempDir,
}

impl Rig {
    async fn start(seed: u64) -> Rig {
        let server = MockServer::start().await;
        let company = Arc::new(Mutex::new(Company::default()));
        Mock::given(path_regex(r"^/qbo/(customer(/[0-9]+)?|query)$"))
            .respond_with(Hostile {
                company: company.clone(),
                dice: Mutex::new(Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)),
            })
            .mount(&server)
            .await;
        let dir = tempfile::tempdir().expect("dir");
        let store = dir.path().join("tokens.json");
        std::fs::write(
            &store,
            json!({"access_token": ACCESS_TOKEN, "refresh_token": REFRESH_TOKEN, "expires_at": 4_102_444_800u64})
                .to_string(),
        )
        .expect("token store");
        set_private(&store);
        Rig {
            platform: Platform::start(Data::generate(ACCOUNTS, 0)).await,
            server,
            company,
            dir,
        }
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state.sqlite")
    }

    fn sync_args(&self) -> Vec<String> {
        [
            "sync",
            "--platform",
            &self.platform.uri(),
            "catalog/quickbooks-online/definition.yaml",
            "--state",
            &self.state().display().to_string(),
            "--base-url",
            &format!("{}/qbo", self.server.uri()),
            "--token-store",
            &self.dir.path().join("tokens.json").display().to_string(),
            "--entry",
            "Account",
            "--page-size",
            "25",
            "--max-attempts",
            "3",
            "--requests-per-minute",
            "unlimited",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
    }

    fn env() -> Vec<(String, String)> {
        [
            ("SYNCDEF_PLATFORM_CLIENT_KEY", "chaos-key"),
            ("SYNCDEF_PLATFORM_CLIENT_SECRET", CLIENT_SECRET),
            ("SYNCDEF_PLATFORM_USERNAME", "chaos-user"),
            ("SYNCDEF_PLATFORM_PASSWORD", PLATFORM_PASSWORD),
            ("SYNCDEF_CLIENT_ID", "chaos-client"),
            ("SYNCDEF_CLIENT_SECRET", CLIENT_SECRET),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
    }
}

fn set_private(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
}

/// The state's row of account `n`: status and external id.
fn state_row(state: &SqliteState, n: u32) -> Option<(RecordStatus, Option<String>)> {
    state
        .record(&RecordKey::new("Account", n.to_string()))
        .expect("the state reads")
        .map(|r| (r.status, r.external_id))
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in SECRETS {
        assert!(!text.contains(secret), "{what} holds the secret {secret}");
    }
}

async fn chaos(seed: u64) {
    let rig = Rig::start(seed).await;
    let mut dice = Dice(seed | 1);
    rig.company.lock().expect("company").faults_on = true;
    let mut outputs = Vec::new();
    for _ in 0..6 {
        let kill_after = Duration::from_millis(150 + dice.below(1_800));
        let (args, env) = (rig.sync_args(), Rig::env());
        let out = tokio::task::spawn_blocking(move || run(&args, &env, Some(kill_after)))
            .await
            .expect("the run ends");
        outputs.push(out);
    }
    // The external system calms down; runs go to their end until nothing is left to do.
    rig.company.lock().expect("company").faults_on = false;
    for _ in 0..3 {
        let (args, env) = (rig.sync_args(), Rig::env());
        let out = tokio::task::spawn_blocking(move || run(&args, &env, None))
            .await
            .expect("the run ends");
        let finished = out.code.is_some();
        outputs.push(out);
        assert!(finished, "seed {seed}: the last runs are not killed");
    }
    check(seed, &rig, &outputs);
}

fn check(seed: u64, rig: &Rig, outputs: &[Output]) {
    let company = rig.company.lock().expect("company");
    // No customer is created twice.
    let mut names = HashSet::new();
    let twice: Vec<&String> = company
        .creates
        .iter()
        .filter(|n| !names.insert(*n))
        .collect();
    assert!(twice.is_empty(), "seed {seed}: created twice: {twice:?}");
    let state = SqliteState::open_read_only(&rig.state()).expect("the state opens");
    let exists: HashMap<&str, &str> = company
        .customers
        .iter()
        .map(|(id, (_, name))| (name.as_str(), id.as_str()))
        .collect();
    for n in 1..=ACCOUNTS {
        let name = format!("Account {n}");
        let (status, external_id) = state_row(&state, n)
            .unwrap_or_else(|| panic!("seed {seed}: account {n} is lost: no state row"));
        match (status, exists.get(name.as_str())) {
            (RecordStatus::Done, Some(id)) => assert_eq!(
                external_id.as_deref(),
                Some(*id),
                "seed {seed}: account {n} is done with another id"
            ),
            (RecordStatus::Done, None) => {
                panic!("seed {seed}: account {n} is done but was never created")
            }
            (RecordStatus::Unknown, _) | (RecordStatus::Failed, None) => {}
            (status, Some(id)) => panic!(
                "seed {seed}: customer {id} exists but account {n} is `{status}`: it would be created again"
            ),
            (status, None) => panic!("seed {seed}: account {n} is `{status}`"),
        }
    }
    let killed = outputs.iter().filter(|o| o.code.is_none()).count();
    eprintln!(
        "seed {seed}: {killed} runs killed, {} answers lost, {} echoes of the token, {} huge error bodies",
        company.lost, company.echoed, company.huge
    );
    assert!(company.lost > 0, "seed {seed}: no answer was lost");
    assert!(killed > 0, "seed {seed}: no run was killed");
    drop(company);
    drop(state);
    // No secret leaves, and nothing grows with the error bodies.
    for (i, out) in outputs.iter().enumerate() {
        assert_no_secret(&format!("run {i} stdout"), &out.stdout);
        assert_no_secret(&format!("run {i} stderr"), &out.stderr);
        assert!(
            out.stdout.len() + out.stderr.len() < HUGE / 2,
            "seed {seed}: run {i} printed {} bytes",
            out.stdout.len() + out.stderr.len()
        );
    }
    let state = std::fs::read(rig.state()).expect("the state file");
    assert_no_secret("the state file", &String::from_utf8_lossy(&state));
    assert!(
        state.len() < HUGE / 2,
        "seed {seed}: the state holds {} bytes",
        state.len()
    );
    for format in ["human", "json"] {
        let status = Command::new(env!("CARGO_BIN_EXE_syncdef"))
            .args([
                "sync", "status", "--limit", "1000", "--format", format, "--state",
            ])
            .arg(rig.state())
            .output()
            .expect("status runs");
        let text = String::from_utf8_lossy(&status.stdout);
        assert_no_secret(&format!("sync status ({format})"), &text);
        assert!(
            text.len() < HUGE / 2,
            "seed {seed}: sync status printed {} bytes",
            text.len()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_external_system_and_random_kills_never_duplicate_lose_or_leak() {
    let seeds: Vec<u64> = match std::env::var("CHAOS_SEED") {
        Ok(seed) => vec![seed.parse().expect("CHAOS_SEED is a number")],
        Err(_) => vec![1, 2, 3],
    };
    for seed in seeds {
        chaos(seed).await;
    }
}
