//! The search engine: the stored forms it is built from and held in
//! ([`postings`] manifests, the index [`snapshot`], both on the byte
//! [`codec`]), how words are compared ([`fold`]), the inflected forms and
//! word frequencies it ranks with ([`lexicon`]), how a query matches
//! ([`matching`], wildcard patterns in [`pattern`], spellings by sound in
//! [`respelling`]) and what it may answer
//! from ([`filters`]), how a query runs over the snapshot ([`engine`]),
//! reverse lookup from the words of definitions ([`definitions`],
//! [`reverse`]), and the rules stated naively for the tests ([`oracle`]).
//!
//! It knows nothing of HTTP, storage services or GraphQL: its errors are its
//! own ([`InvalidParameter`], [`engine::SearchError`], [`codec::CorruptData`]),
//! and the API layer (the `shared` crate, which re-exports it as
//! `shared::search`) gives them their statuses. A drift test
//! (`tests/drift/tests/crate_layers.rs`) holds its dependencies to that.

/// A query parameter the engine reads (`matchType`, `lang`) that is not one
/// of its values: the message says what it must be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidParameter(pub String);

pub mod fold;

pub mod codec;
pub mod definitions;
pub mod engine;
pub mod filters;
pub mod lexicon;
pub mod matching;
pub mod oracle;
pub mod pattern;
pub mod postings;
#[cfg(test)]
mod reference;
pub mod respelling;
pub mod reverse;
pub mod rhyme;
pub mod snapshot;
pub mod sounds_like;
mod typo;
/// Characters in a search result's `preview`.
pub const PREVIEW_CHARS: usize = 160;

/// The first 160 characters of `plain_text` (whitespace runs collapsed), cut
/// at a word boundary when the text is longer.
pub fn preview(plain_text: &str) -> String {
    let collapsed = plain_text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= PREVIEW_CHARS {
        return collapsed;
    }
    let cut: String = collapsed.chars().take(PREVIEW_CHARS + 1).collect();
    // The 161st character tells whether the 160th ends a word.
    let head: String = cut.chars().take(PREVIEW_CHARS).collect();
    if cut.ends_with(' ') {
        return head.trim_end().to_string();
    }
    match head.rfind(' ') {
        Some(space) => head[..space].trim_end().to_string(),
        // One word longer than the preview: cut it.
        None => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(preview("  a  short\ntext "), "a short text");
    }

    #[test]
    fn long_text_is_cut_at_a_word_boundary() {
        let text = "word ".repeat(50);
        let p = preview(&text);
        assert!(p.chars().count() <= PREVIEW_CHARS);
        assert!(p.ends_with("word"));
        let exact = format!("{} tail", "x".repeat(160));
        assert_eq!(preview(&exact), "x".repeat(160));
    }

    proptest! {
        #[test]
        fn preview_is_a_bounded_prefix_of_the_collapsed_text(text in "[a-zé \n]{0,400}") {
            let p = preview(&text);
            let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            prop_assert!(p.chars().count() <= PREVIEW_CHARS);
            prop_assert!(collapsed.starts_with(&p));
            if collapsed.chars().count() > PREVIEW_CHARS && p.len() < collapsed.len() {
                let next = collapsed[p.len()..].chars().next();
                // Cut between words, unless one word fills the whole preview.
                prop_assert!(next == Some(' ') || p.chars().count() == PREVIEW_CHARS);
            }
        }
    }
}
