//! `dictadmin index`: builds the index snapshot (docs/data-model.md) from the
//! postings manifests that every import writes, one Query per dictionary and
//! no Scan, stores it as a new build and points the catalog at it. The
//! format is `shared::search::snapshot`'s; this is the wrapper that reads
//! manifests and writes items. Running it again is always safe.

use crate::output::say;
use crate::storage::batch::{delete_all, progress, write_all, WriteError};
use crate::storage::chunked::{read_lexicon, read_manifest, StoredError};
use aws_sdk_dynamodb::error::DisplayErrorContext;
use aws_sdk_dynamodb::types::AttributeValue;
use futures::stream::{self, StreamExt, TryStreamExt};
use shared::error::ApiError;
use shared::model::Dictionary;

use shared::search::postings::Posting;
use shared::search::snapshot;
use shared::storage::items::{
    self, CorruptItem, Item, RetiredBuild, SnapshotBuild, DICTIONARIES_PK, SNAPSHOT_POINTER_SK,
};
use shared::storage::store::Store;
use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Dictionaries whose manifests are read at once.
const MANIFESTS_IN_FLIGHT: usize = 4;

/// Whatever stops an index build: what is stored cannot be read, or the new
/// build cannot be written or published. Each names the partition at fault.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("listing the dictionaries of {table}: {source:?}")]
    ListDictionaries { table: String, source: ApiError },
    /// The SDK's errors, kept as their one-line rendering with their causes.
    #[error("reading the snapshot pointer: {0}")]
    ReadPointer(String),
    #[error("publishing snapshot {build}: {message}")]
    Publish { build: String, message: String },
    #[error(transparent)]
    CorruptPointer(CorruptItem),
    #[error(transparent)]
    Stored(#[from] StoredError),
    #[error("encoding the snapshot: {0}")]
    Encoder(tokio::task::JoinError),
}

