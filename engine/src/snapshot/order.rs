//! The rank order within a tier of matches (docs/api.md: commonness of the
//! folded headword, most common first, then folded length, folded headword,
//! dictionary, id). A snapshot numbers its entries and terms in this order,
//! so it is decided once, here, when a build is written.

use crate::lexicon::{Commonness, Lexicon};
use crate::postings::Posting;
use std::collections::{BTreeSet, HashMap};

/// Sorts postings into the rank order within a tier: the commonness of
/// their term (most common first), then [`Posting::rank_key`] (folded
/// length, folded headword, dictionary, id).
pub fn rank_order(postings: Vec<Posting>, lexicon: &Lexicon) -> Vec<Posting> {
    rank_order_with_commonness(postings, lexicon).0
}

/// [`rank_order`], and the commonness of every term it ranked by (the build
/// stores each term's frequency from it).
pub(super) fn rank_order_with_commonness(
    mut postings: Vec<Posting>,
    lexicon: &Lexicon,
) -> (Vec<Posting>, HashMap<String, Commonness>) {
    let commonness = term_commonness(&postings, lexicon);
    postings.sort_by(|a, b| {
        commonness[&b.folded]
            .cmp(&commonness[&a.folded])
            .then_with(|| a.rank_key().cmp(&b.rank_key()))
    });
    (postings, commonness)
}

/// The commonness of every term: from the frequency lists of its
/// dictionaries' source languages, else how many dictionaries list it.
fn term_commonness(postings: &[Posting], lexicon: &Lexicon) -> HashMap<String, Commonness> {
    let mut seen: HashMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = HashMap::new();
    for p in postings {
        let (langs, dictionaries) = seen.entry(&p.folded).or_default();
        langs.insert(&p.dictionary.source_lang);
        dictionaries.insert(&p.dictionary.id);
    }
    seen.into_iter()
        .map(|(term, (langs, dictionaries))| {
            let commonness = lexicon.commonness(term, langs, dictionaries.len());
            (term.to_string(), commonness)
        })
        .collect()
}
