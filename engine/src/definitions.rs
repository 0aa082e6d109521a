//! Reverse lookup's view of an entry (docs/api.md, "Reverse lookup"): the
//! text of its definitions or translations ([`definition_text`]), the words
//! a query matches in it ([`words`]), the phrases an exact match compares
//! ([`phrases`]) and the BM25 score that ranks the rest ([`Bm25`]). The
//! index build (`snapshot/definitions.rs`), the query ([`super::reverse`])
//! and the tests' reference all tokenize through these functions.

use crate::fold::fold;
use unicode_normalization::char::is_combining_mark;

/// The titles of the word lists an entry's plain text may end with
/// (`Synonyms: a, b`): other words than the definition, not indexed.
/// The importers write them (`EntryText::word_list`), and a test there
/// holds them to this list.
pub const WORD_LIST_TITLES: [&str; 4] = ["Synonyms", "Antonyms", "Other forms", "See also"];

/// The title of a plain-text line that glosses the sense above it in the
/// dictionary's source language (`Gloss: rzepka w kolanie` under
/// `kneecap`, WikDict's Polish–English): not the definition's language,
/// so not indexed either.
pub const GLOSS_TITLE: &str = "Gloss";

/// The most words a reverse query may have, once folded.
pub const MAX_QUERY_WORDS: usize = 50;

/// What marks a phrase key: an exact match looks up the whole definition as
/// one key beside its words, and no word holds this character.
const PHRASE_MARK: char = '\u{1}';

/// The definition text of an entry: its `plainText` without its usage
/// `examples`, the word lists ([`WORD_LIST_TITLES`]), the source-language
/// glosses ([`GLOSS_TITLE`]), the sense numbers (`2. `) and the labels
/// (`[adm.] `), one line per sense.
pub fn definition_text(plain_text: &str, examples: &[String]) -> String {
    let is_example = |line: &str| examples.iter().any(|e| e.trim() == line);
    let is_word_list = |line: &str| {
        WORD_LIST_TITLES.iter().chain([&GLOSS_TITLE]).any(|title| {
            line.strip_prefix(title)
                .is_some_and(|r| r.starts_with(": "))
        })
    };
    plain_text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !is_example(line) && !is_word_list(line))
        .map(without_sense_marks)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A sense line without its number (`2. `) and its labels (`[adm.] `).
fn without_sense_marks(line: &str) -> &str {
    let mut rest = line;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        if let Some(after) = rest[digits..].strip_prefix(". ") {
            rest = after;
        }
    }
    while let Some(label) = rest.strip_prefix('[') {
        match label.split_once("] ") {
            Some((_, after)) => rest = after.trim_start(),
            None => break,
        }
    }
    rest.trim()
}

/// The folded words of `text`: runs of letters and digits (with the marks
/// folding keeps, such as kana voicing), everything else a separator.
pub fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !(c.is_alphanumeric() || is_combining_mark(c)))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The phrases of a definition that an exact match compares, each as its
/// words: the definition split at line breaks, `;` and `,`, text in
/// parentheses or brackets left out; a phrase that starts with stop words
/// (`to run`, `a young dog`) also without them, so that `run` is said
/// exactly by `to run`. Distinct, in order.
pub fn phrases(definition: &str, is_stop_word: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut plain = String::with_capacity(definition.len());
    let mut depth = 0usize;
    for c in definition.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    for piece in plain.split(['\n', ';', ',']) {
        let all = words(piece);
        let content = all.iter().position(|w| !is_stop_word(w)).unwrap_or(0);
        for phrase in [&all[..], &all[content..]] {
            if !phrase.is_empty() && !found.iter().any(|f| f == phrase) {
                found.push(phrase.to_vec());
            }
        }
    }
    found
}

/// What marks a stop-word key: the languages a word is a stop word of are
/// looked up under it, so that a query knows them without the lexicon.
const STOP_WORD_MARK: char = '\u{2}';

/// What marks a definition language's key: the entries whose definitions
/// are in it are listed under it, so that a lemma's list (which holds the
/// lemma's forms in the definitions of its own language, and the word
/// itself in any) is narrowed to its language without a column per entry.
const DEFINITION_LANG_MARK: char = '\u{3}';

/// The key under which the entries whose definitions are in `lang` are
/// listed (a bitmap).
pub fn definition_lang_key(lang: &str) -> String {
    let mut key = String::from(DEFINITION_LANG_MARK);
    key.push_str(lang);
    key
}

/// Whether `key` is a [`phrase_key`] rather than a word.
pub fn is_phrase_key(key: &str) -> bool {
    key.starts_with(PHRASE_MARK)
}

/// The key under which the languages that have `word` as a stop word are
/// listed.
pub fn stop_word_key(word: &str) -> String {
    let mut key = String::from(STOP_WORD_MARK);
    key.push_str(word);
    key
}

