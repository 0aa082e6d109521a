//! Folding of headwords and queries into the form every match compares
//! (docs/api.md, "Matching and ranking"): Unicode NFKD, combining marks removed,
//! lower-cased, `ß`→`ss`, `æ`→`ae`, `œ`→`oe`, Greek final `ς`→`σ` (so that
//! `ΤΟΥΣ`, whose capital lower-cases to `σ`, finds `τους`), letters without a decomposition
//! to the letter a reader types for them (`ø`→`o`, `ł`→`l`, `đ`→`d`, `ı`→`i`,
//! `þ`→`th` …), surrounding whitespace trimmed and inner whitespace collapsed to
//! one space.
//!
//! Combining marks are dropped only where they are diacritics a reader may
//! leave out. In scripts whose marks make another letter or syllable (kana
//! voicing: `が` is not `か`; Indic and Southeast Asian vowel signs and
//! viramas) they are kept, so those words never merge.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The folded form of `text`. Idempotent: `fold(&fold(x)) == fold(x)`.
pub fn fold(text: &str) -> String {
    let once = fold_pass(text);
    // Lower-casing and the expansions can, in rare cases, yield characters that
    // decompose further; a second pass makes the function idempotent.
    if once.is_ascii() || once.nfkd().eq(once.chars()) {
        once
    } else {
        fold_pass(&once)
    }
}

fn fold_pass(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    // Whether the marks that follow belong to a letter whose marks carry meaning.
    let mut marks_carry_meaning = false;
    for c in text.nfkd() {
        if is_combining_mark(c) {
            if marks_carry_meaning {
                out.push(c);
            }
            continue;
        }
        marks_carry_meaning = marks_carry_meaning_after(c);
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        for lower in c.to_lowercase() {
            match lower {
                'ß' => out.push_str("ss"),
                'æ' => out.push_str("ae"),
                'œ' => out.push_str("oe"),
                'þ' => out.push_str("th"),
                // The form sigma takes at a word's end: the same letter, and
                // what `Σ` lower-cases to is `σ` wherever it stands.
                'ς' => out.push('σ'),
                // Lower-casing can yield characters that decompose further (for
                // example U+0130 `İ` → `i̇`); drop the marks those leave behind.
                other if is_combining_mark(other) => {}
                other => out.push(plain_letter(other).unwrap_or(other)),
            }
        }
    }
    out
}

/// Whether the first letter of `text` is a capital: what folding forgets
/// and entry by word and search's exact matches still go by (`Lodz` asks
/// for the city `Łódź`, `lodz` for the boat `łódź`). `None` when `text` has
/// no letter or its first letter has no case (`日本`).
pub fn capitalised(text: &str) -> Option<bool> {
    let first = text.chars().find(|c| c.is_alphabetic())?;
    if first.is_uppercase() {
        Some(true)
    } else if first.is_lowercase() {
        Some(false)
    } else {
        None
    }
}

/// Whether `headword` is capitalised as a typed word whose
/// [`capitalised`] is `typed`: its first letter a capital when the typed
/// one's is, and not when not. Every headword is, when the typed word's
/// first letter has no case.
pub fn capitalised_as(headword: &str, typed: Option<bool>) -> bool {
    typed.is_none_or(|typed| capitalised(headword) == Some(typed))
}

/// The base letter a reader types for a lower-case letter that has no Unicode
/// decomposition: stroked, barred and dotless letters of Latin alphabets
/// (Danish and Norwegian `ø`, Polish `ł`, South Slavic `đ`, Turkish `ı`,
/// Icelandic `ð`, Maltese `ħ`, Sámi `ŧ`), as place names are written in English.
fn plain_letter(c: char) -> Option<char> {
    Some(match c {
        'ø' | 'ɵ' => 'o',
        'ł' | 'ƚ' => 'l',
        'đ' | 'ð' | 'ɖ' | 'ɗ' => 'd',
        'ı' | 'ɨ' => 'i',
        'ħ' => 'h',
        'ŧ' => 't',
        'ƀ' => 'b',
        'ʉ' => 'u',
        'ƶ' => 'z',
        'ǥ' => 'g',
        _ => return None,
    })
}

