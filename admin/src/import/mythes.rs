//! MyThes thesauri (`th_<locale>_v2.dat`, as LibreOffice and Debian's
//! `mythes-*` ship them): a first line naming the encoding, then per headword a
//! line `word|n` followed by `n` meaning lines `(pos)|term|term (annotation)|…`.
//! The `.idx` beside it only maps words to byte offsets for random access; a
//! full import reads the `.dat` from start to end.
//!
//! A thesaurus becomes the monolingual dictionary `mythes-<ll>`: an entry
//! per headword listing its meanings, and a thesaurus link per related term.

use super::dictionary::{entry_id, links_of, ImportedDictionary, Origin};
use super::entry_text::{EntryText, SenseText};
use super::error::ImportError;
use super::languages;
use crate::formats::source;
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub struct Headword {
    pub word: String,
    pub meanings: Vec<Meaning>,
    /// The 1-based line of `word|count`, for reports.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Meaning {
    /// As the file writes it (`(adj)`, `(Nom)`, `-`), without parentheses.
    pub part_of_speech: String,
    /// (relationship type of decisions.md, term)
    pub terms: Vec<(&'static str, String)>,
}

/// Decodes the file with the encoding its first line declares (UTF-8 or
/// ISO 8859-1/-15; invalid UTF-8 is replaced).
pub fn decode(bytes: &[u8]) -> String {
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let declared = String::from_utf8_lossy(first_line)
        .trim()
        .to_ascii_uppercase();
    if declared.starts_with("ISO8859") || declared.starts_with("ISO-8859") {
        bytes.iter().map(|&b| b as char).collect()
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// `fine (similar term)` → (`similar`, `fine`); the German thesaurus's
/// `Land (Oberbegriff)` → (`hypernym`, `Land`), its main-form marker
/// dropped from the usage labels (`(ugs., Hauptform)` → `(ugs.)`).
fn classify(term: &str) -> (&'static str, String) {
    let markers = [
        ("(antonym)", "antonym"),
        ("(similar term)", "similar"),
        ("(generic term)", "hypernym"),
        ("(related term)", "related"),
        ("(Oberbegriff)", "hypernym"),
        ("(Unterbegriff)", "hyponym"),
        ("(Gegenbegriff)", "antonym"),
        ("(Gegenwort)", "antonym"),
        ("(Antónimo)", "antonym"),
        // Spanish files whose `ó` is a replacement character, read as Latin-1.
        ("(Antï¿½nimo)", "antonym"),
    ];
    let term = term.trim();
    for (marker, kind) in markers {
        if let Some(word) = term.strip_suffix(marker) {
            return (kind, without_main_form(word.trim()));
        }
    }
    ("synonym", without_main_form(term))
}

/// The labels of a term without `Hauptform`, which marks the preferred
/// spelling rather than a usage.
fn without_main_form(term: &str) -> String {
    // Labels follow the word after a space; `interessieren(d)` is a word.
    let Some(open) = term
        .rfind(" (")
        .map(|space| space + 1)
        .filter(|_| term.ends_with(')'))
    else {
        return term.to_string();
    };
    let labels: Vec<&str> = term[open + 1..term.len() - 1]
        .split(',')
        .map(str::trim)
        .filter(|label| *label != "Hauptform")
        .collect();
    let word = term[..open].trim_end();
    if labels.is_empty() {
        word.to_string()
    } else {
        format!("{word} ({})", labels.join(", "))
    }
}

pub fn parse(path: &Path, text: &str) -> Result<Vec<Headword>, ImportError> {
    let bad = |line: usize, message: &str| ImportError::Line {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    };
    let mut lines = text.lines().enumerate().skip(1);
    let mut headwords = Vec::new();
    while let Some((n, line)) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let (word, count) = line
            .rsplit_once('|')
            .ok_or_else(|| bad(n + 1, "expected word|count"))?;
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| bad(n + 1, "meaning count is not a number"))?;
        // No capacity from the file's own count: `word|99999999999` would
        // ask for terabytes. The meanings grow with the lines that are there.
        let mut meanings = Vec::new();
        for _ in 0..count {
            let (m, meaning) = lines
                .next()
                .ok_or_else(|| bad(n + 1, "file ends before all meanings of this word"))?;
            let mut fields = meaning.split('|');
            let pos = fields
                .next()
                .unwrap_or_default()
                .trim()
                .trim_start_matches('(')
                .trim_end_matches(')');
            let terms: Vec<_> = fields
                .filter(|t| !t.trim().is_empty())
                .map(classify)
                .collect();
            if terms.is_empty() && !meaning.contains('|') {
                return Err(bad(m + 1, "expected (pos)|term|…"));
            }
            meanings.push(Meaning {
                part_of_speech: pos.to_string(),
                terms,
            });
        }
        headwords.push(Headword {
            word: word.trim().to_string(),
            meanings,
            line: n + 1,
        });
    }
    Ok(headwords)
}

/// Reads a `.dat` (or a gzipped `.dat.gz`) of at most `max_source_bytes`.
pub fn read(path: &Path, max_source_bytes: u64) -> Result<Vec<Headword>, ImportError> {
    let bytes = source::read(path, max_source_bytes)?;
    parse(path, &decode(&bytes))
}

/// MyThes part-of-speech labels (English, French, German, Spanish files).
fn mythes_part_of_speech(label: &str) -> Option<&'static str> {
    match label.to_lowercase().as_str() {
        "adj" | "adjectif" | "adjetivo" | "adjektiv" => Some("adjective"),
        "noun" | "nom" | "nombre" | "sustantivo" | "substantiv" => Some("noun"),
        "verb" | "verbe" | "verbo" => Some("verb"),
        "adv" | "adverbe" | "adverbio" | "adverb" => Some("adverb"),
        _ => None,
    }
}

