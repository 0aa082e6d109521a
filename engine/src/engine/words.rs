//! One result per word (issue 40): the ranked entries of a search or a
//! reverse lookup grouped by folded headword and language (the source
//! language of the entry's dictionary), a term of the index, each word
//! where its first entry ranks, carrying its entries in rank order. A page
//! and its total count words; every entry is in exactly one word.

use super::{SearchError, Searcher};
use roaring::RoaringBitmap;
use std::ops::Range;

/// The entries a word lists at most (its `entry_count` counts them all): a
/// common word has one entry or more in most of its language's dictionaries,
/// dozens at corpus scale, and a page of words should stay a page.
pub const ENTRIES_PER_WORD: usize = 20;

/// The entries a page of words lists at most in all: as many as the
/// largest page of entries, so that a grouped request (one unit, as any)
/// reads no more records than an ungrouped one can.
pub const ENTRIES_PER_PAGE: usize = 100;

/// The entries each word of a page of `limit` words lists at most:
/// [`ENTRIES_PER_PAGE`] shared out, at least 1, at most
/// [`ENTRIES_PER_WORD`] (5 on the default page of 20, 1 on a page of 100).
pub fn entries_per_word(limit: usize) -> usize {
    (ENTRIES_PER_PAGE / limit.max(1)).clamp(1, ENTRIES_PER_WORD)
}

/// One word: a folded headword (`term`) in one language (its entries'
/// dictionaries' source language, which the text blocks hold).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub term: usize,
    /// Its first entries ([`entries_per_word`] of its page), in rank order.
    pub entries: Vec<u32>,
    /// How many entries it has among the matches.
    pub entry_count: usize,
}

/// One page of words, the number of all words and of all their entries,
/// and the work of the search and of the grouping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordHits {
    pub total: usize,
    pub entries: usize,
    pub words: Vec<Word>,
    pub work: u64,
}

