//! The process-wide registry of secret values and [`redact`], which masks them in any text.
//!
//! The registry counts each pattern's holders (two secrets may share a value, or one value's
//! forms). An Aho-Corasick automaton over every pattern is rebuilt only when the set changes
//! (a token refresh, a login), when [`redact`] next runs; between changes every call shares it.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, RwLock};

use aho_corasick::{AhoCorasick, MatchKind};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value as Json;

use crate::{MASK, MIN_LEN};

/// How many patterns of dropped secrets stay masked. Output is often rendered after the push
/// that used a token (an audit trail is masked when first looked at), and a token provider may
/// hand out a fresh `Secret` per request; keeping the last few dropped values masks those,
/// while a long-running worker that refreshes tokens all day keeps a bounded set.
const RETAINED: usize = 64;

/// Number of distinct patterns registered, live or retained: `0` is the fast path of
/// [`redact`], read without a lock.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// Bumped on every change of the pattern set, under the [`PATTERNS`] lock.
static GENERATION: AtomicU64 = AtomicU64::new(0);

static PATTERNS: LazyLock<Mutex<Patterns>> = LazyLock::new(Mutex::default);
static MATCHER: RwLock<Option<Arc<Matcher>>> = RwLock::new(None);

#[derive(Default)]
struct Patterns {
    /// Patterns of live secrets, with the number of registrations holding each.
    live: HashMap<Box<str>, usize>,
    /// Patterns of dropped secrets, oldest first.
    retained: VecDeque<Box<str>>,
}

impl Patterns {
    fn distinct(&self) -> usize {
        self.live.len()
            + self
                .retained
                .iter()
                .filter(|p| !self.live.contains_key(*p))
                .count()
    }

    fn changed(&self) {
        GENERATION.fetch_add(1, Ordering::AcqRel);
        ACTIVE.store(self.distinct(), Ordering::Release);
    }
}

struct Matcher {
    generation: u64,
    automaton: AhoCorasick,
}

fn patterns() -> MutexGuard<'static, Patterns> {
    // Every update leaves the maps consistent, so a poisoned lock is still usable.
    PATTERNS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The texts to mask for `value`: the value itself and the forms it takes when written into
/// JSON (escaped quotes and backslashes), Rust's `Debug` of a string, a form or a URL
/// (percent-encoded), where they differ. None for a value shorter than [`MIN_LEN`].
pub(crate) fn forms(value: &str) -> Vec<Box<str>> {
    if value.len() < MIN_LEN {
        return Vec::new();
    }
    let json = serde_json::to_string(value).unwrap_or_default();
    let debug = format!("{value:?}");
    let candidates = [
        value.to_owned(),
        strip_quotes(&json),
        strip_quotes(&debug),
        form_urlencoded::byte_serialize(value.as_bytes()).collect(),
        utf8_percent_encode(value, NON_ALPHANUMERIC).to_string(),
    ];
    let mut forms: Vec<Box<str>> = Vec::with_capacity(candidates.len());
    for c in candidates {
        if c.len() >= MIN_LEN && !forms.iter().any(|f| **f == *c) {
            forms.push(c.into_boxed_str());
        }
    }
    forms
}

fn strip_quotes(quoted: &str) -> String {
    quoted
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(quoted)
        .to_owned()
}

pub(crate) fn register(forms: &[Box<str>]) {
    if forms.is_empty() {
        return;
    }
    let mut p = patterns();
    let mut added = false;
    for form in forms {
        let count = p.live.entry(form.clone()).or_insert(0);
        added |= *count == 0;
        *count += 1;
    }
    if added {
        p.changed();
    }
}

pub(crate) fn unregister(forms: &[Box<str>]) {
    if forms.is_empty() {
        return;
    }
    let mut p = patterns();
    let mut changed = false;
    for form in forms {
        let Some(count) = p.live.get_mut(form) else {
            continue;
        };
        *count -= 1;
        if *count == 0 {
            p.live.remove(form);
            if !p.retained.contains(form) {
                p.retained.push_back(form.clone());
            }
        }
    }
    while p.retained.len() > RETAINED {
        p.retained.pop_front();
        changed = true;
    }
    if changed {
        p.changed();
    }
}

