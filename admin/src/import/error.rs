//! The importer's one error type: whatever stops an import, from reading a
//! source to storing its items, said in one line that names the file, the
//! dictionary or the item at fault.

use crate::formats::source::SourceError;
use crate::storage::batch::WriteError;
use crate::storage::limits::ItemProblem;
use crate::storage::partition::QueryError;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    // Reading and converting a source.
    /// A source file that cannot be read, or is over the size limit.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A line of a source that its format does not allow.
    #[error("{path}: line {line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A dictd index line that points past the end of its data.
    #[error("{path}: article for {headword:?} at byte {offset} (+{length}) runs past the end of the data ({size} bytes): the file is truncated or does not belong to this index")]
    OutOfRange {
        path: PathBuf,
        headword: String,
        offset: u64,
        length: u64,
        size: u64,
    },
    /// A dictd index whose articles overlap so much that reading them would
    /// multiply the data in memory.
    #[error("{path}: its articles cover {covered} bytes of {size} bytes of data (more than {max} times over): their ranges overlap, so the index does not belong to this data")]
    Overlapping {
        path: PathBuf,
        covered: u64,
        size: u64,
        max: u64,
    },
    /// A FreeDict file whose name gives no languages.
    #[error("cannot tell the languages of {0:?}: FreeDict databases are named freedict-<iso639-3>-<iso639-3>")]
    Name(String),
    /// A MyThes file whose name gives no language this build knows.
    #[error("cannot tell the language of {0:?}: MyThes thesauri are named th_<iso639-1>_<country>_v2.dat, with a language of the importer's list")]
    ThesaurusName(String),

    // Storing its items. The SDK's errors are kept as their one-line
    // rendering, with their causes.
    #[error("{dictionary}: {count} articles or links cannot be stored in DynamoDB (listed above); nothing written, as --strict asks")]
    Unstorable { dictionary: String, count: usize },
    #[error("{dictionary}: postings manifest chunk {chunk} cannot be stored: {problem}")]
    Manifest {
        dictionary: String,
        chunk: usize,
        problem: ItemProblem,
    },
    #[error(transparent)]
    Query(#[from] QueryError),
    #[error("{dictionary}: reading its record: {message}")]
    ReadRecord { dictionary: String, message: String },
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The frequency list the entries' frequencies are read from.
    #[error("frequencies: {0}")]
    Frequencies(String),
    #[error("describing {table}: {message}")]
    DescribeTable { table: String, message: String },
    #[error("{table} is not described")]
    NotDescribed { table: String },
    /// A checkpoint or a working directory that cannot be written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    // Its audio: speaking, encoding, uploading and deleting it.
    #[error("espeak-ng: {0} (run infra/scripts/install-audio-tools.sh)")]
    NoEspeak(std::io::Error),
    /// A speech or encoding tool that does not start.
    #[error("{tool}: {source}")]
    ToolStart {
        tool: &'static str,
        source: std::io::Error,
    },
    #[error("{tool} failed: {stderr}")]
    ToolFailed { tool: &'static str, stderr: String },
    #[error("reading {path}: {source}")]
    ReadAudio {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A table of recordings (recordings.rs) that cannot be used.
    #[error("{}: {message}", table.display())]
    Recordings { table: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Recording { path: PathBuf, message: String },
    #[error("uploading {key}: {message}")]
    UploadAudio { key: String, message: String },
    #[error("listing the audio under {prefix}: {message}")]
    ListAudio { prefix: String, message: String },
    #[error("{}: line {line} is not \"voice<TAB>formats<TAB>word\" with a word to speak", file.display())]
    SpeakLater { file: PathBuf, line: usize },
    #[error("deleting s3://{bucket}/{key}: {message}")]
    DeleteAudio {
        bucket: String,
        key: String,
        message: String,
    },
}

impl ImportError {
    /// For `map_err`: an I/O error on `path`, named by it.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Self + '_ {
        move |source| ImportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
