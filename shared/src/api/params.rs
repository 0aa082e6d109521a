//! Query and path parameters: decoding (percent-decoding once, UTF-8 checked) and
//! the validation rules of decisions.md ("Parameters"). Every failure is a 400
//! whose message names the parameter. Nothing is silently clamped.

use crate::error::ApiError;
use crate::model::AudioFormat;
use percent_encoding::percent_decode;

/// The longest value we look at for any parameter. Longer input is rejected
/// before any work is done on it.
pub const MAX_PARAM_BYTES: usize = 2048;
/// `q` is 1 to 100 characters after trimming.
pub const MAX_QUERY_CHARS: usize = 100;
pub const MAX_OFFSET: u32 = 10_000;

/// Decoded query parameters, in request order. Unknown names are kept but never
/// looked at (decisions.md: unknown parameters are ignored).
#[derive(Debug, Default, Clone)]
pub struct QueryParams {
    pairs: Vec<(String, Result<String, ()>)>,
}

impl QueryParams {
    /// Parses a raw query string (`a=1&b=%C3%A9`). `+` means a space, as in
    /// HTML forms. Values that are not valid UTF-8 after decoding are remembered
    /// as invalid and reported only if the endpoint asks for that parameter.
    pub fn parse(raw: &str) -> Self {
        let pairs = raw
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                let name = decode_component(name, true).unwrap_or_default();
                (name, decode_component(value, true).map_err(|_| ()))
            })
            .collect();
        Self { pairs }
    }

    /// The first value given for `name`, if any. The first occurrence wins when a
    /// parameter is repeated.
    pub fn raw(&self, name: &str) -> Result<Option<&str>, ApiError> {
        match self.pairs.iter().find(|(n, _)| n == name) {
            None => Ok(None),
            Some((_, Ok(value))) => within_length(name, value).map(Some),
            Some((_, Err(()))) => Err(ApiError::bad_request(format!(
                "{name} must be valid UTF-8 (percent-encode non-ASCII characters as UTF-8)"
            ))),
        }
    }

    /// `q`: required, trimmed, 1 to 100 characters, no control characters.
    pub fn query_text(&self, name: &str) -> Result<String, ApiError> {
        let value = self
            .raw(name)?
            .ok_or_else(|| ApiError::bad_request(format!("{name} is required")))?;
        validate_text(name, value, MAX_QUERY_CHARS)
    }

    /// An integer in `min..=max`, or `default` when absent.
    pub fn int_in_range(
        &self,
        name: &str,
        default: u32,
        min: u32,
        max: u32,
    ) -> Result<u32, ApiError> {
        match self.raw(name)? {
            None => Ok(default),
            Some(text) => {
                let text = text.trim();
                // Only plain decimal digits: no sign, exponent or fraction.
                if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(out_of_range(name, min, max));
                }
                // Leading zeros are allowed (`05`) and do not make a number
                // long; more than 10 other digits is beyond any range here.
                let significant = text.trim_start_matches('0');
                if significant.len() > 10 {
                    return Err(out_of_range(name, min, max));
                }
                // All zeros leave nothing to parse: the value is 0.
                let value: u64 = significant.parse().unwrap_or(0);
                if value < u64::from(min) || value > u64::from(max) {
                    return Err(out_of_range(name, min, max));
                }
                Ok(value as u32)
            }
        }
    }

    /// `true` or `false`, or `default` when absent.
    pub fn boolean(&self, name: &str, default: bool) -> Result<bool, ApiError> {
        match self.raw(name)?.map(str::trim) {
            None => Ok(default),
            // Exactly the two words of decisions.md: `TRUE` or `1` is a 400.
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(_) => Err(ApiError::bad_request(format!(
                "{name} must be true or false"
            ))),
        }
    }

    /// `lang`: an ISO 639-1 code or a pair, if given.
    pub fn lang(&self) -> Result<Option<LangFilter>, ApiError> {
        self.raw("lang")?.map(LangFilter::parse).transpose()
    }

    /// `format` of the audio endpoint: `mp3` or `spx` exactly (trimmed, as
    /// every value), if given; anything else, empty included, is a 400.
    pub fn audio_format(&self) -> Result<Option<AudioFormat>, ApiError> {
        self.raw("format")?
            .map(|raw| {
                AudioFormat::from_name(raw.trim()).ok_or_else(|| {
                    ApiError::bad_request(format!("format must be one of {}", AudioFormat::names()))
                })
            })
            .transpose()
    }

    /// `source`: a dictionary id, if given (its existence is checked by storage).
    pub fn source(&self) -> Result<Option<String>, ApiError> {
        self.raw("source")?
            .map(|s| validate_dictionary_id("source", s))
            .transpose()
    }
}

/// `value`, unless it is longer than any value we look at.
pub fn within_length<'v>(name: &str, value: &'v str) -> Result<&'v str, ApiError> {
    if value.len() > MAX_PARAM_BYTES {
        Err(ApiError::bad_request(format!("{name} is too long")))
    } else {
        Ok(value)
    }
}

