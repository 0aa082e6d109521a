//! `dictadmin import`: reads dictionaries from their original formats,
//! converts them into the entries and thesaurus links the functions read,
//! and writes them.
//!
//! Each source format has one module that parses its files and converts
//! them (freedict.rs, gcide.rs, mythes.rs, wordnet.rs; dictd.rs is the
//! database FreeDict and GCIDE share), and `Source` chooses among them. Each
//! gives an ImportedDictionary (dictionary.rs), which screen.rs checks
//! against DynamoDB's limits and write.rs writes, with its audio (audio.rs)
//! and its postings manifest for `dictadmin index` (manifest.rs),
//! what left the source deleted (prune.rs) and checkpoints to resume from
//! (checkpoint.rs). Whatever goes wrong is an ImportError (error.rs).
//!
//! The converters share how an entry's text is made: entry_text.rs builds
//! its HTML and plain text together, html.rs escapes and sanitizes the HTML,
//! and languages.rs names the languages FreeDict and MyThes files are named by.
//! frequency.rs stamps every entry with its word's frequency in its language.

pub mod audio;
mod checkpoint;
pub mod dictd;
mod dictionary;
mod entry_text;
mod error;
#[cfg(test)]
mod fixtures;
mod freedict;
mod frequency;
#[cfg(test)]
mod fuzz;
mod gcide;
mod html;
mod languages;
mod manifest;
mod mythes;
mod prune;
pub mod recordings;
mod screen;
mod speech;
mod thesaurus;
mod wordnet;
mod write;

use crate::formats::source::{parse_size, DEFAULT_MAX_SOURCE_BYTES};
use crate::output::say;
use audio::AudioFormat;
use clap::{Args, Subcommand};
use dictionary::ImportedDictionary;
pub use error::ImportError;
use freedict::import_freedict;
use gcide::import_gcide;
/// The API's code of a FreeDict language (the offline benchmarks name
/// their dictionaries' languages as the importer does).
pub use languages::of_iso639_3;
use mythes::import_mythes;
use screen::screen;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use std::path::{Path, PathBuf};
use std::time::Instant;
use wordnet::import_wordnet;
use write::{write_dictionary, TableIdentity, WriteOptions};

/// The options of `dictadmin import`, then its source.
#[derive(Args)]
pub struct ImportArgs {
    /// Give pronunciation audio, in this format, to every headword espeak-ng
    /// speaks (with an MP3 rendition besides, when spx); words already in the
    /// bucket are not spoken again.
    #[arg(long, value_parser = audio::format_parser())]
    audio_format: Option<AudioFormat>,
    /// Only these comma-separated headwords get audio (compared without case
    /// or diacritics).
    #[arg(long, value_delimiter = ',', requires = "audio_format")]
    audio_words: Vec<String>,
    /// Speak only the headwords at least this common now (a Zipf frequency,
    /// as the frequency lists give it: 3 is about once per million words);
    /// list the rest in --audio-later-file for `dictadmin audio
    /// speak-later`. Their entries name their audio either way.
    #[arg(long, requires_all = ["audio_format", "audio_later_file"])]
    audio_later_below: Option<f64>,
    /// Where --audio-later-below lists the words to speak later (appended).
    #[arg(long, requires = "audio_later_below")]
    audio_later_file: Option<PathBuf>,
    /// A table of recorded words (`lang<TAB>word<TAB>file`, as
    /// data/recorded-audio/ holds): a headword in it gets its recording,
    /// encoded in every format, instead of espeak-ng's speech.
    #[arg(long, requires = "audio_format")]
    recordings: Option<PathBuf>,
    /// Where the table's files are (by default beside it).
    #[arg(long, requires = "recordings")]
    recordings_dir: Option<PathBuf>,
    /// Read and convert the sources, print what would be written, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// The most one source file may hold, after decompression (`.dz`,
    /// `.gz`): a larger one is refused. Bytes, or with a unit: 2GiB,
    /// 512MiB, 500MB. The default is 1 GiB.
    #[arg(
        long,
        env = "DICTADMIN_MAX_SOURCE_BYTES",
        default_value_t = DEFAULT_MAX_SOURCE_BYTES,
        value_parser = parse_size
    )]
    max_source_bytes: u64,
    /// Refuse a dictionary (write none of it, exit non-zero) if any of its
    /// articles or links cannot be stored in DynamoDB, instead of skipping
    /// them with a warning.
    #[arg(long)]
    strict: bool,
    /// Keep the entries, links and audio of the previous import that the
    /// source no longer has (by default they are deleted).
    #[arg(long)]
    no_prune: bool,
    #[command(subcommand)]
    source: Source,
}

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

