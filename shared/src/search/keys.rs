//! Which index partitions hold a headword, and which ones a query reads. All on
//! folded forms, counted in characters. docs/data-model.md explains the design.

use std::collections::BTreeSet;

/// Prefix partitions exist for the first 1, 2 and 3 characters of a headword;
/// longer queries read their 3-character partition and filter it.
pub const PREFIX_PARTITION_CHARS: usize = 3;
/// Typo candidates are found through the first 5 characters of a headword...
pub const FUZZY_HEAD_CHARS: usize = 5;
/// ...reduced to every 3-character subsequence of them.
pub const FUZZY_KEY_CHARS: usize = 3;
/// Contains partitions hold every 1-, 2- and 3-character substring.
pub const CONTAINS_GRAM_CHARS: usize = 3;

/// Typo tolerance of decisions.md: 1 edit from 4 characters, 2 from 8.
pub fn allowed_edits(query_chars: usize) -> usize {
    match query_chars {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The prefix partitions a headword belongs to: its first 1, 2 and 3 characters.
pub fn word_prefixes(folded: &str) -> Vec<String> {
    let chars: Vec<char> = folded.chars().collect();
    (1..=chars.len().min(PREFIX_PARTITION_CHARS))
        .map(|n| chars[..n].iter().collect())
        .collect()
}

/// The prefix partition a literal prefix or exact query reads.
pub fn query_prefix(folded: &str) -> String {
    folded.chars().take(PREFIX_PARTITION_CHARS).collect()
}

/// The typo keys of a folded string: every 3-character subsequence of its first
/// 5 characters. Two strings within the allowed edits of each other (the query
/// against a prefix of the headword) always share a key, because each edit
/// removes at most one character from the longest common subsequence of the
/// two heads, and a head of 5 keeps at least 3 after 2 edits (4 after 1 edit
/// for queries of 4). The property test below holds this.
pub fn fuzzy_keys(folded: &str) -> BTreeSet<String> {
    let head: Vec<char> = folded.chars().take(FUZZY_HEAD_CHARS).collect();
    let mut keys = BTreeSet::new();
    if head.len() < FUZZY_KEY_CHARS {
        return keys;
    }
    let n = head.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                keys.insert([head[a], head[b], head[c]].iter().collect());
            }
        }
    }
    keys
}

/// Every distinct substring of 1 to 3 characters: the contains partitions of a
/// headword.
pub fn word_grams(folded: &str) -> BTreeSet<String> {
    let chars: Vec<char> = folded.chars().collect();
    let mut grams = BTreeSet::new();
    for len in 1..=CONTAINS_GRAM_CHARS {
        for window in chars.windows(len) {
            grams.insert(window.iter().collect());
        }
    }
    grams
}

/// The one contains partition a query reads: the query itself when it is 3
/// characters or shorter, else its least common trigram by a fixed letter
/// frequency (any trigram of the query finds every match; a rare one finds
/// fewer candidates to filter).
pub fn query_gram(folded: &str) -> String {
    let chars: Vec<char> = folded.chars().collect();
    if chars.len() <= CONTAINS_GRAM_CHARS {
        return folded.to_string();
    }
    chars
        .windows(CONTAINS_GRAM_CHARS)
        .min_by_key(|w| w.iter().map(|c| letter_commonness(*c)).sum::<u32>())
        .map(|w| w.iter().collect())
        .unwrap_or_default()
}

