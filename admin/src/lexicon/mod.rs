//! `dictadmin lexicon`: the word lists the index snapshot is built with
//! beside the dictionaries (docs/data-model.md, "Lexicon: inflected forms
//! and word frequencies"): per language, the **forms** (an inflected form and
//! its lemma), the word **frequencies** and the **stop words**. Each list is
//! read from a real source (lemma lookup tables or, for Greek, a rule
//! lemmatizer's tables, merged with WordNet's morphology or a Hunspell
//! dictionary where the language has one; a Hunspell dictionary alone, or
//! pairs made by an analyser, where it has no tables; IPADIC for Japanese;
//! wordfreq's lists; Snowball's stop word lists), folded, deduplicated and
//! sorted, then stored in the entries table as compressed chunks under
//! `LX#<kind>#<lang>` and listed last under `LX`.

pub mod command;
pub mod dutch_verbs;
pub mod espeak_pronunciations;
mod hunspell_analysis;
pub mod hunspell_forms;
pub mod ipadic_forms;
pub mod lookup_forms;
pub mod pairs_forms;
#[cfg(test)]
mod real_data;
pub mod rule_forms;
pub mod stop_words;
pub mod wordfreq;
pub mod wordnet_forms;

use crate::formats::source::SourceError;
use crate::storage::batch::{self, WriteError};
use crate::storage::limits::{self, ItemProblem};
use crate::storage::partition::{self, key_item, key_of, QueryError};
use shared::fold::fold;
use shared::search::lexicon::{encode_chunks, LexiconKind, LexiconList, Pair};
use shared::storage::items::{self, Item};
use std::collections::HashSet;
use std::path::PathBuf;

