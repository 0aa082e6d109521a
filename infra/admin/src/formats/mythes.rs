//! MyThes thesauri (`th_<locale>_v2.dat`, as LibreOffice and Debian's
//! `mythes-*` ship them): a first line naming the encoding, then per headword a
//! line `word|n` followed by `n` meaning lines `(pos)|term|term (annotation)|…`.
//! The `.idx` beside it only maps words to byte offsets for random access; a
//! full import reads the `.dat` from start to end.

use super::source::{self, SourceError};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub struct Headword {
    pub word: String,
    pub meanings: Vec<Meaning>,
    /// The 1-based line of `word|count`, for reports.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Meaning {
    /// As the file writes it (`(adj)`, `(Nom)`, `-`), without parentheses.
    pub part_of_speech: String,
    /// (relationship type of decisions.md, term)
    pub terms: Vec<(&'static str, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum MythesError {
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error("{path}: line {line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// Decodes the file with the encoding its first line declares (UTF-8 or
/// ISO 8859-1/-15; invalid UTF-8 is replaced).
pub fn decode(bytes: &[u8]) -> String {
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let declared = String::from_utf8_lossy(first_line)
        .trim()
        .to_ascii_uppercase();
    if declared.starts_with("ISO8859") || declared.starts_with("ISO-8859") {
        bytes.iter().map(|&b| b as char).collect()
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// `fine (similar term)` → (`similar`, `fine`)
fn classify(term: &str) -> (&'static str, String) {
    let markers = [
        ("(antonym)", "antonym"),
        ("(similar term)", "similar"),
        ("(generic term)", "hypernym"),
        ("(related term)", "related"),
    ];
    for (marker, kind) in markers {
        if let Some(word) = term.strip_suffix(marker) {
            return (kind, word.trim().to_string());
        }
    }
    ("synonym", term.trim().to_string())
}

pub fn parse(path: &Path, text: &str) -> Result<Vec<Headword>, MythesError> {
    let bad = |line: usize, message: &str| MythesError::Line {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    };
    let mut lines = text.lines().enumerate().skip(1);
    let mut headwords = Vec::new();
    while let Some((n, line)) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let (word, count) = line
            .rsplit_once('|')
            .ok_or_else(|| bad(n + 1, "expected word|count"))?;
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| bad(n + 1, "meaning count is not a number"))?;
        let mut meanings = Vec::with_capacity(count);
        for _ in 0..count {
            let (m, meaning) = lines
                .next()
                .ok_or_else(|| bad(n + 1, "file ends before all meanings of this word"))?;
            let mut fields = meaning.split('|');
            let pos = fields
                .next()
                .unwrap_or_default()
                .trim()
                .trim_start_matches('(')
                .trim_end_matches(')');
            let terms: Vec<_> = fields
                .filter(|t| !t.trim().is_empty())
                .map(classify)
                .collect();
            if terms.is_empty() && !meaning.contains('|') {
                return Err(bad(m + 1, "expected (pos)|term|…"));
            }
            meanings.push(Meaning {
                part_of_speech: pos.to_string(),
                terms,
            });
        }
        headwords.push(Headword {
            word: word.trim().to_string(),
            meanings,
            line: n + 1,
        });
    }
    Ok(headwords)
}

/// Reads a `.dat` (or a gzipped `.dat.gz`) of at most `max_source_bytes`.
pub fn read(path: &Path, max_source_bytes: u64) -> Result<Vec<Headword>, MythesError> {
    let bytes = source::read(path, max_source_bytes)?;
    parse(path, &decode(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "UTF-8\ngood|2\n(adj)|full|ample (similar term)|bad (antonym)\n(noun)|goodness|quality (generic term)|evil (antonym)\nbonasse|1\n(Adjectif)|faible|mou\n";

    #[test]
    fn parses_headwords_meanings_and_annotations() {
        let words = parse(Path::new("th.dat"), SAMPLE).unwrap();
        assert_eq!(words.len(), 2);
        assert_eq!(words[0].word, "good");
        assert_eq!((words[0].line, words[1].line), (2, 5));
        assert_eq!(words[0].meanings[0].part_of_speech, "adj");
        assert_eq!(
            words[0].meanings[0].terms,
            vec![
                ("synonym", "full".to_string()),
                ("similar", "ample".to_string()),
                ("antonym", "bad".to_string())
            ]
        );
        assert_eq!(
            words[0].meanings[1].terms[1],
            ("hypernym", "quality".to_string())
        );
        assert_eq!(words[1].meanings[0].part_of_speech, "Adjectif");
    }

    #[test]
    fn latin1_files_are_decoded() {
        let bytes = b"ISO8859-1\nni\xf1o|1\n-|chico\n";
        let words = parse(Path::new("es.dat"), &decode(bytes)).unwrap();
        assert_eq!(words[0].word, "niño");
    }

    #[test]
    fn truncated_files_name_the_line() {
        let err = parse(Path::new("th_en_US_v2.dat"), "UTF-8\ngood|3\n(adj)|fine\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "th_en_US_v2.dat: line 2: file ends before all meanings of this word"
        );
        let err = parse(Path::new("x.dat"), "UTF-8\ngood|many\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2: meaning count"));
    }
}
