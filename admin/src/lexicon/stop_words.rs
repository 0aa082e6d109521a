//! Stop words of a language from a Snowball stop word list (`<language>.stop`,
//! as the Snowball project publishes them and PostgreSQL ships them:
//! `/usr/share/postgresql/15/tsearch_data/english.stop` in Debian 12's
//! `postgresql-15`, written by infra/scripts/stop-words.sh as `<lang>.stop`):
//! words separated by white space, in practice one a line (Snowball's own
//! Finnish list has rows of a table, several words each), `|` starting a
//! comment that runs to the end of the line, blank lines ignored. Each word
//! is folded (`shared::fold::fold`); a pair is `(folded word, "")`. Reverse
//! lookup does not index them.

use super::{LexiconError, WordList};
use crate::formats::source::{self, DEFAULT_MAX_SOURCE_BYTES};
use shared::fold::fold;
use shared::search::lexicon::LexiconKind;
use std::path::Path;

/// The stop words of `lang` in the Snowball list at `path`.
pub fn read(
    lang: &str,
    path: &Path,
    origin: String,
    licence: String,
) -> Result<WordList, LexiconError> {
    let bytes = source::read(path, DEFAULT_MAX_SOURCE_BYTES)?;
    let words = parse(path, &bytes)?;
    Ok(WordList::from_folded(
        LexiconKind::StopWords,
        lang,
        origin,
        licence,
        words.into_iter().map(|word| (word, String::new())),
    ))
}

/// The folded words of a list, in file order (duplicates kept: the list
/// deduplicates). A file that is not UTF-8, a word with a control
/// character, or a file without a word is an error that names the file
/// (and the line).
fn parse(path: &Path, bytes: &[u8]) -> Result<Vec<String>, LexiconError> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        LexiconError::Parse {
            path: path.to_path_buf(),
            line: valid.iter().filter(|&&b| b == b'\n').count() + 1,
            message: "not UTF-8: a Snowball stop word list is UTF-8 text".into(),
        }
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut words = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let content = line.split_once('|').map_or(line, |(words, _)| words);
        for word in content.split_whitespace() {
            let bad = |message: String| LexiconError::Parse {
                path: path.to_path_buf(),
                line: n + 1,
                message,
            };
            if word.chars().any(char::is_control) {
                return Err(bad(format!("{word:?} is not a word")));
            }
            let folded = fold(word);
            if folded.is_empty() {
                return Err(bad(format!("{word:?} folds to nothing")));
            }
            words.push(folded);
        }
    }
    if words.is_empty() {
        return Err(LexiconError::Input {
            path: path.to_path_buf(),
            message: "no stop words (not a Snowball stop word list?)".into(),
        });
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        parse(Path::new("en.stop"), text.as_bytes()).unwrap()
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = "\n | An English stop word list. Comments begin with vertical bar.\n\n\
                    i              | subject\n\
                    me             | object\n\
                    \x20| us           | object\n\
                    \t\n\
                    |will\n\
                    would\n";
        assert_eq!(words(text), ["i", "me", "would"]);
    }

    #[test]
    fn words_are_folded() {
        assert_eq!(
            words("Über\nfür\nÉTAIT\nłódź\nweiß\r\n"),
            ["uber", "fur", "etait", "lodz", "weiss"]
        );
    }

    #[test]
    fn a_row_of_several_words_gives_each() {
        // Snowball's Finnish list: a table of pronoun forms, a row a line.
        assert_eq!(
            words("minä   minun  minut  minua   | I\nettä   | that\n"),
            ["mina", "minun", "minut", "minua", "etta"]
        );
    }

    #[test]
    fn a_list_is_deduplicated_and_sorted_with_empty_values() {
        let path = std::env::temp_dir().join(format!("stop-words-{}.stop", std::process::id()));
        std::fs::write(&path, "the\nand\nThe\nà\na\n").unwrap();
        let list = read("en", &path, "test".into(), "BSD-3-Clause".into()).unwrap();
        std::fs::remove_file(&path).unwrap();
        let pairs: Vec<(&str, &str)> = list
            .pairs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(pairs, [("a", ""), ("and", ""), ("the", "")]);
        assert_eq!(list.list.kind, LexiconKind::StopWords);
        assert_eq!(list.list.count, 3);
        assert_eq!(list.list.licence, "BSD-3-Clause");
    }

    #[test]
    fn a_file_that_is_not_utf8_is_named_with_its_line() {
        // ISO 8859-1 `für` on the second line.
        let err = parse(Path::new("de.stop"), b"aber\nf\xfcr\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "de.stop line 2: not UTF-8: a Snowball stop word list is UTF-8 text"
        );
    }

    #[test]
    fn a_control_character_or_an_empty_list_is_an_error() {
        let err = parse(Path::new("en.stop"), b"the\nan\0d\n").unwrap_err();
        assert_eq!(err.to_string(), "en.stop line 2: \"an\\0d\" is not a word");
        let err = parse(Path::new("en.stop"), b"| only a comment\n\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "en.stop: no stop words (not a Snowball stop word list?)"
        );
        let err = parse(Path::new("en.stop"), b"").unwrap_err();
        assert!(err.to_string().contains("no stop words"), "{err}");
    }

    #[test]
    fn the_fixture_lists_read_whole() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/stop-words");
        // Folding merges a few words of a list (French `eut` and `eût`,
        // Spanish `esta` and `está`): 155, 313 and 279 lines.
        for (lang, count, word) in [
            ("en", 127, "the"),
            ("fr", 152, "etait"),
            ("de", 231, "uber"),
            ("es", 306, "esta"),
            ("it", 278, "perche"),
        ] {
            let list = read(
                lang,
                &dir.join(format!("{lang}.stop")),
                String::new(),
                String::new(),
            )
            .unwrap();
            assert_eq!(list.list.count, count, "{lang}");
            assert!(list.pairs.iter().any(|(w, _)| w == word), "{lang} {word}");
            assert!(list.pairs.iter().all(|(_, v)| v.is_empty()), "{lang}");
        }
    }
}