/// Everything that can go wrong reading, generating or storing a list.
#[derive(Debug, thiserror::Error)]
pub enum LexiconError {
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error("{path} line {line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Input { path: PathBuf, message: String },
    #[error("{tool}: {message}")]
    Tool { tool: String, message: String },
    #[error("{kind} list of {lang}: chunk {chunk} {problem}")]
    Unstorable {
        kind: &'static str,
        lang: String,
        chunk: usize,
        problem: ItemProblem,
    },
    #[error(transparent)]
    Query(#[from] QueryError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A source list's whole text, within the size every source is read to;
/// one that is not UTF-8 is refused, naming the file.
fn read_text(path: &std::path::Path) -> Result<String, LexiconError> {
    let bytes =
        crate::formats::source::read(path, crate::formats::source::DEFAULT_MAX_SOURCE_BYTES)?;
    String::from_utf8(bytes).map_err(|_| LexiconError::Input {
        path: path.to_path_buf(),
        message: "not UTF-8".into(),
    })
}

/// Pairs encoded at a time. `encode_chunks` compresses what it is given,
/// and halves it and starts again while the result is over a chunk's
/// 350 KB: given a whole list of half a million pairs, it would compress
/// it four times over. A pair compresses to 3 to 6 bytes, so a slice this
/// size makes one chunk of 120 to 240 KB in one pass (and is halved if not).
const PAIRS_PER_SLICE: usize = 40_000;

/// One list, ready to store: its listing record and its pairs (sorted,
/// distinct, folded).
#[derive(Debug)]
pub struct WordList {
    pub list: LexiconList,
    pub pairs: Vec<Pair>,
}

impl WordList {
    /// A list of `kind` for `lang` from raw pairs: both sides folded with
    /// `shared::fold::fold`, pairs with an empty side or (for forms) whose
    /// form folds to its lemma dropped, then sorted and deduplicated.
    pub fn new(
        kind: LexiconKind,
        lang: &str,
        origin: String,
        licence: String,
        raw: impl IntoIterator<Item = Pair>,
    ) -> Self {
        let folded = raw.into_iter().map(|(a, b)| match kind {
            LexiconKind::Forms => (fold(&a), fold(&b)),
            LexiconKind::Frequencies | LexiconKind::StopWords | LexiconKind::Pronunciations => {
                (fold(&a), b)
            }
        });
        Self::from_folded(kind, lang, origin, licence, folded)
    }

    /// As [`WordList::new`], from pairs folded already.
    pub fn from_folded(
        kind: LexiconKind,
        lang: &str,
        origin: String,
        licence: String,
        folded: impl IntoIterator<Item = Pair>,
    ) -> Self {
        let mut pairs: Vec<Pair> = folded
            .into_iter()
            .filter(|(a, b)| !a.is_empty() && (kind == LexiconKind::StopWords || !b.is_empty()))
            .filter(|(a, b)| kind != LexiconKind::Forms || a != b)
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        Self {
            list: LexiconList {
                kind,
                lang: lang.to_string(),
                origin,
                licence,
                count: pairs.len(),
            },
            pairs,
        }
    }

    /// The items of the list: its chunks (each recording how many there
    /// are), each checked against DynamoDB's limits.
    pub fn chunk_items(&self) -> Result<Vec<Item>, LexiconError> {
        let pk = items::lexicon_pk(self.list.kind, &self.list.lang);
        let encoded: Vec<Vec<u8>> = if self.pairs.is_empty() {
            encode_chunks(&[])
        } else {
            self.pairs
                .chunks(PAIRS_PER_SLICE)
                .flat_map(encode_chunks)
                .collect()
        };
        let chunks = items::manifest_items(&pk, encoded);
        for (chunk, item) in chunks.iter().enumerate() {
            limits::check_item(item).map_err(|problem| LexiconError::Unstorable {
                kind: self.list.kind.name(),
                lang: self.list.lang.clone(),
                chunk,
                problem,
            })?;
        }
        Ok(chunks)
    }

    /// Up to `n` pairs spread evenly over the list, for a dry run.
    pub fn sample(&self, n: usize) -> Vec<&Pair> {
        let step = (self.pairs.len() / n.max(1)).max(1);
        self.pairs.iter().step_by(step).take(n).collect()
    }
}

/// What storing a list did.
#[derive(Debug)]
pub struct Stored {
    pub chunks: usize,
    pub bytes: usize,
    pub leftovers_deleted: usize,
}

/// Stores a list: its chunks first, then the deletion of the chunks a
/// previous, larger list of the same kind and language left past the new
/// count (found with one Query of its partition, never a Scan), and the
/// listing record last, so that the list is listed only once all of it is
/// in. A reader ignores chunks whose count is not chunk 0's, so a run
/// interrupted before the deletes leaves a readable list either way.
pub async fn store(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    lexicon: &WordList,
) -> Result<Stored, LexiconError> {
    let chunks = lexicon.chunk_items()?;
    let bytes = chunks.iter().map(limits::item_size).sum();
    let pk = items::lexicon_pk(lexicon.list.kind, &lexicon.list.lang);
    let previous = partition::read(client, table, &pk, None, true).await?;
    let new_keys: HashSet<(String, String)> = chunks.iter().filter_map(key_of).collect();
    let leftovers = leftover_keys(&previous, &new_keys);
    let what = format!("{} {}", lexicon.list.kind.name(), lexicon.list.lang);
    let bar = batch::progress((chunks.len() + leftovers.len() + 1) as u64, &what);
    let count = chunks.len();
    batch::write_all(client, table, chunks, &bar).await?;
    let leftovers_deleted = leftovers.len();
    if !leftovers.is_empty() {
        batch::delete_all(client, table, leftovers, &bar).await?;
    }
    batch::write_all(
        client,
        table,
        vec![items::lexicon_list_to_item(&lexicon.list)],
        &bar,
    )
    .await?;
    bar.finish_and_clear();
    Ok(Stored {
        chunks: count,
        bytes,
        leftovers_deleted,
    })
}

/// The keys of the previous items of a list's partition that the new list
/// does not overwrite.
fn leftover_keys(previous: &[Item], new_keys: &HashSet<(String, String)>) -> Vec<Item> {
    previous
        .iter()
        .filter_map(key_of)
        .filter(|key| !new_keys.contains(key))
        .map(|(pk, sk)| key_item(&pk, &sk))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::search::lexicon::decode_chunk;

    fn pair(a: &str, b: &str) -> Pair {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn forms_are_folded_deduplicated_sorted_and_never_their_own_lemma() {
        let lexicon = WordList::new(
            LexiconKind::Forms,
            "de",
            "test".into(),
            "MIT".into(),
            [
                pair("Häuser", "Haus"),
                pair("häuser", "haus"),
                pair("Hunde", "Hund"),
                pair("Haus", "haus"),
                pair("", "x"),
                pair("Straßen", "Straße"),
            ],
        );
        assert_eq!(
            lexicon.pairs,
            [
                pair("hauser", "haus"),
                pair("hunde", "hund"),
                pair("strassen", "strasse")
            ]
        );
        assert_eq!(lexicon.list.count, 3);
        assert_eq!(lexicon.list.lang, "de");
    }

    #[test]
    fn frequencies_keep_their_value_as_given() {
        let lexicon = WordList::new(
            LexiconKind::Frequencies,
            "en",
            "test".into(),
            "MIT".into(),
            [pair("The", "773"), pair("the", "773"), pair("a", "736")],
        );
        assert_eq!(lexicon.pairs, [pair("a", "736"), pair("the", "773")]);
    }

    #[test]
    fn chunks_are_a_manifest_of_the_pairs_under_the_list_partition() {
        let lexicon = WordList::new(
            LexiconKind::Forms,
            "fr",
            "test".into(),
            "MIT".into(),
            (0..1000).map(|i| pair(&format!("chevaux{i}"), &format!("cheval{i}"))),
        );
        let items = lexicon.chunk_items().unwrap();
        let mut back = Vec::new();
        for item in &items {
            let (pk, _) = key_of(item).unwrap();
            assert_eq!(pk, "LX#forms#fr");
            let (_, count, bytes) = items::manifest_chunk_from_item(item).unwrap();
            assert_eq!(count, items.len());
            back.extend(decode_chunk(&bytes).unwrap());
        }
        assert_eq!(back, lexicon.pairs);
    }

    #[test]
    fn a_long_list_is_encoded_in_slices_and_an_empty_one_in_one_chunk() {
        let lexicon = WordList::new(
            LexiconKind::Forms,
            "es",
            "test".into(),
            "MIT".into(),
            (0..PAIRS_PER_SLICE * 2 + 5).map(|i| pair(&format!("casas{i}"), &format!("casa{i}"))),
        );
        let items = lexicon.chunk_items().unwrap();
        assert_eq!(items.len(), 3);
        let back: Vec<Pair> = items
            .iter()
            .flat_map(|item| {
                decode_chunk(&items::manifest_chunk_from_item(item).unwrap().2).unwrap()
            })
            .collect();
        assert_eq!(back, lexicon.pairs);
        let empty = WordList::new(LexiconKind::Forms, "es", String::new(), String::new(), []);
        let items = empty.chunk_items().unwrap();
        assert_eq!(items.len(), 1);
        let (_, count, bytes) = items::manifest_chunk_from_item(&items[0]).unwrap();
        assert_eq!((count, decode_chunk(&bytes).unwrap().len()), (1, 0));
    }

    #[test]
    fn only_chunks_past_the_new_list_are_leftovers() {
        let previous: Vec<Item> = (0..4)
            .map(|n| key_item("LX#forms#en", &n.to_string()))
            .collect();
        let new_keys: HashSet<(String, String)> = (0..2)
            .map(|n| ("LX#forms#en".to_string(), n.to_string()))
            .collect();
        let leftovers: Vec<(String, String)> = leftover_keys(&previous, &new_keys)
            .iter()
            .filter_map(key_of)
            .collect();
        assert_eq!(
            leftovers,
            [
                ("LX#forms#en".to_string(), "2".to_string()),
                ("LX#forms#en".to_string(), "3".to_string())
            ]
        );
    }

    #[test]
    fn a_sample_spreads_over_the_list() {
        let lexicon = WordList::new(
            LexiconKind::Forms,
            "en",
            "test".into(),
            "MIT".into(),
            (0..100).map(|i| pair(&format!("w{i:03}s"), &format!("w{i:03}"))),
        );
        let sample = lexicon.sample(5);
        assert_eq!(sample.len(), 5);
        assert_eq!(sample[0].0, "w000s");
        assert_eq!(sample[4].0, "w080s");
    }
}
