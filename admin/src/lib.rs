//! The admin library behind `dictadmin` (main.rs): table setup
//! ([`tables`]), dictionary import by source format ([`import`], the
//! formats' shared reading in [`formats`]), the lexicon ([`lexicon`]), the
//! index build ([`index`]), API keys ([`keys`]) and the DynamoDB reads and
//! writes they share ([`storage`]). The benchmarks read dictd files through
//! it, so that the format has one reader.
//! What it prints goes through output.rs, which a closed pipe does not stop.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod catalogue;
pub mod formats;
pub mod import;
pub mod index;
pub mod keys;
pub mod lexicon;
pub mod output;
pub mod storage;
pub mod tables;
