//! FreeDict dictionaries: dictd databases (dictd.rs) whose articles the
//! FreeDict tools write as
//!
//! ```text
//! Haus /hˈaʊs/ <neut, n, sg>
//!  [adm.] establishment <n>, institution <n>
//!       "ein Haus bauen"  - build a house
//!    Synonyms: {Einrichtung}, {Institution}
//!  see: {Häuser}
//!          Note: sheet music
//! ```
//!
//! or, in older dictionaries, numbered senses (`1. à, au milieu de`). Known
//! quirks handled: espeak language-switch markers such as `(en)` inside the IPA,
//! index keys lower-cased (the headword is taken from the article), several
//! articles for one headword (merged into one entry per part of speech).
//!
//! Each database becomes the bilingual dictionary named like its file
//! (`freedict-eng-fra`), its languages read from that name and its licence
//! from its `00databaseinfo` article.

use super::dictd::Database;
use super::dictionary::{entry_id, synonym_links, ImportedDictionary, Origin};
use super::entry_text::{EntryText, SenseText};
use super::error::ImportError;
use super::languages;
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// One article, parsed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Article {
    pub headword: String,
    pub phonetic: Option<String>,
    pub part_of_speech: Option<String>,
    pub senses: Vec<Sense>,
    pub synonyms: Vec<String>,
    pub antonyms: Vec<String>,
    pub see_also: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sense {
    /// Domain labels such as `adm.` or `ugs.`.
    pub labels: Vec<String>,
    pub translations: Vec<String>,
    /// (source sentence, translation)
    pub examples: Vec<(String, String)>,
    pub notes: Vec<String>,
}

/// Parses one article; `None` when it has no headword line.
pub fn parse_article(text: &str) -> Option<Article> {
    let mut lines = text.lines();
    let header = lines.by_ref().find(|l| !l.trim().is_empty())?.trim();
    let mut article = parse_header(header)?;
    let mut current: Option<Sense> = None;
    for raw in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('"') {
            if let Some(example) = parse_example(line) {
                current
                    .get_or_insert_with(Sense::default)
                    .examples
                    .push(example);
            }
        } else if let Some(rest) = strip_label(line, &["Synonyms:", "Synonym:"]) {
            push_unique_all(&mut article.synonyms, braced_items(rest));
        } else if let Some(rest) = strip_label(line, &["Antonyms:", "Antonym:"]) {
            push_unique_all(&mut article.antonyms, braced_items(rest));
        } else if let Some(rest) = strip_label(line, &["see:", "See:"]) {
            push_unique_all(&mut article.see_also, braced_items(rest));
        } else if let Some(rest) = strip_label(line, &["Note:"]) {
            current
                .get_or_insert_with(Sense::default)
                .notes
                .push(rest.trim().to_string());
        } else {
            if let Some(done) = current.take() {
                article.senses.push(done);
            }
            current = Some(parse_sense(strip_sense_number(line)));
        }
    }
    article.senses.extend(current);
    Some(article)
}

/// `headword /ipa/ (abbr /ipa/) <pos, gender>`
fn parse_header(header: &str) -> Option<Article> {
    let end = [" /", " <", " ("]
        .iter()
        .filter_map(|m| header.find(m))
        .min()
        .unwrap_or(header.len());
    let headword = header[..end].trim().to_string();
    if headword.is_empty() {
        return None;
    }
    let rest = &header[end..];
    let phonetic = rest.find('/').and_then(|start| {
        let after = &rest[start + 1..];
        after
            .find('/')
            .map(|len| clean_ipa(&after[..len]))
            .filter(|ipa| !ipa.is_empty())
    });
    let part_of_speech = rest
        .rfind('<')
        .and_then(|start| {
            rest[start + 1..]
                .find('>')
                .map(|len| &rest[start + 1..start + 1 + len])
        })
        .and_then(part_of_speech_of_tags);
    Some(Article {
        headword,
        phonetic,
        part_of_speech,
        ..Article::default()
    })
}

