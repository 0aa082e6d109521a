//! `dictadmin index`: builds the search, autocomplete and random indexes from
//! every entry in the table (docs/data-model.md). It reads the `ByWord` index
//! with a parallel Scan (an admin job; no request path scans) and rewrites
//! every partition, so running it again after any import is always correct.

use crate::writer::{progress, write_all};
use aws_sdk_dynamodb::types::AttributeValue;
use futures::future::try_join_all;
use shared::fold::fold;
use shared::items::{self, IndexKind, Item, BY_WORD_INDEX, DICTIONARIES_PK, RANDOM_BLOCK};
use shared::search::keys::{fuzzy_keys, word_grams, word_prefixes};
use shared::search::postings::{encode_chunks, DictionaryRef, OwnedPosting};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// Parallel Scan segments: DynamoDB Local and a small table both like a few.
const SCAN_SEGMENTS: i32 = 4;

pub struct IndexSummary {
    pub entries: usize,
    pub partitions: usize,
    pub items: usize,
    pub bytes: usize,
    pub largest_partition: (String, usize),
    pub seconds: f64,
}

pub async fn build(client: &aws_sdk_dynamodb::Client, table: &str) -> Result<IndexSummary, String> {
    let started = Instant::now();
    let mut postings = read_entries(client, table).await?;
    postings.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
    postings.dedup_by(|a, b| a.dictionary.id == b.dictionary.id && a.id == b.id);

    let partitions = partition(&postings);
    let mut items = Vec::new();
    let mut bytes = 0;
    let mut largest = (String::new(), 0);
    for (pk, members) in &partitions {
        let chunks = encode_chunks(members);
        let size: usize = chunks.iter().map(Vec::len).sum();
        if size > largest.1 {
            largest = (pk.clone(), size);
        }
        bytes += size;
        let count = chunks.len();
        items.extend(
            chunks
                .into_iter()
                .enumerate()
                .map(|(n, chunk)| items::index_chunk_item(pk, n, count, chunk)),
        );
    }
    let (random_items, counts) = random_blocks(&postings);
    items.extend(random_items);

    let item_count = items.len();
    let bar = progress(item_count as u64, "index items");
    write_all(client, table, items, &bar)
        .await
        .map_err(|e| e.to_string())?;
    bar.finish();
    record_counts(client, table, &counts).await?;
    Ok(IndexSummary {
        entries: postings.len(),
        partitions: partitions.len(),
        items: item_count,
        bytes,
        largest_partition: largest,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Every entry, as a posting, from a parallel Scan of the `ByWord` index
/// (which holds entries only).
async fn read_entries(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<OwnedPosting>, String> {
    let segments = (0..SCAN_SEGMENTS).map(|segment| scan_segment(client, table, segment));
    Ok(try_join_all(segments)
        .await?
        .into_iter()
        .flatten()
        .collect())
}

async fn scan_segment(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    segment: i32,
) -> Result<Vec<OwnedPosting>, String> {
    const ATTRIBUTES: [&str; 7] = [
        "id",
        "word",
        "dictionaryId",
        "sourceLang",
        "targetLang",
        "partOfSpeech",
        "hasAudio",
    ];
    let mut found = Vec::new();
    let mut start_key = None;
    loop {
        let mut request = client
            .scan()
            .table_name(table)
            .index_name(BY_WORD_INDEX)
            .segment(segment)
            .total_segments(SCAN_SEGMENTS)
            .set_exclusive_start_key(start_key)
            .projection_expression(
                (0..ATTRIBUTES.len())
                    .map(|i| format!("#a{i}"))
                    .collect::<Vec<_>>()
                    .join(","),
            );
        for (i, name) in ATTRIBUTES.iter().enumerate() {
            request = request.expression_attribute_names(format!("#a{i}"), *name);
        }
        let output = request.send().await.map_err(|e| {
            format!(
                "scanning {table}: {}",
                aws_sdk_dynamodb::error::DisplayErrorContext(e)
            )
        })?;
        for item in output.items.unwrap_or_default() {
            found.push(posting_from_item(&item)?);
        }
        start_key = output.last_evaluated_key;
        if start_key.is_none() {
            return Ok(found);
        }
    }
}

fn posting_from_item(item: &Item) -> Result<OwnedPosting, String> {
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    let need = |name: &str| text(name).ok_or_else(|| format!("an entry lacks {name}"));
    let word = need("word")?;
    Ok(OwnedPosting {
        folded: fold(&word),
        word,
        dictionary: DictionaryRef {
            id: need("dictionaryId")?,
            source_lang: need("sourceLang")?,
            target_lang: text("targetLang"),
        },
        part_of_speech: text("partOfSpeech"),
        has_audio: matches!(item.get("hasAudio"), Some(AttributeValue::Bool(true))),
        id: need("id")?,
    })
}

/// Every partition and its postings, in rank order (the order of `sorted`).
fn partition(sorted: &[OwnedPosting]) -> BTreeMap<String, Vec<&OwnedPosting>> {
    let mut partitions: BTreeMap<String, Vec<&OwnedPosting>> = BTreeMap::new();
    for p in sorted {
        let keys = word_prefixes(&p.folded)
            .into_iter()
            .map(|k| items::index_pk(IndexKind::Prefix, &k))
            .chain(
                fuzzy_keys(&p.folded)
                    .into_iter()
                    .map(|k| items::index_pk(IndexKind::Fuzzy, &k)),
            )
            .chain(
                word_grams(&p.folded)
                    .into_iter()
                    .map(|k| items::index_pk(IndexKind::Contains, &k)),
            );
        for key in keys {
            partitions.entry(key).or_default().push(p);
        }
    }
    partitions
}

/// Random blocks of every dictionary (all entries, and those with audio), and
/// the counts the random endpoint draws from.
fn random_blocks(sorted: &[OwnedPosting]) -> (Vec<Item>, HashMap<String, (u64, u64)>) {
    // Per dictionary: every (id, word), and those with audio.
    type Numbered = Vec<(String, String)>;
    let mut by_dictionary: BTreeMap<&str, (Numbered, Numbered)> = BTreeMap::new();
    for p in sorted {
        let (all, audio) = by_dictionary.entry(&p.dictionary.id).or_default();
        all.push((p.id.clone(), p.word.clone()));
        if p.has_audio {
            audio.push((p.id.clone(), p.word.clone()));
        }
    }
    let mut items = Vec::new();
    let mut counts = HashMap::new();
    for (dictionary, (all, audio)) in &by_dictionary {
        for (entries, audio_only) in [(all, false), (audio, true)] {
            let pk = items::random_block_pk(dictionary, audio_only);
            for (block, members) in entries.chunks(RANDOM_BLOCK as usize).enumerate() {
                items.push(items::random_block_item(&pk, block as u64, members));
            }
        }
        counts.insert(
            dictionary.to_string(),
            (all.len() as u64, audio.len() as u64),
        );
    }
    (items, counts)
}

/// Writes the indexed counts onto each dictionary's listing item.
async fn record_counts(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    counts: &HashMap<String, (u64, u64)>,
) -> Result<(), String> {
    for (dictionary, (entries, with_audio)) in counts {
        client
            .update_item()
            .table_name(table)
            .key("pk", AttributeValue::S(DICTIONARIES_PK.into()))
            .key("sk", AttributeValue::S(dictionary.clone()))
            .condition_expression("attribute_exists(pk)")
            .update_expression("SET indexedEntries = :e, indexedAudioEntries = :a")
            .expression_attribute_values(":e", AttributeValue::N(entries.to_string()))
            .expression_attribute_values(":a", AttributeValue::N(with_audio.to_string()))
            .send()
            .await
            .map_err(|e| {
                format!(
                    "recording index counts of {dictionary}: {}",
                    aws_sdk_dynamodb::error::DisplayErrorContext(e)
                )
            })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(word: &str, dictionary: &str, id: &str, audio: bool) -> OwnedPosting {
        OwnedPosting {
            folded: fold(word),
            word: word.into(),
            dictionary: DictionaryRef {
                id: dictionary.into(),
                source_lang: "fr".into(),
                target_lang: Some("en".into()),
            },
            part_of_speech: None,
            has_audio: audio,
            id: id.into(),
        }
    }

    #[test]
    fn every_entry_lands_in_its_prefix_typo_and_contains_partitions() {
        let all = [posting("École", "d", "1", false)];
        let partitions = partition(&all);
        for pk in [
            "IP#e", "IP#ec", "IP#eco", "IF#eco", "IF#col", "IC#e", "IC#col", "IC#ole",
        ] {
            assert!(partitions.contains_key(pk), "{pk}");
        }
        assert!(!partitions.contains_key("IP#ecol"));
    }

    #[test]
    fn random_blocks_number_every_entry_once() {
        let all: Vec<OwnedPosting> = (0..600)
            .map(|i| posting(&format!("w{i}"), "d", &format!("{i:016x}"), i % 3 == 0))
            .collect();
        let (items, counts) = random_blocks(&all);
        assert_eq!(counts["d"], (600, 200));
        let listed: usize = items
            .iter()
            .map(|item| items::random_block_from_item(item).len())
            .sum();
        assert_eq!(listed, 800, "600 in the full set, 200 in the audio set");
        assert_eq!(items.len(), 3 + 1, "600 = 3 blocks of 256; 200 = 1 block");
    }
}