/// The answer to an integer outside `min..=max`, or not an integer at all.
pub fn out_of_range(name: &str, min: u32, max: u32) -> ApiError {
    ApiError::bad_request(format!("{name} must be an integer from {min} to {max}"))
}

/// Percent-decodes one URL component once. With `plus_is_space`, `+` is a space
/// (query strings); path segments keep `+` literally.
pub fn decode_component(raw: &str, plus_is_space: bool) -> Result<String, std::str::Utf8Error> {
    let bytes: Vec<u8> = if plus_is_space && raw.contains('+') {
        raw.replace('+', " ").into_bytes()
    } else {
        raw.as_bytes().to_vec()
    };
    let decoded: Vec<u8> = percent_decode(&bytes).collect();
    String::from_utf8(decoded).map_err(|e| e.utf8_error())
}

/// Trims `value` and checks its length in characters and that it holds no
/// control characters (which no headword contains).
pub fn validate_text(name: &str, value: &str, max_chars: usize) -> Result<String, ApiError> {
    let trimmed = value.trim();
    let chars = trimmed.chars().count();
    if chars == 0 {
        return Err(ApiError::bad_request(format!("{name} must not be empty")));
    }
    if chars > max_chars {
        return Err(ApiError::bad_request(format!(
            "{name} must be 1 to {max_chars} characters"
        )));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "{name} must not contain control characters"
        )));
    }
    Ok(trimmed.to_string())
}

/// Dictionary ids are short, lower-case ASCII slugs (`freedict-eng-fra`).
/// Anything else cannot name a dictionary: 404 as for any unknown id, with the
/// echoed value shortened so that hostile input is not reflected at length.
pub fn validate_dictionary_id(name: &str, value: &str) -> Result<String, ApiError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::bad_request(format!("{name} must not be empty")));
    }
    let well_formed = value.len() <= 64
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if well_formed {
        Ok(value.to_string())
    } else {
        Err(ApiError::UnknownDictionary(shorten(value, 64)))
    }
}

/// Entry ids are opaque, URL-safe and short (16 lower-case hex digits today;
/// the check allows for other URL-safe schemes later).
pub fn validate_entry_id(name: &str, value: &str) -> Result<String, ApiError> {
    let well_formed = !value.is_empty()
        && value.len() <= 128
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if well_formed {
        Ok(value.to_string())
    } else {
        Err(ApiError::bad_request(format!(
            "{name} must be an entry id (letters, digits, '-' or '_', at most 128)"
        )))
    }
}

fn shorten(value: &str, max_chars: usize) -> String {
    if value.chars().count() <= max_chars {
        value.to_string()
    } else {
        let mut short: String = value.chars().take(max_chars).collect();
        short.push('…');
        short
    }
}

/// `lang=xx` or `lang=xx-yy` (ISO 639-1, case-insensitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LangFilter {
    pub source: String,
    pub target: Option<String>,
}

