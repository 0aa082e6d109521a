//! Reading source files, for the importer (import/) and the lexicon
//! (lexicon/) alike: any file under the limit on its size (source.rs), and
//! WordNet's index lines (wordnet.rs). What only the importer reads lives
//! with its conversion, in import/.

pub mod source;
pub mod wordnet;
