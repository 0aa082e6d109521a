//! The DynamoDB item shapes of the entries table, written by the importer and
//! read by the functions. One place, so both sides always agree.
//! See docs/data-model.md for the design.

use crate::fold::fold;
use crate::model::{AudioSource, Dictionary, Entry, StoredAudio, StoredEntry, ThesaurusItem};
use crate::search::lexicon::{LexiconKind, LexiconList};
use crate::search::snapshot::{self, Section};
use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::{BTreeMap, HashMap};

pub type Item = HashMap<String, AttributeValue>;

/// Partition key of the one partition that lists every dictionary.
pub const DICTIONARIES_PK: &str = "DICT";
/// Sort key of an entry item (its partition key alone identifies it).
pub const ENTRY_SK: &str = "E";
/// The GSI that finds entries by dictionary and folded headword.
pub const BY_WORD_INDEX: &str = "ByWord";
/// DynamoDB's limit on a partition key (of the table or of an index), in bytes.
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;

/// Partition of every thesaurus link of one (folded) headword.
pub fn thesaurus_pk(headword: &str) -> String {
    format!("T#{}", fold(headword))
}

/// The postings manifest of one dictionary: its import writes every entry as a
/// posting here, in chunks, and `dictadmin index` builds the index snapshot
/// from the manifests, one Query per dictionary, instead of scanning every
/// entry.
pub fn manifest_pk(dictionary_id: &str) -> String {
    format!("IX#{dictionary_id}")
}

/// One compressed chunk of a manifest. Every chunk records how many the
/// manifest has, so a reader knows when it has them all and ignores leftovers
/// of an earlier, larger import.
fn manifest_chunk_item(pk: &str, chunk: usize, chunks: usize, bytes: Vec<u8>) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(pk));
    item.insert("sk".into(), s(chunk.to_string()));
    item.insert("chunks".into(), AttributeValue::N(chunks.to_string()));
    item.insert("p".into(), AttributeValue::B(bytes.into()));
    item
}

/// The items of a manifest's compressed chunks, each recording the count:
/// a dictionary's postings (`postings::manifest_chunks`) or a lexicon list.
pub fn manifest_items(pk: &str, chunks: Vec<Vec<u8>>) -> Vec<Item> {
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(n, chunk)| manifest_chunk_item(pk, n, count, chunk))
        .collect()
}

/// The chunk number, chunk count and bytes of a manifest chunk item.
pub fn manifest_chunk_from_item(item: &Item) -> Result<(usize, usize, Vec<u8>), CorruptItem> {
    let chunk = need_s(item, "sk")?
        .parse()
        .map_err(|_| CorruptItem("sk".into()))?;
    let chunks = get_u64(item, "chunks").ok_or(CorruptItem("chunks".into()))? as usize;
    Ok((chunk, chunks, need_b(item, "p")?))
}

/// The chunks of a manifest partition that belong to its latest write.
pub struct ManifestChunks {
    /// How many chunks the latest write has (chunk 0 says; 0 without it).
    pub expected: usize,
    /// (chunk number, compressed bytes), in order.
    pub chunks: Vec<(usize, Vec<u8>)>,
}

/// Chunk 0 is written by every import, so its count is the current one;
/// chunks that record another count are leftovers of an earlier import of
/// more chunks (which a pruning import deletes, and an import with
/// `--no-prune` leaves), and are not part of the manifest.
pub fn current_chunks(items: &[Item]) -> Result<ManifestChunks, CorruptItem> {
    let mut all = Vec::with_capacity(items.len());
    for item in items {
        all.push(manifest_chunk_from_item(item)?);
    }
    let expected = all
        .iter()
        .find(|(n, _, _)| *n == 0)
        .map_or(0, |(_, count, _)| *count);
    let mut chunks: Vec<(usize, Vec<u8>)> = all
        .into_iter()
        .filter(|(n, count, _)| *count == expected && *n < expected)
        .map(|(n, _, bytes)| (n, bytes))
        .collect();
    chunks.sort_by_key(|(n, _)| *n);
    Ok(ManifestChunks { expected, chunks })
}

