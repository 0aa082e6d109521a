//! Inflected forms from a list of pairs made elsewhere: `form<TAB>lemma`
//! lines, one pair a line (a form with several lemmas on several lines), as
//! infra/scripts/voikko-forms.py writes Finnish's from Voikko's analyses.
//! Blank lines are skipped; any other line without exactly two non-empty
//! fields is an error naming it. Pairs are folded as every list's are.

use super::{read_text, LexiconError, WordList};
use shared::search::lexicon::{LexiconKind, Pair};
use std::path::Path;

/// The forms of `lang` in the TSV file at `path`.
pub fn read(
    lang: &str,
    path: &Path,
    origin: String,
    licence: String,
) -> Result<WordList, LexiconError> {
    let text = read_text(path)?;
    Ok(WordList::new(
        LexiconKind::Forms,
        lang,
        origin,
        licence,
        parse(path, &text)?,
    ))
}

/// The pairs of the text, as written (not folded).
fn parse(path: &Path, text: &str) -> Result<Vec<Pair>, LexiconError> {
    let mut pairs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split('\t').map(str::trim);
        match (fields.next(), fields.next(), fields.next()) {
            (Some(form), Some(lemma), None) if !form.is_empty() && !lemma.is_empty() => {
                pairs.push((form.to_string(), lemma.to_string()))
            }
            _ => {
                return Err(LexiconError::Parse {
                    path: path.to_path_buf(),
                    line: n + 1,
                    message: "not form<TAB>lemma".into(),
                })
            }
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> Pair {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn pairs_are_read_and_folded_with_every_lemma_kept() {
        let dir = std::env::temp_dir().join(format!("pairs-forms-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fi.tsv");
        std::fs::write(
            &path,
            "ovat\tolla\nkuin\tkuu\nkuin\tkuin\n\nSuomessa\tSuomi\nSuomessa\tsuomi\nkävin\tkäydä\n",
        )
        .unwrap();
        let list = read("fi", &path, "test".into(), "GPL-2.0-or-later".into()).unwrap();
        assert_eq!(
            list.pairs,
            [
                pair("kavin", "kayda"),
                pair("kuin", "kuu"),
                pair("ovat", "olla"),
                pair("suomessa", "suomi")
            ]
        );
        assert_eq!((list.list.lang.as_str(), list.list.count), ("fi", 4));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_line_that_is_not_a_pair_is_named() {
        let path = Path::new("fi.tsv");
        for (text, line) in [
            ("ovat\tolla\non olla\n", 2),
            ("ovat\tolla\n\nsen\t\n", 3),
            ("\tolla\n", 1),
            ("ovat\tolla\tverb\n", 1),
        ] {
            let err = parse(path, text).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("fi.tsv line {line}: not form<TAB>lemma"),
                "{text:?}"
            );
        }
    }
}
