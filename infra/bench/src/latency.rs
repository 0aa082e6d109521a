//! Latency of every endpoint's read path on whatever the local stack holds
//! (the benchmark corpus for docs/benchmarks.md), side by side with a bare
//! DynamoDB GetItem against the same DynamoDB Local, in the same run: each
//! round runs every scenario once, so all share the same conditions. Every
//! round draws its queries afresh from the indexed headwords (uniformly over
//! entries), so no fixed list and no cache flatters a line.
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo run --release -p bench --bin latency -- [rounds]
//!   cargo run --release -p bench --bin latency -- --cold [runs]
//!
//! The instance measured starts cold and keeps what its queries read within
//! SNAPSHOT_CACHE_MB, as a function does; the queries are drawn from a
//! second instance that holds everything. The first round is not counted.
//! It calls the service layer in-process, as a warm function does after auth;
//! the quota update runs concurrently with these reads in the functions and
//! is one UpdateItem, measured here as its own line. `--cold` times what a
//! fresh process does before its first request of each query class answers
//! (clients, catalog, what the query loads of the snapshot, the query) and
//! what it reads, beside a fresh process's first GetItem.
//! LATENCY_ONLY=<text> keeps the lines whose name holds it (and the
//! GetItem baseline), to profile or compare one class.

use aws_sdk_dynamodb::types::AttributeValue;
use bench::draw::Draw;
use shared::queries::{
    AutocompleteQuery, Grouping, RandomQuery, ReverseQuery, RhymesQuery, SearchQuery,
    ThesaurusQuery,
};
use shared::runtime::app::App;
use shared::search::filters::LangFilter;
use shared::search::matching::MatchType;
use shared::search::snapshot::RhymeKind;
use shared::service;
use shared::storage::store::Needs;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

/// Requests of each line answered with an error by design, and why (a 400
/// over the work budget, a 404 for a word without a pronunciation …).
static REFUSED: std::sync::Mutex<std::collections::BTreeMap<(&'static str, &'static str), usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

const OVER_BUDGET: &str = "with a 400 (over the work budget)";
/// A request whose reads the store did not answer within its deadline: the
/// 503 a client is told to retry, counted per line (a store too loaded for
/// a query class shows here, not as a failed run).
const UNAVAILABLE: &str = "with a 503 (the store did not answer in time)";

fn refused(line: &'static str, why: &'static str) {
    *REFUSED
        .lock()
        .expect("not poisoned")
        .entry((line, why))
        .or_default() += 1;
}

/// What a read of a snapshot-backed path answered; a 503 is counted
/// ([`UNAVAILABLE`]), any other error fails the run.
fn answered<T>(line: &'static str, result: Result<T, shared::error::ApiError>) -> Option<T> {
    match result {
        Ok(answer) => Some(answer),
        Err(shared::error::ApiError::Unavailable) => {
            refused(line, UNAVAILABLE);
            None
        }
        Err(e) => panic!("{line}: {e:?}"),
    }
}

/// Per line, the time of each search or reverse lookup run a second time
/// right after the measured run: everything it reads is then held, so this
/// is what the query costs without its reads (the engine's work and the
/// quota's UpdateItem).
static AGAIN: std::sync::Mutex<std::collections::BTreeMap<&'static str, Vec<Duration>>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The time of the runs of [`AGAIN`] since the last call, left out of the
/// measured run's time.
static AGAIN_SINCE: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

/// Runs `again` and notes its time under `line` ([`AGAIN`]).
async fn timed_again<T>(line: &'static str, again: impl Future<Output = T>) {
    let started = Instant::now();
    again.await;
    let took = started.elapsed();
    *AGAIN_SINCE.lock().expect("not poisoned") += took;
    AGAIN
        .lock()
        .expect("not poisoned")
        .entry(line)
        .or_default()
        .push(took);
}

/// The time of the runs again since the last call.
fn take_again_time() -> Duration {
    std::mem::take(&mut *AGAIN_SINCE.lock().expect("not poisoned"))
}

/// Lines named where they are made and where they are answered.
const ENTRY_BY_WORD: &str = "entry by word";
const LEMMA_HIT: &str = "entry by word, an inflected form (lemma hit)";
const THESAURUS: &str = "thesaurus";

