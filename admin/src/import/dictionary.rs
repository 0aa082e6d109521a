//! A converted dictionary, which every source format's import produces and
//! the screening and the writing take, and what the formats share to build
//! one: stable entry ids and thesaurus links.

use super::thesaurus::clean;
use sha2::{Digest, Sha256};
use shared::fold::fold;
use shared::model::{Dictionary, StoredEntry, ThesaurusItem};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A dictionary ready to be written: its record, every entry and every
/// thesaurus link (headword, related word).
pub struct ImportedDictionary {
    pub dictionary: Dictionary,
    pub entries: Vec<StoredEntry>,
    pub links: Vec<(String, ThesaurusItem)>,
    /// Where each entry (by id) comes from in the source, for reports.
    pub origins: HashMap<String, Origin>,
}

/// A place in a source: a file and a 1-based line. For a dictd article the
/// line of its `.index` (which points at the article's bytes in the
/// `.dict.dz`), for a WordNet lemma its `index.<pos>` line, for a MyThes
/// headword its `word|count` line. An entry merged from several articles
/// names the first. The file is shared by every entry of a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: Arc<Path>,
    pub line: usize,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}", self.file.display(), self.line)
    }
}

/// One link per (headword, kind, word) of a dictionary, without repeats:
/// each word cleaned of its source's markup (thesaurus.rs) first, so that
/// `abode.` and `abode` are one link, and words compared folded.
pub fn links_of<'a>(
    dictionary: &Dictionary,
    relations: impl IntoIterator<Item = (&'a str, &'static str, &'a str)>,
) -> Vec<(String, ThesaurusItem)> {
    let mut seen = std::collections::HashSet::new();
    relations
        .into_iter()
        .flat_map(|(headword, kind, raw)| {
            clean(kind, raw)
                .into_iter()
                .map(move |(kind, word)| (headword, kind, word))
        })
        .filter(|(headword, kind, word)| {
            let (headword, word) = (fold(headword), fold(word));
            word != headword && seen.insert((headword, *kind, word))
        })
        .map(|(headword, kind, word)| {
            (
                headword.to_string(),
                ThesaurusItem {
                    word,
                    relationship_type: kind.to_string(),
                    dictionary_id: dictionary.dictionary_id.clone(),
                    dictionary_name: dictionary.dictionary_name.clone(),
                    source_lang: dictionary.source_lang.clone(),
                    target_lang: dictionary.target_lang.clone(),
                },
            )
        })
        .collect()
}

/// Links from each entry to its listed synonyms (FreeDict's `Synonym: {…}`,
/// GCIDE's `Syn:`).
pub fn synonym_links(
    dictionary: &Dictionary,
    entries: &[StoredEntry],
) -> Vec<(String, ThesaurusItem)> {
    links_of(
        dictionary,
        entries.iter().flat_map(|e| {
            e.entry
                .synonyms
                .iter()
                .map(|s| (e.entry.word.as_str(), "synonym", s.as_str()))
        }),
    )
}

/// A stable, opaque, URL-safe entry id: 16 hex digits of a hash of the
/// dictionary, the headword, its part of speech and its rank among entries with
/// the same headword and part of speech. Importing the same source again gives
/// the same ids.
pub fn entry_id(
    dictionary_id: &str,
    headword: &str,
    part_of_speech: Option<&str>,
    ordinal: usize,
) -> String {
    let mut hasher = Sha256::new();
    for part in [
        dictionary_id,
        headword,
        part_of_speech.unwrap_or(""),
        &ordinal.to_string(),
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    short_hex(&hasher.finalize())
}

/// The first 64 bits of a digest as 16 hex digits: the ids and keys the
/// importer derives from a hash (entry ids, synthesized audio keys).
pub fn short_hex(digest: &[u8]) -> String {
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_opaque_and_distinct() {
        let a = entry_id("freedict-eng-fra", "bank", None, 0);
        assert_eq!(a, entry_id("freedict-eng-fra", "bank", None, 0));
        assert_eq!(a.len(), 16);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, entry_id("freedict-eng-fra", "bank", None, 1));
        assert_ne!(a, entry_id("freedict-eng-fra", "bank", Some("noun"), 0));
        assert_ne!(a, entry_id("freedict-fra-eng", "bank", None, 0));
    }
}
