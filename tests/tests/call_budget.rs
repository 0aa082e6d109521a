//! The DynamoDB round trips of every endpoint's read, counted by an SDK
//! interceptor on a client that talks to the local stack, against the budget
//! of the search issue. Auth and the quota update are not part of the budget
//! (they run concurrently with these reads), so the service layer is called
//! directly, as the functions call it after auth.

use blackbox::{recorded, recorded_app, stack_clients};
use shared::params::LangFilter;
use shared::search::rank::MatchType;
use shared::service::{self, SearchParams};

fn search(q: &str, match_type: MatchType, fuzzy: bool) -> SearchParams {
    SearchParams {
        q: q.into(),
        lang: None,
        source: None,
        match_type,
        pos: None,
        has_audio: false,
        fuzzy,
        limit: 100,
        offset: 0,
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
    let (app, log) = recorded_app().await;

    // The dictionary list: one Query cold, nothing while cached.
    service::dictionaries(&app).await.unwrap();
    within("dictionaries (cold)", &log.take_operations(), 1);
    service::dictionaries(&app).await.unwrap();
    assert_eq!(
        log.take_operations(),
        Vec::<String>::new(),
        "cached in a warm instance"
    );

    let fr = LangFilter::parse("en-fr").unwrap();
    let mut filtered = search("ba", MatchType::Prefix, true);
    filtered.lang = Some(fr.clone());
    filtered.source = Some("freedict-eng-fra".into());
    filtered.has_audio = true;
    for (what, params, budget) in [
        ("search exact", search("house", MatchType::Exact, false), 2),
        ("search prefix", search("ba", MatchType::Prefix, true), 2),
        ("search one letter", search("b", MatchType::Prefix, true), 2),
        ("search prefix with filters", filtered, 2),
        (
            "search fuzzy exact",
            search("hosue", MatchType::Exact, true),
            3,
        ),
        (
            "search fuzzy prefix",
            search("dictoinary", MatchType::Prefix, true),
            3,
        ),
        (
            "search contains",
            search("ous", MatchType::Contains, true),
            3,
        ),
        (
            "search contains one letter",
            search("e", MatchType::Contains, true),
            3,
        ),
    ] {
        let page = service::search(&app, &params).await.unwrap();
        assert!(page.total > 0, "{what} finds something");
        within(what, &log.take_operations(), budget);
    }

    let words = service::autocomplete(&app, "ba", Some(&fr), None, 10)
        .await
        .unwrap();
    assert!(!words.is_empty());
    within("autocomplete", &log.take_operations(), 1);

    let hit = service::entry_by_word(&app, "freedict-eng-fra", "bank")
        .await
        .unwrap();
    within("entry by word", &log.take_operations(), 1);
    service::entry_by_id(&app, "freedict-eng-fra", &hit.id)
        .await
        .unwrap();
    within("entry by id", &log.take_operations(), 1);
    service::audio_url(&app, "freedict-eng-fra", &hit.id)
        .await
        .unwrap();
    within("audio", &log.take_operations(), 1);

    let links = service::thesaurus(&app, "good", None, None).await.unwrap();
    assert!(!links.is_empty());
    within("thesaurus", &log.take_operations(), 1);

    let picks = service::random(&app, Some(&fr), None, false, 10)
        .await
        .unwrap();
    assert_eq!(picks.len(), 10);
    within("random", &log.take_operations(), 2);
}

/// Partitions of many chunks (several at once) come back whole: in one read
/// with the chunk directory, in two without one. Written to a table of its own.
#[tokio::test]
async fn partitions_larger_than_one_read_come_back_whole() {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    use shared::search::postings::{encode_chunks, inflate, Chunk, DictionaryRef, OwnedPosting};

    let client = stack_clients().await.0.dynamodb;
    let (counted_client, log) = recorded(&client);
    let table = format!("budget-test-{}", std::process::id());
    let mut create = client
        .create_table()
        .table_name(&table)
        .billing_mode(BillingMode::PayPerRequest);
    for key in ["pk", "sk"] {
        create = create
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(key)
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name(key)
                    .key_type(if key == "pk" {
                        KeyType::Hash
                    } else {
                        KeyType::Range
                    })
                    .build()
                    .unwrap(),
            );
    }
    create.send().await.expect("create table");

    let dictionary = DictionaryRef {
        id: "d".into(),
        source_lang: "en".into(),
        target_lang: None,
    };
    let postings: Vec<OwnedPosting> = (0..150_000u64)
        .map(|i| OwnedPosting {
            folded: format!("w{i}"),
            word: format!("W{i}"),
            dictionary: dictionary.clone(),
            part_of_speech: None,
            has_audio: false,
            id: format!("{:016x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        })
        .collect();
    let refs: Vec<&OwnedPosting> = postings.iter().collect();
    let chunks = encode_chunks(&refs);
    assert!(chunks.len() > 2, "a partition of several chunks");
    let pks = ["IF#big1".to_string(), "IF#big2".to_string()];
    for pk in &pks {
        for (n, bytes) in chunks.iter().enumerate() {
            client
                .put_item()
                .table_name(&table)
                .set_item(Some(shared::items::index_chunk_item(
                    pk,
                    n,
                    chunks.len(),
                    bytes.clone(),
                )))
                .send()
                .await
                .expect("put chunk");
        }
    }
    // Without a chunk directory: the catalog (no DICT items here), chunk 0 of
    // each partition, then the rest that chunk 0 announces.
    let store = shared::store::Store::new(counted_client.clone(), table.clone());
    let without_directory = store.index_chunks(&pks).await.expect("read");
    let calls_without = log.take_operations();
    // With the directory that `dictadmin index` writes: exactly the chunks
    // there are, in one read.
    let directory = pks.iter().map(|pk| (pk.clone(), chunks.len())).collect();
    client
        .put_item()
        .table_name(&table)
        .set_item(Some(shared::items::chunk_directory_item(&directory)))
        .send()
        .await
        .expect("put directory");
    let store = shared::store::Store::new(counted_client, table.clone());
    store.catalog().await.expect("catalog");
    log.take_operations();
    let with_directory = store.index_chunks(&pks).await.expect("read");
    let calls_with = log.take_operations();
    client
        .delete_table()
        .table_name(&table)
        .send()
        .await
        .expect("delete table");

    for read in [&without_directory, &with_directory] {
        assert_eq!(read.len(), 2 * chunks.len());
        let decoded: usize = read
            .iter()
            .map(|bytes| Chunk::decode(inflate(bytes).unwrap()).unwrap().len())
            .sum();
        assert_eq!(decoded, 2 * postings.len());
    }
    assert_eq!(
        calls_without,
        ["Query", "BatchGetItem", "BatchGetItem"],
        "the catalog, chunk 0, then the rest"
    );
    assert_eq!(calls_with, ["BatchGetItem"], "every chunk at once");
}
