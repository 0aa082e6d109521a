//! Inflected forms of a language from **lemma lookup tables**: JSON objects
//! from an inflected form to its lemma (`{"ging": "gehen"}`) or to a list of
//! lemmas (`{"yeux": ["oeil"]}`), as the `spacy-lookups-data` package ships
//! them (`<lang>_lemma_lookup.json`, and per part of speech
//! `<lang>_lemma_lookup_<pos>.json`; gzipped in the wheel), which
//! infra/scripts/lemma-lookups.sh unpacks. Irregular forms are in the tables
//! as they are (`ging` → `gehen`, `yeux` → `œil`, `Bücher` → `Buch`,
//! `uomini` → `uomo`).
//!
//! Some tables are **double-encoded**: their UTF-8 text was once read as
//! Latin-1 and written out as UTF-8 again, so `à` (bytes `C3 A0`) became the
//! two characters `Ã` and U+00A0 (`avrÃ\u{a0}` for `avrà`). spacy-lookups-data
//! 1.0.5's Italian part-of-speech tables (from Morph-it!) are so, every
//! accented word of them. [`undo_double_encoding`] detects such a table as a
//! whole and undoes that one step: each string's characters, all below
//! U+0100, back to the Latin-1 bytes they were read from, and those bytes read
//! as the UTF-8 they are.
//!
//! A language that also has a Hunspell dictionary or WordNet gets one list of
//! them all, merged by [`merge`] (docs/data-model.md, "Merging the sources"):
//! the union of the pairs, less Hunspell's **derivations**. A Hunspell
//! dictionary makes derived words with the affixes of their base
//! (`Zeit/…` gives `Zeitung`, `Zeitungen`), so `hunspell -s` stems them to
//! the base (`Zeitungen` → `Zeit`, `abrazos` → `brazo`); a lookup table holds
//! inflections only and names the lemma a form inflects (`Zeitungen` →
//! `Zeitung`). A Hunspell pair `form → stem` is dropped when the table gives
//! the form a lemma that Hunspell itself derives from that stem, that Hunspell
//! does not give the form as a stem (it reaches the form only through the
//! derivative), and that the table does not make a form of the stem: the
//! form inflects a derivative of the stem, not the stem. The derivative's
//! own pair (`Zeitung` → `Zeit`) goes with it.

use super::{hunspell_forms, rule_forms, wordnet_forms, LexiconError, WordList};
use crate::formats::source::{self, DEFAULT_MAX_SOURCE_BYTES};
use shared::fold::fold;
use shared::search::lexicon::{LexiconKind, Pair};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The sources of one language's list besides its lookup tables.
#[derive(Debug, Default)]
pub struct Others<'a> {
    /// A Hunspell dictionary, `.aff` and `.dic`.
    pub hunspell: Option<(&'a Path, &'a Path)>,
    /// A WordNet directory (English).
    pub wordnet: Option<&'a Path>,
}

/// What merging took from each source, for the command's report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merged {
    pub tables: usize,
    pub hunspell: usize,
    pub wordnet: usize,
    /// Hunspell pairs dropped as derivations.
    pub derivations: usize,
    /// The tables found double-encoded, and read repaired (file names).
    pub repaired: Vec<String>,
    /// What the rule tables gave, when the language has them.
    pub rules: Option<rule_forms::Counts>,
}

/// The forms of `lang`: its tables in `dir`, merged with the other sources.
pub fn read(
    lang: &str,
    dir: &Path,
    others: &Others,
    origin: String,
    licence: String,
) -> Result<(WordList, Merged), LexiconError> {
    let mut tables = Vec::new();
    let mut repaired = Vec::new();
    let files = table_files(dir, lang)?;
    let rules = rule_forms::read(dir, lang)?;
    if files.is_empty() && rules.is_none() {
        return Err(LexiconError::Input {
            path: dir.to_path_buf(),
            message: format!(
                "no lemma lookup table of {lang} ({lang}_lemma_lookup*.json or .json.gz) \
                 nor rule tables ({lang}_lemma_rules.json or .json.gz)"
            ),
        });
    }
    for path in files {
        let bytes = source::read(&path, DEFAULT_MAX_SOURCE_BYTES)?;
        let pairs = parse_table(&path, &bytes)?;
        match undo_double_encoding(&pairs) {
            Some(pairs) => {
                repaired.push(
                    path.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                );
                tables.extend(pairs);
            }
            None => tables.extend(pairs),
        }
    }
    let rule_counts = rules.map(|(pairs, counts)| {
        tables.extend(pairs);
        counts
    });
    let tables = folded(tables);
    let hunspell = match others.hunspell {
        Some((aff, dic)) => {
            hunspell_forms::read(lang, aff, dic, None, String::new(), String::new())?.pairs
        }
        None => Vec::new(),
    };
    let wordnet = match others.wordnet {
        Some(dir) => wordnet_forms::read(dir)?.pairs,
        None => Vec::new(),
    };
    let (pairs, mut merged) = merge(tables, hunspell, wordnet);
    merged.repaired = repaired;
    merged.rules = rule_counts;
    let list = WordList::from_folded(LexiconKind::Forms, lang, origin, licence, pairs);
    Ok((list, merged))
}