/// The pointer to the current index snapshot, in the dictionary list's
/// partition (`DICT`), whose one Query a warm instance caches: a new build
/// is seen within that cache's lifetime. `~` sorts after every dictionary id,
/// which are lower-case slugs.
pub const SNAPSHOT_POINTER_SK: &str = "~snapshot";

/// A build of the index snapshot, the format it was written in and how many
/// parts each section has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SnapshotBuild {
    pub build: String,
    /// [`snapshot::FORMAT`] of the release that wrote it; `None` for a build
    /// written before the pointer recorded formats.
    pub format: Option<u32>,
    /// Sections this release knows.
    pub parts: BTreeMap<Section, usize>,
    /// Sections of another release that this one does not know (`forms`,
    /// before format 14), by name: kept so that a retired build still names
    /// them, and its items are deleted with it.
    pub unknown_parts: BTreeMap<String, usize>,
}

/// A current build that this release cannot read: written in another
/// format, or with other sections. Searches answer 503 until `dictadmin
/// index` rebuilds it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "snapshot build {build} is of format {} with {sections} sections; this release reads format {} with {}: run `dictadmin index`",
    format_name(*.format),
    snapshot::FORMAT,
    Section::ALL.len()
)]
pub struct OtherRelease {
    pub build: String,
    pub format: Option<u32>,
    /// How many sections the pointer names.
    pub sections: usize,
}

/// A format as `dictadmin index` and the logs show it.
pub fn format_name(format: Option<u32>) -> String {
    format.map_or("none (written before formats were recorded)".into(), |f| {
        f.to_string()
    })
}

/// Why the current build of a pointer cannot be read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PointerError {
    #[error(transparent)]
    Corrupt(#[from] CorruptItem),
    #[error(transparent)]
    OtherRelease(#[from] OtherRelease),
}

/// A build the pointer no longer names as current: its items stay
/// readable for the instances that still cache a pointer naming it, until
/// `dictadmin index` finds it retired for longer than its grace period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetiredBuild {
    pub build: SnapshotBuild,
    /// When a newer build replaced it, in milliseconds since the epoch.
    pub retired_at_ms: u64,
}

/// The pointer names the current build and the builds it replaced that are
/// still within their grace period (`retired`, a list of maps), so that
/// `dictadmin index` deletes each once no instance can hold it.
pub fn snapshot_pointer_item(current: &SnapshotBuild, retired: &[RetiredBuild]) -> Item {
    let parts = |b: &SnapshotBuild| {
        let known = b.parts.iter().map(|(section, n)| (section.name(), n));
        let unknown = b.unknown_parts.iter().map(|(name, n)| (name.as_str(), n));
        AttributeValue::M(
            known
                .chain(unknown)
                .map(|(name, n)| (name.to_string(), AttributeValue::N(n.to_string())))
                .collect(),
        )
    };
    let mut item = Item::new();
    item.insert("pk".into(), s(DICTIONARIES_PK));
    item.insert("sk".into(), s(SNAPSHOT_POINTER_SK));
    item.insert("build".into(), s(current.build.as_str()));
    item.insert("parts".into(), parts(current));
    if let Some(format) = current.format {
        item.insert("format".into(), AttributeValue::N(format.to_string()));
    }
    if !retired.is_empty() {
        let list = retired
            .iter()
            .map(|r| {
                let mut build = Item::new();
                build.insert("build".into(), s(r.build.build.as_str()));
                build.insert("parts".into(), parts(&r.build));
                if let Some(format) = r.build.format {
                    build.insert("format".into(), AttributeValue::N(format.to_string()));
                }
                build.insert(
                    "retiredAt".into(),
                    AttributeValue::N(r.retired_at_ms.to_string()),
                );
                AttributeValue::M(build)
            })
            .collect();
        item.insert("retired".into(), AttributeValue::L(list));
    }
    item
}

/// The current build of a pointer item, which this release must be able to
/// read, and the retired ones, as written (instances read only the current).
pub fn snapshot_pointer_from_item(
    item: &Item,
) -> Result<(SnapshotBuild, Vec<RetiredBuild>), PointerError> {
    let (current, named) = read_build(item, "build", "format", "parts")?;
    if current.format != Some(snapshot::FORMAT)
        || named != Section::ALL.len()
        || current.parts.len() != Section::ALL.len()
    {
        return Err(OtherRelease {
            build: current.build,
            format: current.format,
            sections: named,
        }
        .into());
    }
    let retired = read_retired(item, &current)?;
    Ok((current, retired))
}

