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

/// The word of a posting: its folded headword and the source language of
/// its dictionary.
pub(super) fn word_of(p: &Posting) -> (&str, &str) {
    (p.folded(), &p.dictionary.source_lang)
}

/// [`rank_order`], and the commonness of each posting's word, in the new
/// order (the build stores each word's frequency from it). The postings
/// are moved into place, never held twice: at millions of entries a second
/// vector of them is gigabytes of a build's peak.
pub(super) fn rank_order_with_commonness(
    mut postings: Vec<Posting>,
    lexicon: &Lexicon,
) -> (Vec<Posting>, Vec<Commonness>) {
    let commonness: Vec<Commonness> = {
        let of_word = word_commonness(&postings, lexicon);
        postings.iter().map(|p| of_word[&word_of(p)]).collect()
    };
    let mut order: Vec<u32> = (0..postings.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        let (pa, pb) = (&postings[a], &postings[b]);
        commonness[b].cmp(&commonness[a]).then_with(|| {
            let (ka, kb) = (pa.rank_key(), pb.rank_key());
            (ka.0, ka.1, &pa.dictionary.source_lang, ka.2, ka.3).cmp(&(
                kb.0,
                kb.1,
                &pb.dictionary.source_lang,
                kb.2,
                kb.3,
            ))
        })
    });
    permute(&mut postings, &order);
    let commonness = order.iter().map(|&i| commonness[i as usize]).collect();
    // Within a word, whose postings share their commonness.
    senses_interleaved(&mut postings);
    (postings, commonness)
}

/// Puts at each place `i` the item that was at `order[i]` (a permutation),
/// in place, by following its cycles.
fn permute<T>(items: &mut [T], order: &[u32]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut i = start;
        while !placed[i] {
            placed[i] = true;
            let from = order[i] as usize;
            if from == start {
                break;
            }
            items.swap(i, from);
            i = from;
        }
    }
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
fn word_commonness<'p>(
    postings: &'p [Posting],
    lexicon: &Lexicon,
) -> HashMap<(&'p str, &'p str), Commonness> {
    let mut seen: HashMap<(&str, &str), BTreeSet<&str>> = HashMap::new();
    for p in postings {
        seen.entry(word_of(p)).or_default().insert(&p.dictionary.id);
    }
    seen.into_iter()
        .map(|((term, lang), dictionaries)| {
            let commonness = lexicon.commonness(term, lang, dictionaries.len());
            ((term, lang), commonness)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postings::DictionaryRef;
    use proptest::prelude::*;

    proptest! {
        /// In place, the same as collecting the items in the new order.
        #[test]
        fn permute_moves_each_item_where_the_order_says(
            order in (0..60usize).prop_flat_map(|n| Just((0..n as u32).collect::<Vec<_>>()).prop_shuffle()),
        ) {
            let items: Vec<String> = (0..order.len()).map(|i| format!("item {i}")).collect();
            let expected: Vec<String> = order.iter().map(|&i| items[i as usize].clone()).collect();
            let mut moved = items;
            permute(&mut moved, &order);
            prop_assert_eq!(moved, expected);
        }
    }

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
            .map(|p| (p.folded().into(), p.dictionary.id.clone(), p.id().into()))
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
