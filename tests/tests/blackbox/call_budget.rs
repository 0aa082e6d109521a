//! The DynamoDB calls of every endpoint's read, counted by an SDK interceptor
//! on a client that talks to the local stack, against the budgets of
//! docs/data-model.md. Auth and the quota update are not part of the budget,
//! so the service layer is called directly, as the functions call it after
//! auth. A warm instance answers search, autocomplete and random from the
//! index snapshot in memory: no call at all once it holds the parts of the
//! snapshot that a query touches, and no part is read twice.

use blackbox::{
    distant_app, recorded, recorded_app, round_trips, snapshot_items_asked, stack_clients,
};
use shared::queries::{AutocompleteQuery, RandomQuery, RhymesQuery, SearchQuery, ThesaurusQuery};
use shared::search::filters::LangFilter;
use shared::search::matching::MatchType;
use shared::search::snapshot::RhymeKind;
use shared::service;

fn search(q: &str, match_type: MatchType, fuzzy: bool) -> SearchQuery {
    SearchQuery {
        limit: 100,
        ..SearchQuery::new(q, match_type, fuzzy)
    }
}

/// Asserts that `calls` holds at most `budget` operations and never a Scan.
fn within(what: &str, calls: &[String], budget: usize) {
    assert!(
        calls.len() <= budget,
        "{what}: {} calls {calls:?}, budget {budget}",
        calls.len()
    );
    assert!(
        !calls.iter().any(|c| c == "Scan"),
        "{what} scans: {calls:?}"
    );
    assert!(!calls.is_empty(), "{what}: the log sees the calls");
}

#[tokio::test]
async fn every_endpoint_holds_its_round_trip_budget() {
    let (app, log) = distant_app().await;

    // The dictionary list: one Query cold, nothing while cached.
    service::dictionaries(&app).await.unwrap();
    within("dictionaries (cold)", &log.take_operations(), 1);
    service::dictionaries(&app).await.unwrap();
    assert_eq!(
        log.take_operations(),
        Vec::<String>::new(),
        "cached in a warm instance"
    );

    // A cold instance loads what a request needs of the snapshot with
    // BatchGetItem: the index (core, forms and the root of terms) with the
    // records' part index, then the term blocks of its query, then the
    // record parts and the text blocks of the page, together: three round
    // trips of concurrent calls. Nothing is asked twice.
    let mut asked = std::collections::HashSet::new();
    let mut take_reads = |what: &str, budget: usize| {
        let calls = log.take();
        let trips = round_trips(&calls);
        assert!(
            trips <= budget && calls.iter().all(|c| c.operation == "BatchGetItem"),
            "{what}: {trips} round trips, budget {budget}: {:?}",
            calls.iter().map(|c| &c.operation).collect::<Vec<_>>()
        );
        for item in snapshot_items_asked(&calls) {
            assert!(asked.insert(item.clone()), "{what} asks again for {item:?}");
        }
        trips
    };
    service::search(&app, &search("house", MatchType::Exact, false))
        .await
        .unwrap();
    assert_eq!(
        take_reads("cold search", 3),
        3,
        "index and records, then the term blocks, then the page's records and text"
    );
    // The grams' part index, then the parts of the query's grams, then the
    // text blocks of the terms they name (checked by their text), then the
    // page's records: four, each needing the one before (see
    // `a_cold_instance_answers_in_few_round_trips`).
    service::search(&app, &search("ouse", MatchType::Contains, true))
        .await
        .unwrap();
    assert!(take_reads("first contains", 4) >= 2, "the grams, once");

    let fr = LangFilter::parse("en-fr").unwrap();
    let mut filtered = search("ba", MatchType::Prefix, true);
    filtered.lang = Some(fr.clone());
    filtered.source = Some("freedict-eng-fra".into());
    filtered.has_audio = true;
    let classes = [
        ("search exact", search("house", MatchType::Exact, false)),
        ("search prefix", search("ba", MatchType::Prefix, true)),
        ("search one letter", search("b", MatchType::Prefix, true)),
        ("search prefix with filters", filtered),
        (
            "search fuzzy exact",
            search("hosue", MatchType::Exact, true),
        ),
        (
            "search fuzzy prefix",
            search("dictoinary", MatchType::Prefix, true),
        ),
        ("search contains", search("ous", MatchType::Contains, true)),
        (
            "search contains one letter",
            search("e", MatchType::Contains, true),
        ),
    ];
    // The first time, a query may need term blocks, and its page record or
    // gram parts, that no request has read yet (a round trip each); the
    // second, the instance holds them all.
    for (what, params) in &classes {
        let page = service::search(&app, params).await.unwrap();
        assert!(page.total > 0, "{what} finds something");
        take_reads(what, 3);
    }
    for (what, params) in &classes {
        service::search(&app, params).await.unwrap();
        assert_eq!(log.take_operations(), Vec::<String>::new(), "{what}: warm");
    }

    let words = service::autocomplete(
        &app,
        &AutocompleteQuery {
            q: "ba".to_string(),
            lang: Some(fr.clone()),
            source: None,
            limit: 10,
        },
    )
    .await
    .unwrap();
    assert!(!words.is_empty());
    assert_eq!(log.take_operations(), Vec::<String>::new(), "autocomplete");

    let picks = service::random(
        &app,
        &RandomQuery {
            lang: Some(fr.clone()),
            source: None,
            has_audio: false,
            count: 10,
        },
    )
    .await
    .unwrap();
    assert_eq!(picks.len(), 10);
    take_reads("random: the record parts of its picks", 1);

    let hit = service::entry_by_word(&app, "freedict-eng-fra", "bank")
        .await
        .unwrap();
    within("entry by word", &log.take_operations(), 1);
    service::entry_by_id(&app, "freedict-eng-fra", &hit.id)
        .await
        .unwrap();
    within("entry by id", &log.take_operations(), 1);
    service::audio_url(&app, "freedict-eng-fra", &hit.id, None)
        .await
        .unwrap();
    within("audio", &log.take_operations(), 1);

    // The links, then the term blocks of their words (their order).
    let links = service::thesaurus(&app, &links_of("good")).await.unwrap();
    assert!(!links.is_empty());
    within("thesaurus", &log.take_operations(), 2);

    // An inflected form: the miss, then its lemma, with the snapshot held.
    let lemma = service::entry_by_word(&app, "freedict-eng-fra", "houses")
        .await
        .unwrap();
    assert_eq!(lemma.lemma.as_deref(), Some("house"));
    let calls = log.take_operations();
    assert_eq!(calls, ["Query", "Query"], "entry by word, a form");
    let links = service::thesaurus(&app, &links_of("houses")).await.unwrap();
    assert!(!links.is_empty());
    let calls = log.take_operations();
    assert_eq!(calls[..2], ["Query", "Query"], "thesaurus, a form");
    let blocks = &calls[2..];
    assert!(
        blocks.len() <= 1 && blocks.iter().all(|c| c == "BatchGetItem"),
        "then at most the term blocks of its words: {calls:?}"
    );
}