/// The current and the retired builds of a pointer item as written,
/// whatever release wrote them: what `dictadmin index` reads to name what it
/// replaces and to delete the builds past their grace period.
pub fn snapshot_builds_from_item(
    item: &Item,
) -> Result<(SnapshotBuild, Vec<RetiredBuild>), CorruptItem> {
    let (current, _) = read_build(item, "build", "format", "parts")?;
    let retired = read_retired(item, &current)?;
    Ok((current, retired))
}

/// The retired builds of a pointer. A pointer written before the list
/// (until 2026-11-28) names one, `previousBuild`: it was retired when the
/// current build was made, which the current build's id says.
fn read_retired(item: &Item, current: &SnapshotBuild) -> Result<Vec<RetiredBuild>, CorruptItem> {
    if let Some(list) = item.get("retired") {
        let list = list.as_l().map_err(|_| CorruptItem("retired".into()))?;
        return list
            .iter()
            .map(|entry| {
                let entry = entry.as_m().map_err(|_| CorruptItem("retired".into()))?;
                let (build, _) = read_build(entry, "build", "format", "parts")?;
                let retired_at_ms = entry
                    .get("retiredAt")
                    .and_then(|v| v.as_n().ok())
                    .and_then(|n| n.parse().ok())
                    .ok_or(CorruptItem("retired.retiredAt".into()))?;
                Ok(RetiredBuild {
                    build,
                    retired_at_ms,
                })
            })
            .collect();
    }
    match item.get("previousBuild") {
        Some(_) => Ok(vec![RetiredBuild {
            build: read_build(item, "previousBuild", "previousFormat", "previousParts")?.0,
            retired_at_ms: u64::from_str_radix(&current.build, 16).unwrap_or(0),
        }]),
        None => Ok(Vec::new()),
    }
}

/// One build of a pointer, and how many sections it names (those this
/// release does not know are left out of its parts).
fn read_build(
    item: &Item,
    build: &str,
    format: &str,
    parts: &str,
) -> Result<(SnapshotBuild, usize), CorruptItem> {
    let map = item
        .get(parts)
        .and_then(|v| v.as_m().ok())
        .ok_or(CorruptItem(parts.into()))?;
    let mut counts = BTreeMap::new();
    let mut unknown = BTreeMap::new();
    for (name, n) in map {
        let n = n
            .as_n()
            .ok()
            .and_then(|n| n.parse().ok())
            .ok_or(CorruptItem(format!("{parts}.{name}")))?;
        match Section::from_name(name) {
            Some(section) => counts.insert(section, n),
            None => unknown.insert(name.clone(), n),
        };
    }
    let format = match item.get(format) {
        Some(v) => Some(
            v.as_n()
                .ok()
                .and_then(|n| n.parse().ok())
                .ok_or(CorruptItem(format.into()))?,
        ),
        None => None,
    };
    let read = SnapshotBuild {
        build: need_s(item, build)?,
        format,
        parts: counts,
        unknown_parts: unknown,
    };
    Ok((read, map.len()))
}

/// Partition of one section of one snapshot build; its parts are numbered.
pub fn snapshot_part_pk(build: &str, section: Section) -> String {
    section_pk(build, section.name())
}

/// The partition of a section by its name, known to this release or not.
pub fn section_pk(build: &str, section: &str) -> String {
    format!("S#{build}#{section}")
}

pub fn snapshot_part_item(build: &str, section: Section, part: usize, bytes: Vec<u8>) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(snapshot_part_pk(build, section)));
    item.insert("sk".into(), s(part.to_string()));
    item.insert("b".into(), AttributeValue::B(bytes.into()));
    item
}

/// The part number and bytes of a snapshot part item.
pub fn snapshot_part_from_item(item: &Item) -> Result<(usize, Vec<u8>), CorruptItem> {
    let part = need_s(item, "sk")?
        .parse()
        .map_err(|_| CorruptItem("sk".into()))?;
    Ok((part, need_b(item, "b")?))
}

