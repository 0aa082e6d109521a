//! Thesaurus items as words (docs/data-model.md, "Thesaurus items"): what a
//! source writes around a related word is taken off before the link is
//! stored, whatever the format. A cross-reference (`abode. See Tenement`)
//! gives the word before it and, as `related`, the word it points to; a
//! `Syn.` marker, a sense number, source tags and braces and trailing
//! punctuation go; what is left without a letter or a digit is dropped.
//! Each format's parser takes off its own markup first (gcide.rs the
//! `Syn:` paragraphs, mythes.rs the relation annotations); this is the net
//! under all of them, and what the test of every format holds them to.

/// The words an item of relationship `kind` stands for: none, itself
/// cleaned, or that and the word its cross-reference points to (`related`).
pub fn clean(kind: &'static str, raw: &str) -> Vec<(&'static str, String)> {
    let text = squash(&strip_bracketed(raw));
    let (before, target) = split_reference(&text);
    let mut words = Vec::new();
    if let Some(word) = clean_word(before) {
        words.push((kind, word));
    }
    if let Some(word) = target.and_then(clean_word) {
        words.push(("related", word));
    }
    words
}

/// Whether an item still carries markup that [`clean`] takes off: what the
/// tests of every format check their links with.
pub fn has_markup(word: &str) -> bool {
    word.is_empty()
        || word != word.trim()
        || word.contains(['{', '}', '[', ']'])
        || word.contains("--")
        || word.starts_with("See ")
        || word.contains(". See ")
        || word.starts_with("Cf. ")
        || word.starts_with("Syn.")
        || word.starts_with("Syn:")
        || sense_number(word).is_some()
        || ends_with_punctuation(word)
        || !word.chars().any(char::is_alphanumeric)
}

/// Sentence punctuation that ends an item in a source but is not part of
/// the word.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', '…'];

/// Whether the word ends with punctuation that is not an abbreviation's
/// period: a last word with a period inside (`U.S.A.`, `o.k.`, `z.B.`) or
/// one of [`ABBREVIATIONS`] (`Jr.`, FreeDict's `sth.`).
pub fn ends_with_punctuation(word: &str) -> bool {
    match word.chars().last() {
        Some('.') => !is_abbreviation(word),
        // Spanish opens what it closes: `¡adiós!`, `¿qué?`.
        Some('!') => !word.starts_with('¡'),
        Some('?') => !word.starts_with('¿'),
        Some(c) => TRAILING.contains(&c),
        None => false,
    }
}

fn is_abbreviation(word: &str) -> bool {
    let last = word.rsplit(' ').next().unwrap_or(word);
    let inner = &last[..last.len() - 1];
    let letters = inner.chars().filter(|c| c.is_alphabetic()).count();
    (inner.contains('.') && inner.chars().all(|c| matches!(c, '.' | '/') || c.is_alphabetic()))
        || ABBREVIATIONS.contains(&inner)
        // A word alone of a few letters: WordNet's `no.`, `var.`, `anon.`.
        || (last == word && (1..=4).contains(&letters) && letters == inner.chars().count())
}

