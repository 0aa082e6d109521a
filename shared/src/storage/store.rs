//! Reads of the entries table: entries by id and by word, thesaurus links, the
//! catalog (the dictionary list and the pointer to the index snapshot) and the
//! snapshot's sections. Entry reads are one DynamoDB round trip each; the
//! catalog and what queries touched of the snapshot are held by a warm
//! instance, each loaded once in a task of its own ([`Loading`]), and
//! nothing scans.

use crate::error::ApiError;
use crate::model::{Dictionary, StoredEntry, ThesaurusItem};
use crate::search::codec::CorruptData;
use crate::search::engine::{SearchError, Searcher, SoundsLikeQuery, SoundsMatches};
use crate::search::postings::DictionaryRef;
use crate::search::snapshot::cache::BlockCache;
use crate::search::snapshot::source::{self, ItemSource, Items};
use crate::search::snapshot::{
    self, Assemble, BlockBudget, DefinitionPart, Definitions, GramPart, Grams, Index, Lemma,
    Missing, PagedPart, PartIndex, Record, RecordPart, Records, RhymePart, Rhymes, Section,
    WordBucket,
};
use crate::storage::items::{
    self, Item, OtherRelease, PointerError, SnapshotBuild, BY_WORD_INDEX, DICTIONARIES_PK, ENTRY_SK,
};
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use futures::future::{try_join_all, BoxFuture, FutureExt, Shared};
use std::any::Any;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

/// BatchGetItem takes at most 100 keys.
const BATCH_GET_KEYS: usize = 100;
/// Snapshot items per BatchGetItem: DynamoDB answers at most 16 MB at once
/// and leaves the rest for another round trip, so groups of full items
/// that stay under it are all answered at once, concurrently.
const PART_GET_KEYS: usize = 16_000_000 / (snapshot::MAX_PART_BYTES + 1_000);

/// Items per run of a read of every part (benchmarks of a warm instance):
/// ten BatchGetItems of term blocks at a time.
const EVERY_PART_RUN: usize = 1_000;

/// Keys per BatchGetItem for `wanted`: term blocks (items past the root of
/// `terms`) are small, so a hundred fit any response; other items may be
/// full parts.
fn keys_per_call(wanted: &[(Section, Range<usize>)]) -> usize {
    let term_blocks =
        |(section, items): &(Section, Range<usize>)| *section == Section::Terms && items.start >= 1;
    match wanted.iter().all(term_blocks) {
        true => BATCH_GET_KEYS,
        false => PART_GET_KEYS,
    }
}

/// The term blocks and paged parts a warm instance keeps when no setting
/// says otherwise: of it, 3/16 for FST blocks, 5/16 for text blocks (80
/// MB: the whole text at five million entries takes 65, and a `contains`
/// query may check most of it), and half for the parts of the paged
/// sections (records, grams, definitions, rhymes) together.
pub const DEFAULT_SNAPSHOT_CACHE_MB: usize = 256;

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

/// What a request holds of the index snapshot: the [`Searcher`] over the
/// [`Index`] always, the parts of `grams` its `contains` query reads, and
/// the means to read the records of its page ([`SnapshotView::records`])
/// from the same build.
pub struct SnapshotView {
    pub searcher: Arc<Searcher>,
    pub grams: Option<Grams>,
    loaded: Arc<Loaded>,
}

impl SnapshotView {
    /// The records of these ordinals (a page), in the same order: the
    /// record parts that hold them, loaded now if no request has yet.
    pub async fn records(&self, ordinals: &[u32]) -> Result<Vec<Record>, ApiError> {
        let index = self.loaded.records.index(&self.loaded.source).await?;
        let wanted = Records::parts_of(&index, ordinals);
        let parts = self
            .loaded
            .records
            .parts(&self.loaded.source, &index, wanted)
            .await?;
        Records::new(index, parts)
            .get(ordinals)
            .map_err(corrupt_snapshot)
    }

    /// The parts of the `definitions` section that hold these keys (a
    /// reverse lookup's words and phrase), loaded now if no request has yet.
    pub async fn definitions(&self, keys: &[String]) -> Result<Definitions, ApiError> {
        let source = &self.loaded.source;
        let index = self.loaded.definitions.index(source).await?;
        let wanted = Definitions::parts_of(&index, keys);
        let parts = self
            .loaded
            .definitions
            .parts(source, &index, wanted)
            .await?;
        Ok(Definitions::new(index, parts))
    }

    /// The parts of the `rhymes` section that hold these keys (a rhyme
    /// lookup's lists), loaded now if no request has yet.
    pub async fn rhymes<K: AsRef<[u8]>>(&self, keys: &[K]) -> Result<Rhymes, ApiError> {
        self.rhyme_parts(|index| Rhymes::parts_of(index, keys))
            .await
    }

    /// The bucket of the `pronunciations` section that holds those of
    /// `word`'s words ([`WordBucket::pronounced`]), loaded now if no
    /// request has yet (a rhyme lookup names it in its [`Needs`], so that
    /// a cold instance reads it with the index).
    pub async fn pronunciations(&self, word: &str) -> Result<Arc<WordBucket>, ApiError> {
        self.loaded.word_bucket(word).await
    }