/// A page reads only the record parts of its ordinals, not the section
/// (about 20 MB here, more than one BatchGetItem answer of 16 MB); a read of
/// every part at once still gets them all. Written to a table of its own,
/// with a pointer like the one `dictadmin index` publishes.
#[tokio::test]
async fn a_page_reads_only_its_record_parts() {
    use shared::search::postings::{DictionaryRef, Posting, PostingFields};
    use shared::search::snapshot::{build, rank_order, PartIndex, Section};
    use shared::storage::items::{snapshot_part_item, snapshot_pointer_item, SnapshotBuild};

    let client = stack_clients().await.0.dynamodb;
    let (counted_client, log) = recorded(&client);
    let table = format!("budget-test-{}", std::process::id());
    blackbox::create_pk_sk_table(&client, &table).await;

    // Previews of pseudo-random letters barely compress: about 20 MB of records.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut letters = |n: usize| -> String {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                char::from(b'a' + (state % 26) as u8)
            })
            .collect()
    };
    let postings: Vec<Posting> = (0..160_000u64)
        .map(|i| -> Posting {
            PostingFields {
                preview: letters(160),
                ..PostingFields::headword(
                    &format!("W{i}"),
                    DictionaryRef::new("d", "en", None),
                    format!("{:016x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                )
            }
            .into()
        })
        .collect();
    let postings = rank_order(postings, &Default::default());
    let built = build(postings.clone(), &Default::default());
    let mut parts = std::collections::BTreeMap::new();
    for (section, stored) in &built.sections {
        parts.insert(*section, stored.len());
        for (n, part) in stored.iter().cloned().enumerate() {
            client
                .put_item()
                .table_name(&table)
                .set_item(Some(snapshot_part_item("b1", *section, n, part)))
                .send()
                .await
                .expect("put part");
        }
    }
    let records = built.section(Section::Records);
    let records_bytes: usize = records.iter().map(Vec::len).sum();
    assert!(records_bytes > 16_000_000, "records: {records_bytes} bytes");
    let part_index = PartIndex::decode(&records[0]).unwrap();
    let pointer = SnapshotBuild {
        build: "b1".into(),
        format: Some(shared::search::snapshot::FORMAT),
        parts,
        ..Default::default()
    };
    client
        .put_item()
        .table_name(&table)
        .set_item(Some(snapshot_pointer_item(&pointer, &[])))
        .send()
        .await
        .expect("put pointer");

    let store = shared::storage::store::Store::new(counted_client, table.clone());
    store.catalog().await.expect("catalog");
    log.take_operations();
    let needs = shared::storage::store::Needs {
        records: true,
        ..Default::default()
    };
    let view = store.snapshot(&needs).await.expect("snapshot");
    let index_reads = store.reads();
    let last = postings.len() as u32 - 1;
    let page = view.records(&[last - 1, last]).await.expect("a page");
    let page_reads = store.reads().bytes - index_reads.bytes;
    let last_part = part_index.len() - 1;
    let every: Vec<u32> = (0..postings.len() as u32).collect();
    let all = view.records(&every).await.expect("every record");
    let calls = log.take_operations();
    client
        .delete_table()
        .table_name(&table)
        .send()
        .await
        .expect("delete table");

    assert_eq!(view.searcher.index().entries() as usize, postings.len());
    assert_eq!(page[1].id, postings[last as usize].id());
    assert_eq!(page[1].preview, postings[last as usize].preview());
    assert_eq!(
        page_reads as usize,
        part_index.part_bytes(last_part),
        "the page reads its one part"
    );
    assert!(index_reads.bytes < 4_000_000, "{index_reads:?}");
    assert_eq!(all.len(), postings.len());
    assert!(all.iter().zip(&postings).all(|(r, p)| r.id == p.id()));
    assert_eq!(
        store.reads().bytes as usize,
        index_reads.bytes as usize + records_bytes - records[0].len(),
        "every part once, besides the index"
    );
    assert!(calls.iter().all(|c| c == "BatchGetItem"), "{calls:?}");
}

/// A word whose folded key is longer than DynamoDB's key limit has nothing to
/// find, and DynamoDB refuses the lookup (a 500 on AWS, though DynamoDB
/// Local answers it): no Query is sent, and the answer is the usual 404 or
/// empty list.
#[tokio::test]
async fn words_whose_key_is_over_dynamodbs_limit_send_no_query() {
    let (app, log) = recorded_app().await;
    service::dictionaries(&app).await.unwrap();
    log.take_operations();
    // U+FDFA folds to 18 letters: 100 of them are about 3.3 KB folded.
    let word = "\u{FDFA}".repeat(100);
    let missing = service::entry_by_word(&app, "freedict-eng-fra", &word).await;
    assert!(
        matches!(missing, Err(shared::ApiError::EntryNotFound { .. })),
        "{missing:?}"
    );
    let links = service::thesaurus(&app, &links_of(&word)).await.unwrap();
    assert!(links.is_empty());
    let queries: Vec<String> = log
        .take_operations()
        .into_iter()
        .filter(|op| op == "Query")
        .collect();
    assert!(queries.is_empty(), "{queries:?}");
}

/// A thesaurus query without filters.
fn links_of(word: &str) -> ThesaurusQuery {
    ThesaurusQuery {
        word: word.to_string(),
        lang: None,
        source: None,
    }
}

/// One request on a fresh, distant instance whose catalog is read (the pointer and
/// the dictionaries, one Query): the round trips of BatchGetItem it waits
/// for, one after another ([`round_trips`]), and how many it sent.
async fn cold_reads<F, T>(request: impl FnOnce(shared::App) -> F) -> (usize, usize)
where
    F: std::future::Future<Output = Result<T, shared::ApiError>>,
{
    let (app, log) = distant_app().await;
    service::dictionaries(&app).await.unwrap();
    log.take();
    let answered = request(app).await;
    assert!(answered.is_ok(), "the request answers");
    let calls = log.take();
    let reads: Vec<_> = calls
        .into_iter()
        .filter(|c| c.operation == "BatchGetItem")
        .collect();
    (round_trips(&reads), reads.len())
}

/// The first request of every class on a fresh instance: how many round
/// trips of BatchGetItem it waits for, one after another. Three for what
/// reads term blocks or records by the query alone (the index, the blocks
/// of the query, the page). A fourth where a second read depends on the
/// first: typo searches whose walk is widened by the extra edit once the
/// first walk's blocks are read (the fixture's few terms need it), and the
/// classes that read a paged section by its part index and then what its
/// parts name (grams: a pattern with wildcards at both ends, whose
/// candidates' text blocks follow its gram parts, a prefix with two edits;
/// definitions: reverse lookup, whose words' stop-word keys are read with
/// their form blocks, its other keys after), whose parts follow the part
/// index read with the root. A `contains` search takes three: the term
/// blocks it names from the root alone are read with its gram parts.
/// A fourth for a sounds-like search, whose lists are named by the coarse
/// keys its walk reaches (the part index of `rhymes` comes with the index).
/// Rhymes take three: the word's pronunciations (their bucket named by a
/// hash of its text) with the index, then the lists of its rhyme, then the
/// page. A fifth for a prefix with two edits:
/// its first walks wait for the gram parts of its pieces, and the extra
/// edit's walk over the forms reaches form blocks the first did not.
/// Issue 39 asks for three for every class.
#[tokio::test]
async fn a_cold_instance_answers_in_few_round_trips() {
    let fr = LangFilter::parse("en-fr").unwrap();
    let mut filtered = search("ho", MatchType::Prefix, true);
    filtered.lang = Some(fr);
    filtered.pos = Some("noun".into());
    let searches = [
        ("exact", search("house", MatchType::Exact, false), 3),
        (
            "prefix of three letters",
            search("hou", MatchType::Prefix, false),
            3,
        ),
        (
            "prefix of one letter",
            search("b", MatchType::Prefix, true),
            3,
        ),
        ("prefix with filters", filtered, 3),
        ("pattern", search("b?n*", MatchType::Pattern, false), 3),
        ("one typo", search("hosue", MatchType::Exact, true), 4),
        ("two typos", search("dictoinary", MatchType::Exact, true), 4),
        (
            "prefix with a typo",
            search("dictoinar", MatchType::Prefix, true),
            5,
        ),
        // Their gram parts with the term blocks named from the root.
        (
            "contains three letters",
            search("ous", MatchType::Contains, true),
            3,
        ),
        (
            "contains four letters",
            search("ouse", MatchType::Contains, true),
            3,
        ),
        (
            "pattern with wildcards at both ends",
            search("*ank*", MatchType::Pattern, false),
            4,
        ),
        // The parts of its first sounds' coarse keys, then the parts of the
        // lists of the keys it reached.
        (
            "sounds like",
            search("kaz", MatchType::SoundsLike, false),
            4,
        ),
    ];
    let mut over = Vec::new();
    let mut check = |what: &str, (trips, total): (usize, usize), budget: usize| {
        if trips > budget {
            over.push(format!(
                "{what}: {trips} round trips ({total} calls), budget {budget}"
            ));
        }
    };
    for (what, query, budget) in searches {
        let page = cold_reads(|app| async move { service::search(&app, &query).await }).await;
        check(what, page, budget);
    }
    let completing = AutocompleteQuery {
        q: "hou".into(),
        lang: None,
        source: None,
        limit: 10,
    };
    let reads =
        cold_reads(|app| async move { service::autocomplete(&app, &completing).await }).await;
    check("autocomplete", reads, 3);
    let picking = RandomQuery {
        lang: None,
        source: None,
        has_audio: false,
        count: 10,
    };
    let reads = cold_reads(|app| async move { service::random(&app, &picking).await }).await;
    check("random", reads, 2);
    let reads = cold_reads(|app| async move {
        service::entry_by_word(&app, "freedict-eng-fra", "houses").await
    })
    .await;
    check("entry by word, a form", reads, 3);
    let reads =
        cold_reads(|app| async move { service::thesaurus(&app, &links_of("good")).await }).await;
    check("thesaurus", reads, 2);
    let reverse = shared::queries::ReverseQuery::new("a young dog");
    let reads = cold_reads(|app| async move { service::reverse(&app, &reverse).await }).await;
    check("reverse lookup", reads, 4);
    let rhyming = RhymesQuery {
        word: "cat".into(),
        lang: Some("en".into()),
        source: None,
        pos: None,
        kind: RhymeKind::Perfect,
        limit: 20,
        offset: 0,
    };
    let reads = cold_reads(|app| async move { service::rhymes(&app, &rhyming).await }).await;
    check("rhymes", reads, 3);
    assert!(over.is_empty(), "{over:#?}");
}
