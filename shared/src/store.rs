//! Reads of the entries table: entries by id and by word, index chunks, and the
//! catalog (the dictionary list and the index's chunk directory). Every method
//! is one DynamoDB round trip (the catalog is cached in a warm instance), and
//! none scans.

use crate::error::ApiError;
use crate::fold::fold;
use crate::items::{self, Item, BY_WORD_INDEX, DICTIONARIES_PK, ENTRY_SK};
use crate::model::{Dictionary, SearchResult, StoredEntry, ThesaurusItem};
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

/// BatchGetItem takes at most 100 keys.
const BATCH_GET_KEYS: usize = 100;

/// How long a warm instance trusts its copy of the catalog. Imports and index
/// builds are rare; five minutes bounds how stale a new one can look.
pub const DICTIONARY_CACHE_TTL: Duration = Duration::from_secs(300);

/// What one Query of the `DICT` partition gives: every dictionary, sorted by
/// id, and the chunk count of every index partition with more than one.
#[derive(Debug, Default)]
pub struct Catalog {
    pub dictionaries: Arc<Vec<Dictionary>>,
    pub chunk_counts: HashMap<String, usize>,
}

pub struct Store {
    client: aws_sdk_dynamodb::Client,
    table: String,
    catalog: RwLock<Option<(Instant, Arc<Catalog>)>>,
}

