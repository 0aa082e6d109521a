//! Reads of the entries table: entries by id and by word, thesaurus links, the
//! catalog (the dictionary list and the pointer to the index snapshot) and the
//! snapshot's sections. Entry reads are one DynamoDB round trip each; the
//! catalog and the snapshot are held by a warm instance, and nothing scans.

use crate::error::ApiError;
use crate::model::{Dictionary, StoredEntry, ThesaurusItem};
use crate::search::codec::CorruptData;
use crate::search::snapshot::{self, Assemble, Grams, Index, Records, Section};
use crate::storage::items::{
    self, Item, OtherRelease, PointerError, SnapshotBuild, BY_WORD_INDEX, DICTIONARIES_PK, ENTRY_SK,
};
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use futures::future::try_join_all;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

/// BatchGetItem takes at most 100 keys.
const BATCH_GET_KEYS: usize = 100;

/// How long a warm instance trusts its copy of the catalog. Imports and index
/// builds are rare; five minutes bounds how stale a new one can look.
pub const CATALOG_CACHE_TTL: Duration = Duration::from_secs(300);

/// What one Query of the `DICT` partition gives: every dictionary, sorted by
/// id, and the current build of the index snapshot (none before the first
/// `dictadmin index`).
#[derive(Debug, Default)]
pub struct Catalog {
    pub dictionaries: Arc<Vec<Dictionary>>,
    pub snapshot: Option<SnapshotBuild>,
    /// A current build this release cannot read (then `snapshot` is none):
    /// searches answer 503 until `dictadmin index` rebuilds it, while the
    /// endpoints that do not read the snapshot answer as usual.
    pub other_release: Option<OtherRelease>,
}

/// The sections of the index snapshot that a request reads: the [`Index`]
/// always, the others when asked for.
pub struct SnapshotView {
    pub index: Arc<Index>,
    pub records: Option<Arc<Records>>,
    pub grams: Option<Arc<Grams>>,
}

/// Which of the parts loaded on demand a request needs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Needs {
    pub records: bool,
    pub grams: bool,
}

pub struct Store {
    client: aws_sdk_dynamodb::Client,
    table: String,
    catalog: RwLock<Option<(Instant, Arc<Catalog>)>>,
    held: HeldSnapshot,
}

/// What a warm instance holds of the snapshot: each part a reader decodes
/// ([`Assemble`] says from which sections), loaded and replaced on its own.
/// A section that joins an existing part changes nothing here; a new part
/// is a field here, in [`SnapshotView`] (and [`Needs`] when it is loaded on
/// demand) and a line of `snapshot_of`, which the compiler asks for.
#[derive(Default)]
struct HeldSnapshot {
    index: Held<Index>,
    records: Held<Records>,
    grams: Held<Grams>,
}

/// One part of the snapshot held in memory, with the build it belongs to:
/// loaded by the first request that needs it (the others wait for that one
/// load), replaced when the catalog names another build.
struct Held<T>(RwLock<Option<(String, Arc<T>)>>);

impl<T> Default for Held<T> {
    fn default() -> Self {
        Self(RwLock::new(None))
    }
}

impl<T> Held<T> {
    async fn get<F, Fut>(&self, build: &str, load: F) -> Result<Arc<T>, ApiError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, ApiError>>,
    {
        let current = |held: &Option<(String, Arc<T>)>| {
            held.as_ref()
                .filter(|(b, _)| b == build)
                .map(|(_, value)| value.clone())
        };
        if let Some(value) = current(&*self.0.read().await) {
            return Ok(value);
        }
        let mut held = self.0.write().await;
        if let Some(value) = current(&held) {
            return Ok(value);
        }
        // The old build is dropped before the new one is loaded, so that an
        // instance never holds two builds at once.
        *held = None;
        let value = Arc::new(load().await?);
        *held = Some((build.to_string(), value.clone()));
        Ok(value)
    }
}

impl Store {
    pub fn new(client: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self {
            client,
            table,
            catalog: RwLock::new(None),
            held: HeldSnapshot::default(),
        }
    }

