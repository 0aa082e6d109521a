//! Word frequencies of a language from a wordfreq list as
//! infra/scripts/wordfreq.sh writes it: `word<TAB>zipf` lines (`the<TAB>7.73`),
//! from the data of the `wordfreq` package (CC BY-SA 4.0). Each word is
//! folded; where folding merges words (`The`, `the`), the highest frequency
//! is kept. A pair is `(folded word, Zipf × 100 as text)`: `("the", "773")`.

use super::{read_text, LexiconError, WordList};
use shared::fold::fold;
use shared::search::lexicon::{zipf_centis, LexiconKind};
use std::collections::HashMap;
use std::path::Path;

/// The frequencies of `lang` in the TSV list at `path`.
pub fn read(
    lang: &str,
    path: &Path,
    origin: String,
    licence: String,
) -> Result<WordList, LexiconError> {
    let text = read_text(path)?;
    let best = parse(path, &text)?;
    Ok(WordList::from_folded(
        LexiconKind::Frequencies,
        lang,
        origin,
        licence,
        best.into_iter()
            .map(|(word, centis)| (word, centis.to_string())),
    ))
}

/// The highest frequency (in hundredths of a Zipf) of every folded word.
fn parse(path: &Path, text: &str) -> Result<HashMap<String, u16>, LexiconError> {
    let mut best: HashMap<String, u16> = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| LexiconError::Parse {
            path: path.to_path_buf(),
            line: n + 1,
            message,
        };
        let (word, zipf) = line
            .split_once('\t')
            .ok_or_else(|| bad("not word<TAB>zipf".into()))?;
        let zipf: f64 = zipf
            .trim()
            .parse()
            .ok()
            .filter(|z: &f64| z.is_finite() && *z >= 0.0)
            .ok_or_else(|| bad(format!("{zipf:?} is not a Zipf frequency")))?;
        let folded = fold(word);
        if folded.is_empty() {
            continue;
        }
        let centis = zipf_centis(zipf);
        best.entry(folded)
            .and_modify(|c| *c = (*c).max(centis))
            .or_insert(centis);
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_keeps_the_highest_frequency() {
        let best = parse(
            Path::new("en.tsv"),
            "the\t7.73\nThe\t5.10\nÉcole\t3.2\necole\t3.5\n\n",
        )
        .unwrap();
        assert_eq!(best["the"], 773);
        assert_eq!(best["ecole"], 350);
        assert_eq!(best.len(), 2);
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = parse(Path::new("fr.tsv"), "et\t7.31\nun 7.11\n").unwrap_err();
        assert_eq!(err.to_string(), "fr.tsv line 2: not word<TAB>zipf");
        let err = parse(Path::new("fr.tsv"), "et\tseven\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "fr.tsv line 1: \"seven\" is not a Zipf frequency"
        );
    }

    #[test]
    fn the_fixture_lists_read_whole() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/wordfreq");
        for lang in ["en", "fr", "de", "es"] {
            let lexicon = read(
                lang,
                &dir.join(format!("{lang}.tsv")),
                "wordfreq".into(),
                "CC-BY-SA-4.0".into(),
            )
            .unwrap();
            assert!(lexicon.list.count > 0, "{lang}");
            assert!(
                lexicon.pairs.windows(2).all(|w| w[0].0 < w[1].0),
                "{lang}: sorted, distinct"
            );
        }
        let de = read("de", &dir.join("de.tsv"), String::new(), String::new()).unwrap();
        let haus = de.pairs.iter().find(|(w, _)| w == "haus").unwrap();
        assert_eq!(haus.1, "541");
        // `Straße` is listed as `straße` and folds to `strasse`.
        assert!(de.pairs.iter().any(|(w, _)| w == "strasse"));
    }
}
