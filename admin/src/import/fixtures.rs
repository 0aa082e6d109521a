//! The excerpts of data/fixture/ that the importer's tests read, and a
//! lookup in what they import to.

use super::dictionary::ImportedDictionary;
use shared::model::Entry;
use std::path::Path;

/// The tests read under the default limit on a source file's size.
pub const MAX: u64 = crate::formats::source::DEFAULT_MAX_SOURCE_BYTES;

/// A file or directory of data/fixture/.
pub fn fixture(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/fixture")
        .join(path)
}

/// The imported entry of `word` (and of part of speech `pos`, if given).
pub fn find<'a>(imported: &'a ImportedDictionary, word: &str, pos: Option<&str>) -> &'a Entry {
    imported
        .entries
        .iter()
        .map(|e| &e.entry)
        .find(|e| e.word == word && (pos.is_none() || e.part_of_speech.as_deref() == pos))
        .unwrap_or_else(|| panic!("{word} not imported"))
}