    /// The entry with this id in this dictionary, if there is one.
    pub async fn entry(
        &self,
        dictionary_id: &str,
        entry_id: &str,
    ) -> Result<Option<StoredEntry>, ApiError> {
        let output = self
            .client
            .get_item()
            .table_name(&self.table)
            .key(
                "pk",
                AttributeValue::S(items::entry_pk(dictionary_id, entry_id)),
            )
            .key("sk", AttributeValue::S(ENTRY_SK.into()))
            .send()
            .await?;
        output.item.as_ref().map(parse_entry).transpose()
    }

    /// Every entry of the dictionary whose folded headword equals the folded
    /// `word` (homographs and case/diacritic variants): a handful of items,
    /// one round trip.
    pub async fn entries_with_folded_word(
        &self,
        dictionary_id: &str,
        word: &str,
    ) -> Result<Vec<StoredEntry>, ApiError> {
        let key = items::word_key(dictionary_id, word);
        let found = self
            .query_partition(Some(BY_WORD_INDEX), "wordKey", key)
            .await?;
        found.iter().map(parse_entry).collect()
    }

    /// Every thesaurus link of the headword (compared folded), one Query.
    pub async fn thesaurus(&self, word: &str) -> Result<Vec<ThesaurusItem>, ApiError> {
        let found = self
            .query_partition(None, "pk", items::thesaurus_pk(word))
            .await?;
        found
            .iter()
            .map(|item| items::thesaurus_from_item(item).map_err(corrupt))
            .collect()
    }

    /// Every dictionary, sorted by id. Cached in the warm instance.
    pub async fn dictionaries(&self) -> Result<Arc<Vec<Dictionary>>, ApiError> {
        Ok(self.catalog().await?.dictionaries.clone())
    }

