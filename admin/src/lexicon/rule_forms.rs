//! Inflected forms from a **rule lemmatizer's tables**, as
//! `spacy-lookups-data` 1.0.5 ships Greek's (it has no Greek lookup table):
//! the lemmas of each part of speech (`<lang>_lemma_index`:
//! `{"noun": ["πρόβατο", …]}`), suffix rules per part of speech
//! (`<lang>_lemma_rules`: `{"noun": [["α", "ο"], …]}`, a form ending in `α`
//! has a lemma ending in `ο` instead) and exceptions (`<lang>_lemma_exc`:
//! `{"det": {"του": ["το"]}}`), `.json.gz` or not. spaCy's lemmatizer
//! analyses a word of a known part of speech: a lemma of the index is its own
//! lemma, else the exceptions give its lemmas, else the rules do. Here the
//! tables are run in the generating direction, as [`super::wordnet_forms`]
//! runs morphy's: each rule of a part of speech makes a form of every lemma
//! of its index that ends in the rule's lemma suffix (`πρόβατο` →
//! `πρόβατα`), and every exception is a pair as it is, whatever its part of
//! speech (`det` and `propn` have exceptions but no index). Rules of a part
//! of speech the index has no lemmas of (`punct`, `propn`) make nothing.
//!
//! What generating leaves out (docs/data-model.md, "Greek forms: spaCy's
//! rule tables"):
//!
//! - **junk**: the index was parsed from the Greek Wiktionary (spaCy pull
//!   request 2558, issue 4241) and still has entries that are not words:
//!   `βοήθεια:γρήγορη`, `ράδιο/δοκιμή2`, `τ'`, `ντουμ-ντουμ`, five spelt with
//!   the micro sign `µ` for `μ`. A lemma is kept when it is letters of the
//!   language's alphabet only; an exception pair when both sides are words
//!   of it, spaces between them allowed (`Γλυκά Νερά`; not `παίζω,`);
//! - a rule applied to a lemma that is its lemma suffix and nothing more
//!   (`α` → `τα`, `η` → `ης`, `ζω` → `ξω`): a letter's name or a two-letter
//!   word has no stem the suffix follows;
//! - a made form that the index lists as a lemma, of any part of speech
//!   (`πια`, "any more", from `πι`; `καλά` from `καλώ`): a word of its own,
//!   whose pair is a guess. The hand-written exceptions are kept even so;
//! - a made form the exceptions list for that part of speech: spaCy takes
//!   its lemmas from them, not from the rules (`ριζών` is `ρίζα`'s, not
//!   `ριζά`'s).

use super::LexiconError;
use crate::formats::source::{self, DEFAULT_MAX_SOURCE_BYTES};
use serde::de::DeserializeOwned;
use shared::search::lexicon::Pair;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

/// The lemmas of each part of speech.
pub type Index = BTreeMap<String, Vec<String>>;
/// The `[form suffix, lemma suffix]` rules of each part of speech.
pub type Rules = BTreeMap<String, Vec<(String, String)>>;
/// The lemmas of each exceptional form, per part of speech.
pub type Exceptions = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// What the tables gave and what was left out, for the command's report.
/// Pairs are counted as written (not folded), each once.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Pairs the rules made, kept.
    pub generated: usize,
    /// Exception pairs, kept.
    pub exceptions: usize,
    /// Index lemmas and exception pairs left out as junk.
    pub junk: usize,
    /// Made pairs left out: their form is a lemma of the index.
    pub lemma_forms: usize,
    /// Made pairs left out: the exceptions give their form's lemmas.
    pub excepted: usize,
}

/// Whether a character is a letter of the language's alphabet: what tells
/// words from the junk of its index.
type Alphabet = fn(char) -> bool;

/// The alphabet of a language whose rule tables are read. Greek's is the
/// only one (lib.sh LEMMA_RULE_LANGS).
fn alphabet(lang: &str) -> Option<Alphabet> {
    match lang {
        // Greek and Coptic, and Greek Extended (polytonic) letters.
        "el" => Some(|c| {
            c.is_alphabetic() && matches!(c, '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}')
        }),
        _ => None,
    }
}

/// The pairs of `lang`'s rule tables in `dir` and what was left out, or
/// `None` when `dir` has no `<lang>_lemma_rules.json[.gz]`. Its index and
/// exceptions must be beside it.
pub fn read(dir: &Path, lang: &str) -> Result<Option<(Vec<Pair>, Counts)>, LexiconError> {
    let file = |table: &str| {
        ["json.gz", "json"]
            .iter()
            .map(|ext| dir.join(format!("{lang}_lemma_{table}.{ext}")))
            .find(|path| path.is_file())
    };
    let Some(rules) = file("rules") else {
        return Ok(None);
    };
    let input = |message: String| LexiconError::Input {
        path: rules.clone(),
        message,
    };
    let letters = alphabet(lang).ok_or_else(|| {
        input(format!(
            "no alphabet of {lang} is known to tell its words from junk"
        ))
    })?;
    let beside = |table: &str| {
        file(table).ok_or_else(|| input(format!("no {lang}_lemma_{table}.json[.gz] beside it")))
    };
    let index: Index = parse(&beside("index")?)?;
    let exceptions: Exceptions = parse(&beside("exc")?)?;
    let rules: Rules = parse(&rules)?;
    Ok(Some(generate(&index, &rules, &exceptions, letters)))
}

