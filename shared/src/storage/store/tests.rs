//! The store's loads ([`Slots`]) without a network: each key loaded once
//! and shared by every request that needs it, a load that failed started
//! again, and a load that a request gave up on left running for the next;
//! and what an instance holds of a build, let go for the next build.

use super::*;
use std::sync::atomic::AtomicUsize;
use tokio::sync::Notify;

/// A `start` for [`Slots::get`] that counts its calls and the keys asked
/// for, waits for `gate` when one is given, and gives each key its square
/// (or fails when `fail` says so).
fn counting_start(
    calls: Arc<AtomicUsize>,
    asked: Arc<Mutex<Vec<Vec<u32>>>>,
    gate: Option<Arc<Notify>>,
    fail: bool,
) -> impl FnOnce(Vec<u32>) -> BoxFuture<'static, Result<HashMap<u32, u32>, ApiError>> {
    move |keys| {
        calls.fetch_add(1, Ordering::SeqCst);
        asked.lock().unwrap().push(keys.clone());
        async move {
            if let Some(gate) = gate {
                gate.notified().await;
            }
            if fail {
                return Err(ApiError::Unavailable);
            }
            Ok(keys.into_iter().map(|k| (k, k * k)).collect())
        }
        .boxed()
    }
}

async fn values(loading: Vec<Loading<u32>>) -> Result<Vec<u32>, ApiError> {
    let loaded = try_join_all(loading).await?;
    Ok(loaded.into_iter().map(|v| *v).collect())
}

#[tokio::test]
async fn each_key_is_loaded_once_and_only_the_missing_ones_are_started() {
    let slots: Slots<u32, u32> = Slots::default();
    let (calls, asked) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(Mutex::new(Vec::new())),
    );
    let first = slots.get(
        &[1, 2],
        counting_start(calls.clone(), asked.clone(), None, false),
    );
    assert_eq!(values(first).await, Ok(vec![1, 4]));
    let second = slots.get(
        &[2, 3],
        counting_start(calls.clone(), asked.clone(), None, false),
    );
    assert_eq!(values(second).await, Ok(vec![4, 9]));
    let third = slots.get(
        &[1, 3],
        counting_start(calls.clone(), asked.clone(), None, false),
    );
    assert_eq!(values(third).await, Ok(vec![1, 9]));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "the third found both loaded"
    );
    assert_eq!(*asked.lock().unwrap(), vec![vec![1, 2], vec![3]]);
}

#[tokio::test]
async fn requests_that_need_a_load_under_way_join_it() {
    let slots: Arc<Slots<u32, u32>> = Arc::new(Slots::default());
    let (calls, asked) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(Mutex::new(Vec::new())),
    );
    let gate = Arc::new(Notify::new());
    let waiting: Vec<_> = (0..8)
        .map(|_| {
            slots.get(
                &[7],
                counting_start(calls.clone(), asked.clone(), Some(gate.clone()), false),
            )
        })
        .collect();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "one load for eight requests"
    );
    gate.notify_one();
    for loading in waiting {
        assert_eq!(values(loading).await, Ok(vec![49]));
    }
}

#[tokio::test]
async fn a_failed_load_is_started_again_by_the_next_request() {
    let slots: Slots<u32, u32> = Slots::default();
    let (calls, asked) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(Mutex::new(Vec::new())),
    );
    let failed = slots.get(
        &[5],
        counting_start(calls.clone(), asked.clone(), None, true),
    );
    assert_eq!(values(failed).await, Err(ApiError::Unavailable));
    let again = slots.get(
        &[5],
        counting_start(calls.clone(), asked.clone(), None, false),
    );
    assert_eq!(values(again).await, Ok(vec![25]));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_load_a_request_gave_up_on_runs_on_for_the_next() {
    let slots: Slots<u32, u32> = Slots::default();
    let (calls, asked) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(Mutex::new(Vec::new())),
    );
    let gate = Arc::new(Notify::new());
    let given_up = slots.get(
        &[3],
        counting_start(calls.clone(), asked.clone(), Some(gate.clone()), false),
    );
    // The first request's deadline passes while the load waits.
    let timed_out = tokio::time::timeout(Duration::from_millis(10), values(given_up)).await;
    assert!(timed_out.is_err());
    gate.notify_one();
    let next = slots.get(
        &[3],
        counting_start(calls.clone(), asked.clone(), None, false),
    );
    assert_eq!(values(next).await, Ok(vec![9]));
    assert_eq!(calls.load(Ordering::SeqCst), 1, "joined, not started again");
}

