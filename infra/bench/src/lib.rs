//! What the benchmark binaries share: reading dictd's own files into
//! postings, and a client of the dictd server they are compared with.

pub mod dictd_client;
pub mod dictd_files;
