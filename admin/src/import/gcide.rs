//! GCIDE articles as Debian's `dict-gcide` stores them in dictd format:
//!
//! ```text
//! Able \A"ble\, a. [comp. {Abler}; superl. {Ablest}.] [OF. habile, …]
//!    1. Fit; adapted; suitable. [Obs.]
//!       [1913 Webster]
//!
//!             A many man, to ben an abbot able.     --Chaucer.
//!       [1913 Webster]
//!
//!    Syn: Competent; qualified; fitted; …
//! ```
//!
//! Quirks handled: ASCII escapes for letters with diacritics (`[=o]` ō,
//! `["i]` ï, `[eth]` ð, …), source tags on lines of their own (`[1913 Webster]`,
//! `[PJC]`, `[WordNet 1.5]`), `{cross references}`, and the pronunciation,
//! between backslashes and often again in parentheses after them (GCIDE
//! respells rather than writing IPA, so it is left out).
//!
//! The articles become the monolingual English dictionary `gcide`, one entry
//! per headword and part of speech.

use super::dictd::Database;
use super::dictionary::{entry_id, links_of, ImportedDictionary, Origin};
use super::entry_text::{EntryText, SenseText};
use super::error::ImportError;
use shared::model::{Dictionary, Entry, StoredEntry};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// One parsed article.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Article {
    /// The headword as the article's header writes it, before the first
    /// pronunciation (`Sundog \Sun"dog`\` → `Sundog`). dict-gcide's index
    /// also lists articles under words they only mention, so the index key
    /// is not always the headword.
    pub headword: Option<String>,
    pub part_of_speech: Option<String>,
    pub etymology: Option<String>,
    pub labels: Vec<String>,
    pub senses: Vec<Sense>,
    pub synonyms: Vec<String>,
    /// Words a `Syn:` paragraph refers to (`See {Tenement}`): `related`.
    pub see_also: Vec<String>,
    /// Run-in derivatives after it (`-- {Sub*mis"sive*ly}, adv.`).
    pub derived: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sense {
    pub definition: String,
    /// Citations, with their attribution (`… —Chaucer.`).
    pub examples: Vec<String>,
}

/// GCIDE's ASCII escapes → Unicode. Escapes not listed keep their letter.
const ESCAPES: &[(&str, &str)] = &[
    ("['a]", "á"),
    ("['e]", "é"),
    ("['i]", "í"),
    ("['o]", "ó"),
    ("['u]", "ú"),
    ("[`a]", "à"),
    ("[`e]", "è"),
    ("[`i]", "ì"),
    ("[`o]", "ò"),
    ("[`u]", "ù"),
    ("[^a]", "â"),
    ("[^e]", "ê"),
    ("[^i]", "î"),
    ("[^o]", "ô"),
    ("[^u]", "û"),
    ("[\"a]", "ä"),
    ("[\"e]", "ë"),
    ("[\"i]", "ï"),
    ("[\"o]", "ö"),
    ("[\"u]", "ü"),
    ("[\"y]", "ÿ"),
    ("[=a]", "ā"),
    ("[=e]", "ē"),
    ("[=i]", "ī"),
    ("[=o]", "ō"),
    ("[=u]", "ū"),
    ("[=y]", "ȳ"),
    ("[=ae]", "ǣ"),
    ("[=oo]", "o͞o"),
    ("[imac]", "ī"),
    ("[a^]", "ă"),
    ("[e^]", "ĕ"),
    ("[i^]", "ĭ"),
    ("[o^]", "ŏ"),
    ("[u^]", "ŭ"),
    ("[y^]", "y̆"),
    ("[oo^]", "o͝o"),
    ("[~a]", "ã"),
    ("[~e]", "ẽ"),
    ("[~n]", "ñ"),
    ("[~o]", "õ"),
    ("[ntil]", "ñ"),
    ("[.a]", "ȧ"),
    ("[.u]", "u̇"),
    ("[,c]", "ç"),
    ("[cced]", "ç"),
    ("[*a]", "å"),
    ("[aum]", "ä"),
    ("[ae]", "æ"),
    ("[AE]", "Æ"),
    ("[oe]", "œ"),
    ("[OE]", "Œ"),
    ("[eth]", "ð"),
    ("[thorn]", "þ"),
    ("[ng]", "ŋ"),
    ("[th]", "th"),
    ("[root]", "√"),
    ("[deg]", "°"),
    ("[sect]", "§"),
    ("[1]", "¹"),
    ("[2]", "²"),
    ("[3]", "³"),
    ("[-a]", "a"),
    ("[-e]", "e"),
    ("[-i]", "i"),
    ("[-o]", "o"),
    ("[-u]", "u"),
    ("[asl]", "a"),
    ("[add]", "a"),
    ("[udd]", "u"),
];

