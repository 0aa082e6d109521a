//! Turns parsed source articles into the stored entries and dictionary record
//! that the functions read.

pub mod audio;
pub mod checkpoint;
mod dictd;
pub mod dictionary;
pub mod error;
#[cfg(test)]
mod fixtures;
mod freedict;
mod gcide;
mod mythes;
pub mod prune;
pub mod screen;
mod wordnet;

use clap::Subcommand;
use dictionary::ImportedDictionary;
use error::ImportError;
pub use freedict::import_freedict;
pub use gcide::import_gcide;
pub use mythes::import_mythes;
use std::path::{Path, PathBuf};
pub use wordnet::import_wordnet;

/// The sources `dictadmin import` reads, one subcommand per format, each
/// with its own arguments.
#[derive(Subcommand)]
pub enum Source {
    /// FreeDict dictd databases, given by path without extension
    /// (for example /usr/share/dictd/freedict-eng-fra).
    Freedict { prefixes: Vec<PathBuf> },
    /// WordNet 3.0 database files in a directory (for example /usr/share/wordnet).
    Wordnet {
        dir: PathBuf,
        /// Only the most common words: the lemmas (per part of speech) whose
        /// senses WordNet's sense-tagged texts use at least this many times
        /// in all, by the tag counts of `cntlist.rev` in the directory.
        #[arg(long, value_name = "N")]
        min_tag_count: Option<u64>,
    },
    /// GCIDE in dictd format, by path without extension (for example
    /// /usr/share/dictd/gcide).
    Gcide { prefix: PathBuf },
    /// MyThes thesauri (for example /usr/share/mythes/th_en_US_v2.dat).
    Mythes { files: Vec<PathBuf> },
}

impl Source {
    /// What each dictionary of the source is read from, in command-line
    /// order: a FreeDict or GCIDE path without extension, the WordNet
    /// directory, a MyThes file. They are read one at a time, so that a
    /// large import never holds more than one dictionary in memory.
    pub fn inputs(&self) -> Vec<&Path> {
        match self {
            Source::Freedict { prefixes } => prefixes.iter().map(PathBuf::as_path).collect(),
            Source::Wordnet { dir, .. } => vec![dir],
            Source::Gcide { prefix } => vec![prefix],
            Source::Mythes { files } => files.iter().map(PathBuf::as_path).collect(),
        }
    }

    /// Reads and converts the dictionary of one of [`Source::inputs`].
    pub fn read(
        &self,
        input: &Path,
        max_source_bytes: u64,
    ) -> Result<ImportedDictionary, ImportError> {
        match self {
            Source::Freedict { .. } => import_freedict(input, max_source_bytes),
            Source::Wordnet { min_tag_count, .. } => {
                import_wordnet(input, max_source_bytes, *min_tag_count)
            }
            Source::Gcide { .. } => import_gcide(input, max_source_bytes),
            Source::Mythes { .. } => import_mythes(input, max_source_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{fixture, MAX};
    use super::*;

    #[test]
    fn re_import_gives_the_same_ids() {
        let ids = |d: ImportedDictionary| {
            d.entries
                .into_iter()
                .map(|e| e.entry.id)
                .collect::<Vec<_>>()
        };
        let first = ids(import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap());
        let second = ids(import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap());
        assert_eq!(first, second);
        let unique: std::collections::HashSet<_> = first.iter().collect();
        assert_eq!(
            unique.len(),
            first.len(),
            "ids are unique within a dictionary"
        );
        let wordnet = ids(import_wordnet(&fixture("wordnet"), MAX, None).unwrap());
        assert_eq!(
            wordnet,
            ids(import_wordnet(&fixture("wordnet"), MAX, None).unwrap())
        );
        assert_eq!(
            wordnet
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len(),
            wordnet.len()
        );
    }

    #[test]
    fn every_entry_knows_its_place_in_the_source() {
        let imported = import_mythes(&fixture("mythes/th_en_US_v2.dat"), MAX).unwrap();
        let good = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "good")
            .unwrap();
        let origin = &imported.origins[&good.entry.id];
        let text = std::fs::read_to_string(fixture("mythes/th_en_US_v2.dat")).unwrap();
        assert!(
            text.lines()
                .nth(origin.line - 1)
                .unwrap()
                .starts_with("good|"),
            "{origin}"
        );
        let imported = import_freedict(&fixture("freedict/freedict-eng-fra"), MAX).unwrap();
        let cat = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "cat")
            .unwrap();
        let origin = &imported.origins[&cat.entry.id];
        assert!(origin.file.ends_with("freedict-eng-fra.index"));
        let index = std::fs::read_to_string(&origin.file).unwrap();
        assert!(
            index
                .lines()
                .nth(origin.line - 1)
                .unwrap()
                .starts_with("cat\t"),
            "{origin}"
        );
        let imported = import_wordnet(&fixture("wordnet"), MAX, None).unwrap();
        let bank = imported
            .entries
            .iter()
            .find(|e| e.entry.word == "bank" && e.entry.part_of_speech.as_deref() == Some("noun"))
            .unwrap();
        let origin = &imported.origins[&bank.entry.id];
        assert!(origin.file.ends_with("index.noun"), "{origin}");
        let index = std::fs::read_to_string(&origin.file).unwrap();
        assert!(index
            .lines()
            .nth(origin.line - 1)
            .unwrap()
            .starts_with("bank "));
    }
}
