//! Screening an import before anything is sent: every entry and link is
//! converted to its item and checked against DynamoDB's limits
//! (storage/limits.rs).
//! An article that cannot be stored is skipped and reported by headword and
//! position in the source, and the rest of the dictionary is imported
//! (docs/data-model.md, "Importing").

use super::dictionary::{ImportedDictionary, Origin};
use super::error::ImportError;
use crate::output::say_err;
use crate::storage::limits::{check_item, ItemProblem};
use shared::storage::items::{self, Item};
use std::collections::{HashMap, HashSet};

/// What was left out of an import, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub headword: String,
    pub what: SkippedItem,
    pub origin: Option<Origin>,
    pub problem: ItemProblem,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SkippedItem {
    /// The entry, and with it the links from its headword that no other
    /// entry of the dictionary has (so that every stored link belongs to an
    /// entry of the manifest, where a later import finds it to prune it).
    Entry { links: usize },
    /// One thesaurus link from the headword.
    Link {
        word: String,
        relationship_type: String,
    },
}

/// At most this many characters of a word in a report line.
const SHOWN_CHARS: usize = 60;

fn shown(text: &str) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(SHOWN_CHARS).collect();
        format!("{head:?}… ({} bytes)", text.len())
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.what {
            SkippedItem::Entry { .. } => write!(f, "entry {}", shown(&self.headword))?,
            SkippedItem::Link {
                word,
                relationship_type,
            } => write!(
                f,
                "{relationship_type} link {} → {}",
                shown(&self.headword),
                shown(word)
            )?,
        }
        match &self.origin {
            Some(origin) => write!(f, " ({origin})")?,
            None => write!(f, " (no position known)")?,
        }
        write!(f, ": {}", self.problem)?;
        match self.what {
            SkippedItem::Entry { links: 0 } | SkippedItem::Link { .. } => Ok(()),
            SkippedItem::Entry { links } => write!(f, "; its {links} links are skipped with it"),
        }
    }
}

/// The items of an import that DynamoDB takes, and what was skipped.
pub struct Screened {
    /// Items of the entries that are kept, in the order of the entries.
    pub entry_items: Vec<Item>,
    /// Items of the links that are kept, in the order of the links.
    pub link_items: Vec<Item>,
    pub skipped: Vec<Skipped>,
}

impl Screened {
    pub fn skipped_entries(&self) -> usize {
        self.skipped
            .iter()
            .filter(|s| matches!(s.what, SkippedItem::Entry { .. }))
            .count()
    }

    pub fn skipped_links(&self) -> usize {
        self.skipped
            .iter()
            .map(|s| match s.what {
                SkippedItem::Entry { links } => links,
                SkippedItem::Link { .. } => 1,
            })
            .sum()
    }
}

/// At most this many skipped articles are listed one per line; the count
/// says how many more there are.
const SKIPPED_LISTED: usize = 100;

impl Screened {
    /// Warns, on standard error, of every article or link that cannot be stored.
    pub fn report(&self, dictionary_id: &str) {
        for skipped in self.skipped.iter().take(SKIPPED_LISTED) {
            say_err!("warning: {dictionary_id}: skipped {skipped}");
        }
        if self.skipped.len() > SKIPPED_LISTED {
            say_err!(
                "warning: {dictionary_id}: and {} more skipped",
                self.skipped.len() - SKIPPED_LISTED
            );
        }
    }

    /// `; skipped 2 entries and 3 links that DynamoDB cannot store`, or nothing.
    pub fn summary(&self) -> String {
        if self.skipped.is_empty() {
            return String::new();
        }
        format!(
            "; skipped {} entries and {} links that DynamoDB cannot store (see the warnings)",
            self.skipped_entries(),
            self.skipped_links()
        )
    }

    /// Under `--strict`, anything skipped refuses the whole dictionary.
    pub fn refuse_if_strict(&self, strict: bool, dictionary_id: &str) -> Result<(), ImportError> {
        if strict && !self.skipped.is_empty() {
            return Err(ImportError::Unstorable {
                dictionary: dictionary_id.to_string(),
                count: self.skipped.len(),
            });
        }
        Ok(())
    }
}