    async fn rhyme_parts(
        &self,
        wanted: impl FnOnce(&PartIndex) -> Vec<usize>,
    ) -> Result<Rhymes, ApiError> {
        let source = &self.loaded.source;
        let index = self.loaded.rhymes.index(source).await?;
        let wanted = wanted(&index);
        let parts = self.loaded.rhymes.parts(source, &index, wanted).await?;
        Ok(Rhymes::new(index, parts))
    }

    /// A sounds-like search's two reads of the `rhymes` section, each
    /// loaded now if no request has yet: the parts of the coarse keys of
    /// its first sounds, which give the keys it reaches, then the parts of
    /// their lists. Over budget (nothing more read) when either step's
    /// parts, or the keys and words reached, are more than one search may
    /// read ([`SoundsLikeQuery::walk`], [`SoundsMatches::parts`]).
    pub async fn sounds(
        &self,
        query: &SoundsLikeQuery,
    ) -> Result<Result<(SoundsMatches, Rhymes), SearchError>, ApiError> {
        let source = &self.loaded.source;
        let index = self.loaded.rhymes.index(source).await?;
        let walk = match query.walk(&index) {
            Ok(walk) => walk,
            Err(e) => return Ok(Err(e)),
        };
        let wanted = walk.parts().to_vec();
        let keys = self.loaded.rhymes.parts(source, &index, wanted).await?;
        let found = walk
            .matches(&Rhymes::new(index.clone(), keys))
            .and_then(|matches| Ok((matches.parts(&index)?, matches)));
        let (wanted, matches) = match found {
            Ok(found) => found,
            Err(e) => return Ok(Err(e)),
        };
        let lists = self.loaded.rhymes.parts(source, &index, wanted).await?;
        Ok(Ok((matches, Rhymes::new(index, lists))))
    }

    /// Reads the term blocks a read of the snapshot named missing, all in
    /// one batch, and keeps them in the searcher (within its budget).
    /// Requests that need the same block meanwhile share its read.
    pub async fn read_term_blocks(&self, missing: &Missing) -> Result<(), ApiError> {
        self.loaded.read_term_blocks(&self.searcher, missing).await
    }

    /// The headwords of these entries as their dictionaries write them,
    /// in the same order: their text blocks read now if not held.
    pub async fn words(&self, ordinals: &[u32]) -> Result<Vec<String>, ApiError> {
        self.with_texts(|index| {
            let texts = index.texts_of_entries(ordinals)?;
            Ok(ordinals
                .iter()
                .map(|&o| texts.word(o).to_string())
                .collect())
        })
        .await
    }

    /// What a page shows of these entries from their text blocks (read
    /// now if not held), in the same order.
    pub async fn shown(&self, ordinals: &[u32]) -> Result<Vec<ShownEntry>, ApiError> {
        self.with_texts(|index| {
            let texts = index.texts_of_entries(ordinals)?;
            Ok(ordinals
                .iter()
                .map(|&o| ShownEntry {
                    word: texts.word(o).to_string(),
                    dictionary: texts.dictionary(o).clone(),
                    part_of_speech: texts.part_of_speech(o).map(str::to_string),
                    has_audio: texts.has_audio(o),
                })
                .collect())
        })
        .await
    }

    /// Whether `dictionary_id` has an entry of each of these terms (words
    /// of one language, such as lemmas), in the same order: their text
    /// blocks read now if not held.
    pub async fn dictionary_has_terms(
        &self,
        dictionary_id: &str,
        terms: &[usize],
    ) -> Result<Vec<bool>, ApiError> {
        self.with_texts(|index| {
            let texts = index.texts(terms.iter().copied())?;
            Ok(terms
                .iter()
                .map(|&t| texts.dictionary_has_term(dictionary_id, t))
                .collect())
        })
        .await
    }

    /// The text of these terms, in the same order: their text blocks read
    /// now if not held.
    pub async fn terms(&self, terms: &[usize]) -> Result<Vec<String>, ApiError> {
        self.with_texts(|index| {
            let texts = index.texts(terms.iter().copied())?;
            Ok(terms.iter().map(|&t| texts.term(t).to_string()).collect())
        })
        .await
    }

