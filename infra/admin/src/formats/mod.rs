//! Readers of the source formats.

pub mod dictd;
pub mod freedict;
pub mod gcide;
pub mod mythes;
pub mod source;
pub mod wordnet;