/// The key under which the definitions that say exactly `words` are
/// listed: the words joined, behind a mark no word holds.
pub fn phrase_key(words: &[String]) -> String {
    let mut key = String::from(PHRASE_MARK);
    key.push_str(&words.join(" "));
    key
}

/// Okapi BM25 with the usual parameters (k1 = 1.2, b = 0.75): a query
/// word's weight in a definition grows with its count there, less than in
/// proportion, and is lower in a definition longer than the average. The
/// definition length is kept relative to the average in sixteenths (a
/// byte), which is what the index stores.
pub struct Bm25;

impl Bm25 {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;

    /// A definition of `words` words, when the average is `average`, in
    /// sixteenths of the average (1 to 255).
    pub fn relative_length(words: usize, average: f64) -> u8 {
        if average <= 0.0 {
            return 16;
        }
        (words as f64 * 16.0 / average).round().clamp(1.0, 255.0) as u8
    }

    /// The inverse document frequency of a word that `listed` of `all`
    /// definitions say (never negative).
    pub fn idf(all: u32, listed: u32) -> f64 {
        let (all, listed) = (f64::from(all), f64::from(listed.min(all)));
        (1.0 + (all - listed + 0.5) / (listed + 0.5)).ln()
    }

    /// A word's score in one definition: its idf, the times the definition
    /// says it (`count`) and the definition's relative length.
    pub fn score(idf: f64, count: u8, relative_length: u8) -> f64 {
        let count = f64::from(count);
        let length = f64::from(relative_length) / 16.0;
        idf * count * (Self::K1 + 1.0) / (count + Self::K1 * (1.0 - Self::B + Self::B * length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition text of an entry of `plain_text` with `examples`.
    fn definition(plain_text: &str, examples: &[&str]) -> String {
        let examples: Vec<String> = examples.iter().map(|e| e.to_string()).collect();
        definition_text(plain_text, &examples)
    }

    #[test]
    fn a_definition_is_the_plain_text_without_examples_numbers_labels_and_word_lists() {
        let text = definition(
            "1. [adm.] [Obs.] establishment\n2. house (building)\nSynonyms: Heim\nOther forms: Häuser\nein Haus — a house",
            &["ein Haus — a house"],
        );
        assert_eq!(text, "establishment\nhouse (building)");
        // A word list's title only counts as one with its colon.
        let text = definition("See also the house\n12. [x]", &[]);
        assert_eq!(text, "See also the house\n[x]");
    }

    /// WikDict's Polish–English: the Polish gloss under an English sense
    /// is no English definition.
    #[test]
    fn source_language_glosses_are_no_definition() {
        let text = definition(
            "1. kneecap\nGloss: (potocznie, potoczny) rzepka w kolanie\n2. Adam's apple",
            &[],
        );
        assert_eq!(text, "kneecap\nAdam's apple");
        // Only as a title, with its colon.
        let text = definition("Glossy paper\nGloss paint", &[]);
        assert_eq!(text, "Glossy paper\nGloss paint");
    }

    #[test]
    fn words_are_folded_runs_of_letters_and_digits() {
        assert_eq!(words("L'École, 2 Häuser!"), ["l", "ecole", "2", "hauser"]);
        let kana = fold("ガイド");
        assert!(
            kana.chars().any(is_combining_mark),
            "folding keeps kana's marks"
        );
        assert_eq!(words("ガイド—x"), [kana.as_str(), "x"], "and so do words");
        assert!(words(" ,;() ").is_empty());
    }

    #[test]
    fn phrases_split_at_punctuation_leave_out_parentheses_and_leading_stop_words() {
        let stop = |w: &str| ["a", "to", "the"].contains(&w);
        let got = phrases("to run (fast); a young dog,\nthe; house [n]", stop);
        let want: Vec<Vec<&str>> = vec![
            vec!["to", "run"],
            vec!["run"],
            vec!["a", "young", "dog"],
            vec!["young", "dog"],
            vec!["the"],
            vec!["house"],
        ];
        assert_eq!(got, want);
        assert_eq!(phrase_key(&got[2]), "\u{1}a young dog");
    }

    #[test]
    fn bm25_rewards_counts_less_than_in_proportion_and_short_definitions() {
        let idf = Bm25::idf(1000, 10);
        assert!(Bm25::idf(1000, 1) > idf && idf > Bm25::idf(1000, 900));
        assert!(Bm25::idf(10, 10) > 0.0, "never negative");
        let once = Bm25::score(idf, 1, 16);
        let twice = Bm25::score(idf, 2, 16);
        assert!(twice > once && twice < 2.0 * once);
        assert!(Bm25::score(idf, 1, 8) > once, "shorter than the average");
        assert!(Bm25::score(idf, 1, 64) < once, "longer");
        assert_eq!(Bm25::relative_length(10, 10.0), 16);
        assert_eq!(Bm25::relative_length(1000, 1.0), 255);
        assert_eq!(Bm25::relative_length(0, 5.0), 1);
    }
}