/// Replaces GCIDE's escapes and removes `{…}` cross-reference braces.
pub fn decode_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(['[', '{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with('{') || tail.starts_with('}') {
            rest = &tail[1..];
            continue;
        }
        match ESCAPES.iter().find(|(escape, _)| tail.starts_with(escape)) {
            Some((escape, letter)) => {
                out.push_str(letter);
                rest = &tail[escape.len()..];
            }
            None => {
                out.push('[');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A source tag on a line of its own: `[1913 Webster]`, `[PJC]`, `[WordNet 1.5 +PJC]`.
fn is_source_tag(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[')
        && t.ends_with(']')
        && ["Webster", "PJC", "WordNet", "Century", "Chambers", "Source"]
            .iter()
            .any(|s| t.contains(s))
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `a.` → adjective, `v. t.` → verb, …
pub fn part_of_speech(abbreviation: &str) -> Option<&'static str> {
    let a = abbreviation.trim().trim_end_matches(',');
    let pos = match a {
        "n." | "n. pl." | "n. sing." | "n. sing. & pl." => "noun",
        "a." | "adj." => "adjective",
        "adv." => "adverb",
        "prep." => "preposition",
        "conj." => "conjunction",
        "pron." => "pronoun",
        "interj." => "interjection",
        "p. p." | "p. pr." | "p. a." => "participle",
        _ if a.starts_with("v.") => "verb",
        _ => return None,
    };
    Some(pos)
}

/// Splits `[…]` groups off the text after the part of speech: the longest one is
/// the etymology, short ones (`[Obs.]`, `[Colloq.]`) are usage labels; text
/// outside brackets is a definition given in the header itself.
fn split_brackets(text: &str) -> (Vec<String>, String) {
    let (mut groups, mut outside, mut depth, mut current) =
        (Vec::new(), String::new(), 0usize, String::new());
    for c in text.chars() {
        match c {
            '[' => {
                if depth > 0 {
                    current.push(c);
                }
                depth += 1;
            }
            ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    groups.push(std::mem::take(&mut current));
                } else {
                    current.push(c);
                }
            }
            _ if depth > 0 => current.push(c),
            _ => outside.push(c),
        }
    }
    (groups, outside)
}

/// Parses one article (already escape-decoded or not; decoding happens here).
pub fn parse_article(text: &str) -> Article {
    let lines: Vec<&str> = text.lines().filter(|l| !is_source_tag(l)).collect();
    let mut article = Article {
        headword: header_headword(text),
        ..Article::default()
    };
    let header_end = lines
        .iter()
        .position(|l| l.trim().is_empty() || starts_sense(l))
        .unwrap_or(lines.len());
    let header = squash(&lines[..header_end].join(" "));
    let after_forms = header
        .rfind('\\')
        .map(|i| {
            // The respelled pronunciation in parentheses is left out (see above).
            let (_, rest) = split_parenthesized(header[i + 1..].trim());
            rest.trim_start_matches(',').trim()
        })
        .unwrap_or("");
    let pos_end = after_forms.find(['[', '(']).unwrap_or(after_forms.len());
    article.part_of_speech = part_of_speech(&after_forms[..pos_end]).map(str::to_string);
    // `n. (Meteorol.) [Etym.]`: a subject label may follow the part of speech.
    let (subject, rest) = split_parenthesized(&after_forms[pos_end..]);
    let (groups, outside) = split_brackets(rest);
    let mut groups: Vec<String> = groups
        .into_iter()
        .map(|g| squash(&decode_escapes(&g)))
        .collect();
    if let Some(longest) = groups
        .iter()
        .enumerate()
        .max_by_key(|(_, g)| g.len())
        .map(|(i, _)| i)
    {
        if groups[longest].len() > 20 {
            article.etymology = Some(groups.remove(longest));
        }
    }
    article.labels = subject
        .map(|s| squash(&decode_escapes(s)))
        .into_iter()
        .chain(groups)
        .collect();
    let header_definition = squash(&decode_escapes(
        outside.trim().trim_start_matches(['.', ',']),
    ));
    if !header_definition.is_empty() {
        article.senses.push(Sense {
            definition: header_definition,
            examples: Vec::new(),
        });
    }

    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, article: &mut Article| {
        if paragraph.is_empty() {
            return;
        }
        let first = paragraph[0];
        let raw = squash(&paragraph.join(" "));
        let text = squash(&decode_escapes(&raw));
        paragraph.clear();
        if let Some(rest) = raw.strip_prefix("Syn:") {
            let syn = parse_syn(rest);
            for (list, words) in [
                (&mut article.synonyms, syn.synonyms),
                (&mut article.see_also, syn.see_also),
                (&mut article.derived, syn.derived),
            ] {
                for word in words {
                    if !list.contains(&word) {
                        list.push(word);
                    }
                }
            }
        } else if starts_sense(first) {
            let definition = text
                .split_once(". ")
                .map(|(_, d)| d.to_string())
                .unwrap_or(text);
            article.senses.push(Sense {
                definition,
                examples: Vec::new(),
            });
        } else if first.starts_with("        ") {
            if let Some(sense) = article.senses.last_mut() {
                sense
                    .examples
                    .push(text.replace(" --", " —").replace("--", "—"));
            }
        }
    };
    for line in &lines[header_end..] {
        if line.trim().is_empty() || (starts_sense(line) && !paragraph.is_empty()) {
            flush(&mut paragraph, &mut article);
        }
        if !line.trim().is_empty() {
            paragraph.push(line);
        }
    }
    flush(&mut paragraph, &mut article);
    article
}

/// What a `Syn:` paragraph gives, each word without markup.
#[derive(Debug, Default, PartialEq)]
struct Syn {
    synonyms: Vec<String>,
    see_also: Vec<String>,
    derived: Vec<String>,
}

/// Parses a `Syn:` paragraph as the file writes it (braces and escapes
/// still in): `To alleviate; mitigate; calm. See {Alleviate}. [1913
/// Webster] -- {Calm"ly}, adv.`. The list ends at the first source tag, at
/// a discussion or derivatives after ` --`, at a reference (`See`, `Cf.`)
/// or at the header of an article run into it (`Rule \Rule\`).
fn parse_syn(raw: &str) -> Syn {
    let mut syn = Syn::default();
    // Run-in derivatives, anywhere in the paragraph: `-- {Word}, adv.`
    for (at, _) in raw.match_indices("-- {") {
        let rest = &raw[at + 4..];
        let Some((word, after)) = rest.split_once('}') else {
            continue;
        };
        let pos = after.trim_start_matches(',').trim_start();
        if ["adv.", "n.", "a.", "v.", "adj."]
            .iter()
            .any(|p| pos.starts_with(p))
        {
            let word: String = word
                .chars()
                .filter(|c| !matches!(c, '*' | '"' | '`'))
                .collect();
            syn.derived.push(squash(&decode_escapes(&word)));
        }
    }
    let mut list = raw.trim().trim_start_matches("--").trim_start();
    if let Some(tag) = source_tag_start(list) {
        list = &list[..tag];
    }
    if let Some(dashes) = list.find(" --") {
        list = &list[..dashes];
    }
    if let Some(backslash) = list.find('\\') {
        // The next article's header: the list ended at the last period.
        list = list[..backslash].rfind(". ").map_or("", |end| &list[..end]);
    }
    for marker in ["See ", "Cf. "] {
        let at = if list.starts_with(marker) {
            Some(0)
        } else {
            list.find(&format!(". {marker}")).map(|at| at + 2)
        };
        if let Some(at) = at {
            let rest = &list[at + marker.len()..];
            // The braced word, else the text up to its part of speech.
            let target = match (rest.find('{'), rest.find('}')) {
                (Some(open), Some(close)) if open < close => &rest[open + 1..close],
                _ => rest.split([',', '.']).next().unwrap_or_default(),
            };
            syn.see_also.push(squash(&decode_escapes(target)));
            list = &list[..at];
        }
    }
    // A verb's list starts with the infinitive's `To` (`To raise; to
    // cultivate`); elsewhere `to` is part of the words (`to the point`).
    let verbs = list.starts_with("To ");
    for item in list.split(';').flat_map(|part| part.split(", ")) {
        let item = squash(&decode_escapes(item));
        let item = item.trim().trim_end_matches(['.', ',']);
        let item = ["To ", "to "]
            .iter()
            .find_map(|to| item.strip_prefix(to))
            .filter(|rest| verbs && rest.starts_with(|c: char| c.is_lowercase()))
            .unwrap_or(item);
        // WordNet's syntactic markers of adjectives.
        let item = [
            "(prenominal)",
            "(predicate)",
            "(postnominal)",
            "(a)",
            "(p)",
            "(ip)",
        ]
        .iter()
        .find_map(|marker| item.strip_suffix(marker))
        .unwrap_or(item)
        .trim();
        if !item.is_empty() && item.len() < 40 {
            syn.synonyms.push(item.to_string());
        }
    }
    syn
}

/// Where the first source tag (`[1913 Webster]`, `[PJC]`) starts.
fn source_tag_start(text: &str) -> Option<usize> {
    text.match_indices('[').map(|(at, _)| at).find(|&at| {
        text[at..]
            .find(']')
            .is_some_and(|end| is_source_tag(&text[at..=at + end]))
    })
}

/// The text before the first backslash of the first line, when the article
/// starts with a regular header (`Word \Pron\, pos.`).
fn header_headword(text: &str) -> Option<String> {
    let first_line = text.lines().next()?;
    let (word, _) = first_line.split_once('\\')?;
    let word = squash(&decode_escapes(word));
    (!word.is_empty() && word.chars().count() <= 100).then_some(word)
}

/// A leading `(…)` group, without its parentheses, and the text after it;
/// `(None, text)` when the text does not start with one (or never closes it).
fn split_parenthesized(text: &str) -> (Option<&str>, &str) {
    let text = text.trim_start();
    if !text.starts_with('(') {
        return (None, text);
    }
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (Some(&text[1..i]), text[i + 1..].trim_start());
                }
            }
            _ => {}
        }
    }
    (None, text)
}

