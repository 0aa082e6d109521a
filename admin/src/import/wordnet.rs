//! WordNet 3.0 database files as Debian's `wordnet-base` ships them:
//! `index.<pos>` (lemma → synset offsets, most frequent sense first) and
//! `data.<pos>` (synsets: words, pointers, gloss). Described in wndb(5WN).
//!
//! Quirks handled: the licence header (lines starting with spaces), adjective
//! position markers such as `(a)`, `(p)`, `(ip)` after a word, satellite
//! adjectives (`s`), underscores for spaces, and invalid UTF-8 (replaced).
//! The `index.<pos>` line itself is read by formats/wordnet.rs, which the
//! lexicon shares.
//!
//! The database becomes the monolingual English dictionary `wordnet-en`: an
//! entry per lemma and part of speech, and a thesaurus link per relation.

use super::dictionary::{entry_id, links_of, ImportedDictionary, Origin};
use super::entry_text::{EntryText, SenseText};
use super::error::ImportError;
use crate::formats::source;
use crate::formats::wordnet::parse_index_line;
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A part of speech as WordNet files name it.
pub const FILES: [(&str, char); 4] = [("noun", 'n'), ("verb", 'v'), ("adj", 'a'), ("adv", 'r')];

#[derive(Debug, Clone, PartialEq)]
pub struct Synset {
    pub offset: u32,
    /// `n`, `v`, `a` or `r` (satellites `s` are stored as `a`).
    pub pos: char,
    /// Words in display form (spaces, markers removed).
    pub words: Vec<String>,
    pub pointers: Vec<Pointer>,
    pub definition: String,
    pub examples: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pointer {
    pub symbol: String,
    pub target_pos: char,
    pub target_offset: u32,
    /// 1-based word numbers for lexical pointers; 0 for semantic ones.
    pub source_word: usize,
    pub target_word: usize,
}

fn normalise_pos(c: char) -> char {
    if c == 's' {
        'a'
    } else {
        c
    }
}

/// `ready_to_hand(p)` → `ready to hand`
fn display_word(raw: &str) -> String {
    let word = match raw.find('(') {
        Some(i) if raw.ends_with(')') => &raw[..i],
        _ => raw,
    };
    word.replace('_', " ")
}

/// One `data.<pos>` line; `Ok(None)` for the licence header.
pub fn parse_data_line(line: &str) -> Result<Option<Synset>, String> {
    if line.starts_with(' ') || line.trim().is_empty() {
        return Ok(None);
    }
    let (fields, gloss) = line.split_once(" | ").unwrap_or((line, ""));
    let mut f = fields.split_whitespace();
    let mut next = |what: &str| f.next().ok_or_else(|| format!("missing {what}"));
    let offset: u32 = next("offset")?
        .parse()
        .map_err(|_| "offset is not a number")?;
    next("lexicographer file")?;
    let pos = normalise_pos(next("synset type")?.chars().next().unwrap_or('?'));
    let word_count =
        usize::from_str_radix(next("word count")?, 16).map_err(|_| "word count is not hex")?;
    // No capacity from the line's own counts, which could ask for anything:
    // the vectors grow with the fields that are there.
    let mut words = Vec::new();
    for _ in 0..word_count {
        words.push(display_word(next("word")?));
        next("lex id")?;
    }
    let pointer_count: usize = next("pointer count")?
        .parse()
        .map_err(|_| "pointer count is not a number")?;
    let mut pointers = Vec::new();
    for _ in 0..pointer_count {
        let symbol = next("pointer symbol")?.to_string();
        let target_offset = next("pointer offset")?
            .parse()
            .map_err(|_| "pointer offset is not a number")?;
        let target_pos = normalise_pos(next("pointer pos")?.chars().next().unwrap_or('?'));
        let source_target = next("pointer source/target")?;
        if source_target.len() != 4 {
            return Err("pointer source/target is not 4 hex digits".into());
        }
        let hex = |s: &str| {
            usize::from_str_radix(s, 16).map_err(|_| "pointer source/target is not hex".to_string())
        };
        pointers.push(Pointer {
            symbol,
            target_pos,
            target_offset,
            source_word: hex(&source_target[..2])?,
            target_word: hex(&source_target[2..])?,
        });
    }
    let (definition, examples) = split_gloss(gloss.trim());
    Ok(Some(Synset {
        offset,
        pos,
        words,
        pointers,
        definition,
        examples,
    }))
}

/// A gloss is definitions and quoted examples separated by `;`.
pub fn split_gloss(gloss: &str) -> (String, Vec<String>) {
    let mut parts = Vec::new();
    let (mut current, mut in_quote) = (String::new(), false);
    for c in gloss.chars() {
        match c {
            '"' => {
                in_quote = !in_quote;
                current.push(c);
            }
            ';' if !in_quote => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    parts.push(current);
    let mut definition = Vec::new();
    let mut examples = Vec::new();
    for part in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        if part.starts_with('"') {
            // An example may carry an attribution after its closing quote.
            examples.push(
                part.trim_matches(|c| c == '"' || c == ' ')
                    .replace("\" -", " —"),
            );
        } else {
            definition.push(part);
        }
    }
    (definition.join("; "), examples)
}

/// One lemma of an `index.<pos>` file.
pub struct Lemma {
    pub lemma: String,
    pub pos: char,
    /// Its synsets, most frequent sense first.
    pub offsets: Vec<u32>,
    /// The `index.<pos>` file and the 1-based line, for reports.
    pub path: Arc<Path>,
    pub line: usize,
}

/// The database: every synset and every (lemma, part of speech).
pub struct WordNet {
    pub synsets: HashMap<(char, u32), Synset>,
    pub lemmas: Vec<Lemma>,
}

fn read_lines(path: &Path, max_bytes: u64) -> Result<String, ImportError> {
    let bytes = source::read(path, max_bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

impl WordNet {
    /// Reads `index.*` and `data.*` from `dir` (for example /usr/share/wordnet),
    /// refusing any file of more than `max_source_bytes`.
    pub fn open(dir: &Path, max_source_bytes: u64) -> Result<Self, ImportError> {
        let mut synsets = HashMap::new();
        let mut lemmas = Vec::new();
        for (name, pos) in FILES {
            let data_path = dir.join(format!("data.{name}"));
            for (n, line) in read_lines(&data_path, max_source_bytes)?
                .lines()
                .enumerate()
            {
                let synset = parse_data_line(line).map_err(|message| ImportError::Line {
                    path: data_path.clone(),
                    line: n + 1,
                    message,
                })?;
                if let Some(synset) = synset {
                    synsets.insert((pos, synset.offset), synset);
                }
            }
            let index_path = dir.join(format!("index.{name}"));
            let index_file: Arc<Path> = index_path.as_path().into();
            for (n, line) in read_lines(&index_path, max_source_bytes)?
                .lines()
                .enumerate()
            {
                let parsed = parse_index_line(line).map_err(|message| ImportError::Line {
                    path: index_path.clone(),
                    line: n + 1,
                    message,
                })?;
                if let Some((lemma, offsets)) = parsed {
                    lemmas.push(Lemma {
                        lemma,
                        pos,
                        offsets,
                        path: index_file.clone(),
                        line: n + 1,
                    });
                }
            }
        }
        Ok(Self { synsets, lemmas })
    }

    /// Words related to `lemma` through its senses, with the relationship
    /// types of decisions.md, in sense order and without repeats.
    pub fn relations(&self, lemma: &str, senses: &[&Synset]) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let mut push = |kind: &'static str, word: &str| {
            if !word.eq_ignore_ascii_case(lemma)
                && !out.iter().any(|(k, w)| *k == kind && w == word)
            {
                out.push((kind, word.to_string()));
            }
        };
        for synset in senses {
            for word in &synset.words {
                push("synonym", word);
            }
            let own_number = synset
                .words
                .iter()
                .position(|w| w.eq_ignore_ascii_case(lemma))
                .map(|i| i + 1);
            for pointer in &synset.pointers {
                let Some(kind) = relationship(&pointer.symbol) else {
                    continue;
                };
                let Some(target) = self
                    .synsets
                    .get(&(pointer.target_pos, pointer.target_offset))
                else {
                    continue;
                };
                if pointer.source_word == 0 {
                    for word in &target.words {
                        push(kind, word);
                    }
                } else if Some(pointer.source_word) == own_number {
                    if let Some(word) = target.words.get(pointer.target_word.wrapping_sub(1)) {
                        push(kind, word);
                    }
                }
            }
        }
        out
    }
}

/// `cntlist.rev`, the file of WordNet's own sense tag counts: one line per
/// sense, `<sense key> <sense number> <tag count>`, the count being how often
/// Princeton's semantic concordances (SemCor, as last updated in 2001; the
/// counts WordNet orders senses by) tag that sense. A sense key is
/// `<lemma>%<synset type>:<lexicographer file>:<lex id>:<head word>:<head id>`,
/// the lemma in lower case with underscores for spaces; synset types 1 to 5
/// are noun, verb, adjective, adverb and satellite adjective.
pub const TAG_COUNTS: &str = "cntlist.rev";

/// One `cntlist.rev` line: (lemma as `index.<pos>` gives it, part of speech,
/// tag count).
pub fn parse_tag_count_line(line: &str) -> Result<(String, char, u64), String> {
    let mut fields = line.split_whitespace();
    let key = fields.next().ok_or("missing sense key")?;
    let _sense_number = fields.next().ok_or("missing sense number")?;
    let count = fields
        .next()
        .ok_or("missing tag count")?
        .parse()
        .map_err(|_| "tag count is not a number")?;
    let (lemma, lex_sense) = key
        .split_once('%')
        .filter(|(lemma, _)| !lemma.is_empty())
        .ok_or("sense key has no lemma%")?;
    let pos = match lex_sense.split(':').next() {
        Some("1") => 'n',
        Some("2") => 'v',
        Some("3") | Some("5") => 'a',
        Some("4") => 'r',
        _ => return Err("sense key has no synset type 1 to 5".into()),
    };
    Ok((lemma.replace('_', " "), pos, count))
}

/// The tag counts of `cntlist.rev`, summed over the senses of each (lemma,
/// part of speech): how often the sense-tagged texts use the word at all.
pub fn read_tag_counts(
    path: &Path,
    max_source_bytes: u64,
) -> Result<HashMap<(String, char), u64>, ImportError> {
    let mut counts = HashMap::new();
    for (n, line) in read_lines(path, max_source_bytes)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (lemma, pos, count) =
            parse_tag_count_line(line).map_err(|message| ImportError::Line {
                path: path.to_path_buf(),
                line: n + 1,
                message,
            })?;
        *counts.entry((lemma, pos)).or_insert(0) += count;
    }
    Ok(counts)
}

impl WordNet {
    /// Keeps only the lemmas whose senses the tagged texts use at least
    /// `min_tags` times in all (`counts` from [`read_tag_counts`]); the
    /// synsets stay, so that the kept lemmas' definitions and relations are
    /// complete.
    pub fn retain_common(&mut self, counts: &HashMap<(String, char), u64>, min_tags: u64) {
        self.lemmas.retain(|l| {
            counts
                .get(&(l.lemma.clone(), l.pos))
                .is_some_and(|&count| count >= min_tags)
        });
    }
}

/// WordNet pointer symbols → `relationshipType` of decisions.md.
pub fn relationship(symbol: &str) -> Option<&'static str> {
    match symbol {
        "!" => Some("antonym"),
        "+" => Some("derivation"),
        "&" => Some("similar"),
        "@" | "@i" => Some("hypernym"),
        "~" | "~i" => Some("hyponym"),
        "^" => Some("related"),
        _ => None,
    }
}