#[tokio::test]
async fn a_load_that_leaves_out_a_key_is_an_internal_error_for_that_key() {
    let slots: Slots<u32, u32> = Slots::default();
    let loading = slots.get(&[1, 2], |_| async { Ok(HashMap::from([(1, 10)])) }.boxed());
    let mut loading = loading.into_iter();
    assert_eq!(*loading.next().unwrap().await.unwrap(), 10);
    assert!(matches!(
        loading.next().unwrap().await,
        Err(ApiError::Internal(_))
    ));
}

#[tokio::test]
async fn one_loads_a_single_value_once() {
    let slots: Slots<(), String> = Slots::default();
    let calls = Arc::new(AtomicUsize::new(0));
    for _ in 0..3 {
        let calls = calls.clone();
        let value = slots
            .one((), move || {
                calls.fetch_add(1, Ordering::SeqCst);
                async { Ok("index".to_string()) }
            })
            .await;
        assert_eq!(value.unwrap().as_str(), "index");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// Within a budget, what loaded is kept by recency: the least recently
/// used value is let go first and loaded again when a request needs it,
/// and a value larger than the budget is loaded for each request.
#[tokio::test]
async fn loaded_values_are_kept_by_recency_within_the_budget() {
    // Key k's value is k², weighing k² up to 5 bytes; the key 4 weighs 7.
    let slots: Slots<u32, u32> = Slots::within(6, |v| match *v {
        16 => 7,
        v => (v as usize).min(5),
    });
    let (calls, asked) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(Mutex::new(Vec::new())),
    );
    let load = |keys: &[u32]| {
        slots.get(
            keys,
            counting_start(calls.clone(), asked.clone(), None, false),
        )
    };
    assert_eq!(values(load(&[1, 2])).await, Ok(vec![1, 4]));
    // 1 used again: 2 is now the least recently used.
    assert_eq!(values(load(&[1])).await, Ok(vec![1]));
    assert_eq!(values(load(&[3])).await, Ok(vec![9]));
    // Keeping 3 (5 bytes) beside 1 and 2 (5) would pass 6: 2 goes.
    assert_eq!(values(load(&[1, 3])).await, Ok(vec![1, 9]));
    assert_eq!(values(load(&[2])).await, Ok(vec![4]), "loaded again");
    assert_eq!(values(load(&[4])).await, Ok(vec![16]));
    assert_eq!(values(load(&[4])).await, Ok(vec![16]), "never kept");
    assert_eq!(
        *asked.lock().unwrap(),
        vec![vec![1, 2], vec![3], vec![2], vec![4], vec![4]]
    );
}

/// The paged sections keep their parts in one pool: a part of one section
/// lets go the least recently used part of any, and each section gets back
/// its own parts, under the same part numbers as another's.
#[tokio::test]
async fn the_paged_sections_keep_their_parts_in_one_budget() {
    let pool = Arc::new(PartPool::new(10));
    let pooled = |section| {
        Box::new(PooledParts {
            section,
            pool: pool.clone(),
        })
    };
    let records: Slots<usize, u32> = Slots::keeping(pooled(Section::Records), |_| 4);
    let rhymes: Slots<usize, String> = Slots::keeping(pooled(Section::Rhymes), |_| 4);
    let calls = Arc::new(AtomicUsize::new(0));
    let record = |part| held(&records, part, &calls, |k| k as u32 * 10);
    let rhyme = |part| held(&rhymes, part, &calls, |k| format!("part {k}"));
    assert_eq!(*record(1).await, 10);
    assert_eq!(*record(2).await, 20);
    assert_eq!(*rhyme(1).await, "part 1", "not the record of part 1");
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    // A load is kept at its section's next get: keeping rhyme 1 beside
    // records 1 and 2 would weigh 12 of 10, so record 1, the least recently
    // used of any section, goes.
    assert_eq!(*rhyme(1).await, "part 1");
    assert_eq!(*record(2).await, 20);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        3,
        "rhyme 1 and record 2 were kept"
    );
    assert_eq!(*record(1).await, 10);
    assert_eq!(calls.load(Ordering::SeqCst), 4, "record 1 was let go");
    assert!(pool.bytes() <= 10);
}

