//! ISO 639-3 codes (as FreeDict names its dictionaries) to the codes the API
//! speaks, and English names. The API's code of a language is its ISO 639-1
//! code; a language that has none keeps its ISO 639-3 code, as BCP 47 does
//! (Asturian `ast`, Khasi `kha`, Romani `rom`). The individual languages of a
//! macrolanguage that has an ISO 639-1 code take that code, as `lang=ku`
//! should find every Kurdish dictionary: Northern and Central Kurdish (`kmr`,
//! `ckb`) are `ku`, Swahili (`swh`) is `sw`.

/// (ISO 639-3, the API's code, English name)
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("afr", "af", "Afrikaans"),
    ("ara", "ar", "Arabic"),
    ("ast", "ast", "Asturian"),
    ("bre", "br", "Breton"),
    ("bul", "bg", "Bulgarian"),
    ("cat", "ca", "Catalan"),
    ("ces", "cs", "Czech"),
    ("cym", "cy", "Welsh"),
    ("dan", "da", "Danish"),
    ("deu", "de", "German"),
    ("ell", "el", "Greek"),
    ("eng", "en", "English"),
    ("epo", "eo", "Esperanto"),
    ("fin", "fi", "Finnish"),
    ("fra", "fr", "French"),
    ("gla", "gd", "Scottish Gaelic"),
    ("gle", "ga", "Irish"),
    ("hin", "hi", "Hindi"),
    ("hrv", "hr", "Croatian"),
    ("hun", "hu", "Hungarian"),
    ("ind", "id", "Indonesian"),
    ("isl", "is", "Icelandic"),
    ("ita", "it", "Italian"),
    ("jpn", "ja", "Japanese"),
    ("kha", "kha", "Khasi"),
    ("kur", "ku", "Kurdish"),
    ("lat", "la", "Latin"),
    ("lit", "lt", "Lithuanian"),
    ("mkd", "mk", "Macedonian"),
    ("nld", "nl", "Dutch"),
    ("nno", "nn", "Norwegian Nynorsk"),
    ("nob", "nb", "Norwegian Bokmål"),
    ("nor", "no", "Norwegian"),
    ("oci", "oc", "Occitan"),
    ("pol", "pl", "Polish"),
    ("por", "pt", "Portuguese"),
    ("rom", "rom", "Romani"),
    ("ron", "ro", "Romanian"),
    ("rus", "ru", "Russian"),
    ("san", "sa", "Sanskrit"),
    ("slk", "sk", "Slovak"),
    ("slv", "sl", "Slovenian"),
    ("spa", "es", "Spanish"),
    ("srp", "sr", "Serbian"),
    ("swa", "sw", "Swahili"),
    ("swe", "sv", "Swedish"),
    ("tur", "tr", "Turkish"),
    ("ukr", "uk", "Ukrainian"),
    ("wol", "wo", "Wolof"),
    ("zho", "zh", "Chinese"),
    // Individual languages of a macrolanguage above, after it, so that
    // `name` of the code is the macrolanguage's.
    ("ckb", "ku", "Central Kurdish"),
    ("kmr", "ku", "Northern Kurdish"),
    ("swh", "sw", "Swahili"),
];

/// The API's code (ISO 639-1, else ISO 639-3) and the English name of an
/// ISO 639-3 code, if it is one we know.
pub fn of_iso639_3(code3: &str) -> Option<(&'static str, &'static str)> {
    LANGUAGES
        .iter()
        .find(|(c3, _, _)| *c3 == code3)
        .map(|(_, code, name)| (*code, *name))
}

/// The English name of one of the API's codes (for a macrolanguage, the
/// first language listed with it: `ku` is Kurdish).
pub fn name(code: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(c3, c, _)| *c == code && (code.len() == 2 || *c3 == code))
        .map(|(_, _, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_freedict_codes() {
        let code = |c3| of_iso639_3(c3).map(|(code, _)| code);
        assert_eq!(code("eng"), Some("en"));
        assert_eq!(code("fra"), Some("fr"));
        assert_eq!(code("deu"), Some("de"));
        assert_eq!(code("spa"), Some("es"));
        assert_eq!(code("xxx"), None);
        assert_eq!(name("fr"), Some("French"));
    }

    /// Every language of Debian 12's FreeDict packages that the first
    /// table lacked: dict-freedict-ind-eng, -san-deu, -swh-eng, -kmr-deu,
    /// -ckb-kmr, -ast-spa, -kha-eng and -rom-eng could not be imported.
    #[test]
    fn every_freedict_language_of_debian_has_a_code() {
        let code = |c3| of_iso639_3(c3).map(|(code, _)| code);
        assert_eq!(code("ind"), Some("id"));
        assert_eq!(code("san"), Some("sa"));
        assert_eq!(code("swh"), Some("sw"));
        assert_eq!(code("kmr"), Some("ku"));
        assert_eq!(of_iso639_3("ckb"), Some(("ku", "Central Kurdish")));
        // No ISO 639-1 code: the ISO 639-3 one, as BCP 47 writes them.
        assert_eq!(of_iso639_3("ast"), Some(("ast", "Asturian")));
        assert_eq!(of_iso639_3("kha"), Some(("kha", "Khasi")));
        assert_eq!(of_iso639_3("rom"), Some(("rom", "Romani")));
        assert_eq!(name("kha"), Some("Khasi"));
        assert_eq!(name("ku"), Some("Kurdish"));
        assert_eq!(name("sw"), Some("Swahili"));
    }

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for (c3, code, _) in LANGUAGES {
            assert_eq!(c3.len(), 3);
            assert!(seen.insert(*c3), "duplicate {c3}");
            assert!(code.len() == 2 || code == c3, "{c3}: {code}");
            assert!(code.bytes().all(|b| b.is_ascii_lowercase()));
        }
    }
}
