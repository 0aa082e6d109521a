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
//! IPA between doubled slashes (`//ˈabako//`, the Italian and Dutch
//! dictionaries), index keys lower-cased (the headword is taken from the
//! article), several articles for one headword (merged into one entry per
//! part of speech, an article repeated word for word only once: epo-eng has
//! every article three times), a trailing comma (`atrabilious,`) and
//! alternative forms (`modisto, | modista`) in the header.
//!
//! The Japanese dictionaries (jpn-*, made from JMdict) head an article with
//! every written form and reading, each with JMdict's priority tags and
//! restrictions, and give the part of speech on the next line:
//!
//! ```text
//!  [ichi1]  [news1]  愛 /(en)tʃˈaɪniːz(ja)lˈe̞tə/,  [ichi1]  [news1] あい /ˈäi/
//! (noun (common) (futsuumeishi))
//! love, affection
//! ```
//!
//! Each form is a headword of its own (the dictionary's index lists each),
//! the others shown as its other forms; the IPA espeak made by spelling out
//! a character it cannot read ("Chinese letter") is no pronunciation.
//!
//! The dictionaries WikDict made from Wiktionary ("FreeDict+WikDict
//! dictionary" in their `00databaseshort`) follow each line of translations
//! with a gloss in the source language that says which sense it translates:
//!
//! ```text
//! jabłko /ˈjap.kɔ/ /ˈjap.w̥kɔ/ <n>
//! 1. kneecap
//! (potocznie, potoczny) rzepka w kolanie
//! 3. apple 2.
//! (spożywczy) owoc jabłoni
//!  3.
//! przedmiot w kształcie jabłka (1.1) lub je przypominający
//! ```
//!
//! The gloss belongs to the sense above ([`Sense::glosses`]): it is no
//! translation (see [`Layout::WikDict`] for how it is told apart).
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
    /// The other forms the header gives (readings, spellings), each with
    /// its IPA: each becomes a headword of its own (see [`by_form`]).
    pub forms: Vec<(String, Option<String>)>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sense {
    /// Domain labels such as `adm.` or `ugs.`.
    pub labels: Vec<String>,
    pub translations: Vec<String>,
    /// (source sentence, translation)
    pub examples: Vec<(String, String)>,
    pub notes: Vec<String>,
    /// What the sense means, said in the source language (WikDict's
    /// glosses): neither a translation nor the target language's text.
    pub glosses: Vec<String>,
}

/// How a dictionary lays out its articles, which the importer knows from
/// its name or its database information ([`layout_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The FreeDict tools' articles: every line of the body that is no
    /// example, note or cross-reference is a sense's translations.
    Plain,
    /// The Japanese dictionaries, made from JMdict: every form in the
    /// header, the part of speech on a line of its own.
    JMdict,
    /// The dictionaries made by WikDict. A line of translations is the
    /// body's first line, or one that starts with a sense number (`2. `);
    /// any other line after it, until the next numbered line, is a gloss
    /// of that sense in the source language. Position decides, not form:
    /// most glosses start with Wiktionary's labels in parentheses
    /// (`(potocznie, potoczny) …`) but many do not (`sztuciec służący do
    /// jedzenia`), and a single-sense article is not numbered. Where one
    /// sense's translations stand for several of Wiktionary's senses, each
    /// gloss is numbered with Wiktionary's number: after the translations
    /// (`apple 2.`) and alone on a line (` 3.`) before the next gloss;
    /// those numbers are dropped. (A gloss that itself began with `N. `
    /// would be read as a sense: none of the fixture's does.)
    WikDict,
}

/// The layout of a FreeDict dictionary from its source language and its
/// `00databaseshort` and `00databaseinfo` articles (WikDict's are titled
/// "… FreeDict+WikDict dictionary").
pub fn layout_of(source_lang: &str, short: &str, info: &str) -> Layout {
    if source_lang == "ja" {
        Layout::JMdict
    } else if short.contains("FreeDict+WikDict") || info.contains("FreeDict+WikDict") {
        Layout::WikDict
    } else {
        Layout::Plain
    }
}

/// Parses one article of a dictionary other than a Japanese one.
#[cfg(test)]
pub fn parse_article(text: &str) -> Option<Article> {
    parse_article_of(text, Layout::Plain)
}

