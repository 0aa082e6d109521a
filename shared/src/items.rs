//! The DynamoDB item shapes of the entries table, written by the importer and
//! read by the functions. One place, so both sides always agree.
//! See docs/data-model.md for the design.

use crate::fold::fold;
use crate::model::{Dictionary, Entry, IndexedCounts, SearchResult, StoredEntry, ThesaurusItem};
use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::{BTreeMap, HashMap};

pub type Item = HashMap<String, AttributeValue>;

/// Partition key of the one partition that lists every dictionary.
pub const DICTIONARIES_PK: &str = "DICT";
/// Sort key of an entry item (its partition key alone identifies it).
pub const ENTRY_SK: &str = "E";
/// The GSI that finds entries by dictionary and folded headword.
pub const BY_WORD_INDEX: &str = "ByWord";

/// Partition of every thesaurus link of one (folded) headword.
pub fn thesaurus_pk(headword: &str) -> String {
    format!("T#{}", fold(headword))
}

/// The kinds of search index partition (docs/data-model.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// Headwords by their first 1, 2 or 3 folded characters.
    Prefix,
    /// Headwords by the typo keys of their first 5 characters.
    Fuzzy,
    /// Headwords by every 1- to 3-character substring.
    Contains,
}

pub fn index_pk(kind: IndexKind, key: &str) -> String {
    let tag = match kind {
        IndexKind::Prefix => "IP",
        IndexKind::Fuzzy => "IF",
        IndexKind::Contains => "IC",
    };
    format!("{tag}#{key}")
}

/// The postings manifest of one dictionary: its import writes every entry as a
/// posting here, in chunks like an index partition's, and `dictadmin index`
/// builds the search indexes from the manifests, one Query per dictionary,
/// instead of scanning every entry.
pub fn manifest_pk(dictionary_id: &str) -> String {
    format!("IX#{dictionary_id}")
}

/// One compressed chunk of an index partition. Every chunk records how many
/// the partition has, so a reader knows when it has them all and ignores
/// leftovers of an earlier, larger build.
pub fn index_chunk_item(pk: &str, chunk: usize, chunks: usize, bytes: Vec<u8>) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(pk));
    item.insert("sk".into(), s(chunk.to_string()));
    item.insert("chunks".into(), AttributeValue::N(chunks.to_string()));
    item.insert("p".into(), AttributeValue::B(bytes.into()));
    item
}

/// The chunk directory: the chunk count of every index partition with more
/// than one chunk, written by `dictadmin index` after the partitions. It lives
/// in the dictionary list's partition (`DICT`), whose one Query a warm
/// instance caches, so that a read asks for exactly the chunks a partition
/// has. `~` sorts after every dictionary id, which are lower-case slugs.
pub const CHUNK_DIRECTORY_SK: &str = "~chunks";

pub fn chunk_directory_item(counts: &BTreeMap<String, usize>) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(DICTIONARIES_PK));
    item.insert("sk".into(), s(CHUNK_DIRECTORY_SK));
    let counts = counts
        .iter()
        .map(|(pk, n)| (pk.clone(), AttributeValue::N(n.to_string())))
        .collect();
    item.insert("counts".into(), AttributeValue::M(counts));
    item
}

pub fn chunk_directory_from_item(item: &Item) -> Result<HashMap<String, usize>, CorruptItem> {
    let counts = item
        .get("counts")
        .and_then(|v| v.as_m().ok())
        .ok_or(CorruptItem("counts".into()))?;
    counts
        .iter()
        .map(|(pk, n)| {
            let n = n
                .as_n()
                .ok()
                .and_then(|n| n.parse().ok())
                .ok_or(CorruptItem(format!("counts.{pk}")))?;
            Ok((pk.clone(), n))
        })
        .collect()
}

/// The items of one partition's compressed chunks (an index partition or a
/// postings manifest), each recording the count.
pub fn partition_items(pk: &str, chunks: Vec<Vec<u8>>) -> Vec<Item> {
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(n, chunk)| index_chunk_item(pk, n, count, chunk))
        .collect()
}

/// The chunk number, chunk count and bytes of an index chunk item.
pub fn index_chunk_from_item(item: &Item) -> Result<(usize, usize, Vec<u8>), CorruptItem> {
    let chunk = need_s(item, "sk")?
        .parse()
        .map_err(|_| CorruptItem("sk".into()))?;
    let chunks = get_u64(item, "chunks").ok_or(CorruptItem("chunks".into()))? as usize;
    let bytes = item
        .get("p")
        .and_then(|v| v.as_b().ok())
        .ok_or(CorruptItem("p".into()))?
        .clone()
        .into_inner();
    Ok((chunk, chunks, bytes))
}

