//! The query string and path segments: decoding (percent-decoding once, UTF-8
//! checked) and reading a value as text, an integer or a boolean. The rules
//! each read's parameters follow are in [`crate::queries`], which reads a
//! query string through [`ParamSource`]. Every failure is a 400 whose message
//! names the parameter. Nothing is silently clamped.

use crate::error::ApiError;
use crate::model::AudioFormat;
use crate::queries::{out_of_range, within_length, ParamSource};
use percent_encoding::percent_decode;

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
}

impl ParamSource for QueryParams {
    fn text(&self, name: &str) -> Result<Option<&str>, ApiError> {
        self.raw(name)
    }

    fn integer(&self, name: &str, min: u32, max: u32) -> Result<Option<u32>, ApiError> {
        let Some(text) = self.raw(name)? else {
            return Ok(None);
        };
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
        Ok(Some(value as u32))
    }

    fn flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.raw(name)?.map(str::trim) {
            None => Ok(None),
            // Exactly the two words of decisions.md: `TRUE` or `1` is a 400.
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(_) => Err(ApiError::bad_request(format!(
                "{name} must be true or false"
            ))),
        }
    }
}

/// Percent-decodes one URL component once. With `plus_is_space`, `+` is a space
/// (query strings); path segments keep `+` literally.
pub(crate) fn decode_component(
    raw: &str,
    plus_is_space: bool,
) -> Result<String, std::str::Utf8Error> {
    let bytes: Vec<u8> = if plus_is_space && raw.contains('+') {
        raw.replace('+', " ").into_bytes()
    } else {
        raw.as_bytes().to_vec()
    };
    let decoded: Vec<u8> = percent_decode(&bytes).collect();
    String::from_utf8(decoded).map_err(|e| e.utf8_error())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A value with its default, as the rules of `queries.rs` read it.
    impl QueryParams {
        /// An integer in `min..=max`, or `default` when absent.
        fn int_in_range(
            &self,
            name: &str,
            default: u32,
            min: u32,
            max: u32,
        ) -> Result<u32, ApiError> {
            Ok(self.integer(name, min, max)?.unwrap_or(default))
        }

        /// `true` or `false`, or `default` when absent.
        fn boolean(&self, name: &str, default: bool) -> Result<bool, ApiError> {
            Ok(self.flag(name)?.unwrap_or(default))
        }
    }

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
        assert!(message(q.required_text("q").unwrap_err()).starts_with("q must be valid UTF-8"));
    }

    #[test]
    fn query_text_rules() {
        assert_eq!(
            QueryParams::parse("q=++bank+").required_text("q").unwrap(),
            "bank"
        );
        assert_eq!(
            message(QueryParams::parse("").required_text("q").unwrap_err()),
            "q is required"
        );
        assert_eq!(
            message(QueryParams::parse("q=+++").required_text("q").unwrap_err()),
            "q must not be empty"
        );
        let long = format!("q={}", "é".repeat(101));
        assert_eq!(
            message(QueryParams::parse(&long).required_text("q").unwrap_err()),
            "q must be 1 to 100 characters"
        );
        let exactly = format!("q={}", "é".repeat(100));
        assert!(QueryParams::parse(&exactly).required_text("q").is_ok());
        // U+FDFA folds to 18 characters: 100 of them would be 1,800.
        let ligatures = format!("q={}", "\u{FDFA}".repeat(100));
        assert_eq!(
            message(
                QueryParams::parse(&ligatures)
                    .required_text("q")
                    .unwrap_err()
            ),
            "q must be at most 100 characters once folded"
        );
        let five = format!("q={}", "\u{FDFA}".repeat(5));
        assert_eq!(crate::fold::fold(&"\u{FDFA}".repeat(5)).chars().count(), 90);
        assert!(QueryParams::parse(&five).required_text("q").is_ok());
        assert!(message(
            QueryParams::parse("q=a%00b")
                .required_text("q")
                .unwrap_err()
        )
        .contains("control"));
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

    proptest! {
        #[test]
        fn parsing_never_panics(raw in "\\PC{0,200}") {
            let q = QueryParams::parse(&raw);
            let _ = q.required_text("q");
            let _ = q.int_in_range("limit", 20, 1, 100);
            let _ = crate::queries::SearchQuery::read(&q);
        }

        #[test]
        fn percent_encoding_round_trips(s in "\\PC{1,50}") {
            let encoded: String = percent_encoding::utf8_percent_encode(&s, percent_encoding::NON_ALPHANUMERIC).to_string();
            prop_assert_eq!(decode_component(&encoded, true).unwrap(), s);
        }
    }
}