/// As [`snapshot_part_from_item`], taking the bytes out of the item rather
/// than copying them: a cold instance reads hundreds of MB of parts.
pub fn snapshot_part_into_bytes(mut item: Item) -> Result<(usize, Vec<u8>), CorruptItem> {
    let part = need_s(&item, "sk")?
        .parse()
        .map_err(|_| CorruptItem("sk".into()))?;
    match item.remove("b") {
        Some(AttributeValue::B(blob)) => Ok((part, blob.into_inner())),
        _ => Err(CorruptItem("b".into())),
    }
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

fn need_b(item: &Item, name: &str) -> Result<Vec<u8>, CorruptItem> {
    item.get(name)
        .and_then(|v| v.as_b().ok())
        .map(|b| b.clone().into_inner())
        .ok_or(CorruptItem(name.to_string()))
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

/// An entry's `frequency` as stored: the number with two decimals (`5.16`).
pub fn frequency_number(zipf: f64) -> String {
    format!("{zipf:.2}")
}

fn get_f64(item: &Item, name: &str) -> Option<f64> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|n| n.parse().ok())
        .filter(|f: &f64| f.is_finite())
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
    item.insert(
        "frequency".into(),
        AttributeValue::N(frequency_number(e.frequency)),
    );
    item.insert("isLemma".into(), AttributeValue::Bool(stored.is_lemma));
    item.insert(
        "hasAudio".into(),
        AttributeValue::Bool(!stored.audio.is_empty()),
    );
    if let Some(primary) = stored.audio.first() {
        // `audioKey` (the primary's) is all that readers from before
        // `audioKeys` look at: they keep serving the primary format.
        item.insert("audioKey".into(), s(primary.key.as_str()));
        let keys: Vec<String> = stored.audio.iter().map(|a| a.key.clone()).collect();
        item.insert("audioKeys".into(), string_list(&keys));
    }
    item
}

/// The audio of an entry item, primary format first: the keys of
/// `audioKeys`, or, in an item written before there were several formats,
/// its one `audioKey`. Each key's format is its extension; a key of a
/// format this build does not know (or a second key of one format) is left
/// out, so an item written by a newer import still reads.
pub fn entry_audio(item: &Item) -> Vec<StoredAudio> {
    let keys: Vec<String> = if item.contains_key("audioKeys") {
        get_list(item, "audioKeys")
    } else {
        get_s(item, "audioKey").into_iter().collect()
    };
    let mut audio: Vec<StoredAudio> = Vec::new();
    for rendition in keys.into_iter().filter_map(StoredAudio::from_key) {
        if !audio.iter().any(|a| a.format == rendition.format) {
            audio.push(rendition);
        }
    }
    audio
}

/// The stored entry of an item. `audio_url` and `audio_urls` are left
/// empty: they depend on the deployment (CDN or presigned) and are filled in
/// by the service.
pub fn entry_from_item(item: &Item) -> Result<StoredEntry, CorruptItem> {
    let audio = entry_audio(item);
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
            has_audio: !audio.is_empty(),
            // An item imported before entries had frequencies has none: 0.
            frequency: get_f64(item, "frequency").unwrap_or(0.0),
            audio_formats: audio.iter().map(|a| a.format.name().to_string()).collect(),
            audio_source: audio.first().map(|primary| {
                AudioSource::of_key(&primary.key, &get_s(item, "sourceLang").unwrap_or_default())
            }),
            ..Default::default()
        },
        is_lemma: item.get("isLemma").is_none() || get_bool(item, "isLemma"),
        audio,
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

/// Partition listing every stored lexicon list (`LexiconList`), one item
/// each, sort key `<kind>#<lang>`: `dictadmin index` reads it with one Query.
pub const LEXICON_PK: &str = "LX";

/// Partition of one lexicon list's compressed chunks (items shaped as a
/// manifest's: [`manifest_items`]).
pub fn lexicon_pk(kind: LexiconKind, lang: &str) -> String {
    format!("LX#{}#{lang}", kind.name())
}

pub fn lexicon_list_to_item(list: &LexiconList) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), s(LEXICON_PK));
    item.insert(
        "sk".into(),
        s(format!("{}#{}", list.kind.name(), list.lang)),
    );
    item.insert("kind".into(), s(list.kind.name()));
    item.insert("lang".into(), s(list.lang.as_str()));
    item.insert("origin".into(), s(list.origin.as_str()));
    item.insert("licence".into(), s(list.licence.as_str()));
    item.insert("count".into(), AttributeValue::N(list.count.to_string()));
    item
}