/// Reads a MyThes thesaurus (`th_<ll>_<CC>_v2.dat`) as dictionary
/// `mythes-<ll>`: an entry per headword listing its meanings, and its links.
pub fn import_mythes(
    path: &Path,
    max_source_bytes: u64,
) -> Result<ImportedDictionary, ImportError> {
    let file_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let lang = file_name
        .strip_prefix("th_")
        .and_then(|rest| rest.get(..2))
        .filter(|code| languages::name(code).is_some())
        .ok_or_else(|| ImportError::ThesaurusName(file_name.to_string()))?;
    let language = languages::name(lang).unwrap_or(lang);
    let dictionary_id = format!("mythes-{lang}");
    let dictionary_name = format!("{language} thesaurus (MyThes)");
    let licence = match lang {
        "en" => "WordNet",
        "es" => "LGPL-2.1-only",
        _ => "LGPL-2.1-or-later",
    };
    let headwords = read(path, max_source_bytes)?;
    let mut ordinals: HashMap<String, usize> = HashMap::new();
    let mut entries = Vec::with_capacity(headwords.len());
    let file: Arc<Path> = path.into();
    let mut origins = HashMap::with_capacity(headwords.len());
    for headword in &headwords {
        let ordinal = ordinals.entry(headword.word.clone()).or_insert(0);
        let id = entry_id(&dictionary_id, &headword.word, None, *ordinal);
        *ordinal += 1;
        origins.insert(
            id.clone(),
            Origin {
                file: file.clone(),
                line: headword.line,
            },
        );
        let (mut synonyms, mut antonyms) = (Vec::new(), Vec::new());
        let mut senses = Vec::new();
        for meaning in &headword.meanings {
            let terms: Vec<String> = meaning
                .terms
                .iter()
                .map(|(kind, term)| {
                    if *kind == "synonym" {
                        term.clone()
                    } else {
                        format!("{term} ({kind})")
                    }
                })
                .collect();
            senses.push(SenseText {
                labels: vec![meaning.part_of_speech.clone()],
                text: terms.join(", "),
                ..Default::default()
            });
            for (kind, term) in &meaning.terms {
                let list = match *kind {
                    "synonym" => &mut synonyms,
                    "antonym" => &mut antonyms,
                    _ => continue,
                };
                if !list.contains(term) && !term.eq_ignore_ascii_case(&headword.word) {
                    list.push(term.clone());
                }
            }
        }
        let mut text = EntryText::new(&headword.word, None, None);
        text.senses(senses);
        let (html, plain, _) = text.finish(false);
        entries.push(StoredEntry {
            entry: Entry {
                id,
                word: headword.word.clone(),
                html_content: html,
                plain_text: plain,
                source_lang: lang.to_string(),
                target_lang: None,
                dictionary_id: dictionary_id.clone(),
                dictionary_name: dictionary_name.clone(),
                part_of_speech: headword
                    .meanings
                    .first()
                    .and_then(|m| mythes_part_of_speech(&m.part_of_speech))
                    .map(Into::into),
                translations: Vec::new(),
                synonyms,
                antonyms,
                examples: Vec::new(),
                ..Default::default()
            },
            is_lemma: true,
            audio: vec![],
        });
    }
    let dictionary = Dictionary {
        dictionary_id: dictionary_id.clone(),
        dictionary_name,
        source_lang: lang.to_string(),
        target_lang: None,
        entry_count: entries.len() as u64,
        licence: licence.to_string(),
        origin: format!("Debian package mythes-{lang} ({file_name})"),
    };
    let links = links_of(
        &dictionary,
        headwords.iter().flat_map(|h| {
            h.meanings.iter().flat_map(move |m| {
                m.terms
                    .iter()
                    .map(move |(kind, term)| (h.word.as_str(), *kind, term.as_str()))
            })
        }),
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

    const SAMPLE: &str = "UTF-8\ngood|2\n(adj)|full|ample (similar term)|bad (antonym)\n(noun)|goodness|quality (generic term)|evil (antonym)\nbonasse|1\n(Adjectif)|faible|mou\n";

    #[test]
    fn parses_headwords_meanings_and_annotations() {
        let words = parse(Path::new("th.dat"), SAMPLE).unwrap();
        assert_eq!(words.len(), 2);
        assert_eq!(words[0].word, "good");
        assert_eq!((words[0].line, words[1].line), (2, 5));
        assert_eq!(words[0].meanings[0].part_of_speech, "adj");
        assert_eq!(
            words[0].meanings[0].terms,
            vec![
                ("synonym", "full".to_string()),
                ("similar", "ample".to_string()),
                ("antonym", "bad".to_string())
            ]
        );
        assert_eq!(
            words[0].meanings[1].terms[1],
            ("hypernym", "quality".to_string())
        );
        assert_eq!(words[1].meanings[0].part_of_speech, "Adjectif");
    }

    #[test]
    fn german_and_spanish_relation_annotations_give_the_relationship() {
        assert_eq!(classify("Land (Oberbegriff)"), ("hypernym", "Land".into()));
        assert_eq!(
            classify("Dackel (Unterbegriff)"),
            ("hyponym", "Dackel".into())
        );
        assert_eq!(classify("feo (Antónimo)"), ("antonym", "feo".into()));
        assert_eq!(classify("Auto (Hauptform)"), ("synonym", "Auto".into()));
        assert_eq!(
            classify("Auto (Hauptform) (Oberbegriff)"),
            ("hypernym", "Auto".into())
        );
        assert_eq!(classify("percatar(se)"), ("synonym", "percatar(se)".into()));
        assert_eq!(
            classify("Karre (ugs., Hauptform)"),
            ("synonym", "Karre (ugs.)".into())
        );
        assert_eq!(
            classify("etwas über (ugs.)"),
            ("synonym", "etwas über (ugs.)".into()),
            "usage labels stay"
        );
    }

    #[test]
    fn latin1_files_are_decoded() {
        let bytes = b"ISO8859-1\nni\xf1o|1\n-|chico\n";
        let words = parse(Path::new("es.dat"), &decode(bytes)).unwrap();
        assert_eq!(words[0].word, "niño");
    }

    #[test]
    fn truncated_files_name_the_line() {
        let err = parse(Path::new("th_en_US_v2.dat"), "UTF-8\ngood|3\n(adj)|fine\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "th_en_US_v2.dat: line 2: file ends before all meanings of this word"
        );
        let err = parse(Path::new("x.dat"), "UTF-8\ngood|many\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2: meaning count"));
    }

    #[test]
    fn a_file_name_without_a_known_language_is_refused_as_mythes_names_go() {
        let dir = std::env::temp_dir().join(format!("mythes-name-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("th_qq_QQ_v2.dat");
        std::fs::write(&path, "UTF-8\ngood|1\n(adj)|fine\n").unwrap();
        let err = import_mythes(&path, MAX).err().unwrap().to_string();
        assert!(
            err.starts_with("cannot tell the language of \"th_qq_QQ_v2.dat\""),
            "{err}"
        );
        assert!(err.contains("th_<iso639-1>_<country>_v2.dat") && !err.contains("FreeDict"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn mythes_fixtures_give_entries_and_links_in_four_languages() {
        let en = import_mythes(&fixture("mythes/th_en_US_v2.dat"), MAX).unwrap();
        assert_eq!(en.dictionary.dictionary_id, "mythes-en");
        assert_eq!(en.dictionary.dictionary_name, "English thesaurus (MyThes)");
        let good = find(&en, "good", None);
        assert!(
            good.antonyms.contains(&"bad".to_string()),
            "{:?}",
            good.antonyms
        );
        assert!(en
            .links
            .iter()
            .any(|(h, l)| h == "good" && l.relationship_type == "similar"));
        assert!(en
            .links
            .iter()
            .any(|(h, l)| h == "good" && l.relationship_type == "hypernym"));

        let es = import_mythes(&fixture("mythes/th_es_ES_v2.dat"), MAX).unwrap();
        assert_eq!(es.dictionary.source_lang, "es");
        find(&es, "niño", None);
        assert!(es
            .links
            .iter()
            .any(|(h, l)| h == "bueno" && l.word == "excelente"));

        let fr = import_mythes(&fixture("mythes/th_fr_FR_v2.dat"), MAX).unwrap();
        assert_eq!(
            find(&fr, "bon", None).part_of_speech.as_deref(),
            Some("adjective")
        );
        let de = import_mythes(&fixture("mythes/th_de_DE_v2.dat"), MAX).unwrap();
        assert!(de
            .links
            .iter()
            .all(|(_, l)| l.source_lang == "de" && l.target_lang.is_none()));
    }
}
