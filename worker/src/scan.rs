//! Finding the records changed since the cursor, page by page, and enqueueing each for the
//! pushers (`push.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use futures::TryStreamExt;
use syncdef_platform::Page;
use syncdef_platform::query::{Direction, Filter, Query};

use crate::error::WorkerError;
use crate::observer::Event;
use crate::progress::Progress;
use crate::report::RecordResult;
use crate::shared::{Core, EntryInfo};
use crate::stamp::Stamp;

/// Lists records changed since the cursor, oldest first, and enqueues each (on a queue that is
/// not durable, each is pushed before the listing goes on).
///
/// Keyset paging: after a page, the listing starts again from the cursor instead of
/// asking for page 2, because records updated meanwhile move to the end of an
/// `updatedAt` ordering and would shift an offset-based page 2, skipping a record.
///
/// Equal timestamps: the cursor only moves past a timestamp once a record with a later
/// one was seen, so a group of records sharing one `updatedAt` across a page boundary is
/// never skipped; the part of the group already handled is listed again and recognised
/// (same `updatedAt` as stored, or handled in this run) without a read or a push. Only
/// when a whole page shares one timestamp does the listing follow the next page.
pub(crate) async fn scan(core: &Arc<Core>, entry: &EntryInfo) -> Result<(), WorkerError> {
    let (mut cursor, mut inclusive) = starting_cursor(core, entry)?;
    let page_size = core.options.page_size;
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut announced = false;
    loop {
        let query = listing_query(entry, cursor.as_ref(), inclusive, page_size);
        let listing = |source| WorkerError::Listing {
            entry: entry.name.clone(),
            source: Box::new(source),
        };
        let mut pages = core.platform.pages(&query).map_err(|e| listing(e.into()))?;
        let mut progress = Progress::new(entry, cursor.as_ref(), inclusive);
        let mut group: Option<Stamp> = None;
        let mut committed: Option<Stamp> = None;
        let mut requery = false;
        while let Some(page) = pages.try_next().await.map_err(listing)? {
            progress.page(&page.records)?;
            note_page_count(core, entry, &page);
            if !announced {
                announced = true;
                core.observer.event(&Event::EntryStarted {
                    entry: &entry.name,
                    total: page.info.and_then(|i| i.total_count),
                });
            }
            core.observer.event(&Event::Listed {
                entry: &entry.name,
                records: page.records.len(),
            });
            let more = more_pages(&page, page_size);
            for record in &page.records {
                let stamp = match Stamp::of(record) {
                    Some(Ok(s)) => Some(s),
                    Some(Err(e)) => {
                        tracing::warn!(entry = %entry.name, error = %e, "record without a readable updatedAt: handled, but it cannot move the cursor");
                        None
                    }
                    None => None,
                };
                if let Some(s) = &stamp {
                    progress.record(record, s)?;
                    match &group {
                        Some(g) if s > g => {
                            core.state.set_cursor(&entry.name, &g.text, core.now())?;
                            committed = Some(g.clone());
                            group = Some(s.clone());
                            // Only the current group can be listed again (a re-query
                            // starts after the committed one): memory stays per group.
                            seen.clear();
                        }
                        Some(g) if s < g => tracing::warn!(
                            entry = %entry.name,
                            "the platform listed records out of updatedAt order; the cursor stays at the latest complete timestamp"
                        ),
                        Some(_) => {}
                        None => group = Some(s.clone()),
                    }
                }
                handle_listed(core, entry, record, stamp.as_ref(), &mut seen).await?;
                if core.limit_reached() {
                    return Ok(());
                }
            }
            if more && committed.is_some() {
                requery = true;
                break;
            }
        }
        if !requery {
            if let Some(g) = group {
                core.state.set_cursor(&entry.name, &g.text, core.now())?;
            }
            return Ok(());
        }
        if let Some(next) = &committed {
            progress.next_from(next)?;
        }
        cursor = committed;
        inclusive = false;
    }
}