impl Store {
    pub fn new(client: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self {
            client,
            table,
            catalog: RwLock::new(None),
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
                .filter(|(fetched, _)| fetched.elapsed() < DICTIONARY_CACHE_TTL)
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
        let mut chunk_counts = HashMap::new();
        for item in &found {
            if item
                .get("sk")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str)
                == Some(items::CHUNK_DIRECTORY_SK)
            {
                chunk_counts = items::chunk_directory_from_item(item).map_err(corrupt)?;
            } else {
                dictionaries.push(items::dictionary_from_item(item).map_err(corrupt)?);
            }
        }
        dictionaries.sort_by(|a, b| a.dictionary_id.cmp(&b.dictionary_id));
        let catalog = Arc::new(Catalog {
            dictionaries: Arc::new(dictionaries),
            chunk_counts,
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

    /// Every chunk (compressed) of the given index partitions. The cached
    /// chunk directory says how many each has, so one BatchGetItem asks for
    /// exactly those (a response over 16 MB comes in two). Without a directory,
    /// or with one older than the partition, chunk 0 tells the real count and
    /// one more read fetches the rest.
    pub async fn index_chunks(&self, pks: &[String]) -> Result<Vec<Vec<u8>>, ApiError> {
        let catalog = self.catalog().await?;
        let expected = |pk: &String| catalog.chunk_counts.get(pk).copied().unwrap_or(1);
        let first: Vec<(String, usize)> = pks
            .iter()
            .flat_map(|pk| (0..expected(pk)).map(move |n| (pk.clone(), n)))
            .collect();
        let mut found = self.index_chunk_items(&first).await?;
        let mut rest = Vec::new();
        for pk in pks {
            let chunks = found
                .iter()
                .find(|(p, _, _, _)| p == pk)
                .map_or(0, |(_, _, chunks, _)| *chunks);
            rest.extend((expected(pk)..chunks).map(|n| (pk.clone(), n)));
        }
        if !rest.is_empty() {
            found.extend(self.index_chunk_items(&rest).await?);
        }
        // Leftovers of an earlier, larger build of a partition are ignored.
        Ok(found
            .into_iter()
            .filter(|(_, n, chunks, _)| n < chunks)
            .map(|(_, _, _, bytes)| bytes)
            .collect())
    }

    async fn index_chunk_items(
        &self,
        keys: &[(String, usize)],
    ) -> Result<Vec<(String, usize, usize, Vec<u8>)>, ApiError> {
        let keys: Vec<Item> = keys
            .iter()
            .map(|(pk, n)| primary_key(pk.clone(), n.to_string()))
            .collect();
        let items = self.batch_get(keys, None).await?;
        items
            .iter()
            .map(|item| {
                let pk = item
                    .get("pk")
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .unwrap_or_default();
                let (n, chunks, bytes) = items::index_chunk_from_item(item).map_err(corrupt)?;
                Ok((pk, n, chunks, bytes))
            })
            .collect()
    }

    /// The search results of these `(dictionaryId, entryId)` pairs, keyed by
    /// them; entries that no longer exist are absent. At most 100 pairs.
    pub async fn search_results(
        &self,
        entries: &[(String, String)],
    ) -> Result<HashMap<(String, String), SearchResult>, ApiError> {
        let keys = entries
            .iter()
            .map(|(dictionary, id)| {
                primary_key(items::entry_pk(dictionary, id), ENTRY_SK.to_string())
            })
            .collect();
        let found = self
            .batch_get(keys, Some(&items::SEARCH_RESULT_ATTRIBUTES))
            .await?;
        found
            .iter()
            .map(|item| {
                let result = items::search_result_from_item(item).map_err(corrupt)?;
                Ok(((result.dictionary_id.clone(), result.id.clone()), result))
            })
            .collect()
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
        let found = self.batch_get(keys, None).await?;
        found
            .iter()
            .map(|item| {
                let stored = parse_entry(item)?;
                let key = (stored.entry.dictionary_id.clone(), stored.entry.id.clone());
                Ok((key, stored))
            })
            .collect()
    }

    /// Random blocks by `(partition, block number)`: the `(id, word)` pairs of
    /// each. At most 100 blocks.
    pub async fn random_blocks(
        &self,
        blocks: &[(String, u64)],
    ) -> Result<HashMap<(String, u64), Vec<(String, String)>>, ApiError> {
        let keys = blocks
            .iter()
            .map(|(pk, block)| primary_key(pk.clone(), block.to_string()))
            .collect();
        let found = self.batch_get(keys, None).await?;
        found
            .iter()
            .map(|item| {
                let pk = items::need_s(item, "pk").map_err(corrupt)?;
                let block = items::need_s(item, "sk")
                    .map_err(corrupt)?
                    .parse()
                    .map_err(|_| ApiError::Internal("random block sort key".into()))?;
                Ok(((pk, block), items::random_block_from_item(item)))
            })
            .collect()
    }

    /// BatchGetItem of distinct keys, following unprocessed keys. Each 100
    /// keys and each follow-up is one more round trip; DynamoDB only leaves
    /// keys unprocessed past 16 MB or when throttled.
    async fn batch_get(
        &self,
        mut keys: Vec<Item>,
        projection: Option<&[&str]>,
    ) -> Result<Vec<Item>, ApiError> {
        let mut seen = std::collections::HashSet::new();
        keys.retain(|k| seen.insert(format!("{:?}|{:?}", k.get("pk"), k.get("sk"))));
        let mut found = Vec::new();
        for group in keys.chunks(BATCH_GET_KEYS) {
            found.extend(self.batch_get_group(group.to_vec(), projection).await?);
        }
        Ok(found)
    }

    async fn batch_get_group(
        &self,
        keys: Vec<Item>,
        projection: Option<&[&str]>,
    ) -> Result<Vec<Item>, ApiError> {
        let mut request = KeysAndAttributes::builder().set_keys(Some(keys));
        if let Some(attributes) = projection {
            let names: Vec<String> = (0..attributes.len()).map(|i| format!("#a{i}")).collect();
            request = request.projection_expression(names.join(","));
            for (name, attribute) in names.iter().zip(attributes) {
                request = request.expression_attribute_names(name, *attribute);
            }
        }
        let mut pending = Some(
            request
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

/// How closely a headword matches the requested word: exact, then
/// case-insensitive, then only after folding (decisions.md, "Entries").
fn closeness(headword: &str, word: &str) -> u8 {
    if headword == word {
        0
    } else if headword.to_lowercase() == word.to_lowercase() {
        1
    } else if fold(headword) == fold(word) {
        2
    } else {
        3
    }
}

/// The entry "by word": the closest headword, then the lemma form, then the
/// lowest id. `None` when no candidate folds to the word.
pub fn choose_entry_for_word(candidates: Vec<StoredEntry>, word: &str) -> Option<StoredEntry> {
    candidates
        .into_iter()
        .map(|c| (closeness(&c.entry.word, word), c))
        .filter(|(rank, _)| *rank < 3)
        .min_by(|(ra, a), (rb, b)| {
            ra.cmp(rb)
                .then_with(|| b.is_lemma.cmp(&a.is_lemma))
                .then_with(|| a.entry.id.cmp(&b.entry.id))
        })
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Entry;

    fn candidate(id: &str, word: &str, is_lemma: bool) -> StoredEntry {
        StoredEntry {
            entry: Entry {
                id: id.into(),
                word: word.into(),
                html_content: String::new(),
                plain_text: String::new(),
                source_lang: "de".into(),
                target_lang: Some("en".into()),
                dictionary_id: "d".into(),
                dictionary_name: "D".into(),
                part_of_speech: None,
                phonetic: None,
                translations: vec![],
                synonyms: vec![],
                antonyms: vec![],
                examples: vec![],
                has_audio: false,
                audio_url: None,
            },
            is_lemma,
            audio_key: None,
        }
    }

    fn chosen(candidates: Vec<StoredEntry>, word: &str) -> Option<String> {
        choose_entry_for_word(candidates, word).map(|c| c.entry.id)
    }

    #[test]
    fn exact_beats_case_insensitive_beats_folded() {
        let all = vec![
            candidate("1", "gut", true),
            candidate("2", "Gut", true),
            candidate("3", "gût", true),
        ];
        assert_eq!(chosen(all.clone(), "Gut").as_deref(), Some("2"));
        assert_eq!(chosen(all.clone(), "gut").as_deref(), Some("1"));
        assert_eq!(
            chosen(all.clone(), "GUT").as_deref(),
            Some("1"),
            "case-insensitive: lowest id"
        );
        assert_eq!(
            chosen(vec![candidate("3", "gût", true)], "gut").as_deref(),
            Some("3")
        );
    }

    #[test]
    fn lemma_then_lowest_id() {
        let all = vec![
            candidate("b", "Haus", true),
            candidate("a", "Haus", false),
            candidate("c", "Haus", true),
        ];
        assert_eq!(chosen(all, "Haus").as_deref(), Some("b"));
    }

    #[test]
    fn nothing_that_does_not_fold_to_the_word() {
        assert_eq!(chosen(vec![candidate("1", "house", true)], "haus"), None);
        assert_eq!(chosen(vec![], "haus"), None);
    }
}
