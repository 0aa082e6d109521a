//! Respellings: a word written as it sounds by its language's spelling
//! rules, where one sound has several spellings (Spanish `b` and `v`, `y`
//! and `ll`, a silent `h`). A learner who writes `guevo`, `nuve` or `yave`
//! means `huevo`, `nube` or `llave`; an edit that keeps the sound is far
//! likelier than one that changes it. Each rule applied counts as one edit,
//! whatever the letters it changes, and a listed word of the rule's
//! language that the query respells into ranks with the doublings
//! ([`crate::matching::TypoKind::Doubling`]).

/// Where in the query a rule may apply: its `from` there, and around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Anywhere,
    /// At the start of the word.
    Start,
    /// At the start of the word, before a vowel.
    StartBeforeVowel,
    /// Between two vowels.
    BetweenVowels,
}

/// One sound's spelling written for another's: `from` in the query, `to`
/// in the word.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub from: &'static str,
    pub to: &'static str,
    pub at: Place,
}

const fn rule(from: &'static str, to: &'static str, at: Place) -> Rule {
    Rule { from, to, at }
}

use Place::{Anywhere, BetweenVowels, Start, StartBeforeVowel};

/// Spanish (Real Academia's orthography: the letters of one sound):
/// `b`/`v` (and `mb`/`nv`, `embiar` → `enviar`), `y`/`ll` (yeísmo), the
/// silent `h` at the start and between vowels, `ye`/`hie`, `gue`/`hue`,
/// `c` before `e`, `i`/`s`/`z` (seseo) and `g`/`j` before `e`, `i`. Folded
/// (`güe` is `gue`). Both directions of each.
const SPANISH: &[Rule] = &[
    rule("b", "v", Anywhere),
    rule("v", "b", Anywhere),
    rule("mb", "nv", Anywhere),
    rule("nv", "mb", Anywhere),
    rule("y", "ll", Anywhere),
    rule("ll", "y", Anywhere),
    rule("", "h", StartBeforeVowel),
    rule("h", "", StartBeforeVowel),
    rule("", "h", BetweenVowels),
    rule("h", "", BetweenVowels),
    rule("ye", "hie", Start),
    rule("hie", "ye", Start),
    rule("gue", "hue", Anywhere),
    rule("hue", "gue", Anywhere),
    rule("s", "z", Anywhere),
    rule("z", "s", Anywhere),
    rule("se", "ce", Anywhere),
    rule("si", "ci", Anywhere),
    rule("ce", "se", Anywhere),
    rule("ci", "si", Anywhere),
    rule("ze", "ce", Anywhere),
    rule("zi", "ci", Anywhere),
    rule("ge", "je", Anywhere),
    rule("gi", "ji", Anywhere),
    rule("je", "ge", Anywhere),
    rule("ji", "gi", Anywhere),
];

/// The languages with respelling rules, and their rules.
pub const LANGUAGES: &[(&str, &[Rule])] = &[("es", SPANISH)];

/// The most rules applied in one respelling.
pub const MAX_CHANGES: usize = 2;

/// The longest query (in characters) whose respellings are looked for:
/// the engine looks each one up.
pub const QUERY_CHARS: usize = 24;

pub fn is_vowel(c: char) -> bool {
    "aeiou".contains(c)
}

/// Whether `rule` may apply to `query` at `at`: its `from` is there, in
/// its place.
pub fn applies(rule: &Rule, query: &[char], at: usize) -> bool {
    let n = rule.from.chars().count();
    let there = query.get(at..at + n);
    if !there.is_some_and(|there| there.iter().copied().eq(rule.from.chars())) {
        return false;
    }
    let after = query.get(at + n).copied();
    match rule.at {
        Anywhere => true,
        Start => at == 0,
        StartBeforeVowel => at == 0 && after.is_some_and(is_vowel),
        BetweenVowels => at > 0 && is_vowel(query[at - 1]) && after.is_some_and(is_vowel),
    }
}

/// The respellings of `query` in `lang`'s rules ([`LANGUAGES`]), each with
/// how many rules make it (the fewest, 1 to `max_changes`), never the query
/// itself; none for a query longer than [`QUERY_CHARS`].
pub fn respellings(rules: &[Rule], query: &[char], max_changes: usize) -> Vec<(Vec<char>, usize)> {
    let mut found: Vec<(Vec<char>, usize)> = Vec::new();
    if query.len() <= QUERY_CHARS {
        let mut word = Vec::new();
        spell(
            rules,
            query,
            0,
            0,
            max_changes.min(MAX_CHANGES),
            &mut word,
            &mut found,
        );
    }
    found.sort();
    found.dedup_by(|later, first| later.0 == first.0);
    found
}

/// Every way to write `query[at..]` after `word` (made with `changes`
/// rules so far), into `found`.
fn spell(
    rules: &[Rule],
    query: &[char],
    at: usize,
    changes: usize,
    max_changes: usize,
    word: &mut Vec<char>,
    found: &mut Vec<(Vec<char>, usize)>,
) {
    if at == query.len() {
        if changes > 0 && word[..] != query[..] {
            found.push((word.clone(), changes));
        }
    } else {
        word.push(query[at]);
        spell(rules, query, at + 1, changes, max_changes, word, found);
        word.pop();
    }
    if changes == max_changes {
        return;
    }
    for rule in rules.iter().filter(|r| applies(r, query, at)) {
        let kept = word.len();
        word.extend(rule.to.chars());
        let next = at + rule.from.chars().count();
        spell(rules, query, next, changes + 1, max_changes, word, found);
        word.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spanish(query: &str) -> Vec<(String, usize)> {
        let q: Vec<char> = query.chars().collect();
        respellings(SPANISH, &q, 2)
            .into_iter()
            .map(|(w, n)| (w.into_iter().collect(), n))
            .collect()
    }

    fn has(query: &str, word: &str, changes: usize) -> bool {
        spanish(query).contains(&(word.to_string(), changes))
    }

    #[test]
    fn spanish_learners_misspellings_respell_into_the_word() {
        for (query, word, changes) in [
            ("guevo", "huevo", 1),
            ("nuve", "nube", 1),
            ("cueba", "cueva", 1),
            ("yave", "llave", 1),
            ("caye", "calle", 1),
            ("gayina", "gallina", 1),
            ("yelo", "hielo", 1),
            ("ombre", "hombre", 1),
            ("embiar", "enviar", 1),
            ("sapato", "zapato", 1),
            ("jente", "gente", 1),
            ("bolber", "volver", 2),
        ] {
            assert!(
                has(query, word, changes),
                "{query} → {word}: {:?}",
                spanish(query)
            );
        }
    }

    #[test]
    fn a_rule_keeps_to_its_place() {
        // A silent h is written before a vowel at the start, or between two.
        assert!(!has("ola", "olha", 1));
        assert!(!has("la", "hla", 1));
        assert!(has("ola", "hola", 1));
        assert!(!has("alcol", "alcolh", 1));
        // Never the query itself, never more than the changes allowed.
        assert!(spanish("bobo").iter().all(|(w, n)| w != "bobo" && *n <= 2));
        assert!(!has("bobob", "vovov", 3));
    }
}
