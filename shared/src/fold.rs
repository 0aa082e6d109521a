//! Folding of headwords and queries into the form every match compares
//! (docs/api.md, "Matching and ranking"): Unicode NFKD, combining marks removed,
//! lower-cased, `ß`→`ss`, `æ`→`ae`, `œ`→`oe`, surrounding whitespace trimmed and
//! inner whitespace collapsed to one space.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The folded form of `text`. Idempotent: `fold(&fold(x)) == fold(x)`.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfkd() {
        if is_combining_mark(c) {
            continue;
        }
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
                // Lower-casing can yield characters that decompose further (for
                // example U+0130 `İ` → `i̇`); drop the marks those leave behind.
                other if is_combining_mark(other) => {}
                other => out.push(other),
            }
        }
    }
    // Lower-casing and the ligature expansions above never produce new
    // decomposable characters except in rare cases; a second NFKD pass makes the
    // function idempotent for all of Unicode.
    if out.is_ascii() {
        out
    } else {
        out.nfkd().filter(|c| !is_combining_mark(*c)).collect()
    }
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