    /// The lemmas of an inflected (folded) form, most common first: its
    /// form block read now if not held, then the overflow item of a form
    /// of more lemmas than its value holds.
    pub async fn lemmas(&self, form: &str) -> Result<Vec<Lemma<'_>>, ApiError> {
        for _ in 0..2 {
            match self.searcher.index().lemmas(form) {
                Ok(_) => break,
                Err(missing) => self.read_term_blocks(&missing).await?,
            }
        }
        self.searcher.index().lemmas(form).map_err(|missing| {
            tracing::error!(
                blocks = missing.len(),
                "form blocks missing as soon as read: raise SNAPSHOT_CACHE_MB"
            );
            ApiError::Unavailable
        })
    }

    /// What `read` answers once the text blocks it names are held: read
    /// in one batch, then read again; 503 if the budget let them go at once.
    async fn with_texts<T>(
        &self,
        read: impl Fn(&Index) -> Result<T, Missing>,
    ) -> Result<T, ApiError> {
        if let Err(missing) = read(self.searcher.index()) {
            self.read_term_blocks(&missing).await?;
        }
        read(self.searcher.index()).map_err(|missing| {
            tracing::error!(
                blocks = missing.len(),
                "text blocks missing as soon as read: raise SNAPSHOT_CACHE_MB"
            );
            ApiError::Unavailable
        })
    }

    /// Every term block and every part of `records`: what the drawing
    /// instance of the benchmarks holds to draw queries from (the words
    /// and forms, the entries' ids and previews). Read in runs of
    /// [`EVERY_PART_RUN`] items, one after another, each run read again
    /// after a pause when the store answers 503: at millions of entries
    /// DynamoDB Local answers a read of every item at once with
    /// unprocessed keys until the store gives up, and an on-disk one gave
    /// up on runs too. A run read again joins the loads still running.
    pub async fn every_term_block_and_record(&self) -> Result<Records, ApiError> {
        let every_block: Vec<usize> =
            (1..self.searcher.index().term_dictionary().items()).collect();
        for run in every_block.chunks(EVERY_PART_RUN) {
            let run = Missing(run.to_vec());
            patiently(|| self.read_term_blocks(&run)).await?;
        }
        let source = &self.loaded.source;
        let index = self.loaded.records.index(source).await?;
        let mut every = HashMap::with_capacity(index.len());
        let numbers: Vec<usize> = (0..index.len()).collect();
        for run in numbers.chunks(EVERY_PART_RUN) {
            let read = patiently(|| self.loaded.records.parts(source, &index, run.to_vec()));
            every.extend(read.await?);
        }
        Ok(Records::new(index, every))
    }
}

/// What `read` answers, read again up to [`PATIENT_TRIES`] times, a second
/// longer apart each time, while it answers 503 (a bulk read of the
/// benchmarks, which no deadline bounds).
async fn patiently<T, F: Future<Output = Result<T, ApiError>>>(
    read: impl Fn() -> F,
) -> Result<T, ApiError> {
    let mut tries = 1;
    loop {
        match read().await {
            Err(ApiError::Unavailable) if tries < PATIENT_TRIES => {
                tracing::warn!(tries, "a bulk read answered 503: reading it again");
                tokio::time::sleep(Duration::from_secs(tries as u64)).await;
                tries += 1;
            }
            answer => return answer,
        }
    }
}

/// How often [`patiently`] reads.
const PATIENT_TRIES: usize = 8;

/// What a request needs of the snapshot besides the [`Index`].
#[derive(Debug, Clone, Default)]
pub struct Needs {
    /// It shows records (search, random): their part index is loaded with
    /// the index, the parts of the page once the page is known.
    pub records: bool,
    /// The grams its `contains` query reads ([`snapshot::query_grams`])
    /// and the bitmaps of its filters ([`snapshot::filter_keys`]).
    pub grams: Vec<String>,
    /// It reads `rhymes` (rhymes, sounds-like search): its part index is
    /// loaded with the index, so that its parts are the first read after.
    pub rhymes: bool,
    /// It reads `definitions` (reverse lookup): its part index is loaded
    /// with the index, so that the parts of its words' stop-word keys are
    /// read with their form blocks.
    pub definitions: bool,
    /// The word whose pronunciations it reads (rhymes): their bucket is
    /// named by a hash of the word, not by a part index, so it is read
    /// with the index.
    pub pronunciations_of: Option<String>,
    /// The search whose term blocks named from the root alone
    /// ([`Searcher::blocks_named_first`]) are read while its `grams` load,
    /// rather than after them: a search that reads grams (`contains`,
    /// patterns, filters) waits for both in one round trip.
    pub first_blocks_of: Option<crate::search::matching::MatchRule>,
}

/// What a page shows of an entry from its text block.
#[derive(Debug, Clone)]
pub struct ShownEntry {
    /// Its headword as its dictionary writes it.
    pub word: String,
    pub dictionary: DictionaryRef,
    pub part_of_speech: Option<String>,
    pub has_audio: bool,
}

/// How many snapshot items and bytes an instance has read from DynamoDB
/// (for the benchmarks and the tests of what a query loads).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reads {
    pub items: u64,
    pub bytes: u64,
}

impl std::ops::Add for Reads {
    type Output = Reads;

    fn add(self, other: Reads) -> Reads {
        Reads {
            items: self.items + other.items,
            bytes: self.bytes + other.bytes,
        }
    }
}

pub struct Store {
    client: aws_sdk_dynamodb::Client,
    table: String,
    catalog: RwLock<Option<(Instant, Arc<Catalog>)>>,
    /// The build a warm instance holds, with what it has loaded of it.
    loaded: Mutex<Option<Arc<Loaded>>>,
    /// Bytes of term blocks and paged parts an instance keeps (the setting
    /// `SNAPSHOT_CACHE_MB`, `Config::snapshot_cache_bytes`).
    cache_bytes: usize,
    reads: Arc<ReadCounter>,
}

