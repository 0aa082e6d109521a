//! What the benchmark binaries share: reading dictd's own files into
//! postings, a client of the dictd server they are compared with, and the
//! random typos their queries are given.

pub mod dictd_client;
pub mod dictd_files;
pub mod edits;
pub mod offline;

/// p50, p99 and max (0 for none).
pub fn stats(v: &mut [f64]) -> (f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), at(1.0))
}

/// The index snapshot of the running local stack (stack.env in the
/// environment), for the benchmarks that search it in-process; exits with a
/// message when it holds no entry.
pub async fn stack_snapshot() -> shared::storage::store::SnapshotView {
    let app = shared::runtime::app::App::from_env()
        .await
        .expect("stack.env in the environment");
    let snapshot = app
        .store
        .snapshot(&shared::storage::store::Needs::default())
        .await
        .expect("the stack holds an index snapshot");
    if snapshot.searcher.index().entries() == 0 {
        eprintln!(
            "the stack's index snapshot is empty: import data and run `dictadmin index` first"
        );
        std::process::exit(1);
    }
    snapshot
}
