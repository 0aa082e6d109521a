//! Middle deletions (format 15): every term, and every inflected form,
//! keyed by its spelling with its middle character deleted, in FSTs of
//! their own cut into blocks like the terms' ([`super::blocks`]).
//!
//! A one-edit typo search splits the query around its middle character:
//! an edit before it leaves the middle and the rest unchanged (a walk of
//! the backwards FST anchored on them), one after it leaves the start up
//! to the middle unchanged (a forward walk anchored on that). What is left
//! is an edit of the middle character itself. Walked, a substitution there
//! reaches a block for every character that may follow the start, about
//! every block under it; here the words it can make are the keys under
//! one prefix, the query with its middle deleted: a block or two. (A
//! deletion of the middle character, or its transposition with a
//! neighbour, makes one word each, looked up in the forward FST.)
//!
//! A key is the deleted spelling, [`SEPARATOR`], then the word (so keys are
//! distinct and a word is known by its key); its value is the word's in the
//! forward FST (a term's number, a form's lemmas).

/// The byte between a key's deleted spelling and its word: never part of
/// UTF-8 text, so the keys of one deleted spelling are exactly those that
/// start with it and the separator.
const SEPARATOR: u8 = 0xff;

/// The character a word of `chars` characters has in its middle (the
/// first of the two middle ones of an even count).
pub(crate) fn middle(chars: usize) -> usize {
    chars.saturating_sub(1) / 2
}

/// `word` without its middle character.
pub(crate) fn without_middle(word: &[char]) -> String {
    let m = middle(word.len());
    word.iter()
        .enumerate()
        .filter(|&(i, _)| i != m)
        .map(|(_, &c)| c)
        .collect()
}

/// The start of the keys of the words whose middle deletion is `deleted`.
pub(crate) fn prefix(deleted: &str) -> Vec<u8> {
    let mut prefix = deleted.as_bytes().to_vec();
    prefix.push(SEPARATOR);
    prefix
}

/// The word of a key that starts with `prefix`.
fn word_of<'k>(key: &'k [u8], prefix: &[u8]) -> Option<&'k [u8]> {
    key.strip_prefix(prefix)
}

/// The words of `block` (of a middles FST) whose keys start with `prefix`
/// ([`prefix`]), with their values.
pub(crate) fn words_in(block: &fst::Map<Vec<u8>>, prefix: &[u8]) -> Vec<(Vec<u8>, u64)> {
    let mut words = Vec::new();
    let mut stream = fst::IntoStreamer::into_stream(block.range().ge(prefix));
    while let Some((key, value)) = fst::Streamer::next(&mut stream) {
        match word_of(key, prefix) {
            Some(word) => words.push((word.to_vec(), value)),
            None => break,
        }
    }
    words
}

/// The keys of `words` (each with its value), sorted, for
/// [`super::blocks::build`]. The empty word has no middle and no key.
pub(super) fn keys<'w>(words: impl Iterator<Item = (&'w str, u64)>) -> Vec<(Vec<u8>, u64)> {
    let mut keys: Vec<(Vec<u8>, u64)> = words
        .filter(|(word, _)| !word.is_empty())
        .map(|(word, value)| {
            let chars: Vec<char> = word.chars().collect();
            let mut key = prefix(&without_middle(&chars));
            key.extend_from_slice(word.as_bytes());
            (key, value)
        })
        .collect();
    keys.sort_unstable();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(word: &str) -> Vec<char> {
        word.chars().collect()
    }

    #[test]
    fn the_middle_character_is_deleted_by_characters_not_bytes() {
        assert_eq!(without_middle(&chars("hosue")), "houe");
        assert_eq!(without_middle(&chars("house")), "hose");
        assert_eq!(without_middle(&chars("haus")), "hus", "the first of two");
        assert_eq!(without_middle(&chars("été")), "éé");
        assert_eq!(without_middle(&chars("日本語")), "日語");
        assert_eq!(without_middle(&chars("a")), "");
        assert_eq!(without_middle(&[]), "");
    }

    /// The words of one deleted spelling are the keys under its prefix,
    /// and only those: a deleted spelling that another one starts with
    /// (`hose`, `hoses`) shares none of its keys.
    #[test]
    fn a_deleted_spelling_names_exactly_its_words() {
        let words = ["house", "horse", "hose", "hoise", "houses", "hosue", "h"];
        let keys = keys(words.iter().enumerate().map(|(i, w)| (*w, i as u64)));
        let under = |deleted: &str| -> Vec<&str> {
            let prefix = prefix(deleted);
            keys.iter()
                .filter_map(|(key, _)| word_of(key, &prefix))
                .map(|w| std::str::from_utf8(w).unwrap())
                .collect()
        };
        assert_eq!(under("hose"), ["hoise", "horse", "house"]);
        assert_eq!(under("houe"), ["hosue"]);
        assert_eq!(under("hoss"), Vec::<&str>::new());
        assert_eq!(under(""), ["h"]);
        assert_eq!(under("hoses"), ["houses"]);
        assert_eq!(under("hse"), ["hose"]);
    }
}