/// The lookup tables of `lang` in `dir`, sorted: `<lang>_lemma_lookup.json`
/// and `<lang>_lemma_lookup_<pos>.json`, each gzipped (`.json.gz`) or not.
pub fn table_files(dir: &Path, lang: &str) -> Result<Vec<PathBuf>, LexiconError> {
    let entries = std::fs::read_dir(dir).map_err(|e| LexiconError::Input {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let prefix = format!("{lang}_lemma_lookup");
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                return false;
            };
            let Some(stem) = name
                .strip_suffix(".json.gz")
                .or_else(|| name.strip_suffix(".json"))
            else {
                return false;
            };
            stem == prefix
                || stem
                    .strip_prefix(&prefix)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|pos| {
                        !pos.is_empty() && pos.chars().all(|c| c.is_ascii_lowercase())
                    })
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The `(form, lemma)` pairs of one table, as written (not folded).
pub fn parse_table(path: &Path, bytes: &[u8]) -> Result<Vec<Pair>, LexiconError> {
    let bad = |message: String| LexiconError::Input {
        path: path.to_path_buf(),
        message,
    };
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes).map_err(|e| bad(format!("not a JSON object: {e}")))?;
    let mut pairs = Vec::with_capacity(table.len());
    for (form, lemmas) in table {
        match lemmas {
            serde_json::Value::String(lemma) => pairs.push((form, lemma)),
            serde_json::Value::Array(lemmas) => {
                for lemma in lemmas {
                    let serde_json::Value::String(lemma) = lemma else {
                        return Err(bad(format!("{form:?}: a lemma that is not a string")));
                    };
                    pairs.push((form.clone(), lemma));
                }
            }
            other => {
                return Err(bad(format!(
                    "{form:?}: {other} is neither a lemma nor a list of lemmas"
                )))
            }
        }
    }
    Ok(pairs)
}

/// The pairs of a double-encoded table repaired (see the module's
/// documentation), or `None` when the table is not double-encoded: when it
/// has no text beyond ASCII, or some string beyond ASCII that is not the
/// Latin-1 reading of UTF-8 (a character above U+00FF, or bytes that are not
/// UTF-8: `é` alone is byte `E9`, never UTF-8). The table is judged as a
/// whole, as it was written: one string that is text as it should be keeps
/// every string as it is.
pub fn undo_double_encoding(pairs: &[Pair]) -> Option<Vec<Pair>> {
    let mut any = false;
    for (form, lemma) in pairs {
        for text in [form, lemma] {
            if !text.is_ascii() {
                latin1_as_utf8(text)?;
                any = true;
            }
        }
    }
    if !any {
        return None;
    }
    let repair = |text: &String| latin1_as_utf8(text).unwrap_or_else(|| text.clone());
    Some(
        pairs
            .iter()
            .map(|(form, lemma)| (repair(form), repair(lemma)))
            .collect(),
    )
}