/// Parses one article laid out as `layout`; `None` when it has no headword
/// line.
pub fn parse_article_of(text: &str, layout: Layout) -> Option<Article> {
    let jmdict = layout == Layout::JMdict;
    let mut lines = text.lines();
    let header = lines.by_ref().find(|l| !l.trim().is_empty())?.trim();
    let mut article = if jmdict {
        parse_jmdict_header(header)?
    } else {
        parse_header(header)?
    };
    let mut current: Option<Sense> = None;
    for raw in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if jmdict {
            if let Some(pos) = jmdict_part_of_speech(strip_sense_number(line)) {
                if article.part_of_speech.is_none() {
                    article.part_of_speech = pos;
                }
                continue;
            }
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
        } else if layout == Layout::WikDict {
            match (sense_number(line), current.as_mut()) {
                // Wiktionary's number of the gloss that follows.
                _ if is_bare_number(line) => {}
                (None, Some(sense)) => {
                    let gloss = line.trim_end_matches(';').trim_end();
                    if !gloss.is_empty() && !sense.glosses.iter().any(|g| g == gloss) {
                        sense.glosses.push(gloss.to_string());
                    }
                }
                (numbered, _) => {
                    if let Some(done) = current.take() {
                        article.senses.push(done);
                    }
                    let translations = numbered.unwrap_or(line);
                    current = Some(parse_sense(without_trailing_number(translations)));
                }
            }
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
    let mut names = header[..end].split(", | ").map(|name| {
        let name = name.trim();
        // `atrabilious, /…/`: a comma left over from a list of forms.
        match name.trim_end_matches(',').trim_end() {
            "" => name.to_string(),
            trimmed => trimmed.to_string(),
        }
    });
    let headword = names.next().unwrap_or_default();
    if headword.is_empty() {
        return None;
    }
    let rest = &header[end..];
    let phonetic = first_ipa(rest);
    let forms = names
        .filter(|name| !name.is_empty() && *name != headword)
        .map(|name| (name, None))
        .collect();
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
        forms,
        ..Article::default()
    })
}

/// The first IPA of a header's rest: between slashes, or doubled slashes
/// (`//ˈabako//`), espeak's language markers removed.
fn first_ipa(rest: &str) -> Option<String> {
    let start = rest.find('/')?;
    let after = &rest[start..];
    let delimiter = if after.starts_with("//") { "//" } else { "/" };
    let after = &after[delimiter.len()..];
    after
        .find(delimiter)
        .map(|len| clean_ipa(&after[..len]))
        .filter(|ipa| !ipa.is_empty())
}

/// A JMdict header: forms separated by commas, each
/// `[tag]… (restriction) form /ipa/`; the first is the headword.
fn parse_jmdict_header(header: &str) -> Option<Article> {
    let mut forms: Vec<(String, Option<String>)> = Vec::new();
    for part in split_outside_slashes(header) {
        let mut rest = part.trim();
        // Priority tags (`[ichi1]`) and restrictions (`(笊貝科)`, `()`).
        loop {
            let closer = match rest.chars().next() {
                Some('[') => ']',
                Some('(') => ')',
                _ => break,
            };
            match rest.find(closer) {
                Some(close) => rest = rest[close + 1..].trim_start(),
                None => break,
            }
        }
        let (form, ipa) = match rest.find(" /") {
            Some(at) => (rest[..at].trim(), first_ipa(&rest[at..])),
            None => (rest.trim(), None),
        };
        // espeak names a character it cannot read ("Chinese letter").
        let ipa = ipa.filter(|ipa| !ipa.contains("niːzlˈe̞tə") && !ipa.contains("lˈe̞təs"));
        if !form.is_empty() && !forms.iter().any(|(f, _)| f == form) {
            forms.push((form.to_string(), ipa));
        }
    }
    let mut forms = forms.into_iter();
    let (headword, phonetic) = forms.next()?;
    Some(Article {
        headword,
        phonetic,
        forms: forms.collect(),
        ..Article::default()
    })
}

