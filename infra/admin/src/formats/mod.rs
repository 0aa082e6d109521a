//! Readers of the source formats.

pub mod source;
pub mod wordnet;
