//! What the benchmark binaries share: reading dictd's own files into
//! postings, a client of the dictd server they are compared with, the
//! queries drawn at random from the local stack, and the random typos they
//! are given.

pub mod dictd_client;
pub mod dictd_files;
pub mod draw;
pub mod edits;
pub mod offline;
pub mod process_stats;

/// p50, p99 and max (0 for none).
pub fn stats(v: &mut [f64]) -> (f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), at(1.0))
}

/// The app of the running local stack (stack.env in the environment).
pub async fn stack_app() -> shared::runtime::app::App {
    shared::runtime::app::App::from_env()
        .await
        .expect("stack.env in the environment")
}

/// The index snapshot of the running local stack, for the benchmarks that
/// search it in-process; exits with a message when it holds no entry.
pub async fn stack_snapshot() -> shared::storage::store::SnapshotView {
    snapshot_of(&stack_app().await).await
}

/// The index snapshot `app` reads; exits with a message when it holds no
/// entry.
pub async fn snapshot_of(app: &shared::runtime::app::App) -> shared::storage::store::SnapshotView {
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

/// [`snapshot_of`] with every term block read and held, for the
/// benchmarks that walk the whole term dictionary in-process (the
/// spelling benchmark reads every term). The blocks stay held only within
/// `SNAPSHOT_CACHE_MB`, whose default holds a fraction of a corpus' blocks:
/// give it room (infra/scripts/spelling-benchmark.sh gives 16 GB).
pub async fn with_every_term_block(
    app: &shared::runtime::app::App,
) -> shared::storage::store::SnapshotView {
    let snapshot = snapshot_of(app).await;
    let items = snapshot.searcher.index().term_dictionary().items();
    // Item 0 is the root, which the snapshot holds.
    let all: Vec<usize> = (1..items).collect();
    for chunk in all.chunks(2_000) {
        let missing = shared::search::snapshot::Missing(chunk.to_vec());
        snapshot
            .read_term_blocks(&missing)
            .await
            .expect("every term block read");
    }
    snapshot
}