/// Items and bytes read, per section (in [`Section::ALL`]'s order), and
/// the round trips they took one after another, counted two ways
/// ([`RoundTrips`]). Each read's place in the chain is one more than the
/// longest chain answered before it started; the counters keep the most
/// so far, so requests made one after another add theirs.
#[derive(Default)]
struct ReadCounter {
    items: [AtomicU64; Section::ALL.len()],
    bytes: [AtomicU64; Section::ALL.len()],
    /// Reads under way now.
    under_way: AtomicU64,
    /// Reads started while none was under way.
    merged: AtomicU64,
    /// The longest chain of the reads answered so far.
    answered: AtomicU64,
    /// The longest chain of the reads started so far.
    chained: AtomicU64,
}

/// The round trips of snapshot reads, two ways that bound how many a
/// request waited for one after another. `merged`: a read started while
/// none is under way starts one, so a read that needed another's answer
/// but started while a third still loaded (a part index's parts, as the
/// root loads) is not counted. `chained`: the longest chain of reads each
/// started after the one before it was answered (what the black-box
/// round-trip tests count), so a read that only happened to start after a
/// smaller one came back (the term blocks a search names from the root,
/// after a grams part that arrived before the root) is counted. On
/// DynamoDB Local, whose answers take about as long as their bytes, the
/// two differ for requests that read a large index beside small parts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTrips {
    pub merged: u64,
    pub chained: u64,
}

impl std::ops::Sub for RoundTrips {
    type Output = RoundTrips;
    fn sub(self, before: RoundTrips) -> RoundTrips {
        RoundTrips {
            merged: self.merged - before.merged,
            chained: self.chained - before.chained,
        }
    }
}

/// A read under way ([`ReadCounter::start`]) and its place in its chain;
/// answered when dropped.
struct ReadUnderWay<'c>(&'c ReadCounter, u64);

impl Drop for ReadUnderWay<'_> {
    fn drop(&mut self) {
        self.0.under_way.fetch_sub(1, Ordering::Relaxed);
        self.0.answered.fetch_max(self.1, Ordering::Relaxed);
    }
}

impl ReadCounter {
    fn start(&self) -> ReadUnderWay<'_> {
        if self.under_way.fetch_add(1, Ordering::Relaxed) == 0 {
            self.merged.fetch_add(1, Ordering::Relaxed);
        }
        let depth = self.answered.load(Ordering::Relaxed) + 1;
        self.chained.fetch_max(depth, Ordering::Relaxed);
        ReadUnderWay(self, depth)
    }

    fn round_trips(&self) -> RoundTrips {
        RoundTrips {
            merged: self.merged.load(Ordering::Relaxed),
            chained: self.chained.load(Ordering::Relaxed),
        }
    }

    fn add(&self, section: Section, bytes: usize) {
        let at = section as usize;
        self.items[at].fetch_add(1, Ordering::Relaxed);
        self.bytes[at].fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn of(&self, section: Section) -> Reads {
        let at = section as usize;
        Reads {
            items: self.items[at].load(Ordering::Relaxed),
            bytes: self.bytes[at].load(Ordering::Relaxed),
        }
    }
}

/// A load of something the snapshot holds, run in a task of its own so
/// that no request's deadline cancels it: the first request that needs it
/// starts it, every request awaits it (each within its own deadline), and
/// one that gives up leaves it running for the next, which joins it.
type Loading<T> = Shared<BoxFuture<'static, Result<Arc<T>, ApiError>>>;

/// Loads by key, each started once: a load under way is joined, one that
/// failed is started again by the next request, and what loaded well is
/// kept by recency within a byte budget (each value weighed by `weigh`):
/// a value let go is loaded again when a request needs it.
struct Slots<K, T> {
    loads: Mutex<HashMap<K, Loading<T>>>,
    kept: Box<dyn Keep<K, T>>,
    weigh: fn(&T) -> usize,
}

/// Where [`Slots`] keep what loaded well.
trait Keep<K, T>: Send + Sync {
    fn get(&self, key: &K) -> Option<Arc<T>>;
    fn insert(&self, key: K, value: Arc<T>, bytes: usize);
}

impl<K: Eq + Hash + Clone + Send, T: Send + Sync> Keep<K, T> for BlockCache<K, T> {
    fn get(&self, key: &K) -> Option<Arc<T>> {
        BlockCache::get(self, key)
    }

    fn insert(&self, key: K, value: Arc<T>, bytes: usize) {
        BlockCache::insert(self, key, value, bytes);
    }
}

/// The parts of every paged section an instance keeps, within one budget:
/// the least recently used part of any section goes first, so a function
/// whose queries read one section most (the search function the lists of
/// sounds-like keys, the reverse function definitions) keeps more of it,
/// and no budget is set aside for a section it never reads.
type PartPool = BlockCache<(Section, usize), dyn Any + Send + Sync>;

/// One section's parts in the [`PartPool`].
struct PooledParts {
    section: Section,
    pool: Arc<PartPool>,
}

impl<T: Any + Send + Sync> Keep<usize, T> for PooledParts {
    fn get(&self, part: &usize) -> Option<Arc<T>> {
        let kept = self.pool.get(&(self.section, *part))?;
        // Parts are kept under their own section, whose type is `T`.
        kept.downcast().ok()
    }

    fn insert(&self, part: usize, value: Arc<T>, bytes: usize) {
        self.pool.insert((self.section, part), value, bytes);
    }
}

