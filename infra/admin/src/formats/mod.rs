//! Readers of the source formats.

pub mod mythes;
pub mod source;
pub mod wordnet;
