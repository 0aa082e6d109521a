//! The importer's one error type: whatever stops an import, from reading a
//! source to storing its items, said in one line that names the file, the
//! dictionary or the item at fault.

use crate::formats::source::SourceError;
use crate::limits::ItemProblem;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
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
    #[error("cannot tell the languages of {0:?}: FreeDict databases are named freedict-<iso639-3>-<iso639-3>")]
    Name(String),
    #[error("{dictionary}: {count} articles or links cannot be stored in DynamoDB (listed above); nothing written, as --strict asks")]
    Unstorable { dictionary: String, count: usize },
    #[error("{dictionary}: postings manifest chunk {chunk} cannot be stored: {problem}")]
    Manifest {
        dictionary: String,
        chunk: usize,
        problem: ItemProblem,
    },
}