impl<K: Eq + Hash + Copy + Send + 'static, T: Send + Sync + 'static> Default for Slots<K, T> {
    /// Everything kept, for as long as the build is held.
    fn default() -> Self {
        Self::within(usize::MAX, |_| 0)
    }
}

impl<K: Eq + Hash + Copy + Send + 'static, T: Send + Sync + 'static> Slots<K, T> {
    fn within(budget: usize, weigh: fn(&T) -> usize) -> Self {
        Self::keeping(Box::new(BlockCache::new(budget)), weigh)
    }

    fn keeping(kept: Box<dyn Keep<K, T>>, weigh: fn(&T) -> usize) -> Self {
        Self {
            loads: Mutex::default(),
            kept,
            weigh,
        }
    }

    /// Whether every one of `keys` is held, loaded and kept (a load that
    /// finished since the last [`Slots::get`] is not counted yet).
    fn holds(&self, keys: &[K]) -> bool {
        keys.iter().all(|key| self.kept.get(key).is_some())
    }

    /// The loads of `keys`; those not yet started (or failed) are started
    /// together by one call of `start` with their keys, which gives each
    /// key's value.
    fn get<F>(&self, keys: &[K], start: impl FnOnce(Vec<K>) -> F) -> Vec<Loading<T>>
    where
        F: Future<Output = Result<HashMap<K, T>, ApiError>> + Send + 'static,
        K: Send + Sync + 'static,
    {
        let mut slots = self.loads.lock().expect("not poisoned");
        // Loads that finished well are kept from now on, weighed, so that
        // the least recently used can be let go.
        slots.retain(|key, loading| match loading.peek() {
            Some(Ok(value)) => {
                self.kept.insert(*key, value.clone(), (self.weigh)(value));
                false
            }
            _ => true,
        });
        let mut ready: HashMap<K, Loading<T>> = HashMap::new();
        for key in keys {
            if let Some(value) = self.kept.get(key) {
                ready.insert(*key, futures::future::ready(Ok(value)).boxed().shared());
            }
        }
        let missing: Vec<K> = keys
            .iter()
            .copied()
            .filter(|k| !ready.contains_key(k))
            .filter(|k| {
                slots
                    .get(k)
                    .is_none_or(|loading| matches!(loading.peek(), Some(Err(_))))
            })
            .collect();
        if !missing.is_empty() {
            let task = tokio::spawn(start(missing.clone()));
            let together = async move {
                let loaded = task
                    .await
                    .map_err(|e| ApiError::Internal(format!("snapshot load: {e}")))??;
                Ok::<_, ApiError>(Arc::new(
                    loaded
                        .into_iter()
                        .map(|(k, v)| (k, Arc::new(v)))
                        .collect::<HashMap<K, Arc<T>>>(),
                ))
            }
            .boxed()
            .shared();
            for k in missing {
                let together = together.clone();
                let one = async move {
                    let all: Arc<HashMap<K, Arc<T>>> = together.await?;
                    all.get(&k)
                        .cloned()
                        .ok_or_else(|| ApiError::Internal("a part the load did not give".into()))
                }
                .boxed()
                .shared();
                slots.insert(k, one);
            }
        }
        keys.iter()
            .map(|k| ready.get(k).unwrap_or_else(|| &slots[k]).clone())
            .collect()
    }

    /// One load, started if need be.
    async fn one<F>(&self, key: K, start: impl FnOnce() -> F) -> Result<Arc<T>, ApiError>
    where
        F: Future<Output = Result<T, ApiError>> + Send + 'static,
        K: Send + Sync + 'static,
    {
        let loading = self.get(&[key], |_| {
            let load = start();
            async move { Ok(HashMap::from([(key, load.await?)])) }
        });
        loading.into_iter().next().expect("one key").await
    }
}

/// The term blocks read last that an instance keeps beside its searcher's
/// (see `Loaded::term_blocks`): a few hundred blocks, far more than the
/// requests that can race for one in the moment between its read and its
/// handing over.
const RECENT_TERM_BLOCK_BYTES: usize = 2 << 20;

/// One build of the snapshot and what an instance has loaded of it: the
/// [`Index`] (its sections read whole) and the parts of the paged sections
/// that queries touched. Dropped by the store when the catalog names another
/// build, so an instance never holds two.
struct Loaded {
    source: Arc<Source>,
    searcher: Slots<(), Searcher>,
    /// Reads of term blocks under way, shared by the requests that need
    /// them; the blocks read are kept by the searcher. The last
    /// [`RECENT_TERM_BLOCK_BYTES`] read stay here too: a request that
    /// found a block missing just before another's read of it finished,
    /// but asks after it finished and before that request handed it to
    /// the searcher, takes it from here instead of reading it again.
    term_blocks: Slots<usize, Vec<u8>>,
    records: Paged<RecordPart>,
    grams: Paged<GramPart>,
    definitions: Paged<DefinitionPart>,
    rhymes: Paged<RhymePart>,
    /// The buckets of `pronunciations`, by number, in the pool.
    word_buckets: Slots<usize, WordBucket>,
}

