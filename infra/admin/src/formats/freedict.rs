//! FreeDict articles as the FreeDict tools write them into dictd databases:
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
