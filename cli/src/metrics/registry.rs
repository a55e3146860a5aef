//! [`Metrics`]: the worker's events counted in a Prometheus registry (`prometheus-client`,
//! which also writes the text exposition), and its health judged from them.

use std::sync::atomic::AtomicU64;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use syncdef_worker::{Event, Flow, Observer, PullResult, RecordResult, SyncReport};

use super::health::Health;

/// Records of an entry, one way, by what became of them.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RecordLabels {
    entry: String,
    direction: &'static str,
    result: &'static str,
}

/// An entry, one way.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EntryLabels {
    entry: String,
    direction: &'static str,
}

/// Requests to the external system.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    entry: String,
    operation: String,
    status: &'static str,
}

/// An external account (a company: `realmId=123`).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AccountLabels {
    account: String,
}

type Histograms = Family<RequestLabels, Histogram, fn() -> Histogram>;

/// Request latencies from 5 ms to about 80 s, doubling.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.005, 2.0, 15))
}

/// Every metric `syncdef sync --metrics` serves, and the worker's health.
pub struct Metrics {
    registry: Registry,
    records: Family<RecordLabels, Counter>,
    listed: Family<EntryLabels, Counter>,
    requests: Family<RequestLabels, Counter>,
    latency: Histograms,
    throttled: Family<AccountLabels, Counter>,
    throttled_seconds: Family<AccountLabels, Counter<f64, AtomicU64>>,
    budget: Family<AccountLabels, Counter>,
    queued: Gauge,
    leased: Gauge,
    refreshes: Counter,
    last_success: Family<EntryLabels, Gauge>,
    pub(super) health: Health,
}

impl Metrics {
    /// Nothing counted yet; unhealthy after `within` without progress.
    pub fn new(within: Duration) -> Self {
        let mut metrics = Metrics {
            registry: Registry::with_prefix("syncdef"),
            records: Family::default(),
            listed: Family::default(),
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            throttled: Family::default(),
            throttled_seconds: Family::default(),
            budget: Family::default(),
            queued: Gauge::default(),
            leased: Gauge::default(),
            refreshes: Counter::default(),
            last_success: Family::default(),
            health: Health::new(within),
        };
        metrics.register();
        metrics
    }

    fn register(&mut self) {
        let r = &mut self.registry;
        r.register(
            "records",
            "Records handled, by entry, direction (push, pull) and result",
            self.records.clone(),
        );
        r.register(
            "records_listed",
            "Records listed as changed (push) or read from the external system (pull)",
            self.listed.clone(),
        );
        r.register(
            "external_requests",
            "Attempts of requests to the external system, by entry, operation and status class",
            self.requests.clone(),
        );
        r.register_with_unit(
            "external_request_duration",
            "Time from sending a request to its answer, rate-limit waits excluded",
            Unit::Seconds,
            self.latency.clone(),
        );
        r.register(
            "rate_limit_waits",
            "Requests that waited for room in their account's rate limit",
            self.throttled.clone(),
        );
        r.register_with_unit(
            "rate_limit_wait",
            "Time requests waited for room in their account's rate limit",
            Unit::Seconds,
            self.throttled_seconds.clone(),
        );
        r.register(
            "rate_limit_requests",
            "Requests drawn on an account's rate-limit budget",
            self.budget.clone(),
        );
        r.register(
            "queue_depth",
            "Records in the work queue waiting for a pusher",
            self.queued.clone(),
        );
        r.register(
            "queue_leases_held",
            "Records in the work queue leased by a pusher (of any worker)",
            self.leased.clone(),
        );
        r.register(
            "token_refreshes",
            "Refreshes of the external system's OAuth2 access token",
            self.refreshes.clone(),
        );
        r.register_with_unit(
            "last_success_timestamp",
            "When a run last ended with every record of the entry synced, seconds since the epoch",
            Unit::Seconds,
            self.last_success.clone(),
        );
    }

    /// The registry in the text exposition format.
    pub fn text(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }

    /// Counts one refresh of the external system's token.
    pub fn token_refreshed(&self) {
        self.refreshes.inc();
    }

    fn record(&self, entry: &str, flow: Flow, result: &'static str) {
        self.records
            .get_or_create(&RecordLabels {
                entry: entry.to_owned(),
                direction: flow.as_str(),
                result,
            })
            .inc();
    }

    fn listed(&self, entry: &str, flow: Flow, count: usize) {
        self.listed
            .get_or_create(&EntryLabels {
                entry: entry.to_owned(),
                direction: flow.as_str(),
            })
            .inc_by(u64::try_from(count).unwrap_or(u64::MAX));
    }