/// Imports every dictionary of the source in turn. An error stops the
/// import there; the dictionaries before it are written.
pub async fn run(clients: &Clients, config: &Config, args: ImportArgs) -> Result<(), ImportError> {
    let words = (!args.audio_words.is_empty()).then_some(args.audio_words.as_slice());
    let later = args
        .audio_later_below
        .zip(args.audio_later_file.clone())
        .map(|(below, file)| audio::SpeakLater { below, file });
    let recordings = args
        .recordings
        .as_deref()
        .map(|table| recordings::Recordings::load(table, args.recordings_dir.as_deref()))
        .transpose()?;
    let mut spoken = audio::SpokenWords::default();
    let write_options = WriteOptions {
        audio: args.audio_format.map(|format| audio::AudioPlan {
            format,
            words,
            later: later.as_ref(),
            recordings: recordings.as_ref(),
        }),
        strict: args.strict,
        prune: !args.no_prune,
    };
    // Described at the first dictionary to write, once its source is read:
    // a source that does not read is its own error, whatever the table.
    let mut table: Option<TableIdentity> = None;
    for input in args.source.inputs() {
        let started = Instant::now();
        let imported = args.source.read(input, args.max_source_bytes)?;
        if args.dry_run {
            report_dry_run(imported, started, args.strict)?;
            continue;
        }
        if table.is_none() {
            table = Some(TableIdentity::describe(&clients.dynamodb, &config.entries_table).await?);
        }
        let table = table.as_ref().expect("described above");
        write_dictionary(
            clients,
            config,
            imported,
            &write_options,
            table,
            &mut spoken,
        )
        .await?;
    }
    Ok(())
}

/// What a dry run says of a dictionary read since `started`: its counts,
/// and what writing it would skip or, under `--strict`, refuse.
fn report_dry_run(
    mut imported: ImportedDictionary,
    started: Instant,
    strict: bool,
) -> Result<(), ImportError> {
    let id = imported.dictionary.dictionary_id.clone();
    let screened = screen(&mut imported);
    screened.report(&id);
    say!(
        "{id}: {} entries, {} links read in {:.1} s{} (dry run: nothing written)",
        imported.entries.len(),
        imported.links.len(),
        started.elapsed().as_secs_f64(),
        screened.summary()
    );
    screened.refuse_if_strict(strict, &id)
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

    /// Every link of every source format's fixture is a word: GCIDE's
    /// `Syn:` paragraphs, MyThes in four languages, WordNet and FreeDict's
    /// synonym references.
    #[test]
    fn no_fixture_link_of_any_format_carries_markup() {
        use super::thesaurus::has_markup;
        let mut dictionaries = vec![
            import_gcide(&fixture("gcide/gcide"), MAX).unwrap(),
            import_wordnet(&fixture("wordnet"), MAX, None).unwrap(),
        ];
        for pair in ["deu-eng", "eng-fra", "eng-spa", "fra-eng"] {
            let prefix = fixture(&format!("freedict/freedict-{pair}"));
            dictionaries.push(import_freedict(&prefix, MAX).unwrap());
        }
        for locale in ["en_US", "de_DE", "es_ES", "fr_FR"] {
            let file = fixture(&format!("mythes/th_{locale}_v2.dat"));
            dictionaries.push(import_mythes(&file, MAX).unwrap());
        }
        let mut kinds = std::collections::BTreeSet::new();
        for imported in &dictionaries {
            for (headword, link) in &imported.links {
                assert!(
                    !has_markup(&link.word),
                    "{} {headword} → {:?}",
                    link.dictionary_id,
                    link.word
                );
                kinds.insert((link.dictionary_id.as_str(), link.relationship_type.as_str()));
            }
        }
        // `Syn: Dwelling; residence; abode. See {Tenement}.` of House.
        let house: Vec<(&str, &str)> = dictionaries[0]
            .links
            .iter()
            .filter(|(h, _)| h == "House")
            .map(|(_, l)| (l.relationship_type.as_str(), l.word.as_str()))
            .collect();
        for link in [("synonym", "abode"), ("related", "Tenement")] {
            assert!(house.contains(&link), "{house:?}");
        }
        assert!(
            kinds.contains(&("mythes-de", "hypernym")),
            "Oberbegriff: {kinds:?}"
        );
    }
}