impl Loaded {
    /// Reads the term blocks `missing` names, all in one batch, and keeps
    /// them in `searcher` (within its budget). Requests that need the same
    /// block meanwhile share its read.
    async fn read_term_blocks(
        &self,
        searcher: &Searcher,
        missing: &Missing,
    ) -> Result<(), ApiError> {
        let mut wanted = missing.0.clone();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return Ok(());
        }
        let source = self.source.clone();
        let loads = self.term_blocks.get(&wanted, |items| async move {
            let ranges: Vec<(Section, Range<usize>)> =
                items.iter().map(|&n| (Section::Terms, n..n + 1)).collect();
            let mut read = source.fetch(&ranges).await?;
            let blocks = items
                .into_iter()
                .filter_map(|n| Some((n, read.remove(&(Section::Terms, n))?)));
            Ok(blocks.collect())
        });
        let blocks = try_join_all(loads).await?;
        let read = wanted.into_iter().zip(blocks);
        let dictionary = searcher.index().term_dictionary();
        dictionary
            .keep(read.map(|(n, block)| (n, Arc::unwrap_or_clone(block))))
            .map_err(corrupt_snapshot)
    }

    /// The bucket of `word`'s pronunciations, read now if not held (an
    /// empty one before the first build).
    async fn word_bucket(&self, word: &str) -> Result<Arc<WordBucket>, ApiError> {
        let buckets = self.source.item_count(Section::Pronunciations);
        if buckets == 0 {
            return Ok(Arc::new(WordBucket::empty()));
        }
        let bucket = snapshot::bucket_of(&crate::search::fold::fold(word), buckets);
        let loading = self.word_buckets.get(&[bucket], |missing| {
            let source = self.source.clone();
            async move { source::word_buckets(&*source, missing).await }
        });
        let mut loaded = try_join_all(loading).await?;
        Ok(loaded.pop().expect("one bucket asked"))
    }
}

/// A paged section of one build: its part index, then each part on demand.
struct Paged<P> {
    index: Slots<(), PartIndex>,
    parts: Slots<usize, P>,
}

impl<P: PagedPart> Paged<P> {
    /// Its part index kept for as long as the build is held, its parts in
    /// `pool`.
    fn pooled(pool: &Arc<PartPool>) -> Self {
        let kept = PooledParts {
            section: P::SECTION,
            pool: pool.clone(),
        };
        Self {
            index: Slots::default(),
            parts: Slots::keeping(Box::new(kept), P::memory_bytes),
        }
    }

    async fn index(&self, source: &Arc<Source>) -> Result<Arc<PartIndex>, ApiError> {
        let source = source.clone();
        self.index
            .one((), || async move {
                source::part_index(&*source, P::SECTION).await
            })
            .await
    }

    /// Whether it holds its part index and the parts `wanted` names.
    fn holds_parts(&self, wanted: impl FnOnce(&PartIndex) -> Vec<usize>) -> bool {
        match self.index.kept.get(&()) {
            Some(index) => self.parts.holds(&wanted(&index)),
            None => false,
        }
    }

    /// Its part index, read now if `needed` and not yet held.
    async fn index_if(&self, needed: bool, source: &Arc<Source>) -> Result<(), ApiError> {
        if needed {
            self.index(source).await?;
        }
        Ok(())
    }

    /// These parts, loaded together where no request has loaded them yet.
    async fn parts(
        &self,
        source: &Arc<Source>,
        index: &Arc<PartIndex>,
        wanted: Vec<usize>,
    ) -> Result<HashMap<usize, Arc<P>>, ApiError> {
        let loading = self.parts.get(&wanted, |missing| {
            let (source, index) = (source.clone(), index.clone());
            async move { source::parts::<P, _>(&*source, &index, missing).await }
        });
        let loaded = try_join_all(loading).await?;
        Ok(wanted.into_iter().zip(loaded).collect())
    }
}

/// What a load reads from: the client, the table and the build (none before
/// the first `dictadmin index`: an empty snapshot).
struct Source {
    client: aws_sdk_dynamodb::Client,
    table: String,
    build: Option<SnapshotBuild>,
    reads: Arc<ReadCounter>,
}

impl Store {
    /// A store that keeps [`DEFAULT_SNAPSHOT_CACHE_MB`] of term blocks and
    /// paged parts.
    pub fn new(client: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self::with_cache(client, table, DEFAULT_SNAPSHOT_CACHE_MB << 20)
    }

    /// A store that keeps at most `cache_bytes` of the paged parts that
    /// queries read, least recently used let go first.
    pub fn with_cache(client: aws_sdk_dynamodb::Client, table: String, cache_bytes: usize) -> Self {
        Self {
            client,
            table,
            catalog: RwLock::new(None),
            loaded: Mutex::new(None),
            cache_bytes,
            reads: Arc::default(),
        }
    }

    /// Snapshot items and bytes this instance has read so far.
    pub fn reads(&self) -> Reads {
        Section::ALL
            .iter()
            .fold(Reads::default(), |sum, &s| sum + self.reads_of(s))
    }

    /// Items and bytes of one section this instance has read so far.
    pub fn reads_of(&self, section: Section) -> Reads {
        self.reads.of(section)
    }