/// Converts the entries and links to items and checks each. Entries that
/// cannot be stored leave `imported` (so the manifest and the entry count
/// leave them out too), with the links of their headword if no kept entry has
/// that headword; links that cannot be stored are left out on their own.
pub fn screen(imported: &mut ImportedDictionary) -> Screened {
    let mut skipped = Vec::new();
    let mut entry_items = Vec::with_capacity(imported.entries.len());
    let mut kept_entries = Vec::with_capacity(imported.entries.len());
    let mut origin_of_headword: HashMap<String, Origin> = HashMap::new();
    // Folded headword → index in `skipped` of its (first) skipped entry.
    let mut skipped_headwords: HashMap<String, usize> = HashMap::new();
    let mut kept_headwords: HashSet<String> = HashSet::new();
    for stored in std::mem::take(&mut imported.entries) {
        let folded = shared::fold::fold(&stored.entry.word);
        let origin = imported.origins.get(&stored.entry.id).cloned();
        if let Some(origin) = &origin {
            origin_of_headword
                .entry(folded.clone())
                .or_insert_with(|| origin.clone());
        }
        let item = items::entry_to_item(&stored);
        match check_item(&item) {
            Ok(()) => {
                kept_headwords.insert(folded);
                entry_items.push(item);
                kept_entries.push(stored);
            }
            Err(problem) => {
                skipped_headwords.entry(folded).or_insert(skipped.len());
                skipped.push(Skipped {
                    headword: stored.entry.word,
                    what: SkippedItem::Entry { links: 0 },
                    origin,
                    problem,
                });
            }
        }
    }
    imported.entries = kept_entries;
    imported.dictionary.entry_count = imported.entries.len() as u64;

    let mut link_items = Vec::with_capacity(imported.links.len());
    let mut kept_links = Vec::with_capacity(imported.links.len());
    for (headword, link) in std::mem::take(&mut imported.links) {
        let folded = shared::fold::fold(&headword);
        if !kept_headwords.contains(&folded) {
            if let Some(&at) = skipped_headwords.get(&folded) {
                if let SkippedItem::Entry { links } = &mut skipped[at].what {
                    *links += 1;
                }
                continue;
            }
        }
        let item = items::thesaurus_to_item(&headword, &link);
        match check_item(&item) {
            Ok(()) => {
                link_items.push(item);
                kept_links.push((headword, link));
            }
            Err(problem) => skipped.push(Skipped {
                origin: origin_of_headword.get(&folded).cloned(),
                what: SkippedItem::Link {
                    word: link.word,
                    relationship_type: link.relationship_type,
                },
                headword,
                problem,
            }),
        }
    }
    imported.links = kept_links;
    Screened {
        entry_items,
        link_items,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::limits::MAX_ITEM_BYTES;
    use shared::model::{Dictionary, Entry, StoredEntry, ThesaurusItem};

    fn dictionary() -> Dictionary {
        Dictionary {
            dictionary_id: "mythes-en".into(),
            dictionary_name: "English thesaurus".into(),
            source_lang: "en".into(),
            target_lang: None,
            entry_count: 0,
            licence: "x".into(),
            origin: "x".into(),
        }
    }

    fn entry(id: &str, word: &str, text: &str) -> StoredEntry {
        StoredEntry {
            entry: Entry {
                id: id.into(),
                word: word.into(),
                html_content: format!("<p>{text}</p>"),
                plain_text: text.into(),
                source_lang: "en".into(),
                target_lang: None,
                dictionary_id: "mythes-en".into(),
                dictionary_name: "English thesaurus".into(),
                ..Default::default()
            },
            is_lemma: true,
            audio: vec![],
        }
    }

    fn link(headword: &str, word: &str) -> (String, ThesaurusItem) {
        (
            headword.into(),
            ThesaurusItem {
                word: word.into(),
                relationship_type: "synonym".into(),
                dictionary_id: "mythes-en".into(),
                dictionary_name: "English thesaurus".into(),
                source_lang: "en".into(),
                target_lang: None,
            },
        )
    }

    fn origin(line: usize) -> Origin {
        Origin {
            file: std::path::Path::new("th_en_US_v2.dat").into(),
            line,
        }
    }

    #[test]
    fn unstorable_articles_are_skipped_with_headword_and_position() {
        let huge = "x".repeat(MAX_ITEM_BYTES);
        let long_word = "y".repeat(1500);
        let mut imported = ImportedDictionary {
            dictionary: dictionary(),
            entries: vec![
                entry("1", "good", "fine"),
                entry("2", "Huge", &huge),
                entry("3", "bad", "evil"),
                entry(
                    "4",
                    "huge",
                    "a second, small entry of the same folded headword",
                ),
                entry("5", "Vast", &huge),
            ],
            links: vec![
                link("good", "fine"),
                link("good", &long_word),
                link("Huge", "big"),
                link("Vast", "immense"),
                link("Vast", "wide"),
                link("bad", "evil"),
            ],
            origins: (1..=5).map(|n| (n.to_string(), origin(n * 10))).collect(),
        };
        let screened = screen(&mut imported);
        let words: Vec<&str> = imported
            .entries
            .iter()
            .map(|e| e.entry.word.as_str())
            .collect();
        assert_eq!(words, ["good", "bad", "huge"]);
        assert_eq!(imported.dictionary.entry_count, 3);
        assert_eq!(screened.entry_items.len(), 3);
        // Huge's link stays: the small "huge" entry holds its headword.
        let links: Vec<(&str, &str)> = imported
            .links
            .iter()
            .map(|(h, l)| (h.as_str(), l.word.as_str()))
            .collect();
        assert_eq!(links, [("good", "fine"), ("Huge", "big"), ("bad", "evil")]);
        assert_eq!(screened.link_items.len(), 3);
        assert_eq!(screened.skipped_entries(), 2);
        assert_eq!(screened.skipped_links(), 3);

        let lines: Vec<String> = screened.skipped.iter().map(ToString::to_string).collect();
        assert!(
            lines[0].starts_with("entry \"Huge\" (th_en_US_v2.dat line 20): its item is ")
                && lines[0].ends_with("over DynamoDB's limit of 409600"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("entry \"Vast\" (th_en_US_v2.dat line 50)")
                && lines[1].ends_with("; its 2 links are skipped with it"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("synonym link \"good\" → \"yyyy")
                && lines[2].contains("… (1500 bytes) (th_en_US_v2.dat line 10): its key sk is"),
            "{}",
            lines[2]
        );
        assert!(
            lines[2].ends_with("over DynamoDB's limit of 1024"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn a_headword_too_long_for_the_word_index_skips_its_entry() {
        let long = "z".repeat(2100);
        let mut imported = ImportedDictionary {
            dictionary: dictionary(),
            entries: vec![entry("1", &long, "text"), entry("2", "ok", "text")],
            links: vec![link(&long, "short")],
            origins: HashMap::new(),
        };
        let screened = screen(&mut imported);
        assert_eq!(imported.entries.len(), 1);
        assert!(imported.links.is_empty());
        assert_eq!(screened.skipped.len(), 1);
        assert!(matches!(
            screened.skipped[0].problem,
            ItemProblem::KeyTooLong {
                attribute: "wordKey",
                ..
            }
        ));
        assert!(screened.skipped[0]
            .to_string()
            .contains("(no position known)"));
    }

    #[test]
    fn the_fixtures_are_stored_whole() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture");
        let max = crate::formats::source::DEFAULT_MAX_SOURCE_BYTES;
        for mut imported in [
            crate::import::freedict::import_freedict(
                &fixture.join("freedict/freedict-eng-fra"),
                max,
            ),
            crate::import::wordnet::import_wordnet(&fixture.join("wordnet"), max, None),
            crate::import::gcide::import_gcide(&fixture.join("gcide/gcide"), max),
            crate::import::mythes::import_mythes(&fixture.join("mythes/th_en_US_v2.dat"), max),
        ]
        .map(Result::unwrap)
        {
            let (entries, links) = (imported.entries.len(), imported.links.len());
            let screened = screen(&mut imported);
            assert!(screened.skipped.is_empty(), "{:?}", screened.skipped);
            assert_eq!(
                (screened.entry_items.len(), screened.link_items.len()),
                (entries, links)
            );
            assert!(
                imported
                    .entries
                    .iter()
                    .all(|e| imported.origins.contains_key(&e.entry.id)),
                "every entry has a position"
            );
        }
    }
}