impl LangFilter {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let invalid =
            || ApiError::bad_request("lang must be an ISO 639-1 code like en or a pair like en-fr");
        let lower = raw.trim().to_ascii_lowercase();
        let is_code = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_lowercase());
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn message(err: ApiError) -> String {
        assert_eq!(err.status(), 400, "{err:?}");
        err.public_message()
    }

    #[test]
    fn decodes_percent_and_plus_once() {
        let q = QueryParams::parse("q=%C3%A9cole+libre&x=%2541");
        assert_eq!(q.raw("q").unwrap(), Some("école libre"));
        assert_eq!(q.raw("x").unwrap(), Some("%41"), "decoded once only");
        assert_eq!(q.raw("missing").unwrap(), None);
    }

    #[test]
    fn first_of_repeated_parameters_wins() {
        let q = QueryParams::parse("limit=5&limit=7");
        assert_eq!(q.int_in_range("limit", 20, 1, 100).unwrap(), 5);
    }

    #[test]
    fn invalid_utf8_names_the_parameter() {
        let q = QueryParams::parse("q=%FF%FE");
        assert!(message(q.query_text("q").unwrap_err()).starts_with("q must be valid UTF-8"));
    }

    #[test]
    fn query_text_rules() {
        assert_eq!(
            QueryParams::parse("q=++bank+").query_text("q").unwrap(),
            "bank"
        );
        assert_eq!(
            message(QueryParams::parse("").query_text("q").unwrap_err()),
            "q is required"
        );
        assert_eq!(
            message(QueryParams::parse("q=+++").query_text("q").unwrap_err()),
            "q must not be empty"
        );
        let long = format!("q={}", "é".repeat(101));
        assert_eq!(
            message(QueryParams::parse(&long).query_text("q").unwrap_err()),
            "q must be 1 to 100 characters"
        );
        let exactly = format!("q={}", "é".repeat(100));
        assert!(QueryParams::parse(&exactly).query_text("q").is_ok());
        assert!(
            message(QueryParams::parse("q=a%00b").query_text("q").unwrap_err()).contains("control")
        );
    }

    #[test]
    fn limits_are_checked_not_clamped() {
        let check = |raw: &str| QueryParams::parse(raw).int_in_range("limit", 20, 1, 100);
        assert_eq!(check("").unwrap(), 20);
        assert_eq!(check("limit=1").unwrap(), 1);
        assert_eq!(check("limit=100").unwrap(), 100);
        for bad in [
            "limit=0",
            "limit=101",
            "limit=-1",
            "limit=1.5",
            "limit=abc",
            "limit=",
            "limit=1e2",
            "limit=99999999999999999999",
        ] {
            assert_eq!(
                message(check(bad).unwrap_err()),
                "limit must be an integer from 1 to 100",
                "{bad}"
            );
        }
    }

    #[test]
    fn leading_zeros_do_not_count_towards_the_length() {
        let check = |raw: &str| QueryParams::parse(raw).int_in_range("limit", 20, 1, 100);
        assert_eq!(check("limit=05").unwrap(), 5);
        assert_eq!(check("limit=00000000005").unwrap(), 5);
        assert_eq!(check("limit=+000000000000000000100+").unwrap(), 100);
        let offset = |raw: &str| QueryParams::parse(raw).int_in_range("offset", 0, 0, 10_000);
        assert_eq!(offset("offset=00000000000").unwrap(), 0);
        for bad in ["limit=00000000000", "limit=000000000000000000101"] {
            assert_eq!(
                message(check(bad).unwrap_err()),
                "limit must be an integer from 1 to 100",
                "{bad}"
            );
        }
    }

    #[test]
    fn booleans() {
        let check = |raw: &str| QueryParams::parse(raw).boolean("hasAudio", false);
        assert!(!check("").unwrap());
        assert!(check("hasAudio=true").unwrap());
        assert!(!check("hasAudio=false").unwrap());
        for bad in ["hasAudio=TRUE", "hasAudio=False", "hasAudio=1", "hasAudio="] {
            assert_eq!(
                message(check(bad).unwrap_err()),
                "hasAudio must be true or false",
                "{bad}"
            );
        }
        assert_eq!(
            message(check("hasAudio=yes").unwrap_err()),
            "hasAudio must be true or false"
        );
    }

    #[test]
    fn audio_formats() {
        let check = |raw: &str| QueryParams::parse(raw).audio_format();
        assert_eq!(check("").unwrap(), None);
        assert_eq!(check("x=1").unwrap(), None);
        assert_eq!(check("format=mp3").unwrap(), Some(AudioFormat::Mp3));
        assert_eq!(check("format=spx").unwrap(), Some(AudioFormat::Spx));
        assert_eq!(check("format=+spx+").unwrap(), Some(AudioFormat::Spx));
        assert_eq!(
            check("format=mp3&format=wav").unwrap(),
            Some(AudioFormat::Mp3)
        );
        for bad in [
            "format=",
            "format=+",
            "format=wav",
            "format=MP3",
            "format=mp3x",
            "format=.mp3",
            "format=%FF",
        ] {
            let err = check(bad).unwrap_err();
            if bad == "format=%FF" {
                assert!(message(err).starts_with("format must be valid UTF-8"));
            } else {
                assert_eq!(message(err), "format must be one of mp3, spx", "{bad}");
            }
        }
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
        for bad in ["", "e", "eng", "en-", "en-fra", "e1", "en_fr", "en-fr-de"] {
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

    #[test]
    fn dictionary_ids() {
        assert_eq!(
            validate_dictionary_id("source", "freedict-eng-fra").unwrap(),
            "freedict-eng-fra"
        );
        let err = validate_dictionary_id("source", "<script>").unwrap_err();
        assert_eq!(err.status(), 404);
        assert_eq!(err.public_message(), "Unknown dictionary: <script>");
        let long = validate_dictionary_id("source", &"x".repeat(500))
            .unwrap_err()
            .public_message();
        assert!(long.chars().count() < 100);
    }

    #[test]
    fn entry_ids() {
        assert!(validate_entry_id("id", "0f3a9c1d2b4e5f60").is_ok());
        for bad in ["", "a b", "a/b", "é", &"a".repeat(129)] {
            assert!(message(validate_entry_id("id", bad).unwrap_err()).starts_with("id must be"));
        }
    }

    proptest! {
        #[test]
        fn parsing_never_panics(raw in "\\PC{0,200}") {
            let q = QueryParams::parse(&raw);
            let _ = q.query_text("q");
            let _ = q.int_in_range("limit", 20, 1, 100);
            let _ = q.lang();
            let _ = q.source();
        }

        #[test]
        fn percent_encoding_round_trips(s in "\\PC{1,50}") {
            let encoded: String = percent_encoding::utf8_percent_encode(&s, percent_encoding::NON_ALPHANUMERIC).to_string();
            prop_assert_eq!(decode_component(&encoded, true).unwrap(), s);
        }
    }
}
