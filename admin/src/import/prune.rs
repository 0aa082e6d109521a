//! Removing what left a source. When a dictionary is imported again, the
//! entries, thesaurus links and audio of the previous import that the new
//! one no longer produces are deleted, found without a Scan:
//!
//! - the previous import's postings manifest (`IX#<dictionary>`, one Query)
//!   lists every entry it wrote, with its headword and audio flag;
//! - every link is stored from the headword of an entry of its dictionary
//!   (the screening in screen.rs keeps it so), in partition
//!   `T#<folded headword>` under a sort key that starts with the
//!   dictionary's languages and id: one Query per previous headword, on that
//!   prefix, lists the previous links of the dictionary;
//! - an entry's own audio lives at keys derived from the entry id, one per
//!   format (Speex and its MP3 rendition, or MP3 alone): every key of a
//!   previous entry with audio that no entry names after the import is
//!   deleted, so the audio of an entry that left, that lost its audio or
//!   that changed format goes with it. That of an entry that stays goes
//!   whatever the flags (`--no-prune` keeps entries, not audio nothing
//!   names). The keys come from the table's own manifest, not from a
//!   listing of the bucket, which other tables (a test's, another stage's)
//!   may share. Synthesized audio is a word's, shared by every dictionary
//!   that has the word (audio.rs), and is never deleted here.
//!
//! Entries and links are deleted before the new items are written: an
//! interrupted run leaves the previous manifest in place, so the next run
//! finds them again. Manifest chunks that the new manifest does not
//! overwrite are deleted after it is written.
//!
//! With `--no-prune` nothing is deleted, and the stale entries' postings are
//! carried into the new manifest: the dictionary is then the union of both
//! imports, searchable as such, and a later pruning import still finds them.

use super::audio::{audio_key, AudioFormat};
use super::error::ImportError;
use crate::storage::batch::{delete_all, progress};
use crate::storage::partition::{self, key_item, key_of};
use futures::stream::{self, StreamExt, TryStreamExt};
use shared::model::ThesaurusItem;
use shared::search::postings::{decode_chunk, DictionaryRef, Posting};
use shared::storage::items::{self, Item};
use std::collections::{BTreeSet, HashSet};

/// Thesaurus partitions read at once.
const QUERIES_IN_FLIGHT: usize = 16;

/// The items of the previous import that the new one does not write.
#[derive(Debug, Default)]
pub struct Stale {
    /// Keys of entry items.
    pub entries: Vec<Item>,
    /// The postings of those entries, from the previous manifest.
    pub postings: Vec<Posting>,
    /// Keys of thesaurus link items.
    pub links: Vec<Item>,
    /// Keys of every chunk of the previous manifest.
    pub manifest_chunks: Vec<(String, String)>,
    /// S3 keys of the audio of previous entries that left the source:
    /// every format's key of each (the manifest says whether an entry had
    /// audio, not in which formats; deleting a key that does not exist
    /// succeeds, and costs nothing on S3). Deleted when pruning.
    pub audio: Vec<String>,
    /// S3 keys of the audio of previous entries that stay, that the new
    /// import does not name: deleted whatever the flags.
    pub audio_unnamed: Vec<String>,
    /// How many stale entries had audio.
    pub audio_entries: usize,
    /// How many entries that stay had audio and have none now.
    pub audio_dropped: usize,
    /// Parts of the previous manifest that could not be read: what only they
    /// list cannot be found, and stays.
    pub warnings: Vec<String>,
    /// How many thesaurus partitions were read.
    pub partitions_read: usize,
}

/// The sort key prefix of one dictionary's links in a thesaurus partition,
/// taken from the item shape itself so that the two cannot disagree:
/// `<sourceLang>#<targetLang or ->#<dictionaryId>#`.
fn link_sk_prefix(dictionary: &DictionaryRef) -> String {
    let probe = ThesaurusItem {
        word: String::new(),
        relationship_type: String::new(),
        dictionary_id: dictionary.id.clone(),
        dictionary_name: String::new(),
        source_lang: dictionary.source_lang.clone(),
        target_lang: dictionary.target_lang.clone(),
    };
    let item = items::thesaurus_to_item("", &probe);
    let sk = item["sk"].as_s().expect("a link's sort key is a string");
    // The probe's sort key ends in `#<relationshipType>#<word>`, both empty.
    sk.strip_suffix('#')
        .expect("the sort key ends with the word's separator")
        .to_string()
}