/// Removes espeak-ng's language-switch markers (`(en)`, `(de)`, `(en-us)`) that
/// FreeDict's generated IPA sometimes contains.
pub fn clean_ipa(ipa: &str) -> String {
    let mut out = String::with_capacity(ipa.len());
    let mut rest = ipa;
    while let Some(open) = rest.find('(') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(')') {
            Some(close) if is_language_marker(&after[..close]) => rest = &after[close + 1..],
            _ => {
                out.push('(');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

fn is_language_marker(inside: &str) -> bool {
    let mut parts = inside.split('-');
    let first_ok = parts
        .next()
        .is_some_and(|p| (2..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_lowercase()));
    first_ok
        && parts.all(|p| (2..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The part of speech named by FreeDict's grammar tags (`neut, n, sg` → noun).
pub fn part_of_speech_of_tags(tags: &str) -> Option<String> {
    tags.split(',').map(str::trim).find_map(|tag| {
        let pos = match tag {
            "n" => "noun",
            "v" | "vt" | "vi" | "verb" => "verb",
            "adj" => "adjective",
            "adv" => "adverb",
            "prep" => "preposition",
            "pron" => "pronoun",
            "conj" => "conjunction",
            "interj" | "int" => "interjection",
            "num" => "numeral",
            "art" => "article",
            "abbr" => "abbreviation",
            "pn" | "prop" | "name" => "proper noun",
            "phr" | "phrase" => "phrase",
            "pref" | "prefix" => "prefix",
            "suff" | "suffix" => "suffix",
            "ptcl" | "part" | "particle" => "particle",
            "det" => "determiner",
            _ => return None,
        };
        Some(pos.to_string())
    })
}

fn strip_label<'a>(line: &'a str, labels: &[&str]) -> Option<&'a str> {
    labels.iter().find_map(|label| line.strip_prefix(label))
}

fn strip_sense_number(line: &str) -> &str {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(". ") {
        line[digits + 2..].trim()
    } else {
        line
    }
}

/// `[adm.] establishment <n>, institution <n>` → labels and translations.
fn parse_sense(text: &str) -> Sense {
    let mut labels = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    loop {
        let next = rest.find(['[', '<']);
        let Some(open) = next else {
            plain.push_str(rest);
            break;
        };
        plain.push_str(&rest[..open]);
        let closer = if rest.as_bytes()[open] == b'[' {
            ']'
        } else {
            '>'
        };
        match rest[open + 1..].find(closer) {
            Some(len) => {
                if closer == ']' {
                    labels.push(rest[open + 1..open + 1 + len].trim().to_string());
                }
                rest = &rest[open + 2 + len..];
            }
            None => {
                plain.push_str(&rest[open..]);
                break;
            }
        }
    }
    let mut translations = Vec::new();
    push_unique_all(
        &mut translations,
        plain
            .split([',', ';'])
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")),
    );
    Sense {
        labels,
        translations,
        ..Sense::default()
    }
}

/// `"ein Haus bauen"  - build a house`
fn parse_example(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('"')?;
    let close = inner.find('"')?;
    let source = inner[..close].trim().to_string();
    let translation = inner[close + 1..]
        .trim()
        .trim_start_matches('-')
        .trim()
        .to_string();
    (!source.is_empty()).then_some((source, translation))
}

/// `{a}, {b c}` → `["a", "b c"]`
fn braced_items(text: &str) -> Vec<String> {
    text.split('{')
        .skip(1)
        .filter_map(|part| {
            part.split_once('}')
                .map(|(item, _)| item.trim().to_string())
        })
        .filter(|item| !item.is_empty())
        .collect()
}

fn push_unique_all(list: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for item in items {
        if !item.is_empty() && !list.contains(&item) {
            list.push(item);
        }
    }
}

/// Merges articles of the same headword and part of speech, in order of first
/// appearance (FreeDict's deu-eng has one article per sense).
pub fn merge_articles(articles: Vec<Article>) -> Vec<Article> {
    let mut merged: Vec<Article> = Vec::new();
    let mut position = std::collections::HashMap::new();
    for article in articles {
        let key = (article.headword.clone(), article.part_of_speech.clone());
        match position.get(&key) {
            Some(&i) => {
                let target: &mut Article = &mut merged[i];
                if target.phonetic.is_none() {
                    target.phonetic = article.phonetic;
                }
                target.senses.extend(article.senses);
                push_unique_all(&mut target.synonyms, article.synonyms);
                push_unique_all(&mut target.antonyms, article.antonyms);
                push_unique_all(&mut target.see_also, article.see_also);
            }
            None => {
                position.insert(key, merged.len());
                merged.push(article);
            }
        }
    }
    merged
}

/// `freedict-eng-fra` → (`en`, `fr`).
pub fn freedict_languages(dictionary_id: &str) -> Option<(&'static str, &'static str)> {
    let pair = dictionary_id.strip_prefix("freedict-")?;
    let (source, target) = pair.split_once('-')?;
    Some((languages::iso639_1(source)?, languages::iso639_1(target)?))
}

/// The licence a FreeDict database declares in its `00databaseinfo`, as an
/// SPDX expression.
fn freedict_licence(info: &str) -> String {
    let flat = info.split_whitespace().collect::<Vec<_>>().join(" ");
    let gpl = flat.find("GNU General Public License").map(|at| {
        let window: String = flat[at..].chars().take(60).collect();
        if window.contains("version 3") || window.contains("ver. 3") || window.contains("GPLv3") {
            "GPL-3.0-or-later"
        } else {
            "GPL-2.0-or-later"
        }
    });
    let agpl = flat.contains("GNU Affero General Public License");
    match (gpl, agpl) {
        (Some(gpl), true) => format!("{gpl} AND AGPL-3.0-or-later"),
        (Some(gpl), false) => gpl.to_string(),
        (None, true) => "AGPL-3.0-or-later".to_string(),
        (None, false) if flat.contains("Creative Commons Attribution-ShareAlike") => {
            "CC-BY-SA-3.0".to_string()
        }
        (None, false) => "see the FreeDict database information".to_string(),
    }
}

/// Reads a FreeDict dictd database (`<prefix>.index` + `<prefix>.dict.dz`).
/// The dictionary id is the file name (`freedict-eng-fra`). No source file may
/// be (or decompress to) more than `max_source_bytes`.
pub fn import_freedict(
    prefix: &Path,
    max_source_bytes: u64,
) -> Result<ImportedDictionary, ImportError> {
    let dictionary_id = prefix
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ImportError::Name(prefix.display().to_string()))?
        .to_string();
    let (source_lang, target_lang) = freedict_languages(&dictionary_id)
        .ok_or_else(|| ImportError::Name(dictionary_id.clone()))?;
    let database = Database::open(prefix, max_source_bytes)?;
    let mut articles = Vec::new();
    // The first index line of every (headword, part of speech), which is
    // what merge_articles merges on.
    let mut first_lines: HashMap<(String, Option<String>), usize> = HashMap::new();
    for line in database.articles() {
        if let Some(article) = parse_article(&database.article(line)?) {
            first_lines
                .entry((article.headword.clone(), article.part_of_speech.clone()))
                .or_insert(line.line);
            articles.push(article);
        }
    }
    let index_file: Arc<Path> = database.index_path.as_path().into();
    let mut origins = HashMap::new();
    let dictionary_name = format!(
        "{}–{} (FreeDict)",
        languages::name(source_lang).unwrap_or(source_lang),
        languages::name(target_lang).unwrap_or(target_lang)
    );
    let licence = freedict_licence(&database.metadata("00databaseinfo").unwrap_or_default());
    let mut ordinals: HashMap<(String, Option<String>), usize> = HashMap::new();
    let entries: Vec<StoredEntry> = merge_articles(articles)
        .into_iter()
        .map(|article| {
            let ordinal = ordinals
                .entry((article.headword.clone(), article.part_of_speech.clone()))
                .or_insert(0);
            let id = entry_id(
                &dictionary_id,
                &article.headword,
                article.part_of_speech.as_deref(),
                *ordinal,
            );
            *ordinal += 1;
            if let Some(&line) =
                first_lines.get(&(article.headword.clone(), article.part_of_speech.clone()))
            {
                origins.insert(
                    id.clone(),
                    Origin {
                        file: index_file.clone(),
                        line,
                    },
                );
            }
            bilingual_entry(
                article,
                id,
                &dictionary_id,
                &dictionary_name,
                source_lang,
                target_lang,
            )
        })
        .collect();
    let dictionary = Dictionary {
        dictionary_id: dictionary_id.clone(),
        dictionary_name,
        source_lang: source_lang.to_string(),
        target_lang: Some(target_lang.to_string()),
        entry_count: entries.len() as u64,
        licence,
        origin: format!("Debian package dict-{dictionary_id}"),
    };
    // FreeDict's `Synonym: {…}` cross-references.
    let links = synonym_links(&dictionary, &entries);
    Ok(ImportedDictionary {
        dictionary,
        entries,
        links,
        origins,
    })
}

fn bilingual_entry(
    article: Article,
    id: String,
    dictionary_id: &str,
    dictionary_name: &str,
    source_lang: &str,
    target_lang: &str,
) -> StoredEntry {
    let mut translations: Vec<String> = Vec::new();
    let mut senses = Vec::new();
    for sense in &article.senses {
        for t in &sense.translations {
            if !translations.contains(t) {
                translations.push(t.clone());
            }
        }
        let examples = sense
            .examples
            .iter()
            .map(|(source, target)| {
                if target.is_empty() {
                    source.clone()
                } else {
                    format!("{source} — {target}")
                }
            })
            .collect();
        senses.push(SenseText {
            labels: sense.labels.clone(),
            text: sense.translations.join(", "),
            notes: sense.notes.clone(),
            examples,
        });
    }
    let mut text = EntryText::new(
        &article.headword,
        article.phonetic.as_deref(),
        article.part_of_speech.as_deref(),
    );
    text.senses(senses);
    text.word_list("synonyms", "Synonyms", &article.synonyms);
    text.word_list("see-also", "See also", &article.see_also);
    let (html, plain, examples) = text.finish(true);
    StoredEntry {
        entry: Entry {
            id,
            word: article.headword,
            html_content: html,
            plain_text: plain,
            source_lang: source_lang.to_string(),
            target_lang: Some(target_lang.to_string()),
            dictionary_id: dictionary_id.to_string(),
            dictionary_name: dictionary_name.to_string(),
            part_of_speech: article.part_of_speech,
            phonetic: article.phonetic,
            translations,
            synonyms: article.synonyms,
            antonyms: article.antonyms,
            examples,
            ..Default::default()
        },
        is_lemma: true,
        audio: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::fixtures::{find, fixture, MAX};

    const HAUS: &str = "Haus /hˈaʊs/ <neut, n, sg>\nhouse <n>\n      \"ein Haus bauen\"  - build a house\n      \"Haus der offenen Tür\"  - open house\n see: {Häuser}, {frei Haus}\n\n";

    #[test]
    fn parses_a_deu_eng_article() {
        let a = parse_article(HAUS).unwrap();
        assert_eq!(a.headword, "Haus");
        assert_eq!(a.phonetic.as_deref(), Some("hˈaʊs"));
        assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
        assert_eq!(a.senses.len(), 1);
        assert_eq!(a.senses[0].translations, vec!["house"]);
        assert_eq!(
            a.senses[0].examples[0],
            ("ein Haus bauen".to_string(), "build a house".to_string())
        );
        assert_eq!(a.see_also, vec!["Häuser", "frei Haus"]);
    }

    #[test]
    fn parses_numbered_senses_and_labels() {
        let a = parse_article("a /ə/\n1. à, au milie de, en\n2. un, quelqu'un\n").unwrap();
        assert_eq!(a.phonetic.as_deref(), Some("ə"));
        assert_eq!(a.part_of_speech, None);
        assert_eq!(a.senses[0].translations, vec!["à", "au milie de", "en"]);
        assert_eq!(a.senses[1].translations, vec!["un", "quelqu'un"]);

        let a = parse_article("Haus /hˈaʊs/ <neut, n, sg>\n [ugs.]  [mus.] volta bracket <n>\n         Note: sheet music\n   Synonym: {Voltenklammer}\n").unwrap();
        assert_eq!(a.senses[0].labels, vec!["ugs.", "mus."]);
        assert_eq!(a.senses[0].translations, vec!["volta bracket"]);
        assert_eq!(a.senses[0].notes, vec!["sheet music"]);
        assert_eq!(a.synonyms, vec!["Voltenklammer"]);
    }

    #[test]
    fn abbreviation_in_header_does_not_leak_into_headword() {
        let a = parse_article("Straße /ʃtɾˈɑːsə/ (Str. /ˌɛstˌeːˈɛɾ/) <fem, n, sg>\nstreet <n>\n")
            .unwrap();
        assert_eq!(a.headword, "Straße");
        assert_eq!(a.phonetic.as_deref(), Some("ʃtɾˈɑːsə"));
        assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
    }

    #[test]
    fn multi_word_headwords() {
        let a = parse_article("a few /ə fjuː/\nquelques\n").unwrap();
        assert_eq!(a.headword, "a few");
        assert_eq!(a.senses[0].translations, vec!["quelques"]);
    }

    #[test]
    fn espeak_language_markers_are_removed_from_ipa() {
        assert_eq!(clean_ipa("(en)bˈæŋk(de)"), "bˈæŋk");
        assert_eq!(clean_ipa("kˈɒmpjuːtɐ(en-us)"), "kˈɒmpjuːtɐ");
        assert_eq!(clean_ipa("a(ː)b"), "a(ː)b", "optional length marks stay");
    }

    #[test]
    fn merges_articles_of_one_headword_and_pos() {
        let first = parse_article("gut /ɡˈuːt/ <adj>\ngood <adj>\n   Synonym: {artig}\n").unwrap();
        let second =
            parse_article("gut /ɡˈuːt/ <adj>\nproficient <adj>\n   Synonym: {fähig}\n").unwrap();
        let noun = parse_article("Gut /ɡˈuːt/ <neut, n, sg>\nestate <n>\n").unwrap();
        let merged = merge_articles(vec![first, noun, second]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].senses.len(), 2);
        assert_eq!(merged[0].synonyms, vec!["artig", "fähig"]);
        assert_eq!(merged[1].headword, "Gut");
    }

    #[test]
    fn hostile_text_never_panics() {
        for text in [
            "",
            "\n\n",
            "/",
            "x /",
            "x <",
            "\"",
            "[",
            "1. ",
            "Synonyms: {",
            "a\n[b\n<c\n\"d",
        ] {
            let _ = parse_article(text);
        }
    }

    #[test]
    fn languages_come_from_the_name() {
        assert_eq!(freedict_languages("freedict-eng-fra"), Some(("en", "fr")));
        assert_eq!(freedict_languages("freedict-deu-eng"), Some(("de", "en")));
        assert_eq!(freedict_languages("wordnet"), None);
    }

    #[test]
    fn hostile_article_text_is_inert_in_html() {
        let article =
            parse_article("x /y/\n<script>alert(1)</script> <b onclick=\"steal()\">bold</b>\n")
                .unwrap();
        let stored = bilingual_entry(article, "id".into(), "freedict-eng-fra", "E–F", "en", "fr");
        let html = stored.entry.html_content;
        assert!(
            !html.contains("<script") && !html.contains("onclick="),
            "{html}"
        );
    }

    #[test]
    fn freedict_fixture_gives_ipa_translations_and_examples() {
        let imported = import_freedict(&fixture("freedict/freedict-eng-fra"), MAX).unwrap();
        assert_eq!(
            imported.dictionary.dictionary_name,
            "English–French (FreeDict)"
        );
        assert_eq!(imported.dictionary.licence, "GPL-2.0-or-later");
        let cat = find(&imported, "cat", None);
        assert_eq!(cat.phonetic.as_deref(), Some("kæt"));
        assert_eq!(
            cat.translations,
            vec!["mégère", "peau de vache", "rosse", "chat"]
        );

        let imported = import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap();
        let haus = find(&imported, "Haus", Some("noun"));
        assert_eq!(haus.phonetic.as_deref(), Some("hˈaʊs"));
        assert!(
            haus.translations.contains(&"house".to_string())
                && haus.translations.contains(&"home".to_string())
        );
        assert!(haus
            .examples
            .contains(&"ein Haus bauen — build a house".to_string()));
        assert!(haus.synonyms.contains(&"Zuhause".to_string()));
    }

    #[test]
    fn a_truncated_dict_names_file_and_position() {
        let dir = std::env::temp_dir().join(format!("truncated-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let source = fixture("freedict/freedict-eng-fra");
        std::fs::copy(
            source.with_extension("index"),
            dir.join("freedict-eng-fra.index"),
        )
        .unwrap();
        let data = std::fs::read(fixture("freedict/freedict-eng-fra.dict.dz")).unwrap();
        std::fs::write(
            dir.join("freedict-eng-fra.dict.dz"),
            &data[..data.len() / 2],
        )
        .unwrap();
        let err = import_freedict(&dir.join("freedict-eng-fra"), MAX)
            .err()
            .expect("truncated data is an error")
            .to_string();
        assert!(err.contains("freedict-eng-fra.dict.dz"), "{err}");
        assert!(err.contains("after") && err.contains("bytes"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_dict_that_inflates_past_the_limit_is_refused_by_name() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("bomb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            fixture("freedict/freedict-eng-fra.index"),
            dir.join("freedict-eng-fra.index"),
        )
        .unwrap();
        // 16 MiB of spaces in about 16 KB.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![b' '; 16 << 20]).unwrap();
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 32 << 10);
        std::fs::write(dir.join("freedict-eng-fra.dict.dz"), bomb).unwrap();
        let err = import_freedict(&dir.join("freedict-eng-fra"), 1 << 20)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("freedict-eng-fra.dict.dz: decompresses to more than 1048576 bytes"),
            "{err}"
        );
        // The fixture's own data is well under the default limit.
        let fixture_size = std::fs::metadata(fixture("freedict/freedict-eng-fra.dict.dz"))
            .unwrap()
            .len();
        assert!(fixture_size < 1 << 20);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn freedict_synonym_cross_references_become_links() {
        let imported = import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap();
        assert!(imported.links.iter().any(|(h, l)| h == "Haus"
            && l.word == "Zuhause"
            && l.relationship_type == "synonym"
            && l.target_lang.as_deref() == Some("en")));
    }

    #[test]
    fn licence_is_read_from_database_info() {
        assert_eq!(
            freedict_licence(
                "Available under the terms of the GNU General\n  Public License ver. 2.0"
            ),
            "GPL-2.0-or-later"
        );
    }
}