    /// The catalog, cached in the warm instance for five minutes. One request
    /// refreshes it while the others wait, so concurrent reads of a cold
    /// instance (a search's partitions and its `source` check) share a Query.
    pub async fn catalog(&self) -> Result<Arc<Catalog>, ApiError> {
        let fresh = |cached: &Option<(Instant, Arc<Catalog>)>| {
            cached
                .as_ref()
                .filter(|(fetched, _)| fetched.elapsed() < CATALOG_CACHE_TTL)
                .map(|(_, catalog)| catalog.clone())
        };
        if let Some(catalog) = fresh(&*self.catalog.read().await) {
            return Ok(catalog);
        }
        let mut cached = self.catalog.write().await;
        if let Some(catalog) = fresh(&cached) {
            return Ok(catalog);
        }
        let found = self
            .query_partition(None, "pk", DICTIONARIES_PK.to_string())
            .await?;
        let mut dictionaries = Vec::new();
        let mut snapshot = None;
        let mut other_release = None;
        for item in &found {
            if item
                .get("sk")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str)
                == Some(items::SNAPSHOT_POINTER_SK)
            {
                match items::snapshot_pointer_from_item(item) {
                    Ok((current, _)) => snapshot = Some(current),
                    Err(PointerError::OtherRelease(other)) => other_release = Some(other),
                    Err(PointerError::Corrupt(err)) => return Err(corrupt(err)),
                }
            } else {
                dictionaries.push(items::dictionary_from_item(item).map_err(corrupt)?);
            }
        }
        dictionaries.sort_by(|a, b| a.dictionary_id.cmp(&b.dictionary_id));
        let catalog = Arc::new(Catalog {
            dictionaries: Arc::new(dictionaries),
            snapshot,
            other_release,
        });
        *cached = Some((Instant::now(), catalog.clone()));
        Ok(catalog)
    }

    /// Every item of one partition of the table or of an index. Follows
    /// DynamoDB's pages, though the partitions read here fit in one.
    async fn query_partition(
        &self,
        index: Option<&str>,
        key_name: &str,
        key_value: String,
    ) -> Result<Vec<Item>, ApiError> {
        // No item has a longer key (DynamoDB refuses to store one, and the
        // importer skips it), and DynamoDB refuses to look one up: a word that
        // folds to such a key has nothing to find.
        if key_value.len() > items::MAX_PARTITION_KEY_BYTES {
            return Ok(Vec::new());
        }
        let mut found = Vec::new();
        let mut start_key = None;
        loop {
            let output = self
                .client
                .query()
                .table_name(&self.table)
                .set_index_name(index.map(str::to_string))
                .key_condition_expression("#k = :v")
                .expression_attribute_names("#k", key_name)
                .expression_attribute_values(":v", AttributeValue::S(key_value.clone()))
                .set_exclusive_start_key(start_key)
                .send()
                .await?;
            found.extend(output.items.unwrap_or_default());
            start_key = output.last_evaluated_key;
            if start_key.is_none() {
                return Ok(found);
            }
        }
    }

    /// The sections of the current index snapshot that a request needs. A
    /// warm instance holds them: no read at all. A cold one (or one that
    /// sees a new build) loads the missing sections concurrently, each with
    /// BatchGetItem of its parts. Before the first build, an empty snapshot;
    /// a build of another release is 503 "rebuild the index".
    pub async fn snapshot(&self, needs: Needs) -> Result<SnapshotView, ApiError> {
        let catalog = self.catalog().await?;
        if let Some(other) = &catalog.other_release {
            tracing::error!(
                build = other.build,
                format = items::format_name(other.format),
                sections = other.sections,
                "the search index was built by another release, rebuild the index: {other}"
            );
            return Err(ApiError::IndexOfAnotherRelease);
        }
        match self.snapshot_of(&catalog, needs).await {
            // A cached catalog may name a build that is gone (replaced twice
            // since, or the table was loaded again): read it afresh, once.
            Err(ApiError::Unavailable) if catalog.snapshot.is_some() => {
                self.forget_catalog(&catalog).await;
                let catalog = self.catalog().await?;
                self.snapshot_of(&catalog, needs).await
            }
            other => other,
        }
    }

    /// Drops the cached catalog if it is still `stale`.
    async fn forget_catalog(&self, stale: &Arc<Catalog>) {
        let mut cached = self.catalog.write().await;
        if cached
            .as_ref()
            .is_some_and(|(_, catalog)| Arc::ptr_eq(catalog, stale))
        {
            *cached = None;
        }
    }

    async fn snapshot_of(&self, catalog: &Catalog, needs: Needs) -> Result<SnapshotView, ApiError> {
        let build = catalog.snapshot.as_ref();
        let held = &self.held;
        let (index, records, grams) = tokio::try_join!(
            self.part(&held.index, build),
            self.part_if(needs.records, &held.records, build),
            self.part_if(needs.grams, &held.grams, build),
        )?;
        Ok(SnapshotView {
            index,
            records,
            grams,
        })
    }

    /// A part of the snapshot of `build`: held, or loaded now.
    async fn part<T: Assemble>(
        &self,
        held: &Held<T>,
        build: Option<&SnapshotBuild>,
    ) -> Result<Arc<T>, ApiError> {
        let id = build.map_or("", |b| b.build.as_str());
        held.get(id, || self.load(build)).await
    }

    /// A part loaded on demand: only when `needed`.
    async fn part_if<T: Assemble>(
        &self,
        needed: bool,
        held: &Held<T>,
        build: Option<&SnapshotBuild>,
    ) -> Result<Option<Arc<T>>, ApiError> {
        if !needed {
            return Ok(None);
        }
        self.part(held, build).await.map(Some)
    }

    /// Loads the sections of a part concurrently and decodes it.
    async fn load<T: Assemble>(&self, build: Option<&SnapshotBuild>) -> Result<T, ApiError> {
        let loaded = try_join_all(T::SECTIONS.iter().map(|&s| self.section(build, s))).await?;
        let mut loaded: HashMap<Section, Vec<u8>> =
            T::SECTIONS.iter().copied().zip(loaded).collect();
        T::assemble(&mut |s| {
            loaded
                .remove(&s)
                .expect("a part takes its own SECTIONS, once")
        })
        .map_err(corrupt_snapshot)
    }

    /// The bytes of one section: its parts in order, all of them.
    async fn section(
        &self,
        build: Option<&SnapshotBuild>,
        section: Section,
    ) -> Result<Vec<u8>, ApiError> {
        let Some(build) = build else {
            return Ok(empty_section(section));
        };
        let count = build.parts.get(&section).copied().unwrap_or(0);
        let pk = items::snapshot_part_pk(&build.build, section);
        let keys: Vec<Item> = (0..count)
            .map(|n| primary_key(pk.clone(), n.to_string()))
            .collect();
        let mut parts: Vec<(usize, Vec<u8>)> = self
            .batch_get(keys)
            .await?
            .iter()
            .map(|item| items::snapshot_part_from_item(item).map_err(corrupt))
            .collect::<Result<_, _>>()?;
        if parts.len() != count {
            // The build was replaced twice since the catalog was read.
            return Err(ApiError::Unavailable);
        }
        parts.sort_unstable_by_key(|(n, _)| *n);
        Ok(parts.into_iter().flat_map(|(_, bytes)| bytes).collect())
    }

    /// Whole entries by `(dictionaryId, entryId)`, keyed by them; at most 100.
    pub async fn entries(
        &self,
        entries: &[(String, String)],
    ) -> Result<HashMap<(String, String), StoredEntry>, ApiError> {
        let keys = entries
            .iter()
            .map(|(dictionary, id)| {
                primary_key(items::entry_pk(dictionary, id), ENTRY_SK.to_string())
            })
            .collect();
        let found = self.batch_get(keys).await?;
        found
            .iter()
            .map(|item| {
                let stored = parse_entry(item)?;
                let key = (stored.entry.dictionary_id.clone(), stored.entry.id.clone());
                Ok((key, stored))
            })
            .collect()
    }

    /// BatchGetItem of distinct keys, following unprocessed keys. Groups of
    /// 100 keys are read concurrently; DynamoDB only leaves keys unprocessed
    /// past 16 MB or when throttled.
    async fn batch_get(&self, mut keys: Vec<Item>) -> Result<Vec<Item>, ApiError> {
        let mut seen = std::collections::HashSet::new();
        keys.retain(|k| seen.insert(format!("{:?}|{:?}", k.get("pk"), k.get("sk"))));
        let groups = keys
            .chunks(BATCH_GET_KEYS)
            .map(|group| self.batch_get_group(group.to_vec()));
        Ok(try_join_all(groups).await?.into_iter().flatten().collect())
    }

    async fn batch_get_group(&self, keys: Vec<Item>) -> Result<Vec<Item>, ApiError> {
        let mut pending = Some(
            KeysAndAttributes::builder()
                .set_keys(Some(keys))
                .build()
                .map_err(|e| ApiError::Internal(format!("batch get request: {e}")))?,
        );
        let mut found = Vec::new();
        // Unprocessed keys after a response with items are the 16 MB limit of
        // one response: ask again at once. Without any item it is throttling:
        // back off.
        let mut stalled = 0u32;
        while let Some(request) = pending.take() {
            if request.keys.is_empty() {
                break;
            }
            if stalled > 0 {
                tokio::time::sleep(Duration::from_millis(25 << stalled.min(5))).await;
            }
            if stalled >= 8 {
                return Err(ApiError::Unavailable);
            }
            let output = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await?;
            let received = output
                .responses
                .and_then(|mut responses| responses.remove(&self.table))
                .unwrap_or_default();
            stalled = if received.is_empty() { stalled + 1 } else { 0 };
            found.extend(received);
            pending = output
                .unprocessed_keys
                .and_then(|mut unprocessed| unprocessed.remove(&self.table));
        }
        Ok(found)
    }

    /// The dictionary with this id, or 404 `Unknown dictionary: <id>`.
    pub async fn dictionary(&self, dictionary_id: &str) -> Result<Dictionary, ApiError> {
        self.dictionaries()
            .await?
            .iter()
            .find(|d| d.dictionary_id == dictionary_id)
            .cloned()
            .ok_or_else(|| ApiError::UnknownDictionary(dictionary_id.to_string()))
    }
}

fn primary_key(pk: String, sk: String) -> Item {
    HashMap::from([
        ("pk".to_string(), AttributeValue::S(pk)),
        ("sk".to_string(), AttributeValue::S(sk)),
    ])
}

fn parse_entry(item: &Item) -> Result<StoredEntry, ApiError> {
    items::entry_from_item(item).map_err(corrupt)
}

fn corrupt(err: items::CorruptItem) -> ApiError {
    ApiError::Internal(err.to_string())
}

fn corrupt_snapshot(err: CorruptData) -> ApiError {
    ApiError::Internal(err.to_string())
}

/// A section of the snapshot of no entries, for a table not yet indexed.
fn empty_section(section: Section) -> Vec<u8> {
    let empty = snapshot::build(Vec::new(), &Default::default());
    empty.section(section).to_vec()
}