    /// The round trips of its snapshot reads so far, one after another,
    /// counted both ways of [`RoundTrips`] (the pointer's and the
    /// catalogue's reads are not counted).
    pub fn read_round_trips(&self) -> RoundTrips {
        self.reads.round_trips()
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
        Ok(self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(index.map(str::to_string))
            .key_condition_expression("#k = :v")
            .expression_attribute_names("#k", key_name)
            .expression_attribute_values(":v", AttributeValue::S(key_value))
            .into_paginator()
            .items()
            .send()
            .try_collect()
            .await?)
    }

    /// What a request needs of the current index snapshot. A warm instance
    /// holds it: no read at all. A cold one (or one that sees a new build)
    /// loads what is missing concurrently, in tasks of their own that the
    /// request only awaits (see [`Loading`]). Before the first build, an
    /// empty snapshot; a build of another release is 503 "rebuild the index".
    pub async fn snapshot(&self, needs: &Needs) -> Result<SnapshotView, ApiError> {
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

    async fn snapshot_of(
        &self,
        catalog: &Catalog,
        needs: &Needs,
    ) -> Result<SnapshotView, ApiError> {
        let loaded = self.loaded(catalog.snapshot.as_ref());
        let source = &loaded.source;
        let grams = async {
            if needs.grams.is_empty() {
                return Ok(None);
            }
            let index = loaded.grams.index(source).await?;
            let grams: Vec<&str> = needs.grams.iter().map(String::as_str).collect();
            let wanted = Grams::parts_of(&index, &grams);
            let parts = loaded.grams.parts(source, &index, wanted).await?;
            Ok(Some(Grams::new(index, parts)))
        };
        // The part indexes a request needs come with the index, so that the
        // parts it reads next are its first read after the search.
        let records = loaded.records.index_if(needs.records, source);
        let rhymes = loaded.rhymes.index_if(needs.rhymes, source);
        let definitions = loaded.definitions.index_if(needs.definitions, source);
        let word_bucket = async {
            match &needs.pronunciations_of {
                Some(word) => loaded.word_bucket(word).await.map(drop),
                None => Ok(()),
            }
        };
        let term_budget = BlockBudget {
            fst: self.cache_bytes * 3 / 16,
            text: self.cache_bytes * 5 / 16,
        };
        let grams_held = loaded.grams.holds_parts(|index| {
            let grams: Vec<&str> = needs.grams.iter().map(String::as_str).collect();
            Grams::parts_of(index, &grams)
        });
        let searcher = async {
            let searcher = loaded
                .searcher
                .one((), || {
                    let source = source.clone();
                    async move { Ok(Searcher::new(source.index(term_budget).await?)) }
                })
                .await?;
            match &needs.first_blocks_of {
                // Only while the grams are read: a warm instance that holds
                // them would name the blocks for nothing.
                Some(rule) if !needs.grams.is_empty() && !grams_held => {
                    let named = searcher.blocks_named_first(rule);
                    loaded.read_term_blocks(&searcher, &named).await?;
                }
                _ => {}
            }
            Ok(searcher)
        };
        let (searcher, grams, (), (), (), ()) =
            tokio::try_join!(searcher, grams, records, rhymes, definitions, word_bucket)?;
        Ok(SnapshotView {
            searcher,
            grams,
            loaded,
        })
    }

    /// What the instance holds of `build`; a new, empty holding when the
    /// catalog names another build than the one held, which is let go.
    fn loaded(&self, build: Option<&SnapshotBuild>) -> Arc<Loaded> {
        let mut held = self.loaded.lock().expect("not poisoned");
        if let Some(loaded) = held.as_ref() {
            if loaded.source.build.as_ref() == build {
                return loaded.clone();
            }
        }
        let pool = Arc::new(PartPool::new(self.cache_bytes / 2));
        let loaded = Arc::new(Loaded {
            source: Arc::new(Source {
                client: self.client.clone(),
                table: self.table.clone(),
                build: build.cloned(),
                reads: self.reads.clone(),
            }),
            searcher: Slots::default(),
            term_blocks: Slots::within(RECENT_TERM_BLOCK_BYTES, Vec::len),
            // The budget shared out: half for the term blocks (the
            // searcher's, FST 3/16 and text 5/16), half for the parts of
            // the paged sections together.
            records: Paged::pooled(&pool),
            grams: Paged::pooled(&pool),
            definitions: Paged::pooled(&pool),
            rhymes: Paged::pooled(&pool),
            word_buckets: Slots::keeping(
                Box::new(PooledParts {
                    section: Section::Pronunciations,
                    pool: pool.clone(),
                }),
                WordBucket::memory_bytes,
            ),
        });
        *held = Some(loaded.clone());
        loaded
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
        let found = batch_get(&self.client, &self.table, keys, BATCH_GET_KEYS).await?;
        found
            .iter()
            .map(|item| {
                let stored = parse_entry(item)?;
                let key = (stored.entry.dictionary_id.clone(), stored.entry.id.clone());
                Ok((key, stored))
            })
            .collect()
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

/// The snapshot of no entries, for a table not yet indexed.
fn empty_build() -> &'static snapshot::Built {
    static EMPTY: OnceLock<snapshot::Built> = OnceLock::new();
    EMPTY.get_or_init(|| snapshot::build(Vec::new(), &Default::default()))
}

impl Source {
    /// The [`Index`]: its sections read whole, their items all at once, and
    /// decoded off the runtime's threads (it is CPU work of a second or so
    /// on a large corpus, while other loads wait on the network).
    /// Its term blocks are kept within `term_budget` bytes.
    async fn index(&self, term_budget: BlockBudget) -> Result<Index, ApiError> {
        let mut sections = source::index_sections(self).await?;
        let mut index = tokio::task::spawn_blocking(move || {
            Index::assemble(&mut |s| {
                sections
                    .remove(&s)
                    .expect("a part takes its own SECTIONS, once")
            })
        })
        .await
        .map_err(|e| ApiError::Internal(format!("decoding the index: {e}")))?
        .map_err(corrupt_snapshot)?;
        if index.term_dictionary().items() != self.item_count(Section::Terms) {
            return Err(corrupt_snapshot(CorruptData(
                "the terms root and the pointer disagree on the blocks",
            )));
        }
        index.keep_term_blocks_within(term_budget);
        Ok(index)
    }
}

/// The store's reads of a build: what the engine's readers
/// ([`source::index_sections`], [`source::part_index`], [`source::parts`])
/// read through.
impl ItemSource for Source {
    type Error = ApiError;

    fn item_count(&self, section: Section) -> usize {
        match &self.build {
            Some(build) => build.parts.get(&section).copied().unwrap_or(0),
            None => empty_build().item_count(section),
        }
    }

    /// One BatchGetItem of them all (in groups that stay under its 16 MB
    /// answer, read concurrently), each item's bytes taken, not copied.
    async fn fetch(&self, wanted: &[(Section, Range<usize>)]) -> Result<Items, ApiError> {
        let Some(build) = &self.build else {
            return Ok(empty_build().fetch(wanted).await?);
        };
        let mut keys = Vec::new();
        for (section, range) in wanted {
            let pk = items::snapshot_part_pk(&build.build, *section);
            keys.extend(
                range
                    .clone()
                    .map(|n| primary_key(pk.clone(), n.to_string())),
            );
        }
        let expected = keys.len();
        let per_call = keys_per_call(wanted);
        let under_way = self.reads.start();
        let found = batch_get(&self.client, &self.table, keys, per_call).await?;
        drop(under_way);
        if found.len() != expected {
            // The build was replaced twice since the catalog was read.
            return Err(ApiError::Unavailable);
        }
        let mut items = HashMap::with_capacity(found.len());
        for item in found {
            let section = item
                .get("pk")
                .and_then(|v| v.as_s().ok())
                .and_then(|pk| pk.rsplit('#').next())
                .and_then(Section::from_name)
                .ok_or_else(|| corrupt(items::CorruptItem("pk".into())))?;
            let (n, bytes) = items::snapshot_part_into_bytes(item).map_err(corrupt)?;
            self.reads.add(section, bytes.len());
            items.insert((section, n), bytes);
        }
        Ok(items)
    }
}

/// BatchGetItem of distinct keys, following unprocessed keys. Groups of
/// 100 keys are read concurrently; DynamoDB only leaves keys unprocessed
/// past 16 MB or when throttled.
async fn batch_get(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    mut keys: Vec<Item>,
    group_keys: usize,
) -> Result<Vec<Item>, ApiError> {
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| seen.insert(format!("{:?}|{:?}", k.get("pk"), k.get("sk"))));
    let groups = keys
        .chunks(group_keys)
        .map(|group| batch_get_group(client, table, group.to_vec()));
    Ok(try_join_all(groups).await?.into_iter().flatten().collect())
}

async fn batch_get_group(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: Vec<Item>,
) -> Result<Vec<Item>, ApiError> {
    let mut pending = Some(
        KeysAndAttributes::builder()
            .set_keys(Some(keys))
            .build()
            .map_err(|e| ApiError::Internal(format!("batch get request: {e}")))?,
    );
    let mut found = Vec::new();
    // Unprocessed keys after a response with items are the 16 MB limit of
    // one response: ask again at once. Without any item it is throttling:
    // back off, each wait drawn from its upper half ("equal jitter"), so
    // that the instances a burst started together do not retry together.
    let mut stalled = 0u32;
    while let Some(request) = pending.take() {
        if request.keys.is_empty() {
            break;
        }
        if stalled > 0 {
            let ceiling: u64 = 25 << stalled.min(5);
            let wait = rand::random_range(ceiling / 2..=ceiling);
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        if stalled >= 8 {
            return Err(ApiError::Unavailable);
        }
        let output = client
            .batch_get_item()
            .request_items(table, request)
            .send()
            .await?;
        let received = output
            .responses
            .and_then(|mut responses| responses.remove(table))
            .unwrap_or_default();
        stalled = if received.is_empty() { stalled + 1 } else { 0 };
        found.extend(received);
        pending = output
            .unprocessed_keys
            .and_then(|mut unprocessed| unprocessed.remove(table));
        if let Some(waiting) = pending
            .as_ref()
            .filter(|p| stalled > 0 && !p.keys.is_empty())
        {
            tracing::warn!(
                keys = waiting.keys.len(),
                stalled,
                "a batch read answered no item: backing off"
            );
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests;