/// Entries per random block: small enough to read cheaply, large enough that a
/// dictionary needs few items.
pub const RANDOM_BLOCK: u64 = 256;

/// Random blocks number a dictionary's entries densely (all of them, or only
/// those with audio), `RANDOM_BLOCK` to an item.
pub fn random_block_pk(dictionary_id: &str, audio_only: bool) -> String {
    let set = if audio_only { "audio" } else { "all" };
    format!("IR#{dictionary_id}#{set}")
}

pub fn random_block_item(pk: &str, block: u64, entries: &[(String, String)]) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(pk));
    item.insert("sk".into(), s(block.to_string()));
    let (ids, words): (Vec<String>, Vec<String>) = entries.iter().cloned().unzip();
    item.insert("ids".into(), string_list(&ids));
    item.insert("words".into(), string_list(&words));
    item
}

/// The `(id, word)` pairs of a random block.
pub fn random_block_from_item(item: &Item) -> Vec<(String, String)> {
    get_list(item, "ids")
        .into_iter()
        .zip(get_list(item, "words"))
        .collect()
}

/// The attributes of an entry that a search result shows.
pub const SEARCH_RESULT_ATTRIBUTES: [&str; 10] = [
    "id",
    "word",
    "plainText",
    "sourceLang",
    "targetLang",
    "dictionaryId",
    "dictionaryName",
    "partOfSpeech",
    "phonetic",
    "hasAudio",
];

pub fn search_result_from_item(item: &Item) -> Result<SearchResult, CorruptItem> {
    Ok(SearchResult {
        id: need_s(item, "id")?,
        word: need_s(item, "word")?,
        preview: crate::search::preview(&get_s(item, "plainText").unwrap_or_default()),
        source_lang: need_s(item, "sourceLang")?,
        target_lang: get_s(item, "targetLang"),
        dictionary_id: need_s(item, "dictionaryId")?,
        dictionary_name: need_s(item, "dictionaryName")?,
        part_of_speech: get_s(item, "partOfSpeech"),
        phonetic: get_s(item, "phonetic"),
        has_audio: get_bool(item, "hasAudio"),
    })
}

pub fn entry_pk(dictionary_id: &str, entry_id: &str) -> String {
    format!("E#{dictionary_id}#{entry_id}")
}

/// `ByWord` partition key: a dictionary and a folded headword.
pub fn word_key(dictionary_id: &str, word: &str) -> String {
    format!("{dictionary_id}#{}", fold(word))
}

fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

fn string_list(values: &[String]) -> AttributeValue {
    AttributeValue::L(values.iter().map(|v| s(v.as_str())).collect())
}

fn get_s(item: &Item, name: &str) -> Option<String> {
    item.get(name).and_then(|v| v.as_s().ok()).cloned()
}

fn get_list(item: &Item, name: &str) -> Vec<String> {
    item.get(name)
        .and_then(|v| v.as_l().ok())
        .map(|list| list.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
        .unwrap_or_default()
}

fn get_bool(item: &Item, name: &str) -> bool {
    item.get(name)
        .and_then(|v| v.as_bool().ok())
        .copied()
        .unwrap_or(false)
}

fn get_u64(item: &Item, name: &str) -> Option<u64> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|n| n.parse().ok())
}

/// A required string attribute; its absence means the item is corrupt.
pub fn need_s(item: &Item, name: &str) -> Result<String, CorruptItem> {
    get_s(item, name).ok_or(CorruptItem(name.to_string()))
}

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("stored item lacks attribute {0}")]
pub struct CorruptItem(pub String);

