//! What the benchmark binaries share: reading dictd's own files into
//! postings, a client of the dictd server they are compared with, and the
//! random typos their queries are given.

pub mod dictd_client;
pub mod dictd_files;
pub mod edits;