/// How many distinct patterns are masked now (values and their encoded forms, of live
/// secrets and of the most recently dropped ones). For tests and diagnostics.
#[must_use]
pub fn registered_count() -> usize {
    ACTIVE.load(Ordering::Acquire)
}

fn matcher() -> Option<Arc<Matcher>> {
    let generation = GENERATION.load(Ordering::Acquire);
    if let Some(m) = MATCHER
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .as_ref()
        .filter(|m| m.generation == generation)
    {
        return Some(Arc::clone(m));
    }
    let p = patterns();
    // Read under the lock: the set and its generation agree.
    let generation = GENERATION.load(Ordering::Acquire);
    let mut all: Vec<&str> = p.live.keys().map(|k| &**k).collect();
    all.extend(
        p.retained
            .iter()
            .filter(|r| !p.live.contains_key(*r))
            .map(|r| &**r),
    );
    if all.is_empty() {
        return None;
    }
    // Leftmost-longest: where one secret's form contains another's, the whole is masked.
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&all)
        .ok()?;
    let m = Arc::new(Matcher {
        generation,
        automaton,
    });
    *MATCHER
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&m));
    Some(m)
}

/// `text` with every registered secret value (and its JSON-escaped and percent-encoded forms)
/// replaced by [`MASK`]. Borrowed, without allocating, when nothing is registered or nothing is
/// found.
#[must_use]
pub fn redact(text: &str) -> Cow<'_, str> {
    if text.len() < MIN_LEN || ACTIVE.load(Ordering::Acquire) == 0 {
        return Cow::Borrowed(text);
    }
    let Some(matcher) = matcher() else {
        return Cow::Borrowed(text);
    };
    let mut found = matcher.automaton.find_iter(text).peekable();
    if found.peek().is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in found {
        out.push_str(&text[last..m.start()]);
        out.push_str(MASK);
        last = m.end();
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}

/// Redacts every string of `json` in place, member names included, at any depth.
pub fn redact_json(json: &mut Json) {
    if ACTIVE.load(Ordering::Acquire) == 0 {
        return;
    }
    match json {
        Json::String(s) => {
            if let Cow::Owned(r) = redact(s) {
                *s = r;
            }
        }
        Json::Array(items) => items.iter_mut().for_each(redact_json),
        Json::Object(map) => {
            let renamed = map.keys().any(|k| matches!(redact(k), Cow::Owned(_)));
            if renamed {
                let old = std::mem::take(map);
                for (k, mut v) in old {
                    redact_json(&mut v);
                    map.insert(redact(&k).into_owned(), v);
                }
            } else {
                map.values_mut().for_each(redact_json);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    #[test]
    fn nothing_found_is_borrowed() {
        let _s = Secret::new("nothing-found-41ac");
        assert!(matches!(redact("plain text"), Cow::Borrowed(_)));
        assert!(matches!(redact("ab"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_form_is_masked() {
        let _s = Secret::new("a\"b c/d\\e");
        assert_eq!(redact(r#"x a"b c/d\e y"#), "x *** y");
        assert_eq!(redact(r#"{"m":"a\"b c/d\\e"}"#), r#"{"m":"***"}"#);
        assert_eq!(redact("q=a%22b+c%2Fd%5Ce&r=1"), "q=***&r=1");
        assert_eq!(redact("/a%22b%20c%2Fd%5Ce/"), "/***/");
    }

    #[test]
    fn short_values_are_not_registered() {
        assert!(forms("abc").is_empty());
        let _s = Secret::new("xyz");
        assert_eq!(redact("xyz xyz"), "xyz xyz");
    }

    #[test]
    fn json_strings_and_names_are_redacted() {
        let _s = Secret::new("json-secret-77de");
        let mut j = serde_json::json!({
            "detail": "echo json-secret-77de",
            "json-secret-77de": [1, {"n": ["json-secret-77de"]}]
        });
        redact_json(&mut j);
        assert_eq!(
            j,
            serde_json::json!({"detail": "echo ***", "***": [1, {"n": ["***"]}]})
        );
    }

    #[test]
    fn the_longest_overlapping_secret_wins() {
        let _a = Secret::new("overlap-AAAA");
        let _b = Secret::new("overlap-AAAA-BBBB");
        assert_eq!(redact("<overlap-AAAA-BBBB>"), "<***>");
    }
}