/// What the previous import of `dictionary_id` wrote that `new_keys` (the
/// keys of every entry and link the new import writes) and `new_audio` (the
/// S3 keys of its entries' audio) do not have; `with_audio` are the ids of
/// the new import's entries that have audio. The thesaurus partitions are
/// read only `with_links`.
pub async fn find_stale(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary_id: &str,
    new_keys: &HashSet<(String, String)>,
    new_audio: &HashSet<String>,
    with_audio: &HashSet<String>,
    with_links: bool,
) -> Result<Stale, ImportError> {
    let mut stale = Stale::default();
    let manifest_pk = items::manifest_pk(dictionary_id);
    let chunk_items = partition::read(client, table, &manifest_pk, None, false).await?;
    if chunk_items.is_empty() {
        // A first import (or one from before manifests): nothing to prune.
        return Ok(stale);
    }
    stale.manifest_chunks = chunk_items.iter().filter_map(key_of).collect();
    let postings = previous_postings(&manifest_pk, &chunk_items, &mut stale.warnings);

    for posting in &postings {
        let key = (
            items::entry_pk(&posting.dictionary.id, posting.id()),
            items::ENTRY_SK.to_string(),
        );
        let left = !new_keys.contains(&key);
        if left {
            stale.entries.push(key_item(&key.0, &key.1));
            stale.postings.push(posting.clone());
        }
        if posting.has_audio {
            let gone = audio_not_named(posting, new_audio);
            if left {
                stale.audio_entries += 1;
                stale.audio.extend(gone);
            } else {
                stale.audio_dropped += usize::from(!with_audio.contains(posting.id()));
                stale.audio_unnamed.extend(gone);
            }
        }
    }
    if !with_links {
        return Ok(stale);
    }

    // Every previous headword's partition, once, on the dictionary's prefix.
    let partitions: BTreeSet<(String, String)> = postings
        .iter()
        .filter(|p| p.dictionary.id == dictionary_id)
        .map(|p| (items::thesaurus_pk(p.word()), link_sk_prefix(&p.dictionary)))
        .collect();
    stale.partitions_read = partitions.len();
    let bar = progress(partitions.len() as u64, "previous links read");
    let found: Vec<Vec<Item>> = stream::iter(partitions.iter())
        .map(|(pk, prefix)| {
            let bar = &bar;
            async move {
                let items = partition::read(client, table, pk, Some(prefix), true).await;
                bar.inc(1);
                items
            }
        })
        .buffer_unordered(QUERIES_IN_FLIGHT)
        .try_collect()
        .await?;
    bar.finish_and_clear();
    stale.links = found
        .iter()
        .flatten()
        .filter_map(key_of)
        .filter(|key| !new_keys.contains(key))
        .map(|(pk, sk)| key_item(&pk, &sk))
        .collect();
    Ok(stale)
}

/// Every format's key of a previous entry's own audio that the new import
/// does not name.
fn audio_not_named(posting: &Posting, new_audio: &HashSet<String>) -> Vec<String> {
    AudioFormat::ALL
        .map(|format| audio_key(&posting.dictionary.id, posting.id(), format))
        .into_iter()
        .filter(|key| !new_audio.contains(key))
        .collect()
}

/// Deletes these audio objects.
pub async fn delete_audio(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    keys: &[String],
) -> Result<(), ImportError> {
    stream::iter(keys)
        .map(|key| async move {
            s3.delete_object()
                .bucket(bucket)
                .key(key)
                .send()
                .await
                .map(|_| ())
                .map_err(|e| ImportError::DeleteAudio {
                    bucket: bucket.to_string(),
                    key: key.clone(),
                    message: aws_sdk_s3::error::DisplayErrorContext(e).to_string(),
                })
        })
        .buffer_unordered(QUERIES_IN_FLIGHT)
        .try_collect::<Vec<()>>()
        .await?;
    Ok(())
}

