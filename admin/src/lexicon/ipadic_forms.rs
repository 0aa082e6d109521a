//! Inflected forms of Japanese from the lexicon of IPADIC, the dictionary
//! MeCab tokenizes with (wordfreq's Japanese lists are tokenized so), as
//! Debian 12's `mecab-ipadic` ships it: `/usr/share/mecab/dic/ipadic/*.csv`,
//! in EUC-JP, one row per surface form: the surface, two context ids, a
//! cost, the part of speech and three subdivisions, the conjugation type and
//! form, the base form, the reading and the pronunciation:
//!
//! ```text
//! 引き込ま,764,764,7118,動詞,自立,*,*,五段・マ行,未然形,引き込む,ヒキコマ,ヒキコマ
//! ```
//!
//! A pair is a row's surface and its base form where they differ: the
//! conjugated rows of verbs, adjectives and auxiliaries (every other row is
//! its own base form). Kana spellings are rows of their own (`なっ` → `なる`
//! beside `成っ` → `成る`), so the readings are not used: pairs made from them
//! would add nothing to the words people search (docs/data-model.md,
//! "Japanese forms: IPADIC").

use super::{LexiconError, WordList};
use crate::formats::source::{self, DEFAULT_MAX_SOURCE_BYTES};
use shared::search::lexicon::{LexiconKind, Pair};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fields of a row of IPADIC.
const FIELDS: usize = 13;
const POS: usize = 4;
const BASE: usize = 10;

/// What the rows held, for the command's report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rows {
    pub rows: usize,
    /// The rows whose surface is not their base form, by part of speech.
    pub inflected: BTreeMap<String, usize>,
}

/// The forms of `lang` in the IPADIC lexicon of `dir` (every `*.csv`).
pub fn read(
    lang: &str,
    dir: &Path,
    origin: String,
    licence: String,
) -> Result<(WordList, Rows), LexiconError> {
    let mut pairs = Vec::new();
    let mut rows = Rows::default();
    for path in csv_files(dir)? {
        let bytes = source::read(&path, DEFAULT_MAX_SOURCE_BYTES)?;
        pairs.extend(parse(&path, &bytes, &mut rows)?);
    }
    let list = WordList::new(LexiconKind::Forms, lang, origin, licence, pairs);
    Ok((list, rows))
}

