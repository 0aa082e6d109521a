//! Readers of the source formats.

pub mod source;
/// For this commit only: the lexicon's path to WordNet's index lines, until
/// they get a home of their own here (next commit).
pub mod wordnet {
    pub use crate::import::wordnet::parse_index_line;
}