/// Part `part` of `slots`, loaded as `value` gives it (counted in `calls`)
/// unless it is kept.
async fn held<T: Send + Sync + 'static>(
    slots: &Slots<usize, T>,
    part: usize,
    calls: &Arc<AtomicUsize>,
    value: fn(usize) -> T,
) -> Arc<T> {
    let calls = calls.clone();
    let load = move || {
        calls.fetch_add(1, Ordering::SeqCst);
        async move { Ok(value(part)) }
    };
    slots.one(part, load).await.expect("loads")
}

/// A store whose client is never called: what [`Store::loaded`] needs.
fn offline_store() -> Store {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .region(aws_sdk_dynamodb::config::Region::new("us-east-1"))
        .build();
    Store::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        "entries".into(),
    )
}

fn build_named(name: &str) -> SnapshotBuild {
    SnapshotBuild {
        build: name.into(),
        format: Some(snapshot::FORMAT),
        parts: Section::ALL.iter().map(|&s| (s, 1)).collect(),
        ..Default::default()
    }
}

/// What an instance holds of a build is shared by every request of that
/// build, and let go (with every section and part it loaded) as soon as the
/// catalog names another: an instance never holds two builds.
#[test]
fn a_build_is_held_once_and_let_go_for_the_next() {
    let store = offline_store();
    let (first, second) = (build_named("b1"), build_named("b2"));
    let held = store.loaded(Some(&first));
    assert!(Arc::ptr_eq(&held, &store.loaded(Some(&first))), "shared");
    let old = Arc::downgrade(&held);
    drop(held);
    assert!(old.upgrade().is_some(), "the store still holds b1");
    let next = store.loaded(Some(&second));
    assert!(old.upgrade().is_none(), "b1 let go once b2 is named");
    assert_eq!(next.source.build.as_ref(), Some(&second));
    // A table not yet indexed is a holding of its own.
    let none = store.loaded(None);
    assert!(!Arc::ptr_eq(&next, &none));
    assert_eq!(none.source.build, None);
}

/// A cold typo search reads hundreds of term blocks of one read unit each:
/// a hundred to a BatchGetItem, where full parts go fewer at a time so that
/// one response holds them all.
#[test]
fn term_blocks_go_a_hundred_to_a_call_and_parts_fewer() {
    let blocks = [(Section::Terms, 1..400)];
    assert_eq!(keys_per_call(&blocks), BATCH_GET_KEYS);
    let with_root = [(Section::Terms, 0..1), (Section::Terms, 5..9)];
    assert_eq!(keys_per_call(&with_root), PART_GET_KEYS);
    let with_core = [(Section::Terms, 5..9), (Section::Core, 0..3)];
    assert_eq!(keys_per_call(&with_core), PART_GET_KEYS);
}

/// Round trips counted both ways: `chained`, the longest chain of reads
/// each started after the one before it was answered, counts a read
/// started once one came back even while another is under way; `merged`
/// counts only reads started while none was. Reads started together
/// count once both ways, and requests one after another add theirs.
#[test]
fn round_trips_are_counted_merged_and_chained() {
    let counter = ReadCounter::default();
    let trips = |merged, chained| RoundTrips { merged, chained };
    let root = counter.start();
    let records_index = counter.start();
    assert_eq!(counter.round_trips(), trips(1, 1), "started together");
    drop(records_index);
    // The parts of a part index, while the root still loads.
    let parts = counter.start();
    assert_eq!(counter.round_trips(), trips(1, 2));
    drop(root);
    drop(parts);
    let before = counter.round_trips();
    let page = counter.start();
    drop(page);
    assert_eq!(counter.round_trips() - before, trips(1, 1), "the page");
    assert_eq!(counter.round_trips(), trips(2, 3));
}