/// Whether the combining marks after `base` change which letter or syllable it
/// is: Japanese kana (voicing marks) and the Brahmic scripts of South and
/// Southeast Asia (vowel signs, viramas, nuktas), Tibetan included.
fn marks_carry_meaning_after(base: char) -> bool {
    matches!(base,
        '\u{0900}'..='\u{0DFF}'   // Devanagari … Sinhala
        | '\u{0E00}'..='\u{0FFF}' // Thai, Lao, Tibetan
        | '\u{1000}'..='\u{109F}' // Myanmar
        | '\u{1780}'..='\u{17FF}' // Khmer
        | '\u{1900}'..='\u{1AAF}' // Limbu … Tai Tham
        | '\u{1B00}'..='\u{1C4F}' // Balinese … Lepcha
        | '\u{A800}'..='\u{A82F}' // Syloti Nagri
        | '\u{A840}'..='\u{A8FF}' // Phags-pa, Saurashtra, Devanagari Extended
        | '\u{A980}'..='\u{AAFF}' // Javanese … Meetei Mayek Extensions
        | '\u{ABC0}'..='\u{ABFF}' // Meetei Mayek
        | '\u{11000}'..='\u{11FFF}' // Brahmi and the historic Brahmic scripts
        | '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{31F0}'..='\u{31FF}' // Katakana phonetic extensions
        | '\u{FF66}'..='\u{FF9F}' // Half-width katakana
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn removes_diacritics_and_case() {
        assert_eq!(fold("École"), "ecole");
        assert_eq!(fold("ÉCOLE"), "ecole");
        assert_eq!(fold("naïve"), "naive");
        assert_eq!(fold("Mañana"), "manana");
    }

    #[test]
    fn expands_ligatures_and_sharp_s() {
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("STRASSE"), "strasse");
        assert_eq!(fold("Æsir"), "aesir");
        assert_eq!(fold("cœur"), "coeur");
        assert_eq!(fold("Œuvre"), "oeuvre");
    }

    #[test]
    fn the_first_letter_decides_the_capitalisation() {
        assert_eq!(capitalised("Łódź"), Some(true));
        assert_eq!(capitalised("łódź"), Some(false));
        assert_eq!(capitalised("LODZ"), Some(true));
        assert_eq!(capitalised("'s-Hertogenbosch"), Some(false));
        assert_eq!(capitalised("2 Łódź"), Some(true));
        assert_eq!(capitalised("日本"), None);
        assert_eq!(capitalised("42"), None);
        assert!(capitalised_as("Łódź", Some(true)));
        assert!(!capitalised_as("łódź", Some(true)));
        assert!(capitalised_as("łódź", Some(false)));
        assert!(!capitalised_as("日本", Some(false)));
        assert!(capitalised_as("Łódź", None) && capitalised_as("łódź", None));
    }

    #[test]
    fn greek_final_sigma_folds_to_sigma() {
        assert_eq!(fold("τους"), "τουσ");
        assert_eq!(fold("ΤΟΥΣ"), fold("τους"));
        assert_eq!(fold("Σοφός"), "σοφοσ");
        assert_eq!(fold("σοφόσ"), fold("σοφός"), "as wordfreq writes it");
    }

    #[test]
    fn letters_without_a_decomposition_fold_to_what_a_reader_types() {
        assert_eq!(fold("Łódź"), "lodz");
        assert_eq!(fold("København"), "kobenhavn");
        assert_eq!(fold("ØRESUND"), "oresund");
        assert_eq!(fold("Đakovo"), "dakovo");
        assert_eq!(fold("Isparta ılık"), "isparta ilik");
        assert_eq!(fold("Þórðarson"), "thordarson");
        assert_eq!(fold("Ħamrun"), "hamrun");
    }

    #[test]
    fn marks_that_make_another_letter_are_kept() {
        // Kana voicing: が (ga) and か (ka) are different syllables.
        assert_ne!(fold("がっこう"), fold("かっこう"));
        assert_ne!(fold("バス"), fold("ハス"));
        // Half-width katakana fold to the same key as full-width.
        assert_eq!(fold("ﾊﾞｽ"), fold("バス"));
        // Devanagari vowel signs: कि (ki) and का (kā) are not क (ka).
        assert_ne!(fold("कि"), fold("क"));
        assert_ne!(fold("कि"), fold("का"));
        // Thai tone and vowel marks.
        assert_ne!(fold("ไม้"), fold("ไม"));
        // Latin, Greek and Cyrillic diacritics still go.
        assert_eq!(fold("Ἀθῆναι"), "αθηναι");
        assert_eq!(fold("йогурт"), "иогурт");
    }

    #[test]
    fn collapses_whitespace() {
        assert_eq!(fold("  ice \t  cream \n"), "ice cream");
        assert_eq!(fold("\u{00A0}a\u{2003}b"), "a b");
        assert_eq!(fold("   "), "");
    }

    #[test]
    fn compatibility_forms_fold_to_plain_letters() {
        assert_eq!(fold("ﬁne"), "fine");
        assert_eq!(fold("Ｗｏｒｄ"), "word");
    }

    proptest! {
        #[test]
        fn idempotent(s in "\\PC{0,40}") {
            let once = fold(&s);
            prop_assert_eq!(fold(&once), once.clone());
        }

        #[test]
        fn idempotent_where_marks_are_kept(s in "[\u{3040}-\u{30FF}\u{FF66}-\u{FF9F}\u{0900}-\u{097F}\u{0E00}-\u{0E7F}\u{0300}-\u{036F}a-zøłÅ ]{0,20}") {
            let once = fold(&s);
            prop_assert_eq!(fold(&once), once.clone());
        }

        #[test]
        fn never_has_outer_or_double_spaces(s in "[ a-zA-Zé\\t]{0,30}") {
            let f = fold(&s);
            prop_assert!(!f.starts_with(' ') && !f.ends_with(' ') && !f.contains("  "));
        }

        #[test]
        fn case_insensitive(s in "[a-zA-ZàéîõüÀÉÎÕÜ ]{0,30}") {
            prop_assert_eq!(fold(&s.to_uppercase()), fold(&s.to_lowercase()));
        }
    }
}
