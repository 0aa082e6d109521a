//! ISO 639-3 codes (as FreeDict names its dictionaries) to ISO 639-1 codes (as
//! the API speaks) and English names.

/// (ISO 639-3, ISO 639-1, English name)
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("afr", "af", "Afrikaans"),
    ("ara", "ar", "Arabic"),
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
    ("isl", "is", "Icelandic"),
    ("ita", "it", "Italian"),
    ("jpn", "ja", "Japanese"),
    ("kha", "kh", "Khasi"),
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
    ("ron", "ro", "Romanian"),
    ("rus", "ru", "Russian"),
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
];

/// The ISO 639-1 code of an ISO 639-3 code, if it has one we know.
pub fn iso639_1(code3: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(c3, _, _)| *c3 == code3)
        .map(|(_, c1, _)| *c1)
}

/// The English name of an ISO 639-1 code.
pub fn name(code1: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(_, c1, _)| *c1 == code1)
        .map(|(_, _, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_freedict_codes() {
        assert_eq!(iso639_1("eng"), Some("en"));
        assert_eq!(iso639_1("fra"), Some("fr"));
        assert_eq!(iso639_1("deu"), Some("de"));
        assert_eq!(iso639_1("spa"), Some("es"));
        assert_eq!(iso639_1("xxx"), None);
        assert_eq!(name("fr"), Some("French"));
    }

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for (c3, c1, _) in LANGUAGES {
            assert_eq!(c3.len(), 3);
            assert_eq!(c1.len(), 2);
            assert!(seen.insert(*c1), "duplicate {c1}");
        }
    }
}