/// How common a letter is in European headwords: higher is more common.
fn letter_commonness(c: char) -> u32 {
    const BY_FREQUENCY: &str = "eaisnrtolcudmpgbhfvkyzwjxq";
    match BY_FREQUENCY.find(c) {
        Some(rank) => (BY_FREQUENCY.len() - rank) as u32,
        // Spaces, digits and other scripts' letters: treat as fairly common
        // for spaces, rare for the rest.
        None if c == ' ' || c == '-' => 20,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::distance::{edit_distance, prefix_edit_distance};
    use proptest::prelude::*;

    #[test]
    fn prefixes_are_the_first_one_to_three_characters() {
        assert_eq!(word_prefixes("école"), vec!["é", "éc", "éco"]);
        assert_eq!(word_prefixes("a"), vec!["a"]);
        assert_eq!(query_prefix("dictionary"), "dic");
        assert_eq!(query_prefix("do"), "do");
    }

    #[test]
    fn fuzzy_keys_are_subsequences_of_the_head() {
        let keys = fuzzy_keys("house");
        assert_eq!(keys.len(), 10);
        assert!(keys.contains("hus") && keys.contains("ose") && keys.contains("hou"));
        assert_eq!(fuzzy_keys("cat").into_iter().collect::<Vec<_>>(), ["cat"]);
        assert_eq!(fuzzy_keys("cart").len(), 4);
        assert!(fuzzy_keys("ox").is_empty());
    }

    #[test]
    fn grams_cover_every_substring_up_to_three() {
        let grams = word_grams("abab");
        let expected: BTreeSet<String> = ["a", "b", "ab", "ba", "aba", "bab"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(grams, expected);
    }

    #[test]
    fn the_contains_gram_is_a_rare_trigram_of_the_query() {
        assert_eq!(query_gram("ng"), "ng");
        assert_eq!(query_gram("quest"), "que");
        assert!("station".contains(&query_gram("station")));
    }

    /// Applies one random edit to `chars` at `pos` (kind 0..4).
    fn apply_edit(chars: &mut Vec<char>, kind: u8, pos: usize, letter: char) {
        let pos = pos % (chars.len() + 1);
        match kind {
            0 if pos < chars.len() => chars[pos] = letter,
            1 => chars.insert(pos, letter),
            2 if pos < chars.len() => {
                chars.remove(pos);
            }
            3 if pos + 1 < chars.len() => chars.swap(pos, pos + 1),
            _ => {}
        }
    }

    proptest! {
        /// Completeness of typo candidates: a headword whose prefix is within
        /// the allowed edits of the query shares a fuzzy key with it.
        #[test]
        fn a_typo_match_always_shares_a_key(
            query in "[a-e]{4,10}",
            edits in proptest::collection::vec((0u8..4, 0usize..12, "[a-f]"), 0..=2),
            tail in "[a-f]{0,4}",
        ) {
            let q: Vec<char> = query.chars().collect();
            let allowed = allowed_edits(q.len());
            let mut w = q.clone();
            for (kind, pos, letter) in edits.iter().take(allowed) {
                apply_edit(&mut w, *kind, *pos, letter.chars().next().unwrap());
            }
            w.extend(tail.chars());
            let word: String = w.iter().collect();
            if prefix_edit_distance(&q, &w, allowed) <= allowed {
                let shared = fuzzy_keys(&query).intersection(&fuzzy_keys(&word)).count();
                prop_assert!(shared > 0, "{query} vs {word}");
            }
            if edit_distance(&q, &w) <= allowed {
                let shared = fuzzy_keys(&query).intersection(&fuzzy_keys(&word)).count();
                prop_assert!(shared > 0, "{query} vs {word}");
            }
        }

        #[test]
        fn every_word_is_in_the_partitions_its_queries_read(word in "[a-z ]{1,12}", cut in 1usize..12) {
            let folded = word.trim().to_string();
            prop_assume!(!folded.is_empty());
            let chars: Vec<char> = folded.chars().collect();
            let prefix: String = chars[..cut.min(chars.len())].iter().collect();
            prop_assert!(word_prefixes(&folded).contains(&query_prefix(&prefix)));
            let start = cut.min(chars.len()) - 1;
            let middle: String = chars[start..].iter().take(5).collect();
            prop_assert!(word_grams(&folded).contains(&query_gram(&middle)));
        }
    }
}