type Scenario<'a> = (
    &'static str,
    Box<dyn Fn() -> Pin<Box<dyn Future<Output = ()> + 'a>> + 'a>,
);

/// `query` with one result per word.
fn by_word(query: SearchQuery) -> SearchQuery {
    SearchQuery {
        group: Grouping::Word,
        ..query
    }
}

fn search(q: &str, match_type: MatchType, fuzzy: bool) -> SearchQuery {
    SearchQuery::new(q, match_type, fuzzy)
}

/// A pattern search of the first pattern `draw` makes that is one: a
/// letter that folding drops (a combining mark) may leave a drawn pattern
/// fewer than the two letters it needs.
fn valid_pattern(draw: impl Fn() -> String) -> SearchQuery {
    loop {
        let q = draw();
        if shared::search::matching::MatchRule::of_query(&q, MatchType::Pattern, true).is_ok() {
            return search(&q, MatchType::Pattern, true);
        }
    }
}

/// A typo-tolerant prefix search of a word's first two letters: the
/// search the filtered classes narrow.
fn first_two_letters(word: &str) -> SearchQuery {
    let prefix: String = word.chars().take(2).collect();
    search(&prefix, MatchType::Prefix, true)
}

#[tokio::main]
async fn main() {
    let arg = std::env::args().nth(1);
    let second = std::env::args().nth(2);
    if arg.as_deref() == Some("--cold") {
        return cold(second.and_then(|n| n.parse().ok()).unwrap_or(3)).await;
    }
    if arg.as_deref() == Some("--cold-one") {
        return cold_one(&second.expect("a class")).await;
    }
    let rounds: usize = arg.and_then(|a| a.parse().ok()).unwrap_or(300);
    // The instance measured: it starts cold and holds what its queries
    // read within SNAPSHOT_CACHE_MB, as a function does.
    let app = App::from_env().await.expect("stack.env in the environment");
    // A client of its own, configured like the functions' one.
    let clients = shared::runtime::app::Clients::new(&app.config).await;
    let dynamodb = clients.dynamodb.clone();
    let table = app.config.entries_table.clone();
    let keys_table = app.config.keys_table.clone();
    // Leaked: the scenarios borrow it for the whole run.
    let d1: &'static Draw = Box::leak(Box::new(Draw::load(&app).await));
    let entry = move || d1.entry();
    let entry = &entry;
    let without_forms = !d1.has_forms();
    let form = move || d1.form();
    let a = &app;
    let lang_of = move |o: u32| d1.lang_of(o);
    let definition_words = move |n: usize| d1.definition_words(n);
    let reverse_of = |q: String| ReverseQuery::new(&q);
    let reversing = |name: &'static str, make: Box<dyn Fn() -> ReverseQuery>| -> Scenario {
        (
            name,
            Box::new(move || {
                let params = make();
                Box::pin(async move {
                    match service::reverse(a, &params).await {
                        Ok(_) => timed_again(name, service::reverse(a, &params)).await,
                        Err(shared::error::ApiError::BadRequest(_)) => refused(name, OVER_BUDGET),
                        Err(shared::error::ApiError::Unavailable) => refused(name, UNAVAILABLE),
                        Err(e) => panic!("{name}: {e:?}"),
                    }
                })
            }),
        )
    };

    // Rhymes of a random headword in its language; one no dictionary and
    // no synthesizer pronounces is a 404, counted as refused.
    let rhyming = |name: &'static str, kind: RhymeKind| -> Scenario {
        (
            name,
            Box::new(move || {
                let (o, word) = d1.word(2, 64);
                let lang = d1.dictionary(o).source_lang.clone();
                let params = rhymes_of(&word, &lang, kind);
                Box::pin(async move {
                    match service::rhymes(a, &params).await {
                        Ok(_) => timed_again(name, service::rhymes(a, &params)).await,
                        Err(shared::error::ApiError::NoPronunciation) => {
                            refused(name, "with a 404 (no pronunciation)")
                        }
                        Err(shared::error::ApiError::Unavailable) => refused(name, UNAVAILABLE),
                        Err(e) => panic!("{name}: {e:?}"),
                    }
                })
            }),
        )
    };
    // A prefix of `shortest..=longest` characters, and with `with_source`
    // a random entry's dictionary, apart from the prefix: often one with
    // no word under it.
    let completing = |name: &'static str, shortest, longest, with_source: bool| -> Scenario {
        (
            name,
            Box::new(move || {
                let q = d1.prefix(shortest, longest);
                let source = with_source.then(|| d1.dictionary(d1.ordinal()).id.clone());
                Box::pin(async move {
                    answered(name, service::autocomplete(a, &suggest(&q, source)).await);
                })
            }),
        )
    };
    let searching = |name: &'static str, make: Box<dyn Fn() -> SearchQuery>| -> Scenario {
        (
            name,
            Box::new(move || {
                let params = make();
                Box::pin(async move {
                    // A search over the work budget is a 400 by design
                    // (docs/api.md): counted per line, not a failed run.
                    match service::search(a, &params).await {
                        Ok(_) => timed_again(name, service::search(a, &params)).await,
                        Err(shared::error::ApiError::BadRequest(why)) => {
                            // Named, so that what the budget refuses can be looked at.
                            eprintln!("{name}: refused {:?}: {why}", params.q);
                            refused(name, OVER_BUDGET)
                        }
                        Err(shared::error::ApiError::Unavailable) => {
                            eprintln!("{name}: unavailable {:?}", params.q);
                            refused(name, UNAVAILABLE)
                        }
                        Err(e) => panic!("{name}: {e:?}"),
                    }
                })
            }),
        )
    };
    let scenarios: Vec<Scenario> = vec![
        (
            "bare GetItem (baseline)",
            Box::new(|| {
                let (d, id, _) = entry();
                let (client, table) = (&dynamodb, &table);
                Box::pin(async move {
                    client
                        .get_item()
                        .table_name(table)
                        .key("pk", AttributeValue::S(format!("E#{d}#{id}")))
                        .key("sk", AttributeValue::S("E".into()))
                        .send()
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "quota UpdateItem (concurrent with each read)",
            Box::new(|| {
                let (client, table) = (&dynamodb, &keys_table);
                Box::pin(async move {
                    client
                        .update_item()
                        .table_name(table)
                        .key("pk", AttributeValue::S("USAGE#latency-bench".into()))
                        .key("sk", AttributeValue::S("bench".into()))
                        .update_expression("SET used = if_not_exists(used, :z) + :one")
                        .condition_expression("attribute_not_exists(used) OR used < :limit")
                        .expression_attribute_values(":z", AttributeValue::N("0".into()))
                        .expression_attribute_values(":one", AttributeValue::N("1".into()))
                        .expression_attribute_values(
                            ":limit",
                            AttributeValue::N("1000000000".into()),
                        )
                        .send()
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "entry by id",
            Box::new(|| {
                let (d, id, _) = entry();
                Box::pin(async move {
                    service::entry_by_id(a, &d, &id).await.unwrap();
                })
            }),
        ),
        (
            // The audio endpoint's work before its 302: the entry's item,
            // then its URL (the CDN's, or presigned). An entry without audio
            // (a store imported without it) is a 404, counted as refused.
            "audio URL of an entry (the 302)",
            Box::new(|| {
                let (d, id, _) = entry();
                Box::pin(async move {
                    match service::audio_url(a, &d, &id, None).await {
                        Ok(_) => {}
                        Err(shared::error::ApiError::NoAudio) => {
                            refused("audio URL of an entry (the 302)", "with a 404 (no audio)")
                        }
                        Err(e) => panic!("audio URL: {e:?}"),
                    }
                })
            }),
        ),
        (
            ENTRY_BY_WORD,
            Box::new(|| {
                let (d, _, word) = entry();
                Box::pin(async move {
                    answered(ENTRY_BY_WORD, service::entry_by_word(a, &d, &word).await);
                })
            }),
        ),
        (
            LEMMA_HIT,
            Box::new(move || {
                let (d, word) = form();
                Box::pin(async move {
                    let answer = service::entry_by_word(a, &d, &word).await;
                    if let Some(entry) = answered(LEMMA_HIT, answer) {
                        assert!(entry.lemma.is_some(), "{d} {word}");
                    }
                })
            }),
        ),
        (
            THESAURUS,
            Box::new(|| {
                let (_, _, word) = entry();
                Box::pin(async move {
                    answered(THESAURUS, service::thesaurus(a, &links_of(&word)).await);
                })
            }),
        ),
        (
            "random (count 10)",
            Box::new(|| {
                Box::pin(async move {
                    let query = RandomQuery {
                        lang: None,
                        source: None,
                        has_audio: false,
                        count: 10,
                    };
                    answered("random (count 10)", service::random(a, &query).await);
                })
            }),
        ),
        searching(
            "search exact (fuzzy=false)",
            Box::new(|| search(&d1.word(1, 64).1, MatchType::Exact, false)),
        ),
        searching(
            "search exact, an inflected form (fuzzy=false)",
            Box::new(move || search(&form().1, MatchType::Exact, false)),
        ),
        searching(
            "search exact, 1 typo (5-7 letters)",
            Box::new(|| search(&d1.typo(&d1.word(5, 7).1, 1), MatchType::Exact, true)),
        ),
        searching(
            "search prefix, 1 letter",
            Box::new(|| search(&d1.prefix(1, 1), MatchType::Prefix, true)),
        ),
        searching(
            "search prefix, 2-3 letters",
            Box::new(|| search(&d1.prefix(2, 3), MatchType::Prefix, true)),
        ),
        searching(
            "search prefix with a typo (4-7 letters)",
            Box::new(|| search(&d1.typo(&d1.prefix(4, 7), 1), MatchType::Prefix, true)),
        ),
        searching(
            "search prefix, 2-3 letters, group=word",
            Box::new(|| by_word(search(&d1.prefix(2, 3), MatchType::Prefix, true))),
        ),
        searching(
            "search prefix with a typo (4-7 letters), group=word",
            Box::new(|| {
                by_word(search(
                    &d1.typo(&d1.prefix(4, 7), 1),
                    MatchType::Prefix,
                    true,
                ))
            }),
        ),
        searching(
            "search exact, 1 typo (5-7 letters), group=word",
            Box::new(|| {
                by_word(search(
                    &d1.typo(&d1.word(5, 7).1, 1),
                    MatchType::Exact,
                    true,
                ))
            }),
        ),
        searching(
            "search fuzzy, 4-7 letters (1 edit)",
            Box::new(|| search(&d1.word(4, 7).1, MatchType::Prefix, true)),
        ),
        searching(
            "search fuzzy, 8+ letters (2 edits)",
            Box::new(|| search(&d1.typo(&d1.word(8, 64).1, 2), MatchType::Prefix, true)),
        ),
        searching(
            "search contains, 1 letter",
            Box::new(|| search(&d1.prefix(1, 1), MatchType::Contains, true)),
        ),
        searching(
            "search contains, 2-4 letters",
            Box::new(|| search(&d1.substring(2..=4), MatchType::Contains, true)),
        ),
        searching(
            // Longer than a gram: the candidates that hold its grams are
            // checked by their text.
            "search contains, 5-8 letters",
            Box::new(|| search(&d1.substring(5..=8), MatchType::Contains, true)),
        ),
        searching(
            "search pattern, leading letters (`hou*`)",
            Box::new(|| {
                valid_pattern(|| {
                    let (_, word) = d1.word(4, 64);
                    let head: String = word.chars().take(3).collect();
                    format!("{head}*")
                })
            }),
        ),
        searching(
            "search pattern, leading * (`*ology`)",
            Box::new(|| {
                valid_pattern(|| {
                    let (_, word) = d1.word(4, 64);
                    let chars: Vec<char> = word.chars().collect();
                    let tail: String = chars[chars.len() - 4..].iter().collect();
                    format!("*{tail}")
                })
            }),
        ),
        searching(
            "search pattern, only ? between two letters (`h???e`)",
            Box::new(|| {
                valid_pattern(|| {
                    let (_, word) = d1.word(5, 9);
                    let chars: Vec<char> = word.chars().collect();
                    let middle = "?".repeat(chars.len() - 2);
                    format!("{}{middle}{}", chars[0], chars[chars.len() - 1])
                })
            }),
        ),
        searching(
            "search prefix, lang",
            Box::new(move || {
                let (o, word) = d1.word(2, 64);
                SearchQuery {
                    lang: lang_of(o),
                    ..first_two_letters(&word)
                }
            }),
        ),
        searching(
            "search prefix, lang + pos",
            Box::new(move || {
                let (o, word) = d1.word(2, 64);
                SearchQuery {
                    lang: lang_of(o),
                    pos: Some(d1.part_of_speech(o).unwrap_or_else(|| "noun".to_string())),
                    ..first_two_letters(&word)
                }
            }),
        ),
        searching(
            "search prefix, source + pos + hasAudio",
            Box::new(move || {
                let (o, word) = d1.word(2, 64);
                SearchQuery {
                    source: Some(d1.dictionary(o).id.clone()),
                    pos: Some(d1.part_of_speech(o).unwrap_or_else(|| "noun".to_string())),
                    has_audio: true,
                    ..first_two_letters(&word)
                }
            }),
        ),
        searching(
            "search prefix, limit=100",
            Box::new(|| SearchQuery {
                limit: 100,
                ..search(&d1.prefix(2, 3), MatchType::Prefix, true)
            }),
        ),
        searching(
            "search prefix, offset=5000",
            Box::new(|| SearchQuery {
                offset: 5000,
                ..search(&d1.prefix(1, 1), MatchType::Prefix, true)
            }),
        ),
        reversing(
            "reverse, one word",
            Box::new(move || {
                let (_, words) = definition_words(1);
                let n = d1.number(0..=words.len() - 1);
                reverse_of(words[n].clone())
            }),
        ),
        reversing(
            "reverse, one word, group=word",
            Box::new(move || {
                let (_, words) = definition_words(1);
                let n = d1.number(0..=words.len() - 1);
                ReverseQuery {
                    group: Grouping::Word,
                    ..reverse_of(words[n].clone())
                }
            }),
        ),
        reversing(
            "reverse, five-word phrase",
            Box::new(move || {
                let (_, words) = definition_words(5);
                let start = d1.number(0..=words.len() - 5);
                reverse_of(words[start..start + 5].join(" "))
            }),
        ),
        reversing(
            "reverse, one word + lang",
            Box::new(move || {
                let (o, words) = definition_words(1);
                ReverseQuery {
                    lang: d1.pair_of(o),
                    ..reverse_of(words[0].clone())
                }
            }),
        ),
        reversing(
            "reverse, stop-word-heavy phrase",
            Box::new(move || {
                let (_, words) = definition_words(2);
                reverse_of(format!("the {} of a {} to the", words[0], words[1]))
            }),
        ),
        searching(
            "search soundsLike, a word with one typo",
            Box::new(move || {
                // A headword of a language with rules, a letter changed: a
                // respelling's reads (the keys of its first sound).
                for _ in 0..1000 {
                    let (o, word) = d1.word(4, 12);
                    let lang = &d1.dictionary(o).source_lang;
                    if shared::search::sounds_like::LANGUAGES.contains(&lang.as_str()) {
                        return search(&d1.typo(&word, 1), MatchType::SoundsLike, false);
                    }
                }
                search("fizicks", MatchType::SoundsLike, false)
            }),
        ),
        rhyming("rhymes, perfect", RhymeKind::Perfect),
        rhyming("rhymes, near", RhymeKind::Near),
        completing("autocomplete, 1 letter", 1, 1, false),
        completing("autocomplete, 2-4 letters", 2, 4, false),
        completing("autocomplete, 2-4 letters + source", 2, 4, true),
    ];

    let only = std::env::var("LATENCY_ONLY").ok();
    let scenarios: Vec<Scenario> = scenarios
        .into_iter()
        .filter(|(name, _)| !(without_forms && name.contains("inflected form")))
        .filter(|(name, _)| {
            name.contains("GetItem") || only.as_deref().is_none_or(|only| name.contains(only))
        })
        .collect();
    if without_forms {
        println!("The store holds no inflected forms: their lines are left out.\n");
    }
    // One warm-up round, then the measured ones.
    let resident_before = resident_mb();
    let mut timings: Vec<Vec<Duration>> = vec![Vec::new(); scenarios.len()];
    // What each query read of the snapshot that its instance did not hold.
    let mut reads: Vec<Vec<shared::storage::store::Reads>> = vec![Vec::new(); scenarios.len()];
    // The round trips of those reads, one after another (reads made
    // together count once), as the longest chain of reads.
    let mut trips: Vec<Vec<u64>> = vec![Vec::new(); scenarios.len()];
    for round in 0..=rounds {
        for (i, (_, run)) in scenarios.iter().enumerate() {
            let future = run();
            let before = app.store.reads();
            let trips_before = app.store.read_round_trips();
            take_again_time();
            let started = Instant::now();
            future.await;
            let took = started.elapsed() - take_again_time();
            if round == 0 {
                AGAIN.lock().expect("not poisoned").clear();
            } else {
                timings[i].push(took);
                let after = app.store.reads();
                trips[i].push((app.store.read_round_trips() - trips_before).chained);
                reads[i].push(shared::storage::store::Reads {
                    items: after.items - before.items,
                    bytes: after.bytes - before.bytes,
                });
            }
        }
    }
    println!("| Read path | p50 ms | p99 ms | p50 ÷ GetItem p50 | p99 ÷ GetItem p99 | snapshot KB read p50 / mean | queries that read | round trips (chained) p50 / max | the same query again, p50 ms |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut again = std::mem::take(&mut *AGAIN.lock().expect("not poisoned"));
    let mut baseline = (0.0, 0.0);
    for ((((name, _), mut samples), mut read), mut trip) in
        scenarios.iter().zip(timings).zip(reads).zip(trips)
    {
        trip.sort();
        let (trips_p50, trips_max) = (trip[trip.len() / 2], trip[trip.len() - 1]);
        read.sort_by_key(|r| r.bytes);
        let read_p50 = read[read.len() / 2].bytes as f64 / 1e3;
        let read_mean = read.iter().map(|r| r.bytes).sum::<u64>() as f64 / read.len() as f64 / 1e3;
        let reading = read.iter().filter(|r| r.items > 0).count();
        samples.sort();
        let at = |q: f64| {
            let i = ((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1;
            samples[i].as_secs_f64() * 1000.0
        };
        let (p50, p99) = (at(0.50), at(0.99));
        if baseline.0 == 0.0 {
            baseline = (p50, p99);
        }
        let again_p50 = match again.get_mut(name) {
            Some(times) if !times.is_empty() => {
                times.sort();
                format!("{:.2}", times[times.len() / 2].as_secs_f64() * 1000.0)
            }
            _ => String::new(),
        };
        println!(
            "| {name} | {p50:.2} | {p99:.2} | {:.2} | {:.2} | {read_p50:.0} / {read_mean:.0} | {reading} of {} | {trips_p50} / {trips_max} | {again_p50} |",
            p50 / baseline.0,
            p99 / baseline.1,
            read.len()
        );
    }
    println!("\n{rounds} rounds, every scenario once per round, queries drawn afresh in each.");
    println!(
        "drawing instance loaded in {:.0} ms; it holds index {:.1} MB, records {:.1} MB",
        d1.load_ms,
        d1.memory_bytes().0 as f64 / 1e6,
        d1.memory_bytes().1 as f64 / 1e6,
    );
    for ((line, why), count) in REFUSED.lock().expect("not poisoned").iter() {
        println!("{line}: {count} refused {why}");
    }
    let measured = app.store.snapshot(&Needs::default()).await.expect("held");
    println!(
        "measured instance (SNAPSHOT_CACHE_MB {}): its index and term blocks {:.1} MB; resident memory {:.0} MB before its first query (the drawing instance), {:.0} MB after the run",
        app.config.snapshot_cache_bytes >> 20,
        measured.searcher.memory_bytes() as f64 / 1e6,
        resident_before,
        resident_mb()
    );
}

/// The first request of each class in a fresh process, as a cold Lambda
/// instance serves it (clients, catalog, what the query loads of the
/// snapshot, the query): `--cold [runs]` runs each class `runs` times (3 by
/// default), each in a process of its own (`--cold-one <class>`), and
/// prints their times and what they read.
const COLD_CLASSES: [&str; 23] = [
    "exact",
    "prefix1",
    "prefix1Common",
    "prefix",
    "typo",
    "typo2",
    "prefixTypo",
    "prefixTypo2",
    "prefixTypo2Wide",
    "contains",
    "pattern",
    "filtered",
    "lang",
    "pos",
    "source",
    "hasAudio",
    "soundsLike",
    "reverse",
    "rhymes",
    "autocomplete",
    "random",
    "lemma",
    "GetItem",
];

/// A typo-tolerant prefix search of `ho` with one filter.
fn ho_with(filter: impl FnOnce(&mut SearchQuery)) -> Option<SearchQuery> {
    let mut query = search("ho", MatchType::Prefix, true);
    filter(&mut query);
    Some(query)
}

/// What a cold class asks: a description for the table, and the request.
fn cold_query(class: &str) -> (&'static str, Option<SearchQuery>) {
    match class {
        "exact" => (
            "`house`, exact, fuzzy=false",
            Some(search("house", MatchType::Exact, false)),
        ),
        "prefix1" => ("`h`, prefix", Some(search("h", MatchType::Prefix, true))),
        // A common first letter: one of the largest bitmaps of first letters.
        "prefix1Common" => ("`s`, prefix", Some(search("s", MatchType::Prefix, true))),
        "prefix" => (
            "`hou`, prefix",
            Some(search("hou", MatchType::Prefix, true)),
        ),
        "typo" => (
            "`hosue`, exact, 1 typo",
            Some(search("hosue", MatchType::Exact, true)),
        ),
        "typo2" => (
            "`pronounciatin`, 2 typos in 13 letters",
            Some(search("pronounciatin", MatchType::Exact, true)),
        ),
        "prefixTypo" => (
            "`hoyse`, prefix with a typo",
            Some(search("hoyse", MatchType::Prefix, true)),
        ),
        "prefixTypo2" => (
            "`imformat`, prefix with 2 typos in 8 letters",
            Some(search("imformat", MatchType::Prefix, true)),
        ),
        // Its extra edit's pieces (`lsm`, `ent`) are held by terms in 7,309
        // of the 9,411 text blocks at 5.27 M, past `MAX_TEXT_BLOCKS`.
        "prefixTypo2Wide" => (
            "`publsmhent`, prefix with 2 typos whose extra edit's pieces are common",
            Some(search("publsmhent", MatchType::Prefix, true)),
        ),
        "contains" => (
            "`ouse`, contains",
            Some(search("ouse", MatchType::Contains, true)),
        ),
        "pattern" => (
            "`h???e`, pattern",
            Some(search("h???e", MatchType::Pattern, true)),
        ),
        "filtered" => (
            "`ho`, prefix, lang=en, pos=noun",
            ho_with(|q| {
                q.lang = LangFilter::parse("en").ok();
                q.pos = Some("noun".into());
            }),
        ),
        "lang" => (
            "`ho`, prefix, lang=de-en",
            ho_with(|q| q.lang = LangFilter::parse("de-en").ok()),
        ),
        "pos" => (
            "`ho`, prefix, pos=verb",
            ho_with(|q| q.pos = Some("verb".into())),
        ),
        "source" => (
            "`ho`, prefix, source=freedict-eng-fra",
            ho_with(|q| q.source = Some("freedict-eng-fra".into())),
        ),
        "hasAudio" => (
            "`ho`, prefix, hasAudio=true",
            ho_with(|q| q.has_audio = true),
        ),
        "soundsLike" => (
            "`fizicks`, sounds like",
            Some(search("fizicks", MatchType::SoundsLike, false)),
        ),
        "reverse" => ("reverse lookup `a young dog`", None),
        "rhymes" => ("rhymes of `house` in English", None),
        "autocomplete" => ("autocomplete `hou`", None),
        "random" => ("random, count 10", None),
        "lemma" => ("entry by word `houses` in freedict-eng-fra", None),
        _ => ("GetItem of the snapshot pointer", None),
    }
}

async fn cold(runs: usize) {
    let exe = std::env::current_exe().expect("this binary");
    println!("| First request of a fresh process | ms (median of {runs}; min–max) | round trips, merged / chained | snapshot items read | MB read | index / records / grams / definitions / rhymes MB | resident MB |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for class in COLD_CLASSES {
        let mut samples: Vec<Vec<f64>> = (0..runs)
            .map(|_| {
                let out = std::process::Command::new(&exe)
                    .args(["--cold-one", class])
                    .output()
                    .expect("run a fresh process");
                assert!(
                    out.status.success(),
                    "{class}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8_lossy(&out.stdout)
                    .split_whitespace()
                    .map(|n| n.parse().expect("a number"))
                    .collect()
            })
            .collect();
        samples.sort_by(|a, b| a[0].total_cmp(&b[0]));
        let median = &samples[samples.len() / 2];
        let (min, max) = (samples[0][0], samples[samples.len() - 1][0]);
        let mb = |bytes: f64| bytes / 1e6;
        println!(
            "| {} | {:.0} ({min:.0}–{max:.0}) | {:.0} / {:.0} | {:.0} | {:.2} | {:.2} / {:.2} / {:.2} / {:.2} / {:.2} | {:.0} |",
            cold_query(class).0,
            median[0],
            median[1],
            median[2],
            median[3],
            mb(median[4]),
            mb(median[5]),
            mb(median[6]),
            mb(median[7]),
            mb(median[8]),
            mb(median[9]),
            median[10],
        );
    }
}

/// One cold class in this (fresh) process: prints its milliseconds, the
/// round trips of its snapshot reads (merged and chained), the snapshot
/// items and bytes it read, the bytes of the index, records, grams,
/// definitions and rhymes among them, and the resident memory after.
async fn cold_one(class: &str) {
    use shared::search::snapshot::Section;
    let started = Instant::now();
    let app = App::from_env().await.expect("stack.env in the environment");
    match (class, cold_query(class).1) {
        // Whatever it finds, a search loads the same: the index, and the
        // parts of its page and grams.
        (_, Some(query)) => {
            service::search(&app, &query).await.expect("search works");
        }
        ("reverse", None) => {
            let query = ReverseQuery::new("a young dog");
            service::reverse(&app, &query)
                .await
                .expect("reverse lookup works");
        }
        ("rhymes", None) => {
            service::rhymes(&app, &rhymes_of("house", "en", RhymeKind::Perfect))
                .await
                .expect("rhymes work");
        }
        ("autocomplete", None) => {
            let words = service::autocomplete(&app, &suggest("hou", None))
                .await
                .expect("autocomplete works");
            assert!(!words.is_empty());
        }
        ("lemma", None) => {
            let entry = service::entry_by_word(&app, "freedict-eng-fra", "houses")
                .await
                .expect("entry by word works");
            assert_eq!(
                entry.lemma.as_deref(),
                Some("house"),
                "found through its lemma"
            );
        }
        ("random", None) => {
            let picks = service::random(
                &app,
                &RandomQuery {
                    lang: None,
                    source: None,
                    has_audio: false,
                    count: 10,
                },
            )
            .await
            .expect("random works");
            assert_eq!(picks.len(), 10);
        }
        _ => {
            let client = shared::runtime::app::Clients::new(&app.config)
                .await
                .dynamodb;
            client
                .get_item()
                .table_name(&app.config.entries_table)
                .key("pk", AttributeValue::S("DICT".into()))
                .key("sk", AttributeValue::S("~snapshot".into()))
                .send()
                .await
                .expect("GetItem");
        }
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let reads = app.store.reads();
    let of = |sections: &[Section]| -> u64 {
        sections.iter().map(|&s| app.store.reads_of(s).bytes).sum()
    };
    let trips = app.store.read_round_trips();
    println!(
        "{ms:.1} {} {} {} {} {} {} {} {} {} {:.0}",
        trips.merged,
        trips.chained,
        reads.items,
        reads.bytes,
        of(&[Section::Core, Section::Terms]),
        of(&[Section::Records]),
        of(&[Section::Grams]),
        of(&[Section::Definitions]),
        of(&[Section::Rhymes, Section::Pronunciations]),
        resident_mb()
    );
}

fn resident_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Ten suggestions for `q`, from every dictionary or one.
fn suggest(q: &str, source: Option<String>) -> AutocompleteQuery {
    AutocompleteQuery {
        q: q.to_string(),
        lang: None,
        source,
        limit: 10,
    }
}

/// A thesaurus query without filters.
/// A rhyme lookup of `word` in `lang` of `kind`, the default page.
fn rhymes_of(word: &str, lang: &str, kind: RhymeKind) -> RhymesQuery {
    RhymesQuery {
        word: word.to_string(),
        lang: Some(lang.to_string()),
        source: None,
        pos: None,
        kind,
        limit: 20,
        offset: 0,
    }
}

fn links_of(word: &str) -> ThesaurusQuery {
    ThesaurusQuery {
        word: word.to_string(),
        lang: None,
        source: None,
    }
}