fn parse<T: DeserializeOwned>(path: &Path) -> Result<T, LexiconError> {
    let bytes = source::read(path, DEFAULT_MAX_SOURCE_BYTES)?;
    serde_json::from_slice(&bytes).map_err(|e| LexiconError::Input {
        path: path.to_path_buf(),
        message: format!("not a table of the expected shape: {e}"),
    })
}

/// The pairs of the tables (see the module's documentation), not folded.
pub fn generate(
    index: &Index,
    rules: &Rules,
    exceptions: &Exceptions,
    letters: Alphabet,
) -> (Vec<Pair>, Counts) {
    let word = |text: &str| !text.is_empty() && text.chars().all(letters);
    let mut counts = Counts::default();
    let mut lemmas: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (pos, of_pos) in index {
        let words: Vec<&str> = of_pos
            .iter()
            .map(String::as_str)
            .filter(|l| word(l))
            .collect();
        counts.junk += of_pos.len() - words.len();
        lemmas.insert(pos, words);
    }
    let every_lemma: HashSet<&str> = lemmas.values().flatten().copied().collect();
    // (part of speech, form, lemma), each once.
    let mut made: BTreeSet<(&str, String, &str)> = BTreeSet::new();
    for (&pos, of_pos) in &lemmas {
        for (form_suffix, lemma_suffix) in rules.get(pos).into_iter().flatten() {
            for &lemma in of_pos {
                let Some(stem) = lemma.strip_suffix(lemma_suffix.as_str()) else {
                    continue;
                };
                if !stem.is_empty() && form_suffix != lemma_suffix {
                    made.insert((pos, format!("{stem}{form_suffix}"), lemma));
                }
            }
        }
    }
    let mut pairs: Vec<Pair> = Vec::new();
    for (pos, form, lemma) in made {
        if every_lemma.contains(form.as_str()) {
            counts.lemma_forms += 1;
        } else if exceptions
            .get(pos)
            .is_some_and(|of_pos| of_pos.contains_key(&form))
        {
            counts.excepted += 1;
        } else {
            pairs.push((form, lemma.to_string()));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    counts.generated = pairs.len();
    let words = |text: &str| text.split(' ').all(word);
    let mut excepted: BTreeSet<Pair> = BTreeSet::new();
    for (form, lemmas) in exceptions.values().flatten() {
        for lemma in lemmas {
            if words(form) && words(lemma) {
                excepted.insert((form.clone(), lemma.clone()));
            } else {
                counts.junk += 1;
            }
        }
    }
    counts.exceptions = excepted.len();
    pairs.extend(excepted);
    (pairs, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn greek(c: char) -> bool {
        alphabet("el").unwrap()(c)
    }

    fn index(tables: &[(&str, &[&str])]) -> Index {
        tables
            .iter()
            .map(|(pos, lemmas)| {
                (
                    pos.to_string(),
                    lemmas.iter().map(|l| l.to_string()).collect(),
                )
            })
            .collect()
    }

    fn rules(tables: &[(&str, &[(&str, &str)])]) -> Rules {
        tables
            .iter()
            .map(|(pos, rules)| {
                let rules = rules
                    .iter()
                    .map(|(form, lemma)| (form.to_string(), lemma.to_string()))
                    .collect();
                (pos.to_string(), rules)
            })
            .collect()
    }

    /// Exceptional forms and their lemmas, of one part of speech.
    type Forms<'a> = &'a [(&'a str, &'a [&'a str])];

    fn exceptions(tables: &[(&str, Forms)]) -> Exceptions {
        tables
            .iter()
            .map(|(pos, forms)| {
                let forms = forms
                    .iter()
                    .map(|(form, lemmas)| {
                        (
                            form.to_string(),
                            lemmas.iter().map(|l| l.to_string()).collect(),
                        )
                    })
                    .collect();
                (pos.to_string(), forms)
            })
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<Pair> {
        let mut pairs: Vec<Pair> = list
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        pairs.sort();
        pairs
    }

    fn sorted((mut got, counts): (Vec<Pair>, Counts)) -> (Vec<Pair>, Counts) {
        got.sort();
        (got, counts)
    }

    #[test]
    fn a_rule_makes_forms_of_the_lemmas_ending_in_its_lemma_suffix() {
        let got = sorted(generate(
            &index(&[("noun", &["πρόβατο", "δρόμος", "ουρανός"])]),
            &rules(&[("noun", &[("α", "ο"), ("ου", "ος"), ("ού", "ός")])]),
            &Exceptions::new(),
            greek,
        ));
        assert_eq!(
            got.0,
            pairs(&[
                ("δρόμου", "δρόμος"),
                ("ουρανού", "ουρανός"),
                ("πρόβατα", "πρόβατο"),
            ])
        );
        assert_eq!(got.1.generated, 3);
    }

    #[test]
    fn parts_of_speech_are_kept_apart() {
        // The verb rule `εις` ← `ω` makes no noun form, nor the noun rule a
        // verb's; `punct` and `propn` rules have no lemmas to apply to.
        let (got, _) = sorted(generate(
            &index(&[("noun", &["πρόβατο"]), ("verb", &["γράφω"])]),
            &rules(&[
                ("noun", &[("α", "ο")]),
                ("verb", &[("εις", "ω")]),
                ("punct", &[("“", "\"")]),
                ("propn", &[("ου", "ος")]),
            ]),
            &Exceptions::new(),
            greek,
        ));
        assert_eq!(got, pairs(&[("γράφεις", "γράφω"), ("πρόβατα", "πρόβατο")]));
    }

    #[test]
    fn exceptions_are_kept_as_they_are_and_override_the_rules() {
        let (got, counts) = sorted(generate(
            &index(&[("noun", &["ριζά", "ρίζα"]), ("adj", &["καφέ"])]),
            &rules(&[("noun", &[("ών", "ά")])]),
            &exceptions(&[
                ("det", &[("του", &["το"]), ("οι", &["ο", "η"])]),
                // `καφέ`, a lemma of the index (the colour), is given by
                // hand as a form of the noun `καφές`: kept.
                ("noun", &[("ριζών", &["ρίζα"]), ("καφέ", &["καφές"])]),
                ("propn", &[("Γλυκών Νερών", &["Γλυκά Νερά"])]),
            ]),
            greek,
        ));
        assert_eq!(
            got,
            pairs(&[
                ("Γλυκών Νερών", "Γλυκά Νερά"),
                ("καφέ", "καφές"),
                ("οι", "η"),
                ("οι", "ο"),
                ("ριζών", "ρίζα"),
                ("του", "το"),
            ])
        );
        assert_eq!((counts.exceptions, counts.excepted), (6, 1));
    }

    #[test]
    fn junk_of_the_index_and_the_exceptions_is_left_out() {
        let (got, counts) = sorted(generate(
            &index(&[(
                "noun",
                &[
                    "βοήθεια:γρήγορη",
                    "ράδιο/δοκιμή2",
                    "τ'",
                    "ντουμ-ντουμ",
                    "ιστοκλαδόγραµµα",
                    "sofa",
                    "τριχιά",
                ],
            )]),
            &rules(&[("noun", &[("ές", "ά"), ("α", "ο"), ("s", "a")])]),
            &exceptions(&[("verb", &[("έπαιζαν", &["παίζω,"])])]),
            greek,
        ));
        assert_eq!(got, pairs(&[("τριχιές", "τριχιά")]));
        assert_eq!(counts.junk, 7);
    }

    #[test]
    fn a_made_form_that_is_a_lemma_is_dropped() {
        // `πια` ("any more", an adverb) is no form of `πι`, nor `αρλούμπα`
        // of `αρλούμπας`; `ες` is no form of the letter `α` (no stem).
        let (got, counts) = sorted(generate(
            &index(&[
                ("noun", &["πι", "αρλούμπας", "αρλούμπα", "α"]),
                ("adv", &["πια"]),
            ]),
            &rules(&[(
                "noun",
                &[("ια", "ι"), ("α", "ας"), ("ας", "α"), ("ες", "α")],
            )]),
            &Exceptions::new(),
            greek,
        ));
        assert_eq!(got, pairs(&[("αρλούμπες", "αρλούμπα")]));
        assert_eq!(counts.lemma_forms, 3);
    }

    #[test]
    fn the_tables_are_read_from_a_directory() {
        let dir = std::env::temp_dir().join(format!("rule-forms-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(read(&dir, "el").unwrap().is_none());
        std::fs::write(dir.join("el_lemma_rules.json"), r#"{"noun": [["α", "ο"]]}"#).unwrap();
        let err = read(&dir, "el").unwrap_err().to_string();
        assert!(
            err.ends_with("no el_lemma_index.json[.gz] beside it"),
            "{err}"
        );
        std::fs::write(dir.join("el_lemma_index.json"), r#"{"noun": ["πρόβατο"]}"#).unwrap();
        std::fs::write(dir.join("el_lemma_exc.json"), r#"{"det": {"του": ["το"]}}"#).unwrap();
        let (got, _) = sorted(read(&dir, "el").unwrap().unwrap());
        assert_eq!(got, pairs(&[("πρόβατα", "πρόβατο"), ("του", "το")]));
        std::fs::write(dir.join("xx_lemma_rules.json"), "{}").unwrap();
        let err = read(&dir, "xx").unwrap_err().to_string();
        assert!(err.contains("no alphabet of xx"), "{err}");
        std::fs::write(dir.join("el_lemma_exc.json"), r#"{"det": ["το"]}"#).unwrap();
        let err = read(&dir, "el").unwrap_err().to_string();
        assert!(err.contains("not a table of the expected shape"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