/// The `*.csv` files of `dir`, sorted. None is an error.
fn csv_files(dir: &Path) -> Result<Vec<PathBuf>, LexiconError> {
    let entries = std::fs::read_dir(dir).map_err(|e| LexiconError::Input {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "csv"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(LexiconError::Input {
            path: dir.to_path_buf(),
            message: "no IPADIC lexicon here (*.csv)".into(),
        });
    }
    Ok(files)
}

/// The `(surface, base form)` pairs of one file's EUC-JP bytes, counted into
/// `rows`. A line that is not EUC-JP or not a row is an error naming it.
pub fn parse(path: &Path, bytes: &[u8], rows: &mut Rows) -> Result<Vec<Pair>, LexiconError> {
    let mut pairs = Vec::new();
    // EUC-JP's multi-byte characters have the high bit set in every byte,
    // so a newline byte always ends a line.
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let bad = |message: String| LexiconError::Parse {
            path: path.to_path_buf(),
            line: n + 1,
            message,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let text = encoding_rs::EUC_JP
            .decode_without_bom_handling_and_without_replacement(line)
            .ok_or_else(|| bad("not EUC-JP".into()))?;
        rows.rows += 1;
        if let Some((pos, surface, base)) = row_pair(&text).map_err(bad)? {
            *rows.inflected.entry(pos.to_string()).or_default() += 1;
            pairs.push((surface.to_string(), base.to_string()));
        }
    }
    Ok(pairs)
}

/// A row's part of speech, surface and base form, when the surface is not
/// its base form.
pub fn row_pair(row: &str) -> Result<Option<(&str, &str, &str)>, String> {
    let fields: Vec<&str> = row.split(',').collect();
    if fields.len() != FIELDS {
        return Err(format!(
            "{} fields, not IPADIC's {FIELDS} (surface, ids, cost, part of speech…, base form, reading, pronunciation)",
            fields.len()
        ));
    }
    let (surface, base) = (fields[0], fields[BASE]);
    if surface.is_empty() {
        return Err("no surface form".into());
    }
    Ok(
        (base != surface && base != "*" && !base.is_empty()).then_some((
            fields[POS],
            surface,
            base,
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> Pair {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn a_conjugated_row_pairs_its_surface_with_its_base_form() {
        let row =
            "引き込ま,764,764,7118,動詞,自立,*,*,五段・マ行,未然形,引き込む,ヒキコマ,ヒキコマ";
        assert_eq!(row_pair(row), Ok(Some(("動詞", "引き込ま", "引き込む"))));
        let adjective =
            "よかっ,19,19,6000,形容詞,自立,*,*,形容詞・アウオ段,連用タ接続,よい,ヨカッ,ヨカッ";
        assert_eq!(row_pair(adjective), Ok(Some(("形容詞", "よかっ", "よい"))));
    }

    #[test]
    fn a_row_that_is_its_own_base_form_gives_nothing() {
        for row in [
            "引き込む,762,762,7122,動詞,自立,*,*,五段・マ行,基本形,引き込む,ヒキコム,ヒキコム",
            "って,268,268,5000,助詞,格助詞,連語,*,*,*,って,ッテ,ッテ",
            "史的,1287,1287,6608,名詞,形容動詞語幹,*,*,*,*,史的,シテキ,シテキ",
            "ｘ,5,5,100,記号,一般,*,*,*,*,*,*,*",
        ] {
            assert_eq!(row_pair(row), Ok(None), "{row}");
        }
    }

    #[test]
    fn a_row_of_another_shape_is_refused() {
        assert!(row_pair("なっ,786,786,5276,動詞,なる")
            .unwrap_err()
            .starts_with("6 fields"));
        assert!(row_pair(",1,1,1,動詞,*,*,*,*,*,なる,ナル,ナル").is_err());
    }

    #[test]
    fn euc_jp_files_are_decoded_and_every_row_counted() {
        // `だっ,457,457,6455,助動詞,*,*,*,特殊・ダ,連用タ接続,だ,ダッ,ダッ` and
        // `なっ,786,786,5276,動詞,自立,*,*,五段・ラ行,連用タ接続,なる,ナッ,ナッ`
        // in EUC-JP, with a row that is its own base form between them.
        let bytes = b"\xa4\xc0\xa4\xc3,457,457,6455,\xbd\xf5\xc6\xb0\xbb\xec,*,*,*,\
            \xc6\xc3\xbc\xec\xa1\xa6\xa5\xc0,\xcf\xa2\xcd\xd1\xa5\xbf\xc0\xdc\xc2\xb3,\xa4\xc0,\
            \xa5\xc0\xa5\xc3,\xa5\xc0\xa5\xc3\n\
            \xa4\xc0,457,457,6455,\xbd\xf5\xc6\xb0\xbb\xec,*,*,*,*,*,\xa4\xc0,\xa5\xc0,\xa5\xc0\r\n\
            \xa4\xca\xa4\xc3,786,786,5276,\xc6\xb0\xbb\xec,\xbc\xab\xce\xa9,*,*,\
            \xb8\xde\xc3\xca\xa1\xa6\xa5\xe9\xb9\xd4,\xcf\xa2\xcd\xd1\xa5\xbf\xc0\xdc\xc2\xb3,\
            \xa4\xca\xa4\xeb,\xa5\xca\xa5\xc3,\xa5\xca\xa5\xc3\n";
        let mut rows = Rows::default();
        let pairs = parse(Path::new("Auxil.csv"), bytes, &mut rows).unwrap();
        assert_eq!(pairs, [pair("だっ", "だ"), pair("なっ", "なる")]);
        assert_eq!(rows.rows, 3);
        assert_eq!(
            rows.inflected,
            BTreeMap::from([("助動詞".to_string(), 1), ("動詞".to_string(), 1)])
        );
    }

    #[test]
    fn bytes_that_are_not_euc_jp_name_the_line() {
        let bytes = "a,1,1,1,x,*,*,*,*,*,a,a,a\n\u{3060}\u{3063},1,1,1,x,*,*,*,*,*,b,b,b\n";
        let err = parse(
            Path::new("Verb.csv"),
            bytes.as_bytes(),
            &mut Rows::default(),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "Verb.csv line 2: not EUC-JP");
        let err = parse(Path::new("Verb.csv"), b"a,b\n", &mut Rows::default()).unwrap_err();
        assert!(err.to_string().starts_with("Verb.csv line 1: 2 fields"));
    }

    #[test]
    fn the_list_is_folded_and_every_csv_read() {
        let dir = std::env::temp_dir().join(format!("ipadic-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let euc = |text: &str| encoding_rs::EUC_JP.encode(text).0.into_owned();
        std::fs::write(
            dir.join("Verb.csv"),
            euc(
                "行っ,704,704,7425,動詞,自立,*,*,五段・カ行促音便,連用タ接続,行く,イッ,イッ\n\
                 ｶﾞｯ,1,1,1,動詞,自立,*,*,*,*,ガク,ガッ,ガッ\n",
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("Adj.csv"),
            euc("よかっ,19,19,6000,形容詞,自立,*,*,形容詞・アウオ段,連用タ接続,よい,ヨカッ,ヨカッ\n"),
        )
        .unwrap();
        std::fs::write(dir.join("matrix.def"), "not a lexicon").unwrap();
        let (list, rows) = read("ja", &dir, "o".into(), "NAIST-2003".into()).unwrap();
        // Half-width katakana fold to full-width, voicing marks kept.
        assert_eq!(
            list.pairs,
            [
                pair("よかっ", "よい"),
                pair(&shared::fold::fold("ガッ"), &shared::fold::fold("ガク")),
                pair("行っ", "行く"),
            ]
        );
        assert_eq!(rows.rows, 3);
        std::fs::remove_dir_all(&dir).unwrap();
        let err = read("ja", &dir, String::new(), String::new()).unwrap_err();
        assert!(matches!(err, LexiconError::Input { .. }));
    }
}
