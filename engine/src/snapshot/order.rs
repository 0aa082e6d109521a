//! The rank order within a tier of matches (docs/api.md: commonness of the
//! word, a folded headword in its dictionaries' source language, most common
//! first, then folded length, folded headword, language; within a word each
//! dictionary's first entry, then each one's second, …, each round by
//! dictionary, then id). A snapshot numbers its entries and terms in this
//! order, so it is decided once, here, when a build is written.

use crate::lexicon::{Commonness, Lexicon};
use crate::postings::Posting;
use std::collections::{BTreeSet, HashMap};

/// Sorts postings into the rank order within a tier: the commonness of
/// their word (most common first), then folded length, folded headword and
/// language; within a word, [`senses_interleaved`].
pub fn rank_order(postings: Vec<Posting>, lexicon: &Lexicon) -> Vec<Posting> {
    rank_order_with_commonness(postings, lexicon).0
}

/// A word: a folded headword and the source language of its dictionaries.
pub(super) type Word = (String, String);

/// The word of a posting.
pub(super) fn word_of(p: &Posting) -> (&str, &str) {
    (&p.folded, &p.dictionary.source_lang)
}

/// [`rank_order`], and the commonness of every word it ranked by (the build
/// stores each word's frequency from it).
pub(super) fn rank_order_with_commonness(
    mut postings: Vec<Posting>,
    lexicon: &Lexicon,
) -> (Vec<Posting>, HashMap<Word, Commonness>) {
    let commonness = word_commonness(&postings, lexicon);
    let of = |p: &Posting| commonness[&(p.folded.clone(), p.dictionary.source_lang.clone())];
    let mut keyed: Vec<(Commonness, Posting)> = postings.drain(..).map(|p| (of(&p), p)).collect();
    keyed.sort_by(|(ca, a), (cb, b)| {
        cb.cmp(ca).then_with(|| {
            let (ka, kb) = (a.rank_key(), b.rank_key());
            (ka.0, ka.1, &a.dictionary.source_lang, ka.2, ka.3).cmp(&(
                kb.0,
                kb.1,
                &b.dictionary.source_lang,
                kb.2,
                kb.3,
            ))
        })
    });
    postings.extend(keyed.into_iter().map(|(_, p)| p));
    senses_interleaved(&mut postings);
    (postings, commonness)
}

/// Reorders each word's entries, sorted by [`Posting::rank_key`]
/// (dictionary, then id), so that every dictionary's first entry of the
/// word comes before any dictionary's second (then the seconds, …), each
/// round by dictionary: a dictionary that splits a headword into many
/// articles (one per sense) no longer fills a page before the others show
/// theirs.
fn senses_interleaved(postings: &mut [Posting]) {
    let mut start = 0;
    while start < postings.len() {
        let word = word_of(&postings[start]);
        let len = postings[start..]
            .iter()
            .take_while(|p| word_of(p) == word)
            .count();
        let run = &mut postings[start..start + len];
        if len > 1 {
            // The nth entry of its dictionary in the term (ids ascending).
            let mut sense = Vec::with_capacity(len);
            for (i, p) in run.iter().enumerate() {
                let same = i > 0 && run[i - 1].dictionary.id == p.dictionary.id;
                sense.push(if same { sense[i - 1] + 1 } else { 0usize });
            }
            let mut keyed: Vec<(usize, Posting)> = sense
                .into_iter()
                .zip(run.iter_mut().map(std::mem::take))
                .collect();
            // Stable: within a round, dictionary then id as before.
            keyed.sort_by_key(|(sense, _)| *sense);
            for (slot, (_, p)) in run.iter_mut().zip(keyed) {
                *slot = p;
            }
        }
        start += len;
    }
}

/// The commonness of every word: from the frequency list of its language,
/// else how many dictionaries of that language list it.
fn word_commonness(postings: &[Posting], lexicon: &Lexicon) -> HashMap<Word, Commonness> {
    let mut seen: HashMap<(&str, &str), BTreeSet<&str>> = HashMap::new();
    for p in postings {
        seen.entry(word_of(p)).or_default().insert(&p.dictionary.id);
    }
    seen.into_iter()
        .map(|((term, lang), dictionaries)| {
            let commonness = lexicon.commonness(term, lang, dictionaries.len());
            ((term.to_string(), lang.to_string()), commonness)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postings::DictionaryRef;

    /// A headword's entries: each dictionary's first, then each one's
    /// second, …; another headword's entries stay apart.
    #[test]
    fn a_headwords_senses_are_interleaved_by_dictionary() {
        let entry = |word: &str, dictionary: &str, id: &str| {
            Posting::headword(word, DictionaryRef::new(dictionary, "en", None), id)
        };
        let postings = vec![
            entry("house", "c", "house-2"),
            entry("house", "a", "house-3"),
            entry("house", "b", "house-1"),
            entry("house", "a", "house-1"),
            entry("hut", "a", "hut-1"),
            entry("house", "c", "house-1"),
            entry("house", "a", "house-2"),
        ];
        let ranked: Vec<(String, String, String)> = rank_order(postings, &Lexicon::default())
            .into_iter()
            .map(|p| (p.folded, p.dictionary.id, p.id))
            .collect();
        // `house` first: unlisted, it is in more dictionaries.
        let expected = [
            ("house", "a", "house-1"),
            ("house", "b", "house-1"),
            ("house", "c", "house-1"),
            ("house", "a", "house-2"),
            ("house", "c", "house-2"),
            ("house", "a", "house-3"),
            ("hut", "a", "hut-1"),
        ];
        let expected: Vec<(String, String, String)> = expected
            .iter()
            .map(|(w, d, i)| (w.to_string(), d.to_string(), i.to_string()))
            .collect();
        assert_eq!(ranked, expected);
    }
}
