//! `dictadmin index`: builds the search, autocomplete and random indexes from
//! the postings manifests that every import writes (docs/data-model.md): one
//! Query per dictionary, no Scan (DynamoDB Local needs minutes for each page
//! of a Scan over a million entries, and on AWS a Scan would read every
//! entry whole). It rewrites every partition, so running it again after any
//! import is always correct.

use crate::writer::{progress, write_all};
use aws_sdk_dynamodb::types::AttributeValue;
use futures::stream::{self, StreamExt, TryStreamExt};
use shared::items::{self, IndexKind, Item, DICTIONARIES_PK, RANDOM_BLOCK};
use shared::model::StoredEntry;
use shared::search::keys::{fuzzy_keys, word_grams, word_prefixes};
use shared::search::postings::{encode_chunks, inflate, Chunk, OwnedPosting};
use shared::store::Store;
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// Dictionaries whose manifests are read at once.
const MANIFESTS_IN_FLIGHT: usize = 4;

pub struct IndexSummary {
    pub entries: usize,
    pub partitions: usize,
    /// Partitions of more than one chunk, listed in the chunk directory.
    pub multi_chunk_partitions: usize,
    pub items: usize,
    pub bytes: usize,
    pub largest_partition: (String, usize),
    pub seconds: f64,
}

pub async fn build(client: &aws_sdk_dynamodb::Client, table: &str) -> Result<IndexSummary, String> {
    let started = Instant::now();
    let mut postings = read_manifests(client, table).await?;
    postings.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
    postings.dedup_by(|a, b| a.dictionary.id == b.dictionary.id && a.id == b.id);

    let partitions = partition(&postings);
    let mut items = Vec::new();
    let mut bytes = 0;
    let mut largest = (String::new(), 0);
    let mut directory = BTreeMap::new();
    for (pk, members) in &partitions {
        let chunks = encode_chunks(members);
        let size: usize = chunks.iter().map(Vec::len).sum();
        if size > largest.1 {
            largest = (pk.clone(), size);
        }
        bytes += size;
        if chunks.len() > 1 {
            directory.insert(pk.clone(), chunks.len());
        }
        items.extend(items::partition_items(pk, chunks));
    }
    let (random_items, counts) = random_blocks(&postings);
    items.extend(random_items);

    let item_count = items.len();
    // The partitions and random blocks, then the chunk directory.
    let bar = progress(item_count as u64 + 1, "index items");
    write_all(client, table, items, &bar)
        .await
        .map_err(|e| e.to_string())?;
    bar.finish();
    // After the partitions, so that the directory never promises chunks that
    // are not written yet (readers also trust each chunk's own count).
    write_all(
        client,
        table,
        vec![items::chunk_directory_item(&directory)],
        &bar,
    )
    .await
    .map_err(|e| e.to_string())?;
    record_counts(client, table, &counts).await?;
    Ok(IndexSummary {
        entries: postings.len(),
        partitions: partitions.len(),
        multi_chunk_partitions: directory.len(),
        items: item_count,
        bytes,
        largest_partition: largest,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The manifest items of a dictionary's entries: every entry as a posting, in
/// rank order (so that the same source always gives the same items).
pub fn manifest_items(dictionary_id: &str, entries: &[StoredEntry]) -> Vec<Item> {
    let mut postings: Vec<OwnedPosting> = entries
        .iter()
        .map(|e| OwnedPosting::of_entry(&e.entry))
        .collect();
    postings.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
    let refs: Vec<&OwnedPosting> = postings.iter().collect();
    items::partition_items(&items::manifest_pk(dictionary_id), encode_chunks(&refs))
}

/// The postings of every listed dictionary, from their manifests.
async fn read_manifests(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<OwnedPosting>, String> {
    let dictionaries = Store::new(client.clone(), table.to_string())
        .dictionaries()
        .await
        .map_err(|e| format!("listing the dictionaries of {table}: {e:?}"))?;
    let per_dictionary: Vec<Vec<OwnedPosting>> = stream::iter(dictionaries.iter())
        .map(|d| async move { read_manifest(client, table, &d.dictionary_id).await })
        .buffer_unordered(MANIFESTS_IN_FLIGHT)
        .try_collect()
        .await?;
    Ok(per_dictionary.into_iter().flatten().collect())
}

/// One dictionary's postings. A dictionary is listed only after its manifest
/// is written, so a missing or short manifest means an import from before
/// manifests existed: importing it again writes one.
async fn read_manifest(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
) -> Result<Vec<OwnedPosting>, String> {
    let pk = items::manifest_pk(dictionary);
    let mut chunks = Vec::new();
    for item in query_all(client, table, &pk).await? {
        let (n, count, bytes) =
            items::index_chunk_from_item(&item).map_err(|e| format!("{pk}: {e}"))?;
        // Leftovers of an earlier, larger manifest are not part of this one.
        if n < count {
            chunks.push((n, count, bytes));
        }
    }
    let expected = chunks.first().map_or(0, |(_, count, _)| *count);
    if chunks.is_empty() || chunks.len() != expected {
        return Err(format!(
            "{dictionary} has no complete postings manifest ({} of {expected} chunks); import it again",
            chunks.len()
        ));
    }
    let mut postings = Vec::new();
    for (n, _, bytes) in chunks {
        let chunk = inflate(&bytes)
            .and_then(Chunk::decode)
            .map_err(|e| format!("{pk} chunk {n}: {e}"))?;
        postings.extend(chunk.postings().map(|p| OwnedPosting::of_posting(&p)));
    }
    Ok(postings)
}

/// Every item of partition `pk`, through all Query pages.
async fn query_all(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    pk: &str,
) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut start_key = None;
    loop {
        let output = client
            .query()
            .table_name(table)
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(pk.to_string()))
            .set_exclusive_start_key(start_key)
            .send()
            .await
            .map_err(|e| crate::sdk_error(format!("reading {pk} from {table}"), e))?;
        items.extend(output.items.unwrap_or_default());
        start_key = output.last_evaluated_key;
        if start_key.is_none() {
            return Ok(items);
        }
    }
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
            .map_err(|e| crate::sdk_error(format!("recording index counts of {dictionary}"), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::fold::fold;
    use shared::search::postings::DictionaryRef;

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
    fn a_manifest_holds_every_entry_of_its_dictionary_and_nothing_else() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/fixture/freedict/freedict-deu-eng");
        let imported = crate::import::import_freedict(&path).unwrap();
        let items = manifest_items("freedict-deu-eng", &imported.entries);
        assert_eq!(
            items,
            manifest_items("freedict-deu-eng", &imported.entries),
            "stable"
        );
        let mut decoded = Vec::new();
        for item in &items {
            assert_eq!(item["pk"].as_s().unwrap(), "IX#freedict-deu-eng");
            let (_, count, bytes) = items::index_chunk_from_item(item).unwrap();
            assert_eq!(count, items.len());
            let chunk = Chunk::decode(inflate(&bytes).unwrap()).unwrap();
            decoded.extend(chunk.postings().map(|p| OwnedPosting::of_posting(&p)));
        }
        let mut expected: Vec<OwnedPosting> = imported
            .entries
            .iter()
            .map(|e| OwnedPosting::of_entry(&e.entry))
            .collect();
        expected.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
        assert_eq!(decoded, expected);
        assert!(decoded.len() > 100, "the fixture has entries");
        assert!(decoded.iter().any(|p| p.part_of_speech.is_some()));
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