/// `   1. Fit; adapted` starts a numbered sense.
fn starts_sense(line: &str) -> bool {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    indent <= 4 && digits > 0 && t[digits..].starts_with(". ")
}

/// Reads GCIDE (`<prefix>.index` + `<prefix>.dict.dz`) as the monolingual
/// English dictionary `gcide`: articles of one headword and part of speech are
/// merged into one entry with their senses, citations, etymology and synonyms.
pub fn import_gcide(
    prefix: &Path,
    max_source_bytes: u64,
) -> Result<ImportedDictionary, ImportError> {
    const ID: &str = "gcide";
    const NAME: &str = "GCIDE (Collaborative International Dictionary of English)";
    let database = Database::open(prefix, max_source_bytes)?;
    // (headword, article, index line of its first article)
    let mut groups: Vec<(String, Article, usize)> = Vec::new();
    let mut position: HashMap<(String, Option<String>), usize> = HashMap::new();
    for line in database.articles() {
        let article = parse_article(&database.article(line)?);
        if article.senses.is_empty() {
            continue;
        }
        let headword = article
            .headword
            .clone()
            .unwrap_or_else(|| decode_escapes(&line.headword));
        let key = (headword.clone(), article.part_of_speech.clone());
        match position.get(&key) {
            Some(&i) => {
                let merged = &mut groups[i].1;
                merged.senses.extend(article.senses);
                for (list, words) in [
                    (&mut merged.synonyms, article.synonyms),
                    (&mut merged.see_also, article.see_also),
                    (&mut merged.derived, article.derived),
                ] {
                    for word in words {
                        if !list.contains(&word) {
                            list.push(word);
                        }
                    }
                }
                if merged.etymology.is_none() {
                    merged.etymology = article.etymology;
                }
            }
            None => {
                position.insert(key, groups.len());
                groups.push((headword, article, line.line));
            }
        }
    }
    let index_file: Arc<Path> = database.index_path.as_path().into();
    let mut origins = HashMap::with_capacity(groups.len());
    // (headword, relationship, word) of every article's `Syn:` paragraphs.
    let mut relations: Vec<(String, &'static str, String)> = Vec::new();
    let entries: Vec<StoredEntry> = groups
        .into_iter()
        .map(|(word, article, line)| {
            for (kind, words) in [
                ("synonym", &article.synonyms),
                ("related", &article.see_also),
                ("derivation", &article.derived),
            ] {
                relations.extend(words.iter().map(|w| (word.clone(), kind, w.clone())));
            }
            let entry = gcide_entry(ID, NAME, word, article);
            origins.insert(
                entry.entry.id.clone(),
                Origin {
                    file: index_file.clone(),
                    line,
                },
            );
            entry
        })
        .collect();
    let dictionary = Dictionary {
        dictionary_id: ID.into(),
        dictionary_name: NAME.into(),
        source_lang: "en".into(),
        target_lang: None,
        entry_count: entries.len() as u64,
        licence: "GPL-3.0-or-later".into(),
        origin: "Debian package dict-gcide".into(),
    };
    let links = links_of(
        &dictionary,
        relations
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

fn gcide_entry(id: &str, name: &str, word: String, article: Article) -> StoredEntry {
    let mut text = EntryText::new(&word, None, article.part_of_speech.as_deref());
    if let Some(etymology) = &article.etymology {
        text.etymology(etymology);
    }
    text.senses(
        article
            .senses
            .into_iter()
            .map(|sense| SenseText {
                text: sense.definition,
                examples: sense.examples,
                ..Default::default()
            })
            .collect(),
    );
    text.word_list("synonyms", "Synonyms", &article.synonyms);
    let (html, plain, examples) = text.finish(false);
    StoredEntry {
        entry: Entry {
            id: entry_id(id, &word, article.part_of_speech.as_deref(), 0),
            word,
            html_content: html,
            plain_text: plain,
            source_lang: "en".into(),
            target_lang: None,
            dictionary_id: id.into(),
            dictionary_name: name.into(),
            part_of_speech: article.part_of_speech,
            translations: Vec::new(),
            synonyms: article.synonyms,
            antonyms: Vec::new(),
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

    const ABLE: &str = "Able \\A\"ble\\, a. [comp. {Abler}; superl. {Ablest}.] [OF. habile,\n   L. habilis that may be easily held or managed, apt, skillful,\n   fr. habere to have, hold. Cf. {Habile} and see {Habit}.]\n   1. Fit; adapted; suitable. [Obs.]\n      [1913 Webster]\n\n            A many man, to ben an abbot able.     --Chaucer.\n      [1913 Webster]\n\n   2. Having sufficient power, strength, force, skill, means, or\n      resources of any kind to accomplish the object.\n      [1913 Webster]\n\n   Syn: Competent; qualified; fitted; efficient; effective;\n        capable; skillful; clever; vigorous; powerful.\n        [1913 Webster]\n";

    #[test]
    fn parses_senses_examples_etymology_and_synonyms() {
        let a = parse_article(ABLE);
        assert_eq!(a.part_of_speech.as_deref(), Some("adjective"));
        assert!(
            a.etymology
                .as_deref()
                .unwrap()
                .starts_with("OF. habile, L. habilis"),
            "{:?}",
            a.etymology
        );
        assert_eq!(a.labels, vec!["comp. Abler; superl. Ablest."]);
        assert_eq!(a.senses.len(), 2);
        assert_eq!(a.senses[0].definition, "Fit; adapted; suitable. [Obs.]");
        assert_eq!(
            a.senses[0].examples,
            vec!["A many man, to ben an abbot able. —Chaucer."]
        );
        assert!(a.senses[1]
            .definition
            .starts_with("Having sufficient power"));
        assert_eq!(a.synonyms.first().map(String::as_str), Some("Competent"));
        assert!(a.synonyms.contains(&"powerful".to_string()));
        assert!(
            !format!("{a:?}").contains("1913 Webster"),
            "source tags are dropped"
        );
    }

    #[test]
    fn syn_paragraphs_give_words_references_and_derivatives() {
        let syn = parse_syn(" To alleviate; mitigate; calm. See {Alleviate}. [1913 Webster] -- {Sub*mis\"sive*ly}, adv.");
        assert_eq!(syn.synonyms, ["alleviate", "mitigate", "calm"]);
        assert_eq!(syn.see_also, ["Alleviate"]);
        assert_eq!(syn.derived, ["Submissively"]);
        let syn = parse_syn(
            " regulation; law; empire. [1913 Webster] Rule \\Rule\\, v. t. [imp. & p. p. {Ruled}.]",
        );
        assert_eq!(syn.synonyms, ["regulation", "law", "empire"]);
        let syn = parse_syn(" twenty-ninth [WordNet 1.5 +PJC] 2d");
        assert_eq!(syn.synonyms, ["twenty-ninth"]);
        let syn =
            parse_syn(" Identical; interchangeable. -- {Synonymous}, {Identical}. If no words are");
        assert_eq!(syn.synonyms, ["Identical", "interchangeable"]);
        assert!(syn.derived.is_empty());
        let syn = parse_syn(" all-inclusive, blanket(prenominal), 1-propene-1,2,3-tricarboxylic acid. [WordNet 1.5]");
        assert_eq!(
            syn.synonyms,
            [
                "all-inclusive",
                "blanket",
                "1-propene-1,2,3-tricarboxylic acid"
            ]
        );
        let syn = parse_syn(" crisp, to the point(predicate). [WordNet 1.5]");
        assert_eq!(syn.synonyms, ["crisp", "to the point"]);
        let syn = parse_syn(" To raise; to cultivate. See {Raise}, v. t., 3.");
        assert_eq!(syn.synonyms, ["raise", "cultivate"]);
        assert_eq!(syn.see_also, ["Raise"]);
        let syn = parse_syn(" See the Note under {Clerk}, n., 4.");
        assert_eq!(
            (syn.synonyms.len(), syn.see_also),
            (0, vec!["Clerk".to_string()])
        );
    }

    #[test]
    fn definitions_in_the_header_become_a_sense() {
        let a = parse_article("Banc \\Banc\\, n. [OF. banc, LL.\n   bancus. See {Bank}, n.]\n   A bench; a high seat, or seat of distinction or judgment.\n   [1913 Webster]\n");
        assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
        assert_eq!(
            a.senses[0].definition,
            "A bench; a high seat, or seat of distinction or judgment."
        );
        assert_eq!(
            a.etymology.as_deref(),
            Some("OF. banc, LL. bancus. See Bank, n.")
        );
    }

    #[test]
    fn a_pronunciation_after_the_forms_is_not_a_sense() {
        let bank = parse_article("Bank \\Bank\\ (b[a^][ng]k), n. [OE. banke; akin to E. bench, and\n   prob. of Scand. origin; cf. Icel. bakki. See {Bench}.]\n   1. A mound, pile, or ridge of earth, raised above the\n      surrounding level.\n      [1913 Webster]\n");
        assert_eq!(bank.part_of_speech.as_deref(), Some("noun"));
        assert_eq!(bank.senses.len(), 1, "{:?}", bank.senses);
        assert_eq!(
            bank.senses[0].definition,
            "A mound, pile, or ridge of earth, raised above the surrounding level."
        );
        assert!(bank.etymology.as_deref().unwrap().starts_with("OE. banke"));
        assert!(bank.labels.is_empty(), "{:?}", bank.labels);
        let dog = parse_article("Dog \\Dog\\ (d[add]g or d[o^]g), n. [AS. docga; akin to D. dog\n   mastiff, Dan. dogge, Sw. dogg.]\n   1. (Zool.) A quadruped of the genus {Canis}.\n");
        assert_eq!(dog.part_of_speech.as_deref(), Some("noun"));
        assert_eq!(
            dog.senses[0].definition,
            "(Zool.) A quadruped of the genus Canis."
        );
        let happy = parse_article("Happy \\Hap\"py\\ (h[a^]p\"p[y^]), a. [Compar. {Happier}\n   (-p[i^]*[~e]r); superl. {Happiest}.] [From {Hap} chance.]\n   1. Favored by hap, luck, or fortune; lucky.\n");
        assert_eq!(happy.part_of_speech.as_deref(), Some("adjective"));
        assert_eq!(happy.senses.len(), 1, "{:?}", happy.senses);
    }

    #[test]
    fn the_headword_comes_from_the_header() {
        let sundog =
            parse_article("Sundog \\Sun\"dog`\\, n. (Meteorol.)\n   1. A luminous spot.\n");
        assert_eq!(sundog.headword.as_deref(), Some("Sundog"));
        assert_eq!(sundog.part_of_speech.as_deref(), Some("noun"));
        assert_eq!(sundog.labels, ["Meteorol."]);
        assert_eq!(
            sundog.senses.len(),
            1,
            "a label is not a sense: {:?}",
            sundog.senses
        );
        let banc = parse_article(
            "Banc \\Banc\\, Bancus \\Ban\"cus\\, Bank \\Bank\\, n. [OF. banc.]\n   A bench.\n",
        );
        assert_eq!(banc.headword.as_deref(), Some("Banc"));
        let escaped = parse_article("Caf['e] \\Caf`['e]\\, n.\n   A coffee house.\n");
        assert_eq!(escaped.headword.as_deref(), Some("Café"));
        assert_eq!(parse_article("\n\n      A quotation.\n").headword, None);
        assert_eq!(parse_article("no header at all\n").headword, None);
    }

    #[test]
    fn escapes_become_letters() {
        assert_eq!(decode_escapes("na[\"i]ve"), "naïve");
        assert_eq!(
            decode_escapes("G[=o]d, Icel. g[=o][eth]r"),
            "Gōd, Icel. gōðr"
        );
        assert_eq!(
            decode_escapes("[ae]sthetic caf['e] {Gather}"),
            "æsthetic café Gather"
        );
        assert_eq!(decode_escapes("[Obs.] [unknown] x"), "[Obs.] [unknown] x");
    }

    #[test]
    fn verbs_and_unknown_abbreviations() {
        assert_eq!(part_of_speech("v. t."), Some("verb"));
        assert_eq!(part_of_speech("v. i."), Some("verb"));
        assert_eq!(part_of_speech("n."), Some("noun"));
        assert_eq!(part_of_speech("zz."), None);
    }

    #[test]
    fn hostile_text_never_panics() {
        for text in [
            "",
            "\\",
            "x \\y\\, [",
            "   1. ",
            "Syn:",
            "[[[",
            "]]]",
            "\n\n   1.\n",
        ] {
            let _ = parse_article(text);
        }
    }

    #[test]
    fn gcide_fixture_gives_definitions_citations_and_synonyms() {
        let imported = import_gcide(&fixture("gcide/gcide"), MAX).unwrap();
        // The index lists the Sundog article under "dog" too; it is Sundog's.
        let sundog = find(&imported, "Sundog", Some("noun"));
        assert!(sundog.plain_text.contains("luminous spot"));
        assert!(imported
            .entries
            .iter()
            .all(|e| e.entry.word != "dog" || !e.entry.plain_text.contains("luminous spot")));
        let dog = find(&imported, "Dog", Some("noun"));
        assert!(
            dog.plain_text.starts_with("1. (Zool.) A quadruped"),
            "{}",
            dog.plain_text
        );
        let able = find(&imported, "Able", Some("adjective"));
        assert!(
            able.plain_text.starts_with("1. Fit; adapted; suitable."),
            "{}",
            able.plain_text
        );
        assert!(
            able.examples.iter().any(|e| e.contains("—Chaucer")),
            "{:?}",
            able.examples
        );
        assert!(able.synonyms.contains(&"Competent".to_string()));
        assert!(able.html_content.contains("class=\"etymology\""));
        assert!(
            !able.plain_text.contains("1913 Webster")
                && !able.html_content.contains("1913 Webster")
        );
        let naive = find(&imported, "naive", None);
        assert!(
            naive.plain_text.contains("naïve"),
            "escapes decoded: {}",
            naive.plain_text
        );
        assert!(
            imported
                .entries
                .iter()
                .all(|e| !e.entry.word.starts_with("00-")),
            "metadata is not an entry"
        );
    }
}