pub fn entry_to_item(stored: &StoredEntry) -> Item {
    let e = &stored.entry;
    let mut item = Item::new();
    item.insert("pk".into(), s(entry_pk(&e.dictionary_id, &e.id)));
    item.insert("sk".into(), s(ENTRY_SK));
    item.insert("wordKey".into(), s(word_key(&e.dictionary_id, &e.word)));
    item.insert("id".into(), s(e.id.as_str()));
    item.insert("word".into(), s(e.word.as_str()));
    item.insert("htmlContent".into(), s(e.html_content.as_str()));
    item.insert("plainText".into(), s(e.plain_text.as_str()));
    item.insert("sourceLang".into(), s(e.source_lang.as_str()));
    if let Some(target) = &e.target_lang {
        item.insert("targetLang".into(), s(target.as_str()));
    }
    item.insert("dictionaryId".into(), s(e.dictionary_id.as_str()));
    item.insert("dictionaryName".into(), s(e.dictionary_name.as_str()));
    if let Some(pos) = &e.part_of_speech {
        item.insert("partOfSpeech".into(), s(pos.as_str()));
    }
    if let Some(phonetic) = &e.phonetic {
        item.insert("phonetic".into(), s(phonetic.as_str()));
    }
    for (name, values) in [
        ("translations", &e.translations),
        ("synonyms", &e.synonyms),
        ("antonyms", &e.antonyms),
        ("examples", &e.examples),
    ] {
        if !values.is_empty() {
            item.insert(name.into(), string_list(values));
        }
    }
    item.insert("isLemma".into(), AttributeValue::Bool(stored.is_lemma));
    item.insert(
        "hasAudio".into(),
        AttributeValue::Bool(stored.audio_key.is_some()),
    );
    if let Some(key) = &stored.audio_key {
        item.insert("audioKey".into(), s(key.as_str()));
    }
    item
}

/// The stored entry of an item. `audio_url` is left empty: it depends on the
/// deployment (CDN or presigned) and is filled in by the store.
pub fn entry_from_item(item: &Item) -> Result<StoredEntry, CorruptItem> {
    let audio_key = get_s(item, "audioKey");
    Ok(StoredEntry {
        entry: Entry {
            id: need_s(item, "id")?,
            word: need_s(item, "word")?,
            html_content: get_s(item, "htmlContent").unwrap_or_default(),
            plain_text: get_s(item, "plainText").unwrap_or_default(),
            source_lang: need_s(item, "sourceLang")?,
            target_lang: get_s(item, "targetLang"),
            dictionary_id: need_s(item, "dictionaryId")?,
            dictionary_name: need_s(item, "dictionaryName")?,
            part_of_speech: get_s(item, "partOfSpeech"),
            phonetic: get_s(item, "phonetic"),
            translations: get_list(item, "translations"),
            synonyms: get_list(item, "synonyms"),
            antonyms: get_list(item, "antonyms"),
            examples: get_list(item, "examples"),
            has_audio: audio_key.is_some(),
            audio_url: None,
        },
        is_lemma: item.get("isLemma").is_none() || get_bool(item, "isLemma"),
        audio_key,
    })
}

/// A thesaurus link from `headword` to `link.word`. The sort key makes the link
/// unique and groups a word's links by language and dictionary.
pub fn thesaurus_to_item(headword: &str, link: &ThesaurusItem) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(thesaurus_pk(headword)));
    item.insert(
        "sk".into(),
        s(format!(
            "{}#{}#{}#{}#{}",
            link.source_lang,
            link.target_lang.as_deref().unwrap_or("-"),
            link.dictionary_id,
            link.relationship_type,
            link.word
        )),
    );
    item.insert("word".into(), s(link.word.as_str()));
    item.insert(
        "relationshipType".into(),
        s(link.relationship_type.as_str()),
    );
    item.insert("dictionaryId".into(), s(link.dictionary_id.as_str()));
    item.insert("dictionaryName".into(), s(link.dictionary_name.as_str()));
    item.insert("sourceLang".into(), s(link.source_lang.as_str()));
    if let Some(target) = &link.target_lang {
        item.insert("targetLang".into(), s(target.as_str()));
    }
    item
}

pub fn thesaurus_from_item(item: &Item) -> Result<ThesaurusItem, CorruptItem> {
    Ok(ThesaurusItem {
        word: need_s(item, "word")?,
        relationship_type: need_s(item, "relationshipType")?,
        dictionary_id: need_s(item, "dictionaryId")?,
        dictionary_name: need_s(item, "dictionaryName")?,
        source_lang: need_s(item, "sourceLang")?,
        target_lang: get_s(item, "targetLang"),
    })
}

pub fn dictionary_to_item(d: &Dictionary) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(DICTIONARIES_PK));
    item.insert("sk".into(), s(d.dictionary_id.as_str()));
    item.insert("name".into(), s(d.dictionary_name.as_str()));
    item.insert("sourceLang".into(), s(d.source_lang.as_str()));
    if let Some(target) = &d.target_lang {
        item.insert("targetLang".into(), s(target.as_str()));
    }
    item.insert(
        "entryCount".into(),
        AttributeValue::N(d.entry_count.to_string()),
    );
    item.insert("licence".into(), s(d.licence.as_str()));
    item.insert("origin".into(), s(d.origin.as_str()));
    item
}

