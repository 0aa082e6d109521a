//! Readers of the source formats.

pub mod gcide;
pub mod mythes;
pub mod source;
pub mod wordnet;