pub struct IndexSummary {
    pub build: String,
    pub entries: usize,
    pub terms: usize,
    /// Every section's name, stored items and bytes.
    pub sections: Vec<(&'static str, usize, usize)>,
    pub seconds: f64,
    /// The most memory the process held (Linux's `VmHWM`), where known:
    /// what a machine that builds the index needs.
    pub peak_resident_bytes: Option<u64>,
}

/// Bytes in a GiB, the unit the build's memory is printed in.
pub const GIB: f64 = (1u64 << 30) as f64;

/// The peak resident memory of this process, from `/proc/self/status`
/// (`None` where there is none).
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Builds the snapshot of every entry, publishes it, and deletes the
/// builds retired longer than `grace` ago.
pub async fn build(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    max_entries: Option<u64>,
    grace: Duration,
) -> Result<IndexSummary, IndexError> {
    let started = Instant::now();
    // The manifests first, so that the frequency lists are read for the
    // terms (and the forms) alone.
    let postings = read_manifests(client, table, max_entries).await?;
    let lexicon = {
        let words: HashSet<(&str, &str)> = postings
            .iter()
            .map(|p| (p.folded(), p.dictionary.source_lang.as_str()))
            .collect();
        let mut lexicon =
            read_lexicon(client, table, |lang, word| words.contains(&(word, lang))).await?;
        let dropped = lexicon.drop_misspelled_forms();
        say!("lexicon: {dropped} (form, lemma) pairs left out as misspellings of a commoner spelling");
        lexicon.keep_frequencies(|word, lang| words.contains(&(word, lang)));
        lexicon
    };
    if let Some(peak) = peak_resident_bytes() {
        say!(
            "read {} postings and the lexicon; peak resident so far {:.2} GiB",
            postings.len(),
            peak as f64 / GIB
        );
    }
    let mut postings = postings;
    postings.sort_by(|a, b| (&a.dictionary.id, &a.id()).cmp(&(&b.dictionary.id, &b.id())));
    postings.dedup_by(|a, b| a.dictionary.id == b.dictionary.id && a.id() == b.id());
    let build_id = new_build_id();
    let mut parts = BTreeMap::new();
    let mut sections = Vec::new();
    // Encoded on a thread of its own and written as each section is made,
    // the next one encoded while this one is written: never more than two
    // sections held, where the whole build held them all (a gigabyte at
    // five million entries), and the writes overlap the encoding.
    let (sender, mut encoded) = tokio::sync::mpsc::channel(1);
    let runtime = tokio::runtime::Handle::current();
    let encoder = tokio::task::spawn_blocking(move || {
        snapshot::build_each(
            postings,
            lexicon,
            snapshot::TERM_BLOCK_BYTES,
            |section, stored| {
                // Both fail only when the writer stopped on an error, which
                // it returns: what is left goes unwritten.
                if sender.blocking_send((section, stored)).is_ok() {
                    // Encode the next one once the writer holds this one.
                    drop(runtime.block_on(sender.reserve()));
                }
            },
        )
    });
    while let Some((section, stored)) = encoded.recv().await {
        let bytes = stored.iter().map(Vec::len).sum();
        parts.insert(section, stored.len());
        sections.push((section.name(), stored.len(), bytes));
        let part_items: Vec<Item> = stored
            .into_iter()
            .enumerate()
            .map(|(n, part)| items::snapshot_part_item(&build_id, section, n, part))
            .collect();
        let bar = progress(part_items.len() as u64, section.name());
        write_all(client, table, part_items, &bar).await?;
        bar.finish();
        // Where the build's memory peaks, section by section.
        if let Some(peak) = peak_resident_bytes() {
            say!(
                "{}: {:.1} MB written; peak resident so far {:.2} GiB",
                section.name(),
                bytes as f64 / 1e6,
                peak as f64 / GIB
            );
        }
    }
    let size = encoder.await.map_err(IndexError::Encoder)?;

    // Publish: the pointer names the new build and keeps those it replaced
    // within their grace period (instances cache the pointer for minutes);
    // the others are no longer named anywhere, so they go.
    let current = SnapshotBuild {
        build: build_id.clone(),
        format: Some(snapshot::FORMAT),
        parts,
        unknown_parts: BTreeMap::new(),
    };
    let (replaced, retired) = match read_pointer(client, table).await? {
        Some((old, retired)) => (Some(old), retired),
        None => (None, Vec::new()),
    };
    // Says whether this build ends the 503s of a build of another release.
    match &replaced {
        Some(old) => say!(
            "replacing build {} (format {}) with {build_id} (format {})",
            old.build,
            items::format_name(old.format),
            snapshot::FORMAT
        ),
        None => say!("no build to replace: {build_id} is the first"),
    }
    let (kept, due) = retire(replaced, retired, now_ms(), grace);
    client
        .put_item()
        .table_name(table)
        .set_item(Some(items::snapshot_pointer_item(&current, &kept)))
        .send()
        .await
        .map_err(|e| IndexError::Publish {
            build: build_id.clone(),
            message: DisplayErrorContext(e).to_string(),
        })?;
    for old in due {
        let keys = part_keys(&old);
        let bar = progress(keys.len() as u64, "old build deleted");
        delete_all(client, table, keys, &bar).await?;
        bar.finish();
    }
    Ok(IndexSummary {
        build: build_id,
        entries: size.entries,
        terms: size.terms,
        sections,
        peak_resident_bytes: peak_resident_bytes(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// How long a replaced build stays readable by default: an instance
/// caches the pointer for `CATALOG_CACHE_TTL` (5 minutes) and a request
/// runs for at most 30 seconds after, so three times that leaves room for
/// clocks and retries.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(15 * 60);

/// Retired builds a pointer names at most: past it the oldest go even
/// within their grace period, so that the pointer item stays far below
/// DynamoDB's 400 KB (a build takes about 200 bytes of it).
const MAX_RETIRED: usize = 32;

/// The builds to keep naming as retired, newest first, and those to
/// delete: `replaced` is retired now (`now_ms`); a build retired longer
/// than `grace` ago is due, and so are the oldest past [`MAX_RETIRED`].
fn retire(
    replaced: Option<SnapshotBuild>,
    mut retired: Vec<RetiredBuild>,
    now_ms: u64,
    grace: Duration,
) -> (Vec<RetiredBuild>, Vec<SnapshotBuild>) {
    if let Some(build) = replaced {
        retired.push(RetiredBuild {
            build,
            retired_at_ms: now_ms,
        });
    }
    retired.sort_by_key(|r| std::cmp::Reverse(r.retired_at_ms));
    let grace_ms = grace.as_millis() as u64;
    let (mut kept, mut due): (Vec<_>, Vec<_>) = retired
        .into_iter()
        .partition(|r| r.retired_at_ms.saturating_add(grace_ms) > now_ms);
    if kept.len() > MAX_RETIRED {
        due.extend(kept.split_off(MAX_RETIRED));
    }
    (kept, due.into_iter().map(|r| r.build).collect())
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Build ids sort by time: milliseconds since the epoch, in hex.
fn new_build_id() -> String {
    format!("{:012x}", now_ms())
}

/// The current and retired builds the pointer names, if it exists.
async fn read_pointer(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Option<(SnapshotBuild, Vec<RetiredBuild>)>, IndexError> {
    let output = client
        .get_item()
        .table_name(table)
        .key("pk", AttributeValue::S(DICTIONARIES_PK.into()))
        .key("sk", AttributeValue::S(SNAPSHOT_POINTER_SK.into()))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| IndexError::ReadPointer(DisplayErrorContext(e).to_string()))?;
    output
        .item
        .map(|item| items::snapshot_builds_from_item(&item).map_err(IndexError::CorruptPointer))
        .transpose()
}

/// The primary keys of every part of a build, of the sections this
/// release knows and of those it does not.
fn part_keys(build: &SnapshotBuild) -> Vec<Item> {
    let known = build.parts.iter().map(|(section, n)| (section.name(), n));
    let unknown = build
        .unknown_parts
        .iter()
        .map(|(name, n)| (name.as_str(), n));
    known
        .chain(unknown)
        .flat_map(|(section, count)| {
            let pk = items::section_pk(&build.build, section);
            (0..*count).map(move |n| {
                Item::from([
                    ("pk".to_string(), AttributeValue::S(pk.clone())),
                    ("sk".to_string(), AttributeValue::S(n.to_string())),
                ])
            })
        })
        .collect()
}

/// The postings of every listed dictionary, from their manifests.
async fn read_manifests(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    max_entries: Option<u64>,
) -> Result<Vec<Posting>, IndexError> {
    let every = Store::new(client.clone(), table.to_string())
        .dictionaries()
        .await
        .map_err(|source| IndexError::ListDictionaries {
            table: table.to_string(),
            source,
        })?;
    let dictionaries = match max_entries {
        Some(max) => {
            let chosen = within_entries(&every, max);
            let entries: u64 = chosen.iter().map(|d| d.entry_count).sum();
            say!(
                "a snapshot of {} of {} dictionaries, {entries} entries (--max-entries {max})",
                chosen.len(),
                every.len()
            );
            chosen
        }
        None => every.iter().collect(),
    };
    let bar = progress(dictionaries.len() as u64, "manifests read");
    let per_dictionary: Vec<Vec<Posting>> = stream::iter(dictionaries.iter())
        .map(|d| {
            let bar = &bar;
            async move {
                let postings = read_manifest(client, table, &d.dictionary_id).await;
                bar.inc(1);
                postings
            }
        })
        .buffer_unordered(MANIFESTS_IN_FLIGHT)
        .try_collect()
        .await?;
    bar.finish();
    Ok(per_dictionary.into_iter().flatten().collect())
}

/// The dictionaries of a smaller snapshot: in order of id, each that still
/// fits within `max` entries (a later, smaller one may fill the room a
/// larger one left), so the same data gives the same subset every time.
fn within_entries(dictionaries: &[Dictionary], max: u64) -> Vec<&Dictionary> {
    let mut sorted: Vec<&Dictionary> = dictionaries.iter().collect();
    sorted.sort_by(|a, b| a.dictionary_id.cmp(&b.dictionary_id));
    let mut room = max;
    sorted
        .into_iter()
        .filter(|d| {
            let fits = d.entry_count <= room;
            if fits {
                room -= d.entry_count;
            }
            fits
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaced_builds_are_kept_for_their_grace_period_then_deleted() {
        let build = |id: &str| SnapshotBuild {
            build: id.into(),
            format: Some(snapshot::FORMAT),
            parts: BTreeMap::new(),
            ..Default::default()
        };
        let retired = |id: &str, at: u64| RetiredBuild {
            build: build(id),
            retired_at_ms: at,
        };
        let grace = Duration::from_secs(60);
        let now = 1_000_000;
        // The one replaced now is kept, newest first; one retired a minute
        // ago or more is due, one retired less than that is kept.
        let (kept, due) = retire(
            Some(build("c")),
            vec![retired("a", now - 60_000), retired("b", now - 59_999)],
            now,
            grace,
        );
        assert_eq!(kept, vec![retired("c", now), retired("b", now - 59_999)]);
        assert_eq!(due, vec![build("a")]);
        // Without a grace period, every replaced build goes at once.
        let (kept, due) = retire(
            Some(build("c")),
            vec![retired("b", now - 1)],
            now,
            Duration::ZERO,
        );
        assert!(kept.is_empty());
        assert_eq!(due, vec![build("c"), build("b")]);
        // The first build replaces none.
        assert_eq!(
            retire(None, Vec::new(), now, grace),
            (Vec::new(), Vec::new())
        );
        // Past MAX_RETIRED, the oldest go even within their grace.
        let many: Vec<RetiredBuild> = (0..MAX_RETIRED as u64 + 3)
            .map(|i| retired(&format!("r{i}"), now - i))
            .collect();
        let (kept, due) = retire(None, many, now, grace);
        assert_eq!(kept.len(), MAX_RETIRED);
        assert_eq!(
            due.iter().map(|b| b.build.as_str()).collect::<Vec<_>>(),
            [32, 33, 34].map(|i| format!("r{i}"))
        );
    }

    #[test]
    fn a_build_names_every_part_of_every_section() {
        let build = SnapshotBuild {
            build: "b1".into(),
            format: Some(snapshot::FORMAT),
            parts: shared::search::snapshot::Section::ALL
                .iter()
                .map(|s| (*s, 2))
                .collect(),
            unknown_parts: BTreeMap::from([("forms".to_string(), 3)]),
        };
        let keys = part_keys(&build);
        assert_eq!(
            keys.len(),
            2 * shared::search::snapshot::Section::ALL.len() + 3
        );
        let has = |pk: &str, sk: &str| {
            keys.iter()
                .any(|k| k["pk"].as_s().unwrap() == pk && k["sk"].as_s().unwrap() == sk)
        };
        assert!(has("S#b1#records", "1"));
        assert!(has("S#b1#forms", "2"), "a section of an older release too");
    }

    fn dictionary(id: &str, entry_count: u64) -> Dictionary {
        Dictionary {
            dictionary_id: id.into(),
            dictionary_name: id.into(),
            source_lang: "en".into(),
            target_lang: None,
            entry_count,
            licence: String::new(),
            origin: String::new(),
        }
    }

    #[test]
    fn a_smaller_snapshot_takes_dictionaries_by_id_while_they_fit() {
        let all = [
            dictionary("c", 30),
            dictionary("a", 50),
            dictionary("b", 60),
            dictionary("d", 10),
        ];
        let ids = |max| -> Vec<String> {
            within_entries(&all, max)
                .iter()
                .map(|d| d.dictionary_id.clone())
                .collect()
        };
        // a (50) fits, b (60) does not, c (30) and then d (10) fill the rest.
        assert_eq!(ids(90), ["a", "c", "d"]);
        assert_eq!(ids(150), ["a", "b", "c", "d"]);
        assert_eq!(ids(49), ["c", "d"]);
        assert!(ids(5).is_empty());
    }
}