pub fn lexicon_list_from_item(item: &Item) -> Result<LexiconList, CorruptItem> {
    let kind = need_s(item, "kind")?;
    Ok(LexiconList {
        kind: LexiconKind::from_name(&kind).ok_or(CorruptItem("kind".into()))?,
        lang: need_s(item, "lang")?,
        origin: get_s(item, "origin").unwrap_or_default(),
        licence: get_s(item, "licence").unwrap_or_default(),
        count: get_u64(item, "count").unwrap_or(0) as usize,
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftover_chunks_of_a_larger_manifest_are_not_read() {
        let chunks = |count: usize, numbers: std::ops::Range<usize>, byte: u8| {
            manifest_items("IX#d", vec![vec![byte]; count])
                .into_iter()
                .filter(move |item| {
                    let n: usize = item["sk"].as_s().unwrap().parse().unwrap();
                    numbers.contains(&n)
                })
        };
        // An import of 12 chunks, then one of 3 over it: chunks 3 to 11 of
        // the first are still in the partition (Query order is by string).
        let mut partition: Vec<Item> = chunks(3, 0..3, 2).chain(chunks(12, 3..12, 1)).collect();
        partition.sort_by(|a, b| a["sk"].as_s().unwrap().cmp(b["sk"].as_s().unwrap()));
        let manifest = current_chunks(&partition).unwrap();
        assert_eq!(manifest.expected, 3);
        assert_eq!(
            manifest.chunks,
            vec![(0, vec![2]), (1, vec![2]), (2, vec![2])]
        );
        // An interrupted write of a larger manifest over a smaller one: the
        // chunks that are there are read, and the count says what is missing.
        let partial: Vec<Item> = chunks(5, 0..2, 3).chain(chunks(3, 2..3, 2)).collect();
        let manifest = current_chunks(&partial).unwrap();
        assert_eq!((manifest.expected, manifest.chunks.len()), (5, 2));
        assert_eq!(current_chunks(&[]).unwrap().expected, 0);
    }
    use crate::model::AudioFormat;

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
                antonyms: vec!["x".into()],
                has_audio: true,
                audio_formats: vec!["spx".into(), "mp3".into()],
                audio_source: Some(AudioSource::synthesized("espeak-ng", "fr")),
                frequency: 4.41,
                ..Default::default()
            },
            is_lemma: true,
            audio: vec![
                StoredAudio {
                    format: AudioFormat::Spx,
                    key: "audio/freedict-fra-eng/00ff.spx".into(),
                },
                StoredAudio {
                    format: AudioFormat::Mp3,
                    key: "audio/freedict-fra-eng/00ff.mp3".into(),
                },
            ],
        }
    }

    #[test]
    fn the_snapshot_pointer_round_trips_and_sorts_after_every_dictionary() {
        let build = |id: &str, n: usize| SnapshotBuild {
            build: id.into(),
            format: Some(snapshot::FORMAT),
            parts: Section::ALL.iter().map(|s| (*s, n)).collect(),
            ..Default::default()
        };
        let retired = |id: &str, n: usize, at: u64| RetiredBuild {
            build: build(id, n),
            retired_at_ms: at,
        };
        let both = [retired("b1", 2, 1_000), retired("b0", 1, 500)];
        let item = snapshot_pointer_item(&build("b2", 3), &both);
        assert_eq!(item["pk"].as_s().unwrap(), DICTIONARIES_PK);
        assert_eq!(
            snapshot_pointer_from_item(&item).unwrap(),
            (build("b2", 3), both.to_vec())
        );
        let first = snapshot_pointer_item(&build("b1", 1), &[]);
        assert_eq!(
            snapshot_pointer_from_item(&first).unwrap(),
            (build("b1", 1), Vec::new())
        );
        assert!(SNAPSHOT_POINTER_SK > "zzz-any-dictionary-id");
        let mut broken = item.clone();
        broken.insert("parts".into(), AttributeValue::M(Default::default()));
        assert!(snapshot_pointer_from_item(&broken).is_err());
        let part = snapshot_part_item("b2", Section::Grams, 4, vec![1, 2]);
        assert_eq!(part["pk"].as_s().unwrap(), "S#b2#grams");
        assert_eq!(snapshot_part_from_item(&part).unwrap(), (4, vec![1, 2]));
        assert_eq!(snapshot_part_into_bytes(part).unwrap(), (4, vec![1, 2]));
    }

    /// A build of another release is not corrupt: it is named, with what
    /// makes it unreadable, so that the store can answer "rebuild the index".
    #[test]
    fn a_pointer_of_another_format_or_other_sections_is_another_release() {
        let ours = SnapshotBuild {
            build: "b2".into(),
            format: Some(snapshot::FORMAT),
            parts: Section::ALL.iter().map(|s| (*s, 1)).collect(),
            ..Default::default()
        };
        let other = |item: &Item| match snapshot_pointer_from_item(item) {
            Err(PointerError::OtherRelease(other)) => other,
            read => panic!("{read:?}"),
        };

        let mut unversioned = snapshot_pointer_item(&ours, &[]);
        unversioned.remove("format");
        let found = other(&unversioned);
        assert_eq!((found.build.as_str(), found.format), ("b2", None));
        assert_eq!(found.sections, Section::ALL.len());
        assert!(
            found.to_string().contains("run `dictadmin index`"),
            "{found}"
        );
        let (written, _) = snapshot_builds_from_item(&unversioned).unwrap();
        assert_eq!(written.format, None, "dictadmin still reads it");
        assert_eq!(written.parts, ours.parts);

        let older = SnapshotBuild {
            format: Some(snapshot::FORMAT - 1),
            ..ours.clone()
        };
        let found = other(&snapshot_pointer_item(&older, &[]));
        assert_eq!(found.format, Some(snapshot::FORMAT - 1));

        let mut fewer = ours.clone();
        fewer.parts.remove(&Section::Grams);
        assert_eq!(
            other(&snapshot_pointer_item(&fewer, &[])).sections,
            Section::ALL.len() - 1
        );

        let mut more = snapshot_pointer_item(&ours, &[]);
        let Some(AttributeValue::M(parts)) = more.get_mut("parts") else {
            unreachable!()
        };
        parts.insert("someday".into(), AttributeValue::N("2".into()));
        assert_eq!(other(&more).sections, Section::ALL.len() + 1);
        let (written, _) = snapshot_builds_from_item(&more).unwrap();
        assert_eq!(
            written.parts, ours.parts,
            "sections it does not know are left out"
        );
        assert_eq!(
            written.unknown_parts,
            BTreeMap::from([("someday".to_string(), 2)]),
            "and kept by name"
        );
        let rewritten = snapshot_pointer_item(&written, &[]);
        assert_eq!(rewritten["parts"], more["parts"], "and written again");

        // The builds it replaced may be of any format: only the current counts.
        let replaced = RetiredBuild {
            build: older,
            retired_at_ms: 7,
        };
        let item = snapshot_pointer_item(&ours, std::slice::from_ref(&replaced));
        let (current, retired) = snapshot_pointer_from_item(&item).unwrap();
        assert_eq!((current, retired), (ours.clone(), vec![replaced]));

        let mut garbled = snapshot_pointer_item(&ours, &[]);
        garbled.insert("format".into(), s("one"));
        assert_eq!(
            snapshot_pointer_from_item(&garbled),
            Err(PointerError::Corrupt(CorruptItem("format".into())))
        );
    }

    /// A pointer written before the list of retired builds names the one
    /// it replaced as `previousBuild`: read as retired when the current
    /// build was made (its id is that time in milliseconds, in hex).
    #[test]
    fn a_pointer_with_a_previous_build_reads_as_one_retired_build() {
        let build = |id: &str| SnapshotBuild {
            build: id.into(),
            format: Some(snapshot::FORMAT),
            parts: Section::ALL.iter().map(|s| (*s, 2)).collect(),
            ..Default::default()
        };
        let mut item = snapshot_pointer_item(&build("01a2200d7ddc"), &[]);
        let written = snapshot_pointer_item(&build("01a21fa5f51e"), &[]);
        item.insert("previousBuild".into(), written["build"].clone());
        item.insert("previousParts".into(), written["parts"].clone());
        item.insert("previousFormat".into(), written["format"].clone());
        let (_, retired) = snapshot_builds_from_item(&item).unwrap();
        assert_eq!(
            retired,
            vec![RetiredBuild {
                build: build("01a21fa5f51e"),
                retired_at_ms: 0x01a2200d7ddc,
            }]
        );
        let mut garbled = item.clone();
        garbled.insert("retired".into(), s("soon"));
        assert!(snapshot_builds_from_item(&garbled).is_err());
    }

    #[test]
    fn entry_round_trips_through_an_item() {
        let original = stored();
        let item = entry_to_item(&original);
        assert_eq!(item["pk"], s("E#freedict-fra-eng#00ff"));
        assert_eq!(item["wordKey"], s("freedict-fra-eng#ecole"));
        assert_eq!(item["frequency"], AttributeValue::N("4.41".into()));
        assert_eq!(entry_from_item(&item).unwrap(), original);
    }

    #[test]
    fn an_item_from_before_frequencies_has_frequency_0() {
        let mut item = entry_to_item(&stored());
        item.remove("frequency");
        assert_eq!(entry_from_item(&item).unwrap().entry.frequency, 0.0);
        let mut unlisted = stored();
        unlisted.entry.frequency = 0.0;
        let item = entry_to_item(&unlisted);
        assert_eq!(item["frequency"], AttributeValue::N("0.00".into()));
        assert_eq!(entry_from_item(&item).unwrap(), unlisted);
    }

    #[test]
    fn has_audio_follows_the_audio_keys() {
        let mut original = stored();
        original.audio = vec![];
        original.entry.has_audio = false;
        original.entry.audio_formats = vec![];
        original.entry.audio_source = None;
        let item = entry_to_item(&original);
        assert_eq!(item["hasAudio"], AttributeValue::Bool(false));
        assert!(!item.contains_key("audioKey") && !item.contains_key("audioKeys"));
        assert_eq!(entry_from_item(&item).unwrap(), original);
    }

    #[test]
    fn every_audio_key_is_stored_and_audio_key_is_the_primary() {
        let item = entry_to_item(&stored());
        assert_eq!(item["audioKey"], s("audio/freedict-fra-eng/00ff.spx"));
        assert_eq!(
            item["audioKeys"],
            string_list(&[
                "audio/freedict-fra-eng/00ff.spx".into(),
                "audio/freedict-fra-eng/00ff.mp3".into()
            ])
        );
    }

    #[test]
    fn an_item_from_before_audio_keys_has_the_format_of_its_one_key() {
        for (key, format) in [
            ("audio/freedict-fra-eng/00ff.spx", AudioFormat::Spx),
            ("audio/freedict-eng-fra/00ff.mp3", AudioFormat::Mp3),
        ] {
            let mut item = entry_to_item(&stored());
            item.remove("audioKeys");
            item.insert("audioKey".into(), s(key));
            let read = entry_from_item(&item).unwrap();
            assert_eq!(
                read.audio,
                vec![StoredAudio {
                    format,
                    key: key.into()
                }]
            );
            assert!(read.entry.has_audio);
            assert_eq!(read.entry.audio_formats, vec![format.name().to_string()]);
        }
    }

    #[test]
    fn unknown_formats_and_repeated_formats_are_left_out() {
        let mut item = entry_to_item(&stored());
        item.insert(
            "audioKeys".into(),
            string_list(&[
                "audio/d/x.opus".into(),
                "audio/d/x.mp3".into(),
                "audio/d/y.mp3".into(),
            ]),
        );
        let read = entry_from_item(&item).unwrap();
        assert_eq!(read.entry.audio_formats, vec!["mp3".to_string()]);
        assert_eq!(read.audio[0].key, "audio/d/x.mp3");
        item.insert("audioKeys".into(), string_list(&["audio/d/x.wav".into()]));
        let read = entry_from_item(&item).unwrap();
        assert!(!read.entry.has_audio && read.audio.is_empty());
        assert!(read.entry.audio_formats.is_empty());
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
        };
        assert_eq!(dictionary_from_item(&dictionary_to_item(&d)).unwrap(), d);
    }
}
