//! Turns parsed source articles into the stored entries and dictionary record
//! that the functions read.

use crate::entry_text::{EntryText, SenseText};
use crate::formats::wordnet::{self, WordNet, WordNetError};
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;

mod dictd;
pub mod dictionary;
#[cfg(test)]
mod fixtures;
mod freedict;
mod gcide;
mod mythes;
pub mod screen;

use dictd::DictdError;
pub use freedict::import_freedict;
pub use gcide::import_gcide;
pub use mythes::import_mythes;
use mythes::MythesError;

use dictionary::{entry_id, links_of, ImportedDictionary, Origin};

/// Reads WordNet 3.0 (`index.*` and `data.*` in `dir`) into one monolingual
/// English dictionary: an entry per lemma and part of speech, its senses in
/// frequency order with definitions, examples and synonyms. With
/// `min_tag_count`, only the lemmas that WordNet's sense-tagged texts use at
/// least that often (`cntlist.rev` in `dir`, see [`wordnet::TAG_COUNTS`]).
pub fn import_wordnet(
    dir: &Path,
    max_source_bytes: u64,
    min_tag_count: Option<u64>,
) -> Result<ImportedDictionary, ImportError> {
    const ID: &str = "wordnet-en";
    const NAME: &str = "WordNet 3.0 (English)";
    let mut wn = WordNet::open(dir, max_source_bytes)?;
    let mut origin = "Debian package wordnet-base (Princeton WordNet 3.0)".to_string();
    if let Some(min) = min_tag_count {
        let counts = wordnet::read_tag_counts(&dir.join(wordnet::TAG_COUNTS), max_source_bytes)?;
        wn.retain_common(&counts, min);
        origin.push_str(&format!(
            ", the lemmas its sense-tagged texts use at least {min} times ({})",
            wordnet::TAG_COUNTS
        ));
    }
    let mut entries = Vec::with_capacity(wn.lemmas.len());
    let mut origins = HashMap::with_capacity(wn.lemmas.len());
    let mut all_relations: Vec<(String, &'static str, String)> = Vec::new();
    for wordnet::Lemma {
        lemma,
        pos,
        offsets,
        path,
        line,
    } in &wn.lemmas
    {
        let senses: Vec<&wordnet::Synset> = offsets
            .iter()
            .filter_map(|o| wn.synsets.get(&(*pos, *o)))
            .collect();
        if senses.is_empty() {
            continue;
        }
        // The synsets keep the headword's case (`The Hague`); the index is lower-case.
        let word = senses[0]
            .words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(lemma))
            .cloned()
            .unwrap_or_else(|| lemma.clone());
        let pos_name = wordnet::part_of_speech_name(*pos);
        let relations = wn.relations(lemma, &senses);
        all_relations.extend(
            relations
                .iter()
                .map(|(kind, w)| (word.clone(), *kind, w.clone())),
        );
        let related = |kind: &str| {
            relations
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, w)| w.clone())
                .collect::<Vec<_>>()
        };
        let mut text = EntryText::new(&word, None, Some(pos_name));
        text.senses(
            senses
                .iter()
                .map(|sense| {
                    let others: Vec<&str> = sense
                        .words
                        .iter()
                        .filter(|w| !w.eq_ignore_ascii_case(lemma))
                        .map(String::as_str)
                        .collect();
                    SenseText {
                        text: sense.definition.clone(),
                        notes: if others.is_empty() {
                            vec![]
                        } else {
                            vec![format!("also: {}", others.join(", "))]
                        },
                        examples: sense.examples.clone(),
                        ..Default::default()
                    }
                })
                .collect(),
        );
        let antonyms = related("antonym");
        text.word_list("antonyms", "Antonyms", &antonyms);
        let (html, plain, examples) = text.finish(false);
        let id = entry_id(ID, &word, Some(pos_name), 0);
        origins.insert(
            id.clone(),
            Origin {
                file: path.clone(),
                line: *line,
            },
        );
        entries.push(StoredEntry {
            entry: Entry {
                id,
                word,
                html_content: html,
                plain_text: plain,
                source_lang: "en".into(),
                target_lang: None,
                dictionary_id: ID.into(),
                dictionary_name: NAME.into(),
                part_of_speech: Some(pos_name.into()),
                translations: Vec::new(),
                synonyms: related("synonym"),
                antonyms,
                examples,
                ..Default::default()
            },
            is_lemma: true,
            audio: vec![],
        });
    }
    let dictionary = Dictionary {
        dictionary_id: ID.into(),
        dictionary_name: NAME.into(),
        source_lang: "en".into(),
        target_lang: None,
        entry_count: entries.len() as u64,
        licence: "WordNet".into(),
        origin,
    };
    let links = links_of(
        &dictionary,
        all_relations
            .iter()
            .map(|(h, k, w)| (h.as_str(), *k, w.as_str())),
    );
    Ok(ImportedDictionary {
        dictionary,
        entries,
        links,
        origins,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    Dictd(#[from] DictdError),
    #[error(transparent)]
    WordNet(#[from] WordNetError),
    #[error(transparent)]
    Mythes(#[from] MythesError),
    #[error("cannot tell the languages of {0:?}: FreeDict databases are named freedict-<iso639-3>-<iso639-3>")]
    Name(String),
    #[error("{dictionary}: {count} articles or links cannot be stored in DynamoDB (listed above); nothing written, as --strict asks")]
    Unstorable { dictionary: String, count: usize },
    #[error("{dictionary}: postings manifest chunk {chunk} cannot be stored: {problem}")]
    Manifest {
        dictionary: String,
        chunk: usize,
        problem: crate::limits::ItemProblem,
    },
}

#[cfg(test)]
mod tests {
    use super::fixtures::{find, fixture, MAX};
    use super::*;

    #[test]
    fn wordnet_keeps_only_the_common_words_when_asked() {
        // The fixture's files beside real `cntlist.rev` lines of three of its
        // lemmas: `good` the adjective is used 190 + 12 times, `bad` the noun
        // twice, `dog` the noun 42 times.
        let dir = std::env::temp_dir().join(format!("wordnet-common-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for file in std::fs::read_dir(fixture("wordnet")).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), dir.join(file.file_name())).unwrap();
        }
        let missing = import_wordnet(&dir, MAX, Some(3))
            .err()
            .unwrap()
            .to_string();
        assert!(missing.contains(wordnet::TAG_COUNTS), "{missing}");
        std::fs::write(
            dir.join(wordnet::TAG_COUNTS),
            "bad%1:07:00:: 1 2\ndog%1:05:00:: 1 42\ngood%3:00:01:: 1 190\ngood%3:00:02:: 3 12\n",
        )
        .unwrap();
        let common = import_wordnet(&dir, MAX, Some(3));
        let all = import_wordnet(&dir, MAX, None).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let common = common.unwrap();
        let words: Vec<(&str, Option<&str>)> = common
            .entries
            .iter()
            .map(|e| (e.entry.word.as_str(), e.entry.part_of_speech.as_deref()))
            .collect();
        assert_eq!(words, [("dog", Some("noun")), ("good", Some("adjective"))]);
        assert_eq!(common.dictionary.entry_count, 2);
        assert!(common.dictionary.origin.contains("at least 3 times"));
        // The entries are those of the whole import, links and all.
        let good = find(&all, "good", Some("adjective"));
        assert_eq!(find(&common, "good", Some("adjective")), good);
        // Links only from the kept headwords, each one the whole import has,
        // and every related word of the kept entries among them.
        assert!(common.links.iter().all(|link| all.links.contains(link)));
        assert!(common.links.iter().all(|(h, _)| h == "dog" || h == "good"));
        for word in good.synonyms.iter().chain(&good.antonyms) {
            assert!(
                common
                    .links
                    .iter()
                    .any(|(h, l)| h == "good" && &l.word == word),
                "{word}"
            );
        }
        assert!(!good.antonyms.is_empty());
    }

    #[test]
    fn wordnet_gives_bad_as_an_antonym_of_good() {
        let imported = import_wordnet(&fixture("wordnet"), MAX, None).unwrap();
        let good = find(&imported, "good", Some("adjective"));
        assert!(
            good.antonyms.contains(&"bad".to_string()),
            "{:?}",
            good.antonyms
        );
        assert!(
            good.plain_text
                .starts_with("1. having desirable or positive qualities"),
            "{}",
            good.plain_text
        );
        assert!(good
            .examples
            .contains(&"good news from the hospital".to_string()));
        assert_eq!(good.target_lang, None);
        assert!(imported
            .links
            .iter()
            .any(|(h, l)| h == "good" && l.word == "bad" && l.relationship_type == "antonym"));
        assert!(imported
            .links
            .iter()
            .any(|(h, l)| h == "good" && l.relationship_type == "synonym"));
        let bad = find(&imported, "bad", Some("adjective"));
        assert!(bad.antonyms.contains(&"good".to_string()));
        let bank = find(&imported, "bank", Some("noun"));
        assert!(bank.html_content.contains("<ol class=\"senses\">"));
    }

    #[test]
    fn re_import_gives_the_same_ids() {
        let ids = |d: ImportedDictionary| {
            d.entries
                .into_iter()
                .map(|e| e.entry.id)
                .collect::<Vec<_>>()
        };
        let first = ids(import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap());
        let second = ids(import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap());
        assert_eq!(first, second);
        let unique: std::collections::HashSet<_> = first.iter().collect();
        assert_eq!(
            unique.len(),
            first.len(),
            "ids are unique within a dictionary"
        );
        let wordnet = ids(import_wordnet(&fixture("wordnet"), MAX, None).unwrap());
        assert_eq!(
            wordnet,
            ids(import_wordnet(&fixture("wordnet"), MAX, None).unwrap())
        );
        assert_eq!(
            wordnet
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len(),
            wordnet.len()
        );
    }

    #[test]
    fn every_entry_knows_its_place_in_the_source() {
        let imported = import_mythes(&fixture("mythes/th_en_US_v2.dat"), MAX).unwrap();
        let good = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "good")
            .unwrap();
        let origin = &imported.origins[&good.entry.id];
        let text = std::fs::read_to_string(fixture("mythes/th_en_US_v2.dat")).unwrap();
        assert!(
            text.lines()
                .nth(origin.line - 1)
                .unwrap()
                .starts_with("good|"),
            "{origin}"
        );
        let imported = import_freedict(&fixture("freedict/freedict-eng-fra"), MAX).unwrap();
        let cat = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "cat")
            .unwrap();
        let origin = &imported.origins[&cat.entry.id];
        assert!(origin.file.ends_with("freedict-eng-fra.index"));
        let index = std::fs::read_to_string(&origin.file).unwrap();
        assert!(
            index
                .lines()
                .nth(origin.line - 1)
                .unwrap()
                .starts_with("cat\t"),
            "{origin}"
        );
        let imported = import_wordnet(&fixture("wordnet"), MAX, None).unwrap();
        let bank = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "bank" && e.entry.part_of_speech.as_deref() == Some("noun"))
            .unwrap();
        let origin = &imported.origins[&bank.entry.id];
        assert!(origin.file.ends_with("index.noun"), "{origin}");
        let index = std::fs::read_to_string(&origin.file).unwrap();
        assert!(index
            .lines()
            .nth(origin.line - 1)
            .unwrap()
            .starts_with("bank "));
    }
}
