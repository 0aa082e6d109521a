//! The entries table as the admin command line reads and writes it, apart
//! from what is stored: one partition read with Query (partition.rs; the
//! command line never scans), items written and deleted in batches with
//! retries and a progress bar (batch.rs), and DynamoDB's limits on one item,
//! checked before a batch is sent (limits.rs). The importer and the lexicon
//! both store through these; the index build too. Lists and manifests are
//! read back whole, checked complete, by chunked.rs.

pub mod batch;
pub mod chunked;
pub mod limits;
pub mod partition;