/// Where the listing starts: `--since` (inclusive), else after the saved cursor.
fn starting_cursor(core: &Core, entry: &EntryInfo) -> Result<(Option<Stamp>, bool), WorkerError> {
    let since = core.options.since.as_deref().map(Stamp::parse).transpose();
    let since = since.map_err(WorkerError::Usage)?;
    Ok(match since {
        Some(since) => (Some(since), true),
        None => match core.state.cursor(&entry.name)? {
            Some(text) => {
                let stamp = Stamp::parse(&text).map_err(|e| {
                    WorkerError::Usage(format!(
                        "the saved cursor of `{}` is unreadable ({e}); reset it with `syncdef sync reset-cursor --entry {}`",
                        entry.name, entry.name
                    ))
                })?;
                (Some(stamp), false)
            }
            None => (None, false),
        },
    })
}

/// The records of `entry` changed since `cursor` (at it too when `inclusive`), oldest first.
fn listing_query(
    entry: &EntryInfo,
    cursor: Option<&Stamp>,
    inclusive: bool,
    page_size: u32,
) -> Query {
    let cursor_field = entry.module.change_cursor();
    // The cursor needs the change order. Where the spec shows no order properties for a
    // collection (payments), ordering by `updatedAt` is assumed to work as it does on every
    // collection that lists them; a platform that refuses it fails the listing with its
    // answer (docs/platform-records.md).
    let query = Query::new(entry.module.collection())
        .order_by(cursor_field, Direction::Asc)
        .allow_unlisted_order()
        .page_size(page_size);
    match cursor {
        Some(c) if inclusive => query.filter(Filter::ge(cursor_field, c.literal())),
        Some(c) => query.filter(Filter::gt(cursor_field, c.literal())),
        None => query,
    }
}

async fn handle_listed(
    core: &Arc<Core>,
    entry: &EntryInfo,
    record: &serde_json::Value,
    stamp: Option<&Stamp>,
    seen: &mut HashMap<String, String>,
) -> Result<(), WorkerError> {
    let id = match entry.module.id_of(record) {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!(entry = %entry.name, error = %e, "listed record skipped: no usable id");
            core.summary(&entry.name, |s| {
                s.unusable += 1;
                s.warn(format!(
                    "listed records without a usable `id` cannot be synced and were skipped ({e}); the platform's listing must give each record its id"
                ));
            });
            core.count(&entry.name, "?", RecordResult::Skipped, Some(&e));
            return Ok(());
        }
    };
    let text = stamp.map(|s| s.text.clone()).unwrap_or_default();
    if seen.get(&id) == Some(&text) {
        // Listed again after a re-query (the tail of an equal-timestamp group).
        return Ok(());
    }
    seen.insert(id.clone(), text);
    core.summary(&entry.name, |s| s.listed += 1);
    crate::push::enqueue_listed(core, entry, &id, stamp.map(|s| s.text.as_str())).await
}

/// Warns when a page's numbers disagree: fewer pages than the records need at the page's size.
/// The walk trusts `pageCount`, so the records past it wait for the next listing.
fn note_page_count(core: &Core, entry: &EntryInfo, page: &Page) {
    let Some(info) = page.info else { return };
    let (Some(count), Some(size), Some(total)) = (info.page_count, info.size, info.total_count)
    else {
        return;
    };
    if size == 0 || count.saturating_mul(size) >= total {
        return;
    }
    tracing::warn!(entry = %entry.name, count, size, total, "the platform's pageCount is smaller than its totalCount needs");
    core.summary(&entry.name, |s| {
        s.warn(format!(
            "the platform said {count} pages of {size} for {total} records: records past page {count} are listed by a later run only"
        ));
    });
}

/// Whether pages follow this one. Without an envelope (API version below 2) the answer is the
/// whole result, so asking again would only list it again. With one, `page`/`pageCount` say
/// it; a platform that caps the page size below the one asked for is still recognised.
fn more_pages(page: &Page, page_size: u32) -> bool {
    let Some(info) = page.info else {
        return false;
    };
    match (info.page, info.page_count) {
        (Some(current), Some(count)) => current < count,
        _ => page.records.len() >= page_size as usize,
    }
}
