//! Lemma coverage per language (issue 25, "Benchmarks"): of a language's
//! most frequent words (wordfreq's list) that are no headword of any served
//! dictionary of that language, the share that resolve through their lemma
//! to one that is. A word people type in its inflected form (`went`,
//! `Bücher`, `uomini`) finds nothing unless the lexicon knows its lemma, so
//! this is how much of everyday text the entry and search endpoints can meet
//! in each language. In-process on the index snapshot of the running stack,
//! over the ten source languages with the most entries that have a list.
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo run --release -p bench --bin lemma-coverage -- .local/wordfreq/tsv [TOP [SHOWN]]
//!
//! WORDFREQ_DIR holds `<lang>.tsv` (`word<TAB>zipf`, most frequent first, as
//! infra/scripts/wordfreq.sh writes them); TOP is 1,000 by default, SHOWN
//! (the unresolved words printed per language) 12.
//!
//! wordfreq's number tokens (`00`, `0,000`, `1`, `00th`: it writes every
//! digit but a lone one as `0`) are no words, have no lemma and are left out
//! of the list before its top words are taken.

use shared::fold::fold;
use shared::search::snapshot::Index;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Languages reported: the largest by entries.
const LANGUAGES: usize = 10;
/// Words of each list that are looked at, by default.
const TOP: usize = 1_000;
/// Unresolved words shown per language by default, to read the misses.
const SHOWN_MISSES: usize = 12;

/// A wordfreq token written with a digit is a number, not a word.
fn is_number_token(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
}

/// Per source language: its entries, and the terms that are headwords of
/// one of its dictionaries.
fn headwords_by_language(index: &Index) -> HashMap<String, (usize, HashSet<usize>)> {
    let mut langs: HashMap<String, (usize, HashSet<usize>)> = HashMap::new();
    let texts = index
        .texts(0..index.term_count())
        .expect("a build in memory holds every text block");
    for t in 0..index.term_count() {
        let (entries, terms) = langs.entry(texts.term_lang(t).to_string()).or_default();
        *entries += index.term_entries(t).len();
        terms.insert(t);
    }
    langs
}

/// The first `top` distinct folded words of a wordfreq list, number
/// tokens left out.
fn top_words(path: &Path, top: usize) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut seen = HashSet::new();
    text.lines()
        .filter_map(|line| line.split('\t').next())
        .map(fold)
        .filter(|w| !w.is_empty() && !is_number_token(w) && seen.insert(w.clone()))
        .take(top)
        .collect()
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .expect("usage: lemma-coverage WORDFREQ_DIR [TOP [SHOWN]]");
    let top: usize = args
        .next()
        .map_or(TOP, |n| n.parse().expect("TOP is a number"));
    let shown_misses: usize = args
        .next()
        .map_or(SHOWN_MISSES, |n| n.parse().expect("SHOWN is a number"));
    let snapshot = bench::stack_snapshot().await;
    let index = snapshot.searcher.index();
    let by_language = headwords_by_language(index);
    let mut langs: Vec<(&String, &(usize, HashSet<usize>))> = by_language
        .iter()
        .filter(|(lang, _)| Path::new(&dir).join(format!("{lang}.tsv")).is_file())
        .collect();
    langs.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    let missing: Vec<&String> = by_language
        .keys()
        .filter(|lang| !Path::new(&dir).join(format!("{lang}.tsv")).is_file())
        .collect();

    println!(
        "| Language | Entries | Headwords | Top words | Headwords already | Not headwords | Resolve through a lemma | Share % | Some that do not |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (lang, (entries, headwords)) in langs.into_iter().take(LANGUAGES) {
        let words = top_words(&Path::new(&dir).join(format!("{lang}.tsv")), top);
        let is_headword = |w: &str| {
            let t = index
                .term_number(w)
                .expect("a build in memory holds every term block");
            t.is_some_and(|t| index.text_terms(t).any(|t| headwords.contains(&t)))
        };
        let not_headwords: Vec<&String> = words.iter().filter(|w| !is_headword(w)).collect();
        let (resolved, unresolved): (Vec<&String>, Vec<&String>) =
            not_headwords.iter().partition(|w| {
                index
                    .lemmas(w)
                    .expect("a build in memory holds every form block")
                    .iter()
                    .any(|l| l.lang == lang.as_str() && headwords.contains(&l.term))
            });
        let share = if not_headwords.is_empty() {
            "–".to_string()
        } else {
            format!(
                "{:.1}",
                100.0 * resolved.len() as f64 / not_headwords.len() as f64
            )
        };
        let shown: Vec<&str> = unresolved
            .iter()
            .take(shown_misses)
            .map(|w| w.as_str())
            .collect();
        println!(
            "| {lang} | {entries} | {} | {} | {} | {} | {} | {share} | {} |",
            headwords.len(),
            words.len(),
            words.len() - not_headwords.len(),
            not_headwords.len(),
            resolved.len(),
            shown.join(", "),
        );
    }
    if !missing.is_empty() {
        let mut missing: Vec<&str> = missing.iter().map(|l| l.as_str()).collect();
        missing.sort_unstable();
        println!(
            "\nsource languages without a list in {dir}: {}",
            missing.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_words_leave_out_number_tokens_and_fold_duplicates() {
        let path = std::env::temp_dir().join(format!("wordfreq-{}.tsv", std::process::id()));
        std::fs::write(&path, "the\t7.7\n00\t6.1\nThe\t6.0\n0,000\t5.9\n1\t5.8\n00th\t5.5\nété\t5.4\nb2b\t5.0\nhouse\t4.9\n").unwrap();
        let words = top_words(&path, 3);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(words, ["the", "ete", "house"]);
    }
}
