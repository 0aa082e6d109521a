//! The filters of search, autocomplete, random and suggestions: which
//! dictionaries and entries a query may answer from.

use super::postings::DictionaryRef;
use crate::InvalidParameter;

/// `lang=xx` or `lang=xx-yy` (case-insensitive): ISO 639-1 codes, or the
/// ISO 639-3 code of a language that has none (`kha`, Khasi), as BCP 47
/// writes a language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LangFilter {
    pub source: String,
    pub target: Option<String>,
}

impl LangFilter {
    pub fn parse(raw: &str) -> Result<Self, InvalidParameter> {
        let invalid =
            || InvalidParameter("lang must be a language code like en or a pair like en-fr".into());
        let lower = raw.trim().to_ascii_lowercase();
        let is_code =
            |s: &str| (2..=3).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_lowercase());
        match lower.split_once('-') {
            None if is_code(&lower) => Ok(Self {
                source: lower,
                target: None,
            }),
            Some((source, target)) if is_code(source) && is_code(target) => Ok(Self {
                source: source.to_string(),
                target: Some(target.to_string()),
            }),
            _ => Err(invalid()),
        }
    }

    /// Whether a dictionary with these languages passes the filter.
    pub fn matches(&self, source_lang: &str, target_lang: Option<&str>) -> bool {
        self.source == source_lang
            && match &self.target {
                None => true,
                Some(target) => Some(target.as_str()) == target_lang,
            }
    }
}

/// The filters of a query over the snapshot.
#[derive(Debug, Clone, Default)]
pub struct Filters<'a> {
    pub lang: Option<&'a LangFilter>,
    pub source: Option<&'a str>,
    pub part_of_speech: Option<&'a str>,
    pub has_audio: bool,
}

impl Filters<'_> {
    pub fn is_empty(&self) -> bool {
        self.lang.is_none()
            && self.source.is_none()
            && self.part_of_speech.is_none()
            && !self.has_audio
    }

    /// Whether entries of this dictionary pass `lang` and `source`.
    pub fn admit_dictionary(&self, d: &DictionaryRef) -> bool {
        self.source.is_none_or(|s| d.id == s)
            && self
                .lang
                .is_none_or(|l| l.matches(&d.source_lang, d.target_lang.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: InvalidParameter) -> String {
        err.to_string()
    }

    #[test]
    fn lang_codes_and_pairs() {
        assert_eq!(
            LangFilter::parse("en").unwrap(),
            LangFilter {
                source: "en".into(),
                target: None
            }
        );
        assert_eq!(
            LangFilter::parse("EN-fr").unwrap(),
            LangFilter {
                source: "en".into(),
                target: Some("fr".into())
            }
        );
        // A language without an ISO 639-1 code has its ISO 639-3 one (Khasi).
        assert_eq!(
            LangFilter::parse("kha-en").unwrap(),
            LangFilter {
                source: "kha".into(),
                target: Some("en".into())
            }
        );
        for bad in ["", "e", "engl", "en-", "en-fren", "e1", "en_fr", "en-fr-de"] {
            assert!(
                message(LangFilter::parse(bad).unwrap_err()).starts_with("lang must be"),
                "{bad}"
            );
        }
        let pair = LangFilter::parse("en-fr").unwrap();
        assert!(pair.matches("en", Some("fr")));
        assert!(!pair.matches("en", None));
        assert!(LangFilter::parse("en").unwrap().matches("en", None));
    }
}