/// `a /x, y/, b` → `["a /x, y/", " b"]`: commas between slashes are IPA's.
fn split_outside_slashes(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut inside = false;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '/' => inside = !inside,
            ',' if !inside => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A JMdict part-of-speech line (`(noun (common) (futsuumeishi))`,
/// `(Godan verb with `ru' ending)`): `Some` with the part of speech it
/// names, if one of ours, else `Some(None)`; `None` for any other line.
fn jmdict_part_of_speech(line: &str) -> Option<Option<String>> {
    let inner = line.strip_prefix('(')?.strip_suffix(')')?;
    const KINDS: &[(&str, &str)] = &[
        ("noun", "noun"),
        ("nouns which may take", "noun"),
        ("adverbial noun", "noun"),
        ("Godan verb", "verb"),
        ("Ichidan verb", "verb"),
        ("Nidan verb", "verb"),
        ("Yodan verb", "verb"),
        ("Kuru verb", "verb"),
        ("suru verb", "verb"),
        ("irregular", "verb"),
        ("transitive verb", "verb"),
        ("intransitive verb", "verb"),
        ("auxiliary verb", "verb"),
        ("adjective", "adjective"),
        ("adjectival nouns", "adjective"),
        ("pre-noun adjectival", "adjective"),
        ("'taru' adjective", "adjective"),
        ("noun or verb acting prenominally", "adjective"),
        ("adverb", "adverb"),
        ("expressions", "phrase"),
        ("interjection", "interjection"),
        ("conjunction", "conjunction"),
        ("pronoun", "pronoun"),
        ("particle", "particle"),
        ("prefix", "prefix"),
        ("suffix", "suffix"),
        ("numeric", "numeral"),
        ("counter", "noun"),
        ("copula", "verb"),
        ("auxiliary", "verb"),
        ("unclassified", ""),
    ];
    KINDS
        .iter()
        .find(|(start, _)| inner.starts_with(start))
        .map(|(_, pos)| (!pos.is_empty()).then(|| pos.to_string()))
}

/// One article per form of `article` (itself first), each naming the
/// others as its other forms.
pub fn by_form(mut article: Article) -> Vec<Article> {
    if article.forms.is_empty() {
        return vec![article];
    }
    let forms = std::mem::take(&mut article.forms);
    let mut all = vec![(article.headword.clone(), article.phonetic.clone())];
    all.extend(forms);
    all.iter()
        .map(|(form, ipa)| Article {
            headword: form.clone(),
            phonetic: ipa.clone(),
            forms: all.iter().filter(|(f, _)| f != form).cloned().collect(),
            ..article.clone()
        })
        .collect()
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
    sense_number(line).unwrap_or(line)
}

/// The rest of a line that starts with a sense number (`2. spoon` →
/// `spoon`); `None` for any other line.
fn sense_number(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(". ")).then(|| line[digits + 2..].trim())
}

/// `3.` alone on its line.
fn is_bare_number(line: &str) -> bool {
    line.strip_suffix('.')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// `apple 2.` → `apple` (WikDict's number of the gloss that follows).
fn without_trailing_number(line: &str) -> &str {
    match line.rsplit_once(char::is_whitespace) {
        Some((before, last)) if is_bare_number(last) && !before.trim().is_empty() => {
            before.trim_end()
        }
        _ => line,
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
                for sense in article.senses {
                    if !target.senses.contains(&sense) {
                        target.senses.push(sense);
                    }
                }
                for form in article.forms {
                    if !target.forms.iter().any(|(f, _)| *f == form.0) {
                        target.forms.push(form);
                    }
                }
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

/// A language of a dictionary: the API's code and its English name.
pub type Language = (&'static str, &'static str);

/// `freedict-eng-fra` → ((`en`, English), (`fr`, French)).
pub fn freedict_languages(dictionary_id: &str) -> Option<(Language, Language)> {
    let pair = dictionary_id.strip_prefix("freedict-")?;
    let (source, target) = pair.split_once('-')?;
    Some((
        languages::of_iso639_3(source)?,
        languages::of_iso639_3(target)?,
    ))
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
    let ((source_lang, source_name), (target_lang, target_name)) =
        freedict_languages(&dictionary_id)
            .ok_or_else(|| ImportError::Name(dictionary_id.clone()))?;
    let database = Database::open(prefix, max_source_bytes)?;
    let mut articles = Vec::new();
    // The first index line of every (headword, part of speech), which is
    // what merge_articles merges on.
    let mut first_lines: HashMap<(String, Option<String>), usize> = HashMap::new();
    let info = database.metadata("00databaseinfo").unwrap_or_default();
    let layout = layout_of(
        source_lang,
        &database.metadata("00databaseshort").unwrap_or_default(),
        &info,
    );
    for line in database.articles() {
        let Some(article) = parse_article_of(&database.article(line)?, layout) else {
            continue;
        };
        for article in by_form(article) {
            first_lines
                .entry((article.headword.clone(), article.part_of_speech.clone()))
                .or_insert(line.line);
            articles.push(article);
        }
    }
    let index_file: Arc<Path> = database.index_path.as_path().into();
    let mut origins = HashMap::new();
    let dictionary_name = format!("{source_name}–{target_name} (FreeDict)");
    let licence = freedict_licence(&info);
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
            glosses: sense.glosses.clone(),
            examples,
        });
    }
    let mut text = EntryText::new(
        &article.headword,
        article.phonetic.as_deref(),
        article.part_of_speech.as_deref(),
    );
    text.senses(senses);
    let forms: Vec<String> = article.forms.iter().map(|(f, _)| f.clone()).collect();
    text.word_list("forms", "Other forms", &forms);
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
mod tests;