/// The postings of the previous manifest's current chunks; a chunk that
/// cannot be read is a warning, not a failure of the import.
fn previous_postings(pk: &str, chunk_items: &[Item], warnings: &mut Vec<String>) -> Vec<Posting> {
    let manifest = match items::current_chunks(chunk_items) {
        Ok(manifest) => manifest,
        Err(e) => {
            warnings.push(format!(
                "{pk}: {e}: the previous import's entries cannot be listed"
            ));
            return Vec::new();
        }
    };
    if manifest.chunks.len() != manifest.expected {
        warnings.push(format!(
            "{pk}: the previous manifest has {} of its {} chunks (an interrupted import): entries listed only in the missing ones cannot be found",
            manifest.chunks.len(),
            manifest.expected
        ));
    }
    let mut postings = Vec::new();
    for (n, bytes) in &manifest.chunks {
        match decode_chunk(bytes) {
            Ok(chunk) => postings.extend(chunk),
            Err(e) => warnings.push(format!(
                "{pk} chunk {n}: {e}: the entries it lists cannot be found"
            )),
        }
    }
    postings
}

/// Deletes the stale entries and links (before the new items are written).
pub async fn delete_entries_and_links(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    stale: &Stale,
) -> Result<(), ImportError> {
    let keys: Vec<Item> = stale.entries.iter().chain(&stale.links).cloned().collect();
    if !keys.is_empty() {
        let bar = progress(keys.len() as u64, "stale items deleted");
        delete_all(client, table, keys, &bar).await?;
        bar.finish_and_clear();
    }
    Ok(())
}

/// Deletes the previous manifest's chunks that the new one did not
/// overwrite (after it is written): `new_keys` are the new manifest's.
pub async fn delete_manifest_leftovers(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    stale: &Stale,
    new_keys: &HashSet<(String, String)>,
) -> Result<usize, ImportError> {
    let leftovers: Vec<Item> = stale
        .manifest_chunks
        .iter()
        .filter(|key| !new_keys.contains(*key))
        .map(|(pk, sk)| key_item(pk, sk))
        .collect();
    let count = leftovers.len();
    if count > 0 {
        let bar = progress(count as u64, "old manifest chunks");
        delete_all(client, table, leftovers, &bar).await?;
        bar.finish_and_clear();
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_audio_key_the_new_import_does_not_name_goes() {
        let mut posting = Posting::headword(
            "maison",
            DictionaryRef::new("freedict-fra-eng", "fr", Some("en")),
            "00ff",
        );
        posting.has_audio = true;
        let key = |format| audio_key("freedict-fra-eng", "00ff", format);
        let (mp3, spx) = (key(AudioFormat::Mp3), key(AudioFormat::Spx));
        // The entry left, or lost its audio: both formats go.
        assert_eq!(
            audio_not_named(&posting, &HashSet::new()),
            [mp3.clone(), spx.clone()]
        );
        // Speex with its MP3 rendition: nothing goes.
        let both = HashSet::from([mp3.clone(), spx.clone()]);
        assert!(audio_not_named(&posting, &both).is_empty());
        // Now MP3 only: the Speex file goes.
        let only_mp3 = HashSet::from([mp3.clone()]);
        assert_eq!(audio_not_named(&posting, &only_mp3), [spx]);
    }

    #[test]
    fn the_link_prefix_selects_exactly_one_dictionarys_links() {
        let link = |dictionary: &str, target: Option<&str>| ThesaurusItem {
            word: "bad".into(),
            relationship_type: "antonym".into(),
            dictionary_id: dictionary.into(),
            dictionary_name: "x".into(),
            source_lang: "en".into(),
            target_lang: target.map(Into::into),
        };
        let sk = |l: &ThesaurusItem| {
            items::thesaurus_to_item("good", l)["sk"]
                .as_s()
                .unwrap()
                .clone()
        };
        let reference = |id: &str, target: Option<&str>| DictionaryRef {
            id: id.into(),
            source_lang: "en".into(),
            target_lang: target.map(Into::into),
        };
        let prefix = link_sk_prefix(&reference("mythes-en", None));
        assert_eq!(prefix, "en#-#mythes-en#");
        assert!(sk(&link("mythes-en", None)).starts_with(&prefix));
        assert!(!sk(&link("mythes-en-gb", None)).starts_with(&prefix));
        assert!(!sk(&link("wordnet-en", None)).starts_with(&prefix));
        let bilingual = link_sk_prefix(&reference("freedict-eng-fra", Some("fr")));
        assert!(sk(&link("freedict-eng-fra", Some("fr"))).starts_with(&bilingual));
    }
}
