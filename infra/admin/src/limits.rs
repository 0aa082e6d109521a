//! DynamoDB's limits on one item, checked before anything is sent: an item
//! over 400 KB, a partition key over 2048 bytes, a sort key over 1024 bytes
//! or an empty key string makes BatchWriteItem refuse the whole batch of 25.
//! An import screens its items first: an article that cannot be stored is
//! skipped and reported by headword and position in the source, and the rest
//! of the dictionary is imported (docs/data-model.md, "Importing").

use crate::import::{ImportedDictionary, Origin};
use aws_sdk_dynamodb::types::AttributeValue;
use shared::items::{self, Item};
use std::collections::{HashMap, HashSet};

/// DynamoDB's item size limit: 400 KB, names and values together.
pub const MAX_ITEM_BYTES: usize = 400 * 1024;
/// Partition keys, of the table and of a global secondary index.
pub use shared::items::MAX_PARTITION_KEY_BYTES;
pub const MAX_SORT_KEY_BYTES: usize = 1024;

/// The key attributes of the entries table and of its `ByWord` index, with
/// their limits. A key attribute may not be an empty string either.
const KEY_ATTRIBUTES: [(&str, usize); 3] = [
    ("pk", MAX_PARTITION_KEY_BYTES),
    ("sk", MAX_SORT_KEY_BYTES),
    ("wordKey", MAX_PARTITION_KEY_BYTES),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ItemProblem {
    #[error("its item is {bytes} bytes, over DynamoDB's limit of {MAX_ITEM_BYTES}")]
    TooLarge { bytes: usize },
    #[error("its key {attribute} is {bytes} bytes, over DynamoDB's limit of {limit}")]
    KeyTooLong {
        attribute: &'static str,
        bytes: usize,
        limit: usize,
    },
    #[error("its key {attribute} is empty, which DynamoDB refuses")]
    EmptyKey { attribute: &'static str },
}

/// An item's size as DynamoDB counts it: every attribute name plus its
/// value. Numbers are counted at their upper bound, so the estimate is never
/// below DynamoDB's own.
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

fn value_size(value: &AttributeValue) -> usize {
    // A number takes about a byte per two significant digits, plus one.
    let number = |n: &str| n.len().div_ceil(2) + 1;
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        // Lists and maps: 3 bytes, and 1 per element.
        AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + value_size(v)).sum::<usize>(),
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(k, v)| 1 + k.len() + value_size(v))
                .sum::<usize>()
        }
        AttributeValue::Ss(values) => values.iter().map(String::len).sum(),
        AttributeValue::Ns(values) => values.iter().map(|n| number(n)).sum(),
        AttributeValue::Bs(values) => values.iter().map(|b| b.as_ref().len()).sum(),
        // A type this code never writes: counted by its debug form, which is
        // longer than the value.
        other => format!("{other:?}").len(),
    }
}

/// Whether DynamoDB would take the item: its keys first (the clearer
/// reason), then its size.
pub fn check_item(item: &Item) -> Result<(), ItemProblem> {
    for (attribute, limit) in KEY_ATTRIBUTES {
        let Some(value) = item.get(attribute) else {
            continue;
        };
        let bytes = match value {
            AttributeValue::S(s) => s.len(),
            AttributeValue::B(b) => b.as_ref().len(),
            other => value_size(other),
        };
        if bytes == 0 {
            return Err(ItemProblem::EmptyKey { attribute });
        }
        if bytes > limit {
            return Err(ItemProblem::KeyTooLong {
                attribute,
                bytes,
                limit,
            });
        }
    }
    match item_size(item) {
        bytes if bytes > MAX_ITEM_BYTES => Err(ItemProblem::TooLarge { bytes }),
        _ => Ok(()),
    }
}

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
    use shared::model::{Dictionary, Entry, StoredEntry, ThesaurusItem};

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    #[test]
    fn sizes_count_names_and_values_as_dynamodb_does() {
        let item = Item::from([
            ("pk".to_string(), s("E#d#1")),                       // 2 + 5
            ("n".to_string(), AttributeValue::N("12345".into())), // 1 + 4
            ("ok".to_string(), AttributeValue::Bool(true)),       // 2 + 1
            (
                "l".to_string(),
                AttributeValue::L(vec![s("ab"), s("c")]), // 1 + 3 + (1 + 2) + (1 + 1)
            ),
            ("b".to_string(), AttributeValue::B(vec![0u8; 10].into())), // 1 + 10
            ("é".to_string(), s("ü")), // 2 + 2: UTF-8 bytes, not characters
        ]);
        assert_eq!(item_size(&item), 7 + 5 + 3 + 9 + 11 + 4);
    }

    #[test]
    fn the_limits_are_checked_at_their_edges() {
        let item = |pk: String, sk: String, body: usize| {
            Item::from([
                ("pk".to_string(), AttributeValue::S(pk)),
                ("sk".to_string(), AttributeValue::S(sk)),
                ("b".to_string(), AttributeValue::S("x".repeat(body))),
            ])
        };
        assert_eq!(check_item(&item("p".into(), "s".into(), 10)), Ok(()));
        // pk 1 + "pk" 2 + sk 1 + "sk" 2 + "b" 1 = 7 bytes besides the body.
        assert_eq!(
            check_item(&item("p".into(), "s".into(), MAX_ITEM_BYTES - 7)),
            Ok(())
        );
        assert_eq!(
            check_item(&item("p".into(), "s".into(), MAX_ITEM_BYTES - 6)),
            Err(ItemProblem::TooLarge {
                bytes: MAX_ITEM_BYTES + 1
            })
        );
        assert_eq!(check_item(&item("p".repeat(2048), "s".into(), 1)), Ok(()));
        assert_eq!(
            check_item(&item("p".repeat(2049), "s".into(), 1)),
            Err(ItemProblem::KeyTooLong {
                attribute: "pk",
                bytes: 2049,
                limit: 2048
            })
        );
        assert_eq!(check_item(&item("p".into(), "s".repeat(1024), 1)), Ok(()));
        assert!(matches!(
            check_item(&item("p".into(), "s".repeat(1025), 1)),
            Err(ItemProblem::KeyTooLong {
                attribute: "sk",
                ..
            })
        ));
        assert_eq!(
            check_item(&item("p".into(), String::new(), 1)),
            Err(ItemProblem::EmptyKey { attribute: "sk" })
        );
        let mut indexed = item("p".into(), "s".into(), 1);
        indexed.insert("wordKey".into(), s(&"w".repeat(2049)));
        assert!(matches!(
            check_item(&indexed),
            Err(ItemProblem::KeyTooLong {
                attribute: "wordKey",
                ..
            })
        ));
        indexed.insert("wordKey".into(), s(""));
        assert_eq!(
            check_item(&indexed),
            Err(ItemProblem::EmptyKey {
                attribute: "wordKey"
            })
        );
    }

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
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/fixture");
        let max = crate::formats::source::DEFAULT_MAX_SOURCE_BYTES;
        for mut imported in [
            crate::import::import_freedict(&fixture.join("freedict/freedict-eng-fra"), max),
            crate::import::import_wordnet(&fixture.join("wordnet"), max, None),
            crate::import::import_gcide(&fixture.join("gcide/gcide"), max),
            crate::import::import_mythes(&fixture.join("mythes/th_en_US_v2.dat"), max),
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