/// `text`'s characters as the Latin-1 bytes they encode, read as UTF-8;
/// `None` if a character is above U+00FF, or the bytes are not UTF-8.
fn latin1_as_utf8(text: &str) -> Option<String> {
    let bytes = text
        .chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

/// Both sides folded; pairs with an empty side or whose form folds to its
/// lemma dropped.
fn folded(pairs: Vec<Pair>) -> Vec<Pair> {
    pairs
        .into_iter()
        .map(|(form, lemma)| (fold(&form), fold(&lemma)))
        .filter(|(form, lemma)| !form.is_empty() && !lemma.is_empty() && form != lemma)
        .collect()
}

/// One language's list from its sources, all folded: the union of the
/// tables', Hunspell's and WordNet's pairs, less Hunspell's derivations (see
/// the module's documentation). A form whose sources disagree keeps every
/// lemma; the API orders a form's lemmas (most common first, then the one
/// spelled most like the form), not the list.
pub fn merge(tables: Vec<Pair>, hunspell: Vec<Pair>, wordnet: Vec<Pair>) -> (Vec<Pair>, Merged) {
    let dropped = derivations(&tables, &hunspell);
    let mut merged = Merged {
        tables: tables.len(),
        hunspell: hunspell.len(),
        wordnet: wordnet.len(),
        derivations: 0,
        repaired: Vec::new(),
        rules: None,
    };
    let mut pairs = tables;
    for pair in hunspell {
        if dropped.contains(&pair) {
            merged.derivations += 1;
        } else {
            pairs.push(pair);
        }
    }
    pairs.extend(wordnet);
    (pairs, merged)
}

/// The Hunspell pairs that are derivations: `form → stem` where the tables
/// give the form a lemma `l` (not the stem) such that Hunspell has
/// `l → stem` but not `form → l`, and the tables have no `l → stem`; and
/// each such `l → stem` itself.
fn derivations(tables: &[Pair], hunspell: &[Pair]) -> HashSet<Pair> {
    fn by_form(pairs: &[Pair]) -> HashMap<&str, HashSet<&str>> {
        let mut map: HashMap<&str, HashSet<&str>> = HashMap::new();
        for (form, lemma) in pairs {
            map.entry(form).or_default().insert(lemma);
        }
        map
    }
    let table = by_form(tables);
    let stems = by_form(hunspell);
    let none = HashSet::new();
    let mut dropped = HashSet::new();
    for (form, stem) in hunspell {
        let lemmas = table.get(form.as_str()).unwrap_or(&none);
        if lemmas.contains(stem.as_str()) {
            continue;
        }
        let form_stems = stems.get(form.as_str()).unwrap_or(&none);
        for &lemma in lemmas {
            let derived = stems
                .get(lemma)
                .is_some_and(|of_lemma| of_lemma.contains(stem.as_str()))
                && !form_stems.contains(lemma)
                && !table
                    .get(lemma)
                    .is_some_and(|of_lemma| of_lemma.contains(stem.as_str()));
            if derived {
                dropped.insert((form.clone(), stem.clone()));
                dropped.insert((lemma.to_string(), stem.clone()));
            }
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<Pair> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn a_table_maps_a_form_to_a_lemma_or_a_list_of_them() {
        let path = Path::new("fr_lemma_lookup.json");
        let table = br#"{"yeux": ["oeil"], "allees": ["aller", "allee"], "ging": "gehen"}"#;
        let mut got = parse_table(path, table).unwrap();
        got.sort();
        assert_eq!(
            got,
            pairs(&[
                ("allees", "allee"),
                ("allees", "aller"),
                ("ging", "gehen"),
                ("yeux", "oeil")
            ])
        );
        let err = parse_table(path, br#"{"x": 3}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "fr_lemma_lookup.json: \"x\": 3 is neither a lemma nor a list of lemmas"
        );
        assert!(parse_table(path, b"[1]")
            .unwrap_err()
            .to_string()
            .contains("not a JSON object"));
    }

    #[test]
    fn a_double_encoded_table_is_read_as_it_was_written() {
        // As Morph-it!'s tables are in spacy-lookups-data 1.0.5: every
        // accented word double-encoded (`avrà`, `ciò`, `perché`).
        let moji = pairs(&[
            ("avrÃ\u{a0}", "avere"),
            ("ciÃ²", "ciÃ²"),
            ("perchÃ©", "perchÃ©"),
            ("uomini", "uomo"),
        ]);
        assert_eq!(
            undo_double_encoding(&moji),
            Some(pairs(&[
                ("avrà", "avere"),
                ("ciò", "ciò"),
                ("perché", "perché"),
                ("uomini", "uomo"),
            ]))
        );
        // Text as it should be is left alone: `é` alone is not UTF-8, and a
        // character above U+00FF cannot have been read as Latin-1.
        for clean in [
            pairs(&[("allées", "allée")]),
            pairs(&[("Bücher", "Buch")]),
            pairs(&[("książki", "książka")]),
            pairs(&[("книги", "книга")]),
            pairs(&[("houses", "house")]),
        ] {
            assert_eq!(undo_double_encoding(&clean), None, "{clean:?}");
        }
        // One string as it should be: the table is not double-encoded, and
        // no string of it is touched.
        let mixed = pairs(&[("perchÃ©", "perchÃ©"), ("città", "città")]);
        assert_eq!(undo_double_encoding(&mixed), None);
    }

    #[test]
    fn a_double_encoded_table_file_is_repaired_when_read() {
        let dir = std::env::temp_dir().join(format!("lookup-forms-moji-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("it_lemma_lookup_verb.json"),
            r#"{"avrÃ²": "avere", "andÃ²": "andare"}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("it_lemma_lookup.json"),
            r#"{"città": "città", "uomini": "uomo"}"#,
        )
        .unwrap();
        let (list, merged) =
            read("it", &dir, &Others::default(), String::new(), String::new()).unwrap();
        assert_eq!(merged.repaired, ["it_lemma_lookup_verb.json"]);
        assert_eq!(
            list.pairs,
            pairs(&[("ando", "andare"), ("avro", "avere"), ("uomini", "uomo")])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_tables_of_a_language_are_its_lookup_and_its_parts_of_speech() {
        let dir = std::env::temp_dir().join(format!("lookup-forms-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "it_lemma_lookup.json.gz",
            "it_lemma_lookup_noun.json",
            "it_lemma_lookup_verb.json.gz",
            "it_lemma_index.json",
            "it_lemma_lookup_noun.txt",
            "en_lemma_lookup.json",
            "ita_lemma_lookup.json",
        ] {
            std::fs::write(dir.join(name), "{}").unwrap();
        }
        let names: Vec<String> = table_files(&dir, "it")
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "it_lemma_lookup.json.gz",
                "it_lemma_lookup_noun.json",
                "it_lemma_lookup_verb.json.gz"
            ]
        );
        assert!(table_files(&dir, "hu").unwrap().is_empty());
        let err = read("hu", &dir, &Others::default(), String::new(), String::new()).unwrap_err();
        assert!(err.to_string().ends_with(
            "no lemma lookup table of hu (hu_lemma_lookup*.json or .json.gz) \
             nor rule tables (hu_lemma_rules.json or .json.gz)"
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rule_tables_are_read_beside_the_lookup_tables_and_folded() {
        let dir = std::env::temp_dir().join(format!("lookup-forms-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("el_lemma_index.json"),
            r#"{"noun": ["πρόβατο", "ουρανός"]}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("el_lemma_rules.json"),
            r#"{"noun": [["α", "ο"], ["ού", "ός"], ["οί", "ός"]]}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("el_lemma_exc.json"),
            r#"{"det": {"τους": ["το"]}, "propn": {"Αιγύπτου": ["Αίγυπτος"]}}"#,
        )
        .unwrap();
        let (list, merged) =
            read("el", &dir, &Others::default(), String::new(), String::new()).unwrap();
        // Accents and case folded, the final sigma written as sigma.
        assert_eq!(
            list.pairs,
            pairs(&[
                ("αιγυπτου", "αιγυπτοσ"),
                ("ουρανοι", "ουρανοσ"),
                ("ουρανου", "ουρανοσ"),
                ("προβατα", "προβατο"),
                ("τουσ", "το"),
            ])
        );
        let rules = merged.rules.unwrap();
        assert_eq!((rules.generated, rules.exceptions), (3, 2));
        assert_eq!(merged.tables, 5);
        // A lookup table of the language joins them.
        std::fs::write(dir.join("el_lemma_lookup.json"), r#"{"ήταν": "είμαι"}"#).unwrap();
        let (list, _) = read("el", &dir, &Others::default(), String::new(), String::new()).unwrap();
        assert_eq!(list.pairs.len(), 6);
        assert!(list.pairs.contains(&("ηταν".into(), "ειμαι".into())));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tables_are_folded_and_forms_of_themselves_dropped() {
        assert_eq!(
            folded(pairs(&[
                ("Bücher", "Buch"),
                ("yeux", "œil"),
                ("Haus", "haus"),
                ("", "x")
            ])),
            pairs(&[("bucher", "buch"), ("yeux", "oeil")])
        );
    }

    #[test]
    fn merging_keeps_every_lemma_of_a_form_the_sources_disagree_on() {
        // The table knows one lemma of `casas` (the verb), Hunspell both.
        let (mut merged, counts) = merge(
            pairs(&[("casas", "casar"), ("ojos", "ojo")]),
            pairs(&[("casas", "casa"), ("casas", "casar")]),
            Vec::new(),
        );
        merged.sort();
        merged.dedup();
        assert_eq!(
            merged,
            pairs(&[("casas", "casa"), ("casas", "casar"), ("ojos", "ojo")])
        );
        assert_eq!(counts.derivations, 0);
    }

    #[test]
    fn hunspell_derivations_give_way_to_the_lemma_the_form_inflects() {
        // Hunspell's German dictionary, as `hunspell -s` stems: `Zeitung` and
        // its plural to `Zeit`, `Häuser` to `Haus`. The table: `Zeitungen` to
        // `Zeitung`, `Häuser` to `Haus`.
        let hunspell = pairs(&[
            ("zeitungen", "zeit"),
            ("zeitung", "zeit"),
            ("hauser", "haus"),
            ("zeiten", "zeit"),
        ]);
        let tables = pairs(&[
            ("zeitungen", "zeitung"),
            ("hauser", "haus"),
            ("zeiten", "zeit"),
        ]);
        let (mut merged, counts) = merge(tables, hunspell, Vec::new());
        merged.sort();
        merged.dedup();
        assert_eq!(
            merged,
            pairs(&[
                ("hauser", "haus"),
                ("zeiten", "zeit"),
                ("zeitungen", "zeitung")
            ])
        );
        assert_eq!(counts.derivations, 2);
    }

    #[test]
    fn homographs_and_participles_are_not_derivations() {
        // French `copies`: Hunspell stems it to the noun `copie` and the verb
        // `copier` (tu copies), and `copie` to `copier`; the table has only
        // the noun. Hunspell gives `copies` → `copie` itself, so `copier` is
        // not reached through `copie`: both stay.
        let hunspell = pairs(&[
            ("copies", "copie"),
            ("copies", "copier"),
            ("copie", "copier"),
        ]);
        let (merged, counts) = merge(pairs(&[("copies", "copie")]), hunspell.clone(), Vec::new());
        assert_eq!(counts.derivations, 0);
        assert!(hunspell.iter().all(|p| merged.contains(p)));
        // German `gegangene` → `gegangen` (table), which the table makes a
        // form of `gehen`: an inflection of an inflection, kept.
        let (merged, counts) = merge(
            pairs(&[("gegangene", "gegangen"), ("gegangen", "gehen")]),
            pairs(&[("gegangene", "gehen"), ("gegangen", "gehen")]),
            Vec::new(),
        );
        assert_eq!(counts.derivations, 0);
        assert!(merged.contains(&("gegangene".into(), "gehen".into())));
    }

    #[test]
    fn wordnet_pairs_join_the_union_untouched() {
        let (merged, counts) = merge(
            pairs(&[("went", "go")]),
            Vec::new(),
            pairs(&[("went", "go"), ("geese", "goose")]),
        );
        assert_eq!(
            counts,
            Merged {
                tables: 1,
                hunspell: 0,
                wordnet: 2,
                derivations: 0,
                repaired: Vec::new(),
                rules: None,
            }
        );
        let list = WordList::from_folded(
            LexiconKind::Forms,
            "en",
            String::new(),
            String::new(),
            merged,
        );
        assert_eq!(list.pairs, pairs(&[("geese", "goose"), ("went", "go")]));
    }

    #[test]
    fn the_fixture_tables_give_the_forms_the_black_box_tests_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/lemma-lookups");
        for (lang, form, lemma) in [
            ("de", "ging", "gehen"),
            ("de", "Bücher", "Buch"),
            ("fr", "yeux", "œil"),
            ("it", "uomini", "uomo"),
            // Of the double-encoded part-of-speech tables, repaired.
            ("it", "andrò", "andare"),
            ("it", "sarà", "essere"),
            ("en", "went", "go"),
        ] {
            let (list, _) = read(lang, &dir, &Others::default(), String::new(), String::new())
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(
                list.pairs.binary_search(&(fold(form), fold(lemma))).is_ok(),
                "{lang}: {form} → {lemma}"
            );
        }
    }
}
