//! The dictd database format used by FreeDict and GCIDE: a `.index` of
//! `headword TAB offset TAB length` lines (offsets in dictd's base64) and a
//! `.dict.dz` (gzip; dictzip's random-access header is not needed when the
//! whole file is read once). Both are read under the source size limit.

use super::error::ImportError;
use crate::formats::source;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One `.index` line: the article of `headword` is `length` bytes at `offset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub headword: String,
    pub offset: u64,
    pub length: u64,
    /// 1-based line number, for error messages.
    pub line: usize,
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// dictd's base64 numbers: most significant digit first, no padding.
pub fn decode_number(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 10 {
        return None;
    }
    text.bytes().try_fold(0u64, |n, c| {
        let digit = BASE64.iter().position(|&b| b == c)? as u64;
        Some(n * 64 + digit)
    })
}

/// dictd's base64 number of `n`: the inverse of [`decode_number`].
pub fn encode_number(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(BASE64[(n % 64) as usize]);
        n /= 64;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).expect("base64 digits are ASCII")
}

/// Whether an index line is one of dictd's metadata articles rather than a
/// headword: `00databaseinfo` (FreeDict), `00-database-info`, `00-gcide-url`,
/// `00-web1913-info` (GCIDE).
pub fn is_metadata(headword: &str) -> bool {
    headword.starts_with("00database") || headword.starts_with("00-")
}

/// Parses an index. Invalid UTF-8 in a headword (seen in a few files) is
/// replaced rather than fatal; a malformed line is an error naming it.
pub fn parse_index(path: &Path, bytes: &[u8]) -> Result<Vec<IndexLine>, ImportError> {
    let mut lines = Vec::new();
    for (number, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = number + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(raw);
        let bad = |message: &str| ImportError::Line {
            path: path.to_path_buf(),
            line,
            message: message.to_string(),
        };
        let mut fields = text.rsplitn(3, '\t');
        let (length, offset, headword) = match (fields.next(), fields.next(), fields.next()) {
            (Some(l), Some(o), Some(h)) => (l, o, h),
            _ => {
                return Err(bad(
                    "expected headword, offset and length separated by tabs",
                ))
            }
        };
        let offset =
            decode_number(offset).ok_or_else(|| bad("offset is not a dictd base64 number"))?;
        let length =
            decode_number(length).ok_or_else(|| bad("length is not a dictd base64 number"))?;
        lines.push(IndexLine {
            headword: headword.to_string(),
            offset,
            length,
            line,
        });
    }
    Ok(lines)
}

/// How many times over an index's articles may cover its data. Every
/// FreeDict dictionary and GCIDE cover theirs once at most (measured on all
/// 204 dictd databases of Debian's packages): articles do not overlap.
const MAX_COVERAGE: u64 = 2;

/// A dictd database read into memory.
pub struct Database {
    pub index: Vec<IndexLine>,
    pub data: Vec<u8>,
    /// The `.index` file, which positions in reports refer to (its lines).
    pub index_path: PathBuf,
    data_path: PathBuf,
}

impl Database {
    /// Opens `<prefix>.index` and `<prefix>.dict.dz` (or an uncompressed
    /// `.dict`), each refused if it is (or decompresses to) more than
    /// `max_source_bytes`.
    pub fn open(prefix: &Path, max_source_bytes: u64) -> Result<Self, ImportError> {
        let index_path = with_suffix(prefix, ".index");
        let index_bytes = source::read(&index_path, max_source_bytes)?;
        let dz = with_suffix(prefix, ".dict.dz");
        let data_path = if dz.exists() {
            dz
        } else {
            with_suffix(prefix, ".dict")
        };
        let data = source::read(&data_path, max_source_bytes)?;
        Self::from_bytes(index_path, &index_bytes, data_path, data)
    }

    /// A database from the bytes of its index and its (decompressed) data.
    /// Refused when its articles would cover the data more than
    /// [`MAX_COVERAGE`] times: overlapping ranges would otherwise multiply
    /// the memory of an import far past the source size limit.
    pub fn from_bytes(
        index_path: PathBuf,
        index_bytes: &[u8],
        data_path: PathBuf,
        data: Vec<u8>,
    ) -> Result<Self, ImportError> {
        let index = parse_index(&index_path, index_bytes)?;
        let database = Self {
            index,
            data,
            index_path,
            data_path,
        };
        let covered: u64 = database.articles().iter().map(|l| l.length).sum();
        let allowed = MAX_COVERAGE * database.data.len() as u64;
        if covered > allowed {
            return Err(ImportError::Overlapping {
                path: database.index_path,
                covered,
                size: database.data.len() as u64,
                max: MAX_COVERAGE,
            });
        }
        Ok(database)
    }

    /// The article text an index line points at. Invalid UTF-8 is replaced.
    pub fn article(&self, line: &IndexLine) -> Result<String, ImportError> {
        Ok(String::from_utf8_lossy(self.article_bytes(line)?).into_owned())
    }

    /// The bytes an index line points at.
    fn article_bytes(&self, line: &IndexLine) -> Result<&[u8], ImportError> {
        let end = line
            .offset
            .checked_add(line.length)
            .filter(|&end| end <= self.data.len() as u64);
        match end {
            Some(end) => Ok(&self.data[line.offset as usize..end as usize]),
            None => Err(ImportError::OutOfRange {
                path: self.data_path.clone(),
                headword: line.headword.clone(),
                offset: line.offset,
                length: line.length,
                size: self.data.len() as u64,
            }),
        }
    }

    /// The index lines of articles (not dictd's `00database…` metadata), one per
    /// article: several lines that point at the same bytes are one article.
    pub fn articles(&self) -> Vec<&IndexLine> {
        let mut seen = HashSet::new();
        self.index
            .iter()
            .filter(|l| !is_metadata(&l.headword))
            .filter(|l| seen.insert((l.offset, l.length)))
            .collect()
    }

    /// A smaller database of real articles, as the committed fixture is
    /// made (infra/scripts/make-fixture.py): the metadata lines, the lines
    /// of `words` (compared in lower case) and every `every`-th line of the
    /// rest (none when 0), in index order, each article's bytes copied once.
    /// Returns the new `.index` text and its data.
    pub fn excerpt(
        &self,
        words: &HashSet<String>,
        every: usize,
    ) -> Result<(String, Vec<u8>), ImportError> {
        let words: HashSet<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let mut index = String::new();
        let mut data = Vec::new();
        let mut placed: HashMap<(u64, u64), u64> = HashMap::new();
        for (i, line) in self.index.iter().enumerate() {
            let wanted = is_metadata(&line.headword)
                || words.contains(&line.headword.to_lowercase())
                || (every > 0 && i % every == 0);
            if !wanted {
                continue;
            }
            let offset = match placed.get(&(line.offset, line.length)) {
                Some(&offset) => offset,
                None => {
                    let offset = data.len() as u64;
                    data.extend_from_slice(self.article_bytes(line)?);
                    placed.insert((line.offset, line.length), offset);
                    offset
                }
            };
            index += &format!(
                "{}\t{}\t{}\n",
                line.headword,
                encode_number(offset),
                encode_number(line.length)
            );
        }
        Ok((index, data))
    }

    /// A metadata article such as `00databaseinfo`, if present.
    pub fn metadata(&self, name: &str) -> Option<String> {
        let line = self.index.iter().find(|l| l.headword == name)?;
        self.article(line).ok()
    }
}

fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(suffix);
    PathBuf::from(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_dictd_base64_numbers() {
        assert_eq!(decode_number("A"), Some(0));
        assert_eq!(decode_number("B"), Some(1));
        assert_eq!(decode_number("BA"), Some(64));
        assert_eq!(decode_number("W9V"), Some(22 * 4096 + 61 * 64 + 21));
        assert_eq!(decode_number(""), None);
        assert_eq!(decode_number("A=B"), None);
    }

    proptest::proptest! {
        #[test]
        fn encoding_a_number_decodes_back(n in 0u64..(1 << 60)) {
            proptest::prop_assert_eq!(decode_number(&encode_number(n)), Some(n));
        }
    }

    #[test]
    fn an_excerpt_of_every_line_reads_as_the_original() {
        let prefix = crate::import::fixtures::fixture("freedict/freedict-deu-eng");
        let db = Database::open(&prefix, u64::MAX).unwrap();
        let (index, data) = db.excerpt(&HashSet::new(), 1).unwrap();
        let copy = Database::from_bytes(
            PathBuf::from("copy.index"),
            index.as_bytes(),
            PathBuf::from("copy.dict"),
            data,
        )
        .unwrap();
        let text = |db: &Database| -> Vec<(String, String)> {
            db.index
                .iter()
                .map(|l| (l.headword.clone(), db.article(l).unwrap()))
                .collect()
        };
        assert_eq!(text(&copy), text(&db));
    }

    #[test]
    fn an_excerpt_keeps_metadata_the_words_asked_and_every_nth_line() {
        let prefix = crate::import::fixtures::fixture("freedict/freedict-deu-eng");
        let db = Database::open(&prefix, u64::MAX).unwrap();
        let words = HashSet::from(["Haus".to_string()]);
        let (index, data) = db.excerpt(&words, 0).unwrap();
        let copy = Database::from_bytes(
            PathBuf::from("e.index"),
            index.as_bytes(),
            PathBuf::new(),
            data,
        )
        .unwrap();
        let heads: Vec<&str> = copy.index.iter().map(|l| l.headword.as_str()).collect();
        assert!(heads.iter().any(|h| is_metadata(h)), "{heads:?}");
        assert!(heads.contains(&"haus"), "{heads:?}");
        assert!(heads
            .iter()
            .all(|h| is_metadata(h) || h.to_lowercase() == "haus"));
        let every_third = db.excerpt(&HashSet::new(), 3).unwrap().0;
        let expected = (db.index.iter().enumerate())
            .filter(|(i, l)| i % 3 == 0 || is_metadata(&l.headword))
            .count();
        assert_eq!(every_third.lines().count(), expected);
    }

    #[test]
    fn parses_index_lines_with_spaces_and_bad_bytes() {
        let index = b"a few\tWcA\ts\nbank\tW9V\tV\r\nb\xffad\tB\tB\n";
        let lines = parse_index(Path::new("x.index"), index).unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].headword, "a few");
        assert_eq!(
            lines[1],
            IndexLine {
                headword: "bank".into(),
                offset: 22 * 4096 + 61 * 64 + 21,
                length: 21,
                line: 2
            }
        );
        assert_eq!(lines[2].headword, "b\u{fffd}ad");
    }

    #[test]
    fn malformed_index_lines_name_file_and_line() {
        let err = parse_index(Path::new("eng-fra.index"), b"ok\tA\tB\nbroken line\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "eng-fra.index: line 2: expected headword, offset and length separated by tabs"
        );
        let err = parse_index(Path::new("eng-fra.index"), b"x\t!!\tB\n").unwrap_err();
        assert!(err.to_string().contains("line 1: offset"));
    }

    #[test]
    fn articles_past_the_end_are_errors_not_garbage() {
        let db = Database {
            index: vec![IndexLine {
                headword: "bank".into(),
                offset: 5,
                length: 10,
                line: 1,
            }],
            data: b"0123456789".to_vec(),
            index_path: PathBuf::from("eng-fra.index"),
            data_path: PathBuf::from("eng-fra.dict.dz"),
        };
        let err = db.article(&db.index[0]).unwrap_err().to_string();
        assert!(
            err.starts_with("eng-fra.dict.dz: article for \"bank\" at byte 5"),
            "{err}"
        );
    }

    #[test]
    fn shared_articles_are_imported_once() {
        let line = |h: &str, o| IndexLine {
            headword: h.into(),
            offset: o,
            length: 1,
            line: 1,
        };
        let db = Database {
            index: vec![
                line("00databaseinfo", 0),
                line("Haus", 1),
                line("haus", 1),
                line("Hof", 2),
            ],
            data: b"iHH".to_vec(),
            index_path: PathBuf::from("d.index"),
            data_path: PathBuf::from("d"),
        };
        let heads: Vec<_> = db.articles().iter().map(|l| l.headword.clone()).collect();
        assert_eq!(heads, vec!["Haus", "Hof"]);
    }
}