/// Abbreviations without an inner period that end names and phrases of the
/// sources: titles in WordNet's and MyThes's names (`Albert Gore Jr.`), and
/// the placeholders of FreeDict's phrases (`pass sentence on sb.`, `etw.
/// zeigen`), which their headwords write with the period too.
const ABBREVIATIONS: &[&str] = &[
    "Jr", "Sr", "Dr", "St", "Mr", "Mrs", "Ms", "Ltd", "Inc", "Co", "Corp", "etc", "sth", "sb",
    "etw", "jd", "jdn", "jdm", "jds", "usw",
];

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Without `[…]` groups (source tags, editorial notes) and braces; an
/// unclosed `[` cuts the rest.
fn strip_bracketed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '{' | '}' => {}
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `abode. See Tenement` → (`abode`, `Tenement`); `See Fallacy` → (``,
/// `Fallacy`). Only a capitalized `See`/`Cf.` at the start or after a
/// sentence is a reference (`see red` is a word).
fn split_reference(text: &str) -> (&str, Option<&str>) {
    for marker in ["See ", "Cf. "] {
        if let Some(rest) = text.strip_prefix(marker) {
            return ("", Some(reference_target(rest)));
        }
        for separator in [". ", "; ", ", "] {
            if let Some(at) = text.find(&format!("{separator}{marker}")) {
                let rest = &text[at + separator.len() + marker.len()..];
                return (&text[..at], Some(reference_target(rest)));
            }
        }
    }
    (text, None)
}

/// The word a reference names: up to its part of speech or sense number
/// (`Raise, v. t., 3` → `Raise`; `the Note under Clerk, n.` → `Clerk`).
fn reference_target(rest: &str) -> &str {
    let rest = rest.split_once(" under ").map_or(rest, |(_, word)| word);
    let end = rest.find([',', ';', '(']).unwrap_or(rest.len());
    let word = rest[..end].trim();
    word.strip_suffix('.').unwrap_or(word)
}

/// A leading sense number (`1.`, `2)`, `(3)`) and its length.
fn sense_number(word: &str) -> Option<usize> {
    let open = usize::from(word.starts_with('('));
    let digits = word[open..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let after = &word[open + digits..];
    let close = if open == 1 {
        after.starts_with(')').then_some(1)?
    } else if after.starts_with(['.', ')']) {
        1
    } else {
        return None;
    };
    // `1.5 mm` is a word; a sense number stands alone or before a space.
    let rest = &after[close..];
    (rest.is_empty() || rest.starts_with(' ')).then_some(open + digits + close)
}

/// One item without markers, sense numbers and trailing punctuation; none
/// when nothing of a word is left.
fn clean_word(text: &str) -> Option<String> {
    // A discussion or a derivative after `--` is not part of the word.
    let mut word = text.split(" --").next().unwrap_or(text).trim();
    loop {
        let before = word;
        for marker in ["Syn.", "Syn:", "--"] {
            word = word.strip_prefix(marker).unwrap_or(word).trim_start();
        }
        if let Some(len) = sense_number(word) {
            word = word[len..].trim_start();
        }
        word = word.strip_suffix("--").unwrap_or(word).trim_end();
        while ends_with_punctuation(word) {
            word = word[..word.len() - word.chars().last().map_or(0, char::len_utf8)].trim_end();
        }
        if word == before {
            break;
        }
    }
    (word.chars().any(char::is_alphanumeric) && !has_markup(word)).then(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn words(kind: &'static str, raw: &str) -> Vec<(&'static str, String)> {
        clean(kind, raw)
    }

    #[test]
    fn a_cross_reference_becomes_the_word_and_the_word_it_points_to() {
        assert_eq!(
            words("synonym", "abode. See Tenement"),
            [("synonym", "abode".into()), ("related", "Tenement".into())]
        );
        assert_eq!(
            words("synonym", "See Fallacy"),
            [("related", "Fallacy".into())]
        );
        assert_eq!(
            words("synonym", "See {Raise}, v. t., 3."),
            [("related", "Raise".into())]
        );
        assert_eq!(
            words("synonym", "See the Note under {Clerk}, n., 4."),
            [("related", "Clerk".into())]
        );
        assert_eq!(
            words("synonym", "uncertain. Cf. {Doubtful}."),
            [
                ("synonym", "uncertain".into()),
                ("related", "Doubtful".into())
            ]
        );
        // A word that contains "see" is a word.
        assert_eq!(words("synonym", "see red"), [("synonym", "see red".into())]);
        assert_eq!(
            words("synonym", "Holy See"),
            [("synonym", "Holy See".into())]
        );
    }

    #[test]
    fn markers_sense_numbers_tags_and_punctuation_go() {
        let one = |raw: &str| words("synonym", raw).pop().map(|(_, w)| w);
        assert_eq!(one("Syn. regulation").as_deref(), Some("regulation"));
        assert_eq!(one("1. Fit").as_deref(), Some("Fit"));
        assert_eq!(one("(2) adapted;").as_deref(), Some("adapted"));
        assert_eq!(one("arena. [PJC]").as_deref(), Some("arena"));
        assert_eq!(
            one("genus {Casmerodius}").as_deref(),
            Some("genus Casmerodius")
        );
        assert_eq!(one("Hallo!").as_deref(), Some("Hallo"));
        assert_eq!(one("nicht wahr?").as_deref(), Some("nicht wahr"));
        assert_eq!(
            one("inebriety. -- Drunkenness").as_deref(),
            Some("inebriety")
        );
        assert_eq!(one("-- . [PJC]"), None);
        assert_eq!(one("  ;. "), None);
        // Words, kept as they are: abbreviations, numbers, labels.
        for word in [
            "U.S.A.",
            "on the Q.T.",
            "67",
            "1.5",
            "3D",
            "24-hour interval",
            "abmurksen (ugs.)",
            "1st Baron Verulam",
        ] {
            assert_eq!(one(word).as_deref(), Some(word), "{word}");
        }
        for word in [
            "Albert Gore Jr.",
            "pass sentence on sb.",
            "Dr.",
            "no.",
            "anon.",
            "on sb./sth.",
            "¡adiós!",
            "¿qué?",
        ] {
            assert_eq!(one(word).as_deref(), Some(word), "{word}");
        }
        assert_eq!(
            one("Mir graut vor der langen Fahrt.").as_deref(),
            Some("Mir graut vor der langen Fahrt")
        );
    }

    proptest! {
        /// Whatever a source wraps around words, what is left is words.
        #[test]
        fn no_markup_survives(parts in proptest::collection::vec(prop_oneof![
            "[a-zA-Zé]{1,8}",
            Just(" ".to_string()),
            Just("See ".to_string()),
            Just(". See ".to_string()),
            Just("Cf. ".to_string()),
            Just("Syn.".to_string()),
            Just("--".to_string()),
            Just("{".to_string()),
            Just("}".to_string()),
            Just("[1913 Webster]".to_string()),
            Just("1. ".to_string()),
            Just("(2) ".to_string()),
            "[.,;:!?…]",
        ], 0..12)) {
            let raw: String = parts.concat();
            for (_, word) in clean("synonym", &raw) {
                prop_assert!(!has_markup(&word), "{raw:?} → {word:?}");
            }
        }
    }
}
