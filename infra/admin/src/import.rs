//! Turns parsed source articles into the stored entries and dictionary record
//! that the functions read.

use crate::formats::dictd::{Database, DictdError};
use crate::formats::freedict::{merge_articles, parse_article, Article};
use crate::html::{escape, sanitize};
use crate::languages;
use sha2::{Digest, Sha256};
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;

/// A dictionary ready to be written: its record and every entry.
pub struct ImportedDictionary {
    pub dictionary: Dictionary,
    pub entries: Vec<StoredEntry>,
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
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
/// The dictionary id is the file name (`freedict-eng-fra`).
pub fn import_freedict(prefix: &Path) -> Result<ImportedDictionary, ImportError> {
    let dictionary_id = prefix
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ImportError::Name(prefix.display().to_string()))?
        .to_string();
    let (source_lang, target_lang) = freedict_languages(&dictionary_id)
        .ok_or_else(|| ImportError::Name(dictionary_id.clone()))?;
    let database = Database::open(prefix)?;
    let mut articles = Vec::new();
    for line in database.articles() {
        if let Some(article) = parse_article(&database.article(line)?) {
            articles.push(article);
        }
    }
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
    Ok(ImportedDictionary {
        dictionary: Dictionary {
            dictionary_id: dictionary_id.clone(),
            dictionary_name,
            source_lang: source_lang.to_string(),
            target_lang: Some(target_lang.to_string()),
            entry_count: entries.len() as u64,
            licence,
            origin: format!("Debian package dict-{dictionary_id}"),
        },
        entries,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    Dictd(#[from] DictdError),
    #[error("cannot tell the languages of {0:?}: FreeDict databases are named freedict-<iso639-3>-<iso639-3>")]
    Name(String),
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
    let mut examples = Vec::new();
    let mut plain_lines = Vec::new();
    let mut html = String::from("<div class=\"entry\">");
    html.push_str(&format!(
        "<p class=\"headword\"><b>{}</b>",
        escape(&article.headword)
    ));
    if let Some(ipa) = &article.phonetic {
        html.push_str(&format!(
            " <span class=\"phonetic\">/{}/</span>",
            escape(ipa)
        ));
    }
    if let Some(pos) = &article.part_of_speech {
        html.push_str(&format!(" <i class=\"pos\">{}</i>", escape(pos)));
    }
    html.push_str("</p><ol class=\"senses\">");
    let numbered = article.senses.len() > 1;
    for (n, sense) in article.senses.iter().enumerate() {
        for t in &sense.translations {
            if !translations.contains(t) {
                translations.push(t.clone());
            }
        }
        let labels = sense
            .labels
            .iter()
            .map(|l| format!("[{l}]"))
            .collect::<Vec<_>>()
            .join(" ");
        let text = sense.translations.join(", ");
        let mut line = if numbered {
            format!("{}. ", n + 1)
        } else {
            String::new()
        };
        if !labels.is_empty() {
            line.push_str(&labels);
            line.push(' ');
        }
        line.push_str(&text);
        for note in &sense.notes {
            line.push_str(&format!(" ({note})"));
        }
        plain_lines.push(line);

        html.push_str("<li>");
        for label in &sense.labels {
            html.push_str(&format!("<span class=\"label\">{}</span> ", escape(label)));
        }
        html.push_str(&format!(
            "<span class=\"translation\">{}</span>",
            escape(&text)
        ));
        for note in &sense.notes {
            html.push_str(&format!(" <span class=\"note\">({})</span>", escape(note)));
        }
        if !sense.examples.is_empty() {
            html.push_str("<ul class=\"examples\">");
            for (source, target) in &sense.examples {
                let example = if target.is_empty() {
                    source.clone()
                } else {
                    format!("{source} — {target}")
                };
                html.push_str(&format!("<li>{}</li>", escape(&example)));
                examples.push(example);
            }
            html.push_str("</ul>");
        }
        html.push_str("</li>");
    }
    html.push_str("</ol>");
    for (class, title, words) in [
        ("synonyms", "Synonyms", &article.synonyms),
        ("see-also", "See also", &article.see_also),
    ] {
        if !words.is_empty() {
            let list = words
                .iter()
                .map(|w| escape(w))
                .collect::<Vec<_>>()
                .join(", ");
            html.push_str(&format!("<p class=\"{class}\"><b>{title}:</b> {list}</p>"));
            plain_lines.push(format!("{title}: {}", words.join(", ")));
        }
    }
    html.push_str("</div>");
    for example in &examples {
        plain_lines.push(example.clone());
    }
    StoredEntry {
        entry: Entry {
            id,
            word: article.headword,
            html_content: sanitize(&html),
            plain_text: plain_lines.join("\n"),
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
            has_audio: false,
            audio_url: None,
        },
        is_lemma: true,
        audio_key: None,
    }
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
    fn licence_is_read_from_database_info() {
        assert_eq!(
            freedict_licence(
                "Available under the terms of the GNU General\n  Public License ver. 2.0"
            ),
            "GPL-2.0-or-later"
        );
    }
}