    /// Stamps each entry whose records all ended well in a run that was not cut short.
    fn run_finished(&self, report: &SyncReport) {
        if report.stopped.is_some() || report.dry_run {
            return;
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let stamp = |entry: &str, flow: Flow| {
            self.last_success
                .get_or_create(&EntryLabels {
                    entry: entry.to_owned(),
                    direction: flow.as_str(),
                })
                .set(now);
        };
        for (entry, summary) in &report.entries {
            if summary.failed == 0 && summary.unknown == 0 && summary.unusable == 0 {
                stamp(entry, Flow::Push);
            }
        }
        for (entry, summary) in &report.pulled {
            if summary.failed == 0 && summary.unknown == 0 && summary.rejected == 0 {
                stamp(entry, Flow::Pull);
            }
        }
    }

    fn count(&self, event: &Event<'_>) {
        match event {
            Event::Listed { entry, records } => self.listed(entry, Flow::Push, *records),
            Event::Record { entry, result, .. } => {
                self.record(entry, Flow::Push, record_result(*result));
            }
            Event::PullPage {
                entry,
                read,
                rejected,
            } => {
                self.listed(entry, Flow::Pull, *read);
                for _ in 0..*rejected {
                    self.record(entry, Flow::Pull, "rejected");
                }
            }
            Event::Pulled { entry, result } => {
                self.record(entry, Flow::Pull, pull_result(*result));
            }
            Event::Request {
                entry,
                operation,
                status,
                duration,
                account,
                ..
            } => {
                let labels = RequestLabels {
                    entry: (*entry).to_owned(),
                    operation: (*operation).to_owned(),
                    status: status.as_str(),
                };
                self.latency
                    .get_or_create(&labels)
                    .observe(duration.as_secs_f64());
                self.requests.get_or_create(&labels).inc();
                if let Some(account) = account {
                    self.budget.get_or_create(&account_labels(account)).inc();
                }
            }
            Event::Throttled { account, waited } => {
                let labels = account_labels(account);
                self.throttled.get_or_create(&labels).inc();
                self.throttled_seconds
                    .get_or_create(&labels)
                    .inc_by(waited.as_secs_f64());
            }
            Event::Queue { queued, leased } => {
                self.queued.set(i64::try_from(*queued).unwrap_or(i64::MAX));
                self.leased.set(i64::try_from(*leased).unwrap_or(i64::MAX));
            }
            Event::RunFinished { report } => self.run_finished(report),
            _ => {}
        }
    }
}

impl Observer for Metrics {
    fn event(&self, event: &Event<'_>) {
        self.count(event);
        self.health.saw(event);
    }
}

fn account_labels(account: &str) -> AccountLabels {
    AccountLabels {
        account: account.to_owned(),
    }
}

fn record_result(result: RecordResult) -> &'static str {
    match result {
        RecordResult::Created => "created",
        RecordResult::Updated => "updated",
        RecordResult::Deleted => "deleted",
        RecordResult::Unchanged => "unchanged",
        RecordResult::Failed => "failed",
        RecordResult::Unknown => "unknown",
        RecordResult::Skipped => "skipped",
    }
}

fn pull_result(result: PullResult) -> &'static str {
    match result {
        PullResult::Created => "created",
        PullResult::Updated => "updated",
        PullResult::Unchanged => "unchanged",
        PullResult::Conflict => "conflict",
        PullResult::Failed => "failed",
        PullResult::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syncdef_worker::{PullSummary, StatusClass};

    /// The exposition's sample lines, comments left out.
    fn samples(metrics: &Metrics) -> Vec<String> {
        let text = metrics.text().expect("written");
        text.lines()
            .filter(|line| !line.starts_with('#'))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn pulls_waits_and_the_queue_are_counted_by_their_labels() {
        let metrics = Metrics::new(Duration::from_secs(60));
        metrics.event(&Event::PullPage {
            entry: "Customer",
            read: 3,
            rejected: 1,
        });
        for result in [
            PullResult::Created,
            PullResult::Conflict,
            PullResult::Created,
        ] {
            metrics.event(&Event::Pulled {
                entry: "Customer",
                result,
            });
        }
        metrics.event(&Event::Request {
            entry: "Customer",
            flow: Flow::Pull,
            operation: "batchRead",
            status: StatusClass::of(None),
            duration: Duration::from_millis(30),
            account: Some("realmId=42"),
        });
        metrics.event(&Event::Throttled {
            account: "realmId=42",
            waited: Duration::from_millis(1500),
        });
        metrics.event(&Event::Queue {
            queued: 7,
            leased: 2,
        });
        metrics.token_refreshed();
        let pulled = PullSummary {
            read: 3,
            rejected: 1,
            ..PullSummary::default()
        };
        let mut report = SyncReport::default();
        report.pulled.insert("Customer".to_owned(), pulled);
        metrics.event(&Event::RunFinished { report: &report });
        let lines = samples(&metrics);
        for expected in [
            r#"syncdef_records_listed_total{entry="Customer",direction="pull"} 3"#,
            r#"syncdef_records_total{entry="Customer",direction="pull",result="created"} 2"#,
            r#"syncdef_records_total{entry="Customer",direction="pull",result="conflict"} 1"#,
            r#"syncdef_records_total{entry="Customer",direction="pull",result="rejected"} 1"#,
            r#"syncdef_external_requests_total{entry="Customer",operation="batchRead",status="transport_error"} 1"#,
            r#"syncdef_rate_limit_requests_total{account="realmId=42"} 1"#,
            r#"syncdef_rate_limit_waits_total{account="realmId=42"} 1"#,
            r#"syncdef_rate_limit_wait_seconds_total{account="realmId=42"} 1.5"#,
            "syncdef_queue_depth 7",
            "syncdef_queue_leases_held 2",
            "syncdef_token_refreshes_total 1",
        ] {
            assert!(
                lines.iter().any(|l| l == expected),
                "{expected}:\n{lines:#?}"
            );
        }
        // A pull with an element set apart did not sync every record: no success stamp.
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with("syncdef_last_success_timestamp_seconds")),
            "{lines:#?}"
        );
    }
}