pub fn part_of_speech_name(pos: char) -> &'static str {
    match pos {
        'n' => "noun",
        'v' => "verb",
        'a' => "adjective",
        _ => "adverb",
    }
}

/// Reads WordNet 3.0 (`index.*` and `data.*` in `dir`) into one monolingual
/// English dictionary: an entry per lemma and part of speech, its senses in
/// frequency order with definitions, examples and synonyms. With
/// `min_tag_count`, only the lemmas that WordNet's sense-tagged texts use at
/// least that often (`cntlist.rev` in `dir`, see [`TAG_COUNTS`]).
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
        let counts = read_tag_counts(&dir.join(TAG_COUNTS), max_source_bytes)?;
        wn.retain_common(&counts, min);
        origin.push_str(&format!(
            ", the lemmas its sense-tagged texts use at least {min} times ({})",
            TAG_COUNTS
        ));
    }
    let mut entries = Vec::with_capacity(wn.lemmas.len());
    let mut origins = HashMap::with_capacity(wn.lemmas.len());
    let mut all_relations: Vec<(String, &'static str, String)> = Vec::new();
    for Lemma {
        lemma,
        pos,
        offsets,
        path,
        line,
    } in &wn.lemmas
    {
        let senses: Vec<&Synset> = offsets
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
        let pos_name = part_of_speech_name(*pos);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::fixtures::{find, fixture, MAX};

    const ABLE: &str = "00001740 00 a 01 able 0 005 = 05200169 n 0000 = 05616246 n 0000 + 05616246 n 0101 + 05200169 n 0101 ! 00002098 a 0101 | (usually followed by `to') having the necessary means or skill or know-how or authority to do something; \"able to swim\"; \"she was able to program her computer\"  ";

    #[test]
    fn parses_a_data_line() {
        let s = parse_data_line(ABLE).unwrap().unwrap();
        assert_eq!(s.offset, 1740);
        assert_eq!(s.pos, 'a');
        assert_eq!(s.words, vec!["able"]);
        assert_eq!(s.pointers.len(), 5);
        assert_eq!(
            s.pointers[4],
            Pointer {
                symbol: "!".into(),
                target_pos: 'a',
                target_offset: 2098,
                source_word: 1,
                target_word: 1
            }
        );
        assert_eq!(s.definition, "(usually followed by `to') having the necessary means or skill or know-how or authority to do something");
        assert_eq!(
            s.examples,
            vec!["able to swim", "she was able to program her computer"]
        );
    }

    #[test]
    fn satellites_markers_and_underscores() {
        let s = parse_data_line("00019731 00 s 02 handy 0 ready_to_hand(p) 0 001 & 00019131 a 0000 | easy to reach; \"found a handy spot\"").unwrap().unwrap();
        assert_eq!(s.pos, 'a');
        assert_eq!(s.words, vec!["handy", "ready to hand"]);
    }

    #[test]
    fn verb_frames_do_not_confuse_the_gloss() {
        let line = "00001740 29 v 04 breathe 0 take_a_breath 0 respire 0 suspire 3 001 * 00005041 v 0000 02 + 02 00 + 08 01 | draw air into, and expel out of, the lungs; \"I can breathe better now\"";
        let s = parse_data_line(line).unwrap().unwrap();
        assert_eq!(
            s.words,
            vec!["breathe", "take a breath", "respire", "suspire"]
        );
        assert_eq!(s.definition, "draw air into, and expel out of, the lungs");
    }

    #[test]
    fn licence_header_lines_are_skipped() {
        assert_eq!(
            parse_data_line("  1 This software and database is being provided").unwrap(),
            None
        );
        assert_eq!(parse_index_line("  29 Princeton University").unwrap(), None);
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        assert_eq!(
            parse_data_line("00001740 00 a zz able").unwrap_err(),
            "word count is not hex"
        );
        assert_eq!(
            parse_data_line("00001740 00 a 01 able 0 001 ! 00002098").unwrap_err(),
            "missing pointer pos"
        );
        assert!(parse_index_line("able a 4 4 ! & = + 4 3 00001740")
            .unwrap_err()
            .contains("synset offset"));
    }

    #[test]
    fn glosses_split_on_semicolons_outside_quotes() {
        let (definition, examples) = split_gloss("a; b; \"x; y\"; \"z\"");
        assert_eq!(definition, "a; b");
        assert_eq!(examples, vec!["x; y", "z"]);
    }

    /// Lines of the real `cntlist.rev` (Debian `wordnet-base` 1:3.0-37), a
    /// few senses of the fixture's lemmas and two oddities (`ice_cream`, `n't`).
    const TAG_COUNT_LINES: &str = "bad%1:07:00:: 1 2
bad%3:00:00:: 1 51
bad%4:02:03:: 2 1
bad%4:02:04:: 1 1
bank%1:14:00:: 2 20
bank%1:17:01:: 1 25
bank%2:35:00:: 2 1
bank%2:38:00:: 1 2
dog%1:05:00:: 1 42
dog%2:38:00:: 1 2
ice_cream%1:13:00:: 1 1
n't%4:02:00:: 1 1007
unable%3:00:00:: 1 20
unable%5:00:00:incapable:00 2 5
";

    fn sample_tag_counts() -> HashMap<(String, char), u64> {
        let path = std::env::temp_dir().join(format!("cntlist-{}.rev", std::process::id()));
        std::fs::write(&path, TAG_COUNT_LINES).unwrap();
        let counts = read_tag_counts(&path, 1 << 20);
        std::fs::remove_file(&path).unwrap();
        counts.unwrap()
    }

    #[test]
    fn parses_tag_count_lines() {
        assert_eq!(
            parse_tag_count_line("ice_cream%1:13:00:: 1 1").unwrap(),
            ("ice cream".to_string(), 'n', 1)
        );
        assert_eq!(
            parse_tag_count_line("n't%4:02:00:: 1 1007").unwrap(),
            ("n't".to_string(), 'r', 1007)
        );
        // A satellite adjective counts for the adjective.
        assert_eq!(
            parse_tag_count_line("unable%5:00:00:incapable:00 2 5").unwrap(),
            ("unable".to_string(), 'a', 5)
        );
        assert_eq!(
            parse_tag_count_line("bank%2:38:00:: 1 2").unwrap(),
            ("bank".to_string(), 'v', 2)
        );
        for (line, error) in [
            ("bank%9:38:00:: 1 2", "sense key has no synset type 1 to 5"),
            ("bank 1 2", "sense key has no lemma%"),
            ("%1:14:00:: 1 2", "sense key has no lemma%"),
            ("bank%1:14:00:: 1", "missing tag count"),
            ("bank%1:14:00:: 1 many", "tag count is not a number"),
        ] {
            assert_eq!(parse_tag_count_line(line).unwrap_err(), error, "{line}");
        }
    }

    #[test]
    fn tag_counts_are_summed_per_lemma_and_part_of_speech() {
        let counts = sample_tag_counts();
        let count = |lemma: &str, pos| counts.get(&(lemma.to_string(), pos)).copied();
        assert_eq!(count("bank", 'n'), Some(45));
        assert_eq!(count("bank", 'v'), Some(3));
        assert_eq!(count("bad", 'r'), Some(2));
        assert_eq!(count("unable", 'a'), Some(25));
        assert_eq!(count("ice cream", 'n'), Some(1));
        assert_eq!(count("cat", 'n'), None);
        assert_eq!(counts.len(), 10);
    }

    #[test]
    fn a_broken_tag_count_line_is_named() {
        let path = std::env::temp_dir().join(format!("cntlist-bad-{}.rev", std::process::id()));
        std::fs::write(&path, "bank%1:14:00:: 2 20\nbank%1:14:01:: 4\n").unwrap();
        let error = read_tag_counts(&path, 1 << 20).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(error.ends_with("line 2: missing tag count"), "{error}");
    }

    #[test]
    fn only_lemmas_used_often_enough_are_kept() {
        let counts = sample_tag_counts();
        let kept = |min| {
            let mut wn = WordNet::open(&fixture("wordnet"), 1 << 30).unwrap();
            wn.retain_common(&counts, min);
            wn.lemmas
                .iter()
                .map(|l| format!("{}/{}", l.lemma, l.pos))
                .collect::<Vec<_>>()
        };
        // Per part of speech: `bank` the verb (3) stays at 3, `dog` the verb
        // (2) and `bad` the noun (2) and adverb (1 + 1) go; lemmas without
        // counts (`cat`, `good`: not in the sample) go.
        assert_eq!(kept(3), ["bank/n", "dog/n", "bank/v", "bad/a", "unable/a"]);
        // `unable` reaches 25 only with its satellite sense's 5.
        assert_eq!(kept(25), ["bank/n", "dog/n", "bad/a", "unable/a"]);
        assert_eq!(kept(26), ["bank/n", "dog/n", "bad/a"]);
        // The synsets stay whole, for the kept lemmas' relations.
        let all = WordNet::open(&fixture("wordnet"), 1 << 30).unwrap();
        let mut some = WordNet::open(&fixture("wordnet"), 1 << 30).unwrap();
        some.retain_common(&counts, 26);
        assert_eq!(some.synsets.len(), all.synsets.len());
    }

    #[test]
    fn lexical_antonyms_follow_word_numbers() {
        let able = parse_data_line(ABLE).unwrap().unwrap();
        let unable = parse_data_line(
            "00002098 00 a 01 unable 0 002 = 05200169 n 0000 ! 00001740 a 0101 | not able",
        )
        .unwrap()
        .unwrap();
        let wn = WordNet {
            synsets: [(('a', 1740), able.clone()), (('a', 2098), unable)]
                .into_iter()
                .collect(),
            lemmas: vec![],
        };
        assert_eq!(
            wn.relations("able", &[&able]),
            vec![("antonym", "unable".to_string())]
        );
    }

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
        assert!(missing.contains(TAG_COUNTS), "{missing}");
        std::fs::write(
            dir.join(TAG_COUNTS),
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
}