pub fn dictionary_from_item(item: &Item) -> Result<Dictionary, CorruptItem> {
    Ok(Dictionary {
        dictionary_id: need_s(item, "sk")?,
        dictionary_name: need_s(item, "name")?,
        source_lang: need_s(item, "sourceLang")?,
        target_lang: get_s(item, "targetLang"),
        entry_count: get_u64(item, "entryCount").unwrap_or(0),
        licence: get_s(item, "licence").unwrap_or_default(),
        origin: get_s(item, "origin").unwrap_or_default(),
        indexed: IndexedCounts {
            entries: get_u64(item, "indexedEntries").unwrap_or(0),
            with_audio: get_u64(item, "indexedAudioEntries").unwrap_or(0),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> StoredEntry {
        StoredEntry {
            entry: Entry {
                id: "00ff".into(),
                word: "École".into(),
                html_content: "<p>school</p>".into(),
                plain_text: "school".into(),
                source_lang: "fr".into(),
                target_lang: Some("en".into()),
                dictionary_id: "freedict-fra-eng".into(),
                dictionary_name: "French–English".into(),
                part_of_speech: Some("noun".into()),
                phonetic: Some("ekɔl".into()),
                translations: vec!["school".into()],
                synonyms: vec![],
                antonyms: vec!["x".into()],
                examples: vec![],
                has_audio: true,
                audio_url: None,
            },
            is_lemma: true,
            audio_key: Some("audio/freedict-fra-eng/00ff.mp3".into()),
        }
    }

    #[test]
    fn the_chunk_directory_round_trips_and_sorts_after_every_dictionary() {
        let counts: BTreeMap<String, usize> =
            [("IC#e".to_string(), 60), ("IP#s".to_string(), 9)].into();
        let item = chunk_directory_item(&counts);
        assert_eq!(item["pk"].as_s().unwrap(), DICTIONARIES_PK);
        let back = chunk_directory_from_item(&item).unwrap();
        assert_eq!(back, counts.into_iter().collect::<HashMap<_, _>>());
        assert!(CHUNK_DIRECTORY_SK > "zzz-any-dictionary-id");
        let mut broken = item.clone();
        broken.insert(
            "counts".into(),
            AttributeValue::M([("IC#e".to_string(), AttributeValue::S("x".into()))].into()),
        );
        assert!(chunk_directory_from_item(&broken).is_err());
    }

    #[test]
    fn entry_round_trips_through_an_item() {
        let original = stored();
        let item = entry_to_item(&original);
        assert_eq!(item["pk"], s("E#freedict-fra-eng#00ff"));
        assert_eq!(item["wordKey"], s("freedict-fra-eng#ecole"));
        assert_eq!(entry_from_item(&item).unwrap(), original);
    }

    #[test]
    fn has_audio_follows_the_audio_key() {
        let mut original = stored();
        original.audio_key = None;
        original.entry.has_audio = false;
        let item = entry_to_item(&original);
        assert_eq!(item["hasAudio"], AttributeValue::Bool(false));
        assert_eq!(entry_from_item(&item).unwrap(), original);
    }

    #[test]
    fn corrupt_items_name_the_missing_attribute() {
        let mut item = entry_to_item(&stored());
        item.remove("word");
        assert_eq!(
            entry_from_item(&item).unwrap_err(),
            CorruptItem("word".into())
        );
    }

    #[test]
    fn thesaurus_link_round_trips_and_is_keyed_by_the_folded_headword() {
        let link = ThesaurusItem {
            word: "bad".into(),
            relationship_type: "antonym".into(),
            dictionary_id: "wordnet-en".into(),
            dictionary_name: "WordNet".into(),
            source_lang: "en".into(),
            target_lang: None,
        };
        let item = thesaurus_to_item("Good", &link);
        assert_eq!(item["pk"], s("T#good"));
        assert_eq!(item["sk"], s("en#-#wordnet-en#antonym#bad"));
        assert_eq!(thesaurus_from_item(&item).unwrap(), link);
    }

    #[test]
    fn dictionary_round_trips() {
        let d = Dictionary {
            dictionary_id: "wordnet-en".into(),
            dictionary_name: "WordNet 3.0".into(),
            source_lang: "en".into(),
            target_lang: None,
            entry_count: 147_000,
            licence: "WordNet 3.0 licence".into(),
            origin: "wordnet-base".into(),
            indexed: Default::default(),
        };
        assert_eq!(dictionary_from_item(&dictionary_to_item(&d)).unwrap(), d);
    }
}
