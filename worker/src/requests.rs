//! The requests a push or a pull sent, reported to the observer one attempt at a time: the
//! engine records each in its audit trail, and the worker knows whose entry it served.

use syncdef_engine::{Engine, Exchange};

use crate::observer::{Event, Flow, StatusClass};
use crate::options::SyncOptions;
use crate::shared::Core;

/// The values of the rate-limit policy's key variables (`realmId=123`, the definition's
/// default for a variable not given), joined with `&`: with
/// a request's origin they name the external account its requests count against. `None`
/// when the policy limits nothing (no request draws on a budget).
pub(crate) fn account_key(engine: &Engine, options: &SyncOptions) -> Option<String> {
    let policy = engine.rate_limit_policy();
    if policy.is_unlimited() {
        return None;
    }
    let values = policy
        .key
        .iter()
        .map(|name| {
            let value = options
                .server_variables
                .get(name)
                .map(String::as_str)
                .or_else(|| engine.plan().server_variable_default(name))
                .unwrap_or_default();
            format!("{name}={value}")
        })
        .collect::<Vec<_>>()
        .join("&");
    Some(values)
}

/// How an operator knows the account: its key values, or the origin of `url` (scheme, host
/// and port) when the policy names no variable.
pub(crate) fn account_label<'a>(key: &'a str, url: &'a str) -> &'a str {
    if !key.is_empty() {
        return key;
    }
    // `https://host:port/path…`: the origin ends at the first `/` after the `//`.
    let after_scheme = url.find("//").map_or(0, |i| i + 2);
    url[after_scheme..]
        .find('/')
        .map_or(url, |end| &url[..after_scheme + end])
}

/// Tells the observer of every attempt in `exchanges`, sent for `entry`'s `flow`, and of
/// the time each waited for the account's rate limit.
pub(crate) fn report(core: &Core, entry: &str, flow: Flow, exchanges: &[Exchange]) {
    for exchange in exchanges {
        let account = core
            .account_key
            .as_deref()
            .map(|key| account_label(key, &exchange.request.url));
        if let Some(account) = account
            && !exchange.throttled.is_zero()
        {
            core.observer.event(&Event::Throttled {
                account,
                waited: exchange.throttled,
            });
        }
        core.observer.event(&Event::Request {
            entry,
            flow,
            operation: &exchange.step,
            status: StatusClass::of(exchange.response.as_ref().map(|r| r.status)),
            duration: exchange.duration,
            account,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_its_key_values_or_the_origin() {
        assert_eq!(
            account_label(
                "realmId=9130",
                "https://qb.example.com/v3/company/9130/customer"
            ),
            "realmId=9130"
        );
        assert_eq!(
            account_label(
                "",
                "http://127.0.0.1:8701/v3/company/1/customer?minorversion=75"
            ),
            "http://127.0.0.1:8701"
        );
        assert_eq!(
            account_label("", "https://api.example.com"),
            "https://api.example.com"
        );
    }
}