impl Searcher {
    /// The words of `ordered` (every matching entry, in rank order), the
    /// page `offset..offset + limit` of them. Each entry visited is one
    /// unit of work on top of `work` (the query's own), within `budget`
    /// (the query's: [`super::WORK_BUDGET`] for a search): counting words needs
    /// every match, where counting entries needs none.
    pub(crate) fn words_of(
        &self,
        ordered: impl Iterator<Item = u32>,
        (mut work, budget): (u64, u64),
        offset: usize,
        limit: usize,
    ) -> Result<WordHits, SearchError> {
        let index = &self.index;
        let end = offset.saturating_add(limit);
        let listed = entries_per_word(limit);
        // Every term seen; a word's place is how many were seen before it.
        let mut seen = RoaringBitmap::new();
        let mut words: Vec<Word> = Vec::new();
        let mut entries = 0;
        // A tier lists its entries in ordinal order, and a term's entries
        // are one range of ordinals: the last entry's range, with the place
        // of its word on the page (if on it), answers most entries without
        // a search.
        let mut run: Option<(Range<u32>, Option<usize>)> = None;
        for ordinal in ordered {
            work += 1;
            if work > budget {
                return Err(SearchError::OverBudget);
            }
            entries += 1;
            let on_page = match &run {
                Some((range, on_page)) if range.contains(&ordinal) => *on_page,
                _ => {
                    let term = index.term_of(ordinal);
                    let on_page = if seen.insert(term as u32) {
                        let place = seen.len() as usize - 1;
                        (offset..end).contains(&place).then(|| {
                            words.push(Word {
                                term,
                                entries: Vec::new(),
                                entry_count: 0,
                            });
                            words.len() - 1
                        })
                    } else {
                        // A term back in a later tier: at most `limit`
                        // words to look through.
                        words.iter().position(|w| w.term == term)
                    };
                    run = Some((index.term_entries(term), on_page));
                    on_page
                }
            };
            let Some(at) = on_page else { continue };
            let word = &mut words[at];
            word.entry_count += 1;
            if word.entries.len() < listed {
                word.entries.push(ordinal);
            }
        }
        Ok(WordHits {
            total: seen.len() as usize,
            entries,
            words,
            work,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::entries_per_word;
    use crate::engine::{Searcher, ENTRIES_PER_WORD};
    use crate::filters::Filters;
    use crate::lexicon::Lexicon;
    use crate::matching::{MatchRule, MatchType};
    use crate::postings::{DictionaryRef, Posting};
    use crate::snapshot::build;

    /// A word of many entries lists the first [`ENTRIES_PER_WORD`] (on a
    /// page of 5 words or fewer) and counts them all; the same headword in
    /// another language is a word of its own, ranked by its own commonness
    /// (unlisted: in fewer dictionaries, after). A page of more words lists
    /// fewer entries a word.
    #[test]
    fn a_word_lists_its_first_entries_and_counts_them_all() {
        let in_dictionary = |id: &str, lang: &str, n: usize| -> Vec<Posting> {
            let dictionary = DictionaryRef::new(id, lang, None);
            (0..n)
                .map(|i| Posting::headword("house", dictionary.clone(), format!("{i:02}")))
                .collect()
        };
        let postings = [
            in_dictionary("de-x", "de", 1),
            in_dictionary("en-a", "en", 15),
            in_dictionary("en-b", "en", 10),
        ]
        .concat();
        let searcher: Searcher = build(postings, &Lexicon::default()).decode().unwrap();
        let rule = MatchRule::new("house", MatchType::Exact, true);
        let hits = searcher
            .search_words(None, &rule, &Filters::default(), 0, 5)
            .unwrap();
        assert_eq!((hits.total, hits.entries), (2, 26));
        let index = searcher.index();
        let terms: Vec<usize> = hits.words.iter().map(|w| w.term).collect();
        let texts = index.texts(terms).unwrap();
        let words: Vec<(&str, usize, usize)> = hits
            .words
            .iter()
            .map(|w| (texts.term_lang(w.term), w.entries.len(), w.entry_count))
            .collect();
        assert_eq!(words, [("en", ENTRIES_PER_WORD, 25), ("de", 1, 1)]);
        // In rank order: the English dictionaries' entries interleaved.
        let first: Vec<&str> = hits.words[0].entries[..3]
            .iter()
            .map(|&o| texts.dictionary(o).id.as_str())
            .collect();
        assert_eq!(first, ["en-a", "en-b", "en-a"]);
        let second_page = searcher
            .search_words(None, &rule, &Filters::default(), 1, 5)
            .unwrap();
        assert_eq!(second_page.words, hits.words[1..]);
        let page_of_50 = searcher
            .search_words(None, &rule, &Filters::default(), 0, 50)
            .unwrap();
        assert_eq!(page_of_50.words[0].entries, hits.words[0].entries[..2]);
        assert_eq!(page_of_50.words[0].entry_count, 25);
        assert_eq!(
            [1, 5, 6, 20, 21, 50, 100].map(entries_per_word),
            [20, 20, 16, 5, 4, 2, 1]
        );
    }

    /// A word whose entries fall in two tiers with another word's between
    /// them (`house` as typed in English and French, then `House` in
    /// both) is one word holding all its entries, whichever language
    /// comes first.
    #[test]
    fn a_word_back_in_a_later_tier_is_the_same_word() {
        let postings: Vec<Posting> = [("en-a", "en"), ("fr-a", "fr")]
            .iter()
            .flat_map(|&(id, lang)| {
                let dictionary = DictionaryRef::new(id, lang, None);
                ["house", "House"].map(|w| Posting::headword(w, dictionary.clone(), w.to_string()))
            })
            .collect();
        let searcher: Searcher = build(postings, &Lexicon::default()).decode().unwrap();
        // As typed: the exact tier is split by capitalisation.
        let rule = MatchRule::of_query("house", MatchType::Exact, true).unwrap();
        let hits = searcher
            .search_words(None, &rule, &Filters::default(), 0, 5)
            .unwrap();
        assert_eq!((hits.total, hits.entries), (2, 4));
        for word in &hits.words {
            assert_eq!(
                (word.entries.len(), word.entry_count),
                (2, 2),
                "{}",
                word.term
            );
        }
    }
}
