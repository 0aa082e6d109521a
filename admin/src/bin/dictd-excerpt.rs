//! `dictd-excerpt`: the dictd part of the fixture builder
//! (infra/scripts/make-fixture.py), through the importer's own reader of
//! the format (`admin::import::dictd`), so that the format is read in one
//! place.
//!
//!     dictd-excerpt excerpt SOURCE_PREFIX OUT_PREFIX EVERY [WORD ...]
//!         writes OUT_PREFIX.index and OUT_PREFIX.dict.dz: the metadata,
//!         the articles of WORD and every EVERY-th index line (none when 0);
//!         prints "N index lines"
//!     dictd-excerpt headwords INDEX_FILE ...
//!         prints the headwords of each .index file, metadata and empty
//!         keys left out
#![deny(clippy::print_stdout, clippy::print_stderr)]

use admin::import::dictd::{is_metadata, parse_index, Database};
use admin::{say, say_err};
use clap::{Parser, Subcommand};
use flate2::write::GzEncoder;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dictd-excerpt",
    about = "Excerpts of dictd databases for data/fixture"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A smaller database of real articles.
    Excerpt {
        source: PathBuf,
        out: PathBuf,
        every: usize,
        words: Vec<String>,
    },
    /// The headwords of index files, one a line.
    Headwords { files: Vec<PathBuf> },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say_err!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Excerpt {
            source,
            out,
            every,
            words,
        } => {
            let db = Database::open(&source, u64::MAX).map_err(|e| e.to_string())?;
            let words: HashSet<String> = words.into_iter().collect();
            let (index, data) = db.excerpt(&words, every).map_err(|e| e.to_string())?;
            write(&with_suffix(&out, ".index"), index.as_bytes())?;
            let mut dz = GzEncoder::new(Vec::new(), flate2::Compression::best());
            dz.write_all(&data).map_err(|e| e.to_string())?;
            let dz = dz.finish().map_err(|e| e.to_string())?;
            write(&with_suffix(&out, ".dict.dz"), &dz)?;
            say!("{} index lines", index.lines().count());
        }
        Command::Headwords { files } => {
            for file in files {
                let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
                for line in parse_index(&file, &bytes).map_err(|e| e.to_string())? {
                    if !line.headword.is_empty() && !is_metadata(&line.headword) {
                        say!("{}", line.headword);
                    }
                }
            }
        }
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(suffix);
    PathBuf::from(path)
}
