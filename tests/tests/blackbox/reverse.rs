//! Reverse lookup (`GET /api/v1/api/reverse`, GraphQL `reverse`) against the
//! running stack, as docs/api.md ("Reverse lookup") states it.
//!
//! The contract tests (parameters, envelope, key, CORS, cost, GraphQL) hold
//! whatever the engine finds, an empty page included. The content tests read
//! the fixture (data/fixture): FreeDict's `maison` (fra-eng) translates as
//! `house`, and WordNet's verb `dog` is glossed `go after with the intent to
//! catch` (WordNet's `puppy`, "a young dog", is no lemma of the fixture's
//! index files, so it is no entry).

use blackbox::{create_key, demo_key, enc, get, get_demo, graphql, send, Reply};
use reqwest::Method;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashSet};

const PATH: &str = "/api/v1/api/reverse";

/// `GET /api/v1/api/reverse?{query}` with the demo key.
async fn reverse(query: &str) -> Reply {
    get_demo(&format!("{PATH}?{query}")).await
}

/// `dictionaryId/id` of a result.
fn key_of(result: &Value) -> String {
    format!(
        "{}/{}",
        result["dictionaryId"].as_str().unwrap(),
        result["id"].as_str().unwrap()
    )
}

fn words(reply: &Reply) -> Vec<String> {
    reply
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].as_str().unwrap().to_string())
        .collect()
}

/// Every result of `query` paged through with `limit`: the results in
/// order, and every `total` the pages gave.
async fn page_through(query: &str, limit: usize) -> (Vec<Value>, HashSet<u64>) {
    let mut results = Vec::new();
    let mut totals = HashSet::new();
    let mut offset = 0;
    loop {
        let reply = reverse(&format!("{query}&limit={limit}&offset={offset}")).await;
        let page = reply.data().as_array().unwrap().clone();
        totals.insert(reply.json["meta"]["total"].as_u64().unwrap());
        assert_eq!(reply.json["meta"]["limit"], limit as u64, "{query}");
        assert_eq!(reply.json["meta"]["offset"], offset as u64, "{query}");
        assert!(page.len() <= limit, "{query}");
        let done = page.len() < limit;
        results.extend(page);
        if done || offset > 10_000 - limit {
            return (results, totals);
        }
        offset += limit;
    }
}

// ---------------------------------------------------------------- contract

#[tokio::test]
async fn parameters_are_validated_as_search_validates_them() {
    let q101 = "a".repeat(101);
    let cases = [
        ("", "q is required"),
        ("lang=en", "q is required"),
        ("q=+", "q must not be empty"),
        (
            &format!("q={q101}") as &str,
            "q must be 1 to 100 characters",
        ),
        ("q=house&limit=0", "limit must be an integer from 1 to 100"),
        (
            "q=house&limit=101",
            "limit must be an integer from 1 to 100",
        ),
        ("q=house&limit=-1", "limit must be an integer from 1 to 100"),
        (
            "q=house&offset=10001",
            "offset must be an integer from 0 to 10000",
        ),
        ("q=house&hasAudio=yes", "hasAudio must be true or false"),
        ("q=house&pos=", "pos must not be empty"),
        (
            "q=house&lang=english",
            "lang must be a language code like en or a pair like en-fr",
        ),
        ("q=ho%00use", "q must not contain control characters"),
    ];
    for (query, message) in cases {
        let reply = reverse(query).await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.text);
        assert_eq!(reply.error(), message, "{query}");
        // Word for word what search answers to the same parameters.
        let search = get_demo(&format!("/api/v1/api/search?{query}")).await;
        assert_eq!(
            (search.status, search.error()),
            (400, message),
            "search?{query}"
        );
    }
    // The bounds themselves are fine.
    for query in [
        format!("q={}", "a".repeat(100)),
        "q=house&limit=1".to_string(),
        "q=house&limit=100".to_string(),
        "q=house&offset=10000".to_string(),
        "q=house&limit=0005&offset=00".to_string(),
    ] {
        let reply = reverse(&query).await;
        assert_eq!(reply.status, 200, "{query}: {}", reply.text);
    }
}

#[tokio::test]
async fn search_parameters_it_does_not_take_are_ignored() {
    // matchType and fuzzy are search's: reverse lookup reads neither, so
    // values search would refuse are ignored like any unknown parameter.
    let plain = reverse("q=house&lang=fr-en").await;
    let with_them = reverse("q=house&lang=fr-en&matchType=nope&fuzzy=maybe").await;
    assert_eq!(with_them.status, 200, "{}", with_them.text);
    assert_eq!(with_them.unsigned_data(), plain.unsigned_data());
    assert_eq!(with_them.json["meta"]["total"], plain.json["meta"]["total"]);
}

#[tokio::test]
async fn unknown_sources_are_404() {
    let reply = reverse("q=house&source=nope").await;
    assert_eq!(reply.status, 404, "{}", reply.text);
    assert_eq!(reply.error(), "Unknown dictionary: nope");
    // Not an id at all: unknown too, the echo shortened to 64 characters,
    // as search says it.
    let long = "x".repeat(80);
    let reply = reverse(&format!("q=house&source={long}")).await;
    assert_eq!(reply.status, 404, "{}", reply.text);
    assert!(
        reply
            .error()
            .starts_with(&format!("Unknown dictionary: {}", &long[..64])),
        "{}",
        reply.text
    );
    assert!(!reply.error().contains(&long[..65]), "{}", reply.text);
    let search = get_demo(&format!("/api/v1/api/search?q=house&source={long}")).await;
    assert_eq!(reply.error(), search.error());
    // A known one is fine.
    let reply = reverse("q=house&source=freedict-fra-eng").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}

#[tokio::test]
async fn answers_are_search_envelopes() {
    for query in [
        "q=house",
        "q=house&lang=fr-en&limit=3&offset=0",
        "q=a+young+dog&lang=en&limit=7&offset=2",
        "q=zzzzqqqq",
        "q=%CC%81",
    ] {
        let reply = reverse(query).await;
        assert_eq!(reply.status, 200, "{query}: {}", reply.text);
        assert_eq!(
            reply.header("content-type"),
            Some("application/json; charset=utf-8"),
            "{query}"
        );
        assert_eq!(reply.header("cache-control"), Some("no-store"), "{query}");
        let envelope: BTreeSet<&str> = reply
            .json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(envelope, BTreeSet::from(["ok", "data", "meta"]), "{query}");
        let data = reply.data().as_array().expect("data is an array");
        let meta = reply.json["meta"].as_object().unwrap();
        let names: BTreeSet<&str> = meta.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            BTreeSet::from(["limit", "offset", "took_ms", "total"]),
            "{query}"
        );
        let limit = query
            .split('&')
            .find_map(|p| p.strip_prefix("limit="))
            .map_or(20, |v| v.parse().unwrap());
        let offset = query
            .split('&')
            .find_map(|p| p.strip_prefix("offset="))
            .map_or(0, |v| v.parse().unwrap());
        assert_eq!(reply.json["meta"]["limit"], json!(limit), "{query}");
        assert_eq!(reply.json["meta"]["offset"], json!(offset), "{query}");
        let total = reply.json["meta"]["total"].as_u64().expect("total");
        assert!(data.len() <= limit as usize, "{query}");
        assert!(
            total >= data.len() as u64 + offset as u64 || data.is_empty(),
            "{query}: total {total}"
        );
        for result in data {
            for field in [
                "id",
                "word",
                "preview",
                "sourceLang",
                "dictionaryId",
                "dictionaryName",
            ] {
                assert!(result[field].is_string(), "{query}: {field} of {result}");
            }
            assert!(result.get("targetLang").is_some(), "{query}: {result}");
            assert!(result["hasAudio"].is_boolean(), "{query}: {result}");
            assert!(result["frequency"].is_number(), "{query}: {result}");
            assert!(
                result["preview"].as_str().unwrap().chars().count() <= 160,
                "{result}"
            );
        }
    }
}

#[tokio::test]
async fn a_key_is_required_and_cors_holds() {
    let path = format!("{PATH}?q=house");
    let reply = get(&path, None).await;
    assert_eq!((reply.status, reply.error()), (401, "Missing API key"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let reply = get(&path, Some("dk_abcdefghijklmnopqrstuvwxyz012345")).await;
    assert_eq!((reply.status, reply.error()), (401, "Invalid API key"));
    // A request without a key never learns whether its parameters were valid.
    let reply = get(&format!("{PATH}?limit=0"), None).await;
    assert_eq!((reply.status, reply.error()), (401, "Missing API key"));

    // The preflight needs no key.
    let preflight = send(Method::OPTIONS, &path, None, None).await;
    assert!(
        preflight.status == 204 || preflight.status == 200,
        "{}",
        preflight.status
    );
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    let methods = preflight
        .header("access-control-allow-methods")
        .unwrap_or_default();
    assert!(methods.contains("GET"), "{methods}");

    // Every keyed answer is CORS-readable, its quota headers exposed.
    let reply = get_demo(&path).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let exposed = reply
        .header("access-control-expose-headers")
        .unwrap_or_default();
    for header in ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] {
        assert!(exposed.contains(header), "{exposed}");
        assert!(reply.header(&header.to_lowercase()).is_some(), "{header}");
    }

    // Another method: 405 with Allow; HEAD works as GET does, without a body.
    let post = send(Method::POST, &path, Some(&demo_key()), None).await;
    assert_eq!((post.status, post.error()), (405, "Method not allowed"));
    assert_eq!(post.header("allow"), Some("GET, HEAD, OPTIONS"));
    let head = send(Method::HEAD, &path, Some(&demo_key()), None).await;
    assert_eq!(head.status, 200);
    assert!(head.text.is_empty());
}

#[tokio::test]
async fn every_request_costs_one_unit() {
    let (key, _) = create_key("free", Some(10));
    let remaining = |reply: &Reply| -> u64 {
        reply
            .header("ratelimit-remaining")
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = get(&format!("{PATH}?q=house"), Some(&key)).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(remaining(&first), 9);
    // A 400 and a 404 count too, as on every endpoint.
    let bad = get(&format!("{PATH}?q=house&limit=0"), Some(&key)).await;
    assert_eq!((bad.status, remaining(&bad)), (400, 8));
    let unknown = get(&format!("{PATH}?q=house&source=nope"), Some(&key)).await;
    assert_eq!((unknown.status, remaining(&unknown)), (404, 7));
    // GraphQL: one unit per root field that runs.
    let two = send(
        Method::POST,
        "/api/v1/api/graphql",
        Some(&key),
        Some(
            json!({"query": r#"{ a: reverse(q: "house") { total } b: reverse(q: "water", lang: "en") { total } }"#})
                .to_string(),
        ),
    )
    .await;
    assert_eq!(two.status, 200, "{}", two.text);
    assert_eq!(remaining(&two), 5);
    let usage = get("/api/v1/api/me/usage", Some(&key)).await;
    assert_eq!(usage.data()["usage"], 5);
}

/// REST leaves absent optional fields and empty lists out; GraphQL gives
/// null and []: compared without them.
fn normalised(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
                .map(|(k, v)| (k.clone(), normalised(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(normalised).collect()),
        other => other.clone(),
    }
}

#[tokio::test]
async fn graphql_reverse_is_rest_field_by_field() {
    const FIELDS: &str = "id word preview sourceLang targetLang dictionaryId dictionaryName \
        partOfSpeech phonetic hasAudio frequency";
    let query = format!(
        "query R($q: String!, $lang: String, $source: String, $pos: String, $hasAudio: Boolean, \
         $limit: Int, $offset: Int) {{ reverse(q: $q, lang: $lang, source: $source, pos: $pos, \
         hasAudio: $hasAudio, limit: $limit, offset: $offset) {{ total limit offset results {{ {FIELDS} }} }} }}"
    );
    for (rest, args) in [
        ("q=house", json!({"q": "house"})),
        (
            "q=house&lang=fr-en&limit=3",
            json!({"q": "house", "lang": "fr-en", "limit": 3}),
        ),
        (
            "q=water&limit=2&offset=1",
            json!({"q": "water", "limit": 2, "offset": 1}),
        ),
        (
            "q=a+young+dog&lang=en&pos=noun",
            json!({"q": "a young dog", "lang": "en", "pos": "noun"}),
        ),
        (
            "q=house&source=freedict-fra-eng&hasAudio=true",
            json!({"q": "house", "source": "freedict-fra-eng", "hasAudio": true}),
        ),
        ("q=houses", json!({"q": "houses"})),
    ] {
        let reply = reverse(rest).await;
        let answer = graphql(&query, args).await;
        assert_eq!(answer.status, 200, "{rest}: {}", answer.text);
        assert!(
            answer.json.get("errors").is_none(),
            "{rest}: {}",
            answer.text
        );
        let page = &answer.json["data"]["reverse"];
        assert_eq!(
            normalised(&page["results"]),
            normalised(reply.data()),
            "{rest}"
        );
        for name in ["total", "limit", "offset"] {
            assert_eq!(page[name], reply.json["meta"][name], "{rest}: {name}");
        }
    }
}

#[tokio::test]
async fn graphql_reverse_refuses_as_rest_does() {
    // A bad argument value: that field is null, with REST's message, beside
    // the data that could be resolved.
    let answer = graphql(
        r#"{ reverse(q: "house", limit: 0) { total } dictionaries { dictionaryId } }"#,
        json!({}),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert_eq!(answer.json["data"]["reverse"], Value::Null);
    assert!(answer.json["data"]["dictionaries"].is_array());
    let error = &answer.json["errors"][0];
    assert_eq!(error["message"], "limit must be an integer from 1 to 100");
    assert_eq!(error["path"], json!(["reverse"]));
    assert_eq!(error["extensions"]["code"], "BAD_USER_INPUT");

    let answer = graphql(
        r#"{ reverse(q: "house", source: "nope") { total } }"#,
        json!({}),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert_eq!(
        answer.json["errors"][0]["message"],
        "Unknown dictionary: nope"
    );
    assert_eq!(answer.json["errors"][0]["extensions"]["code"], "NOT_FOUND");

    // Search's own arguments are not reverse's: the document cannot run.
    for extra in [r#"matchType: "exact""#, "fuzzy: false"] {
        let answer = graphql(
            &format!(r#"{{ reverse(q: "house", {extra}) {{ total }} }}"#),
            json!({}),
        )
        .await;
        assert_eq!(answer.status, 400, "{extra}: {}", answer.text);
        assert_eq!(answer.json["data"], Value::Null);
        assert_eq!(
            answer.json["errors"][0]["extensions"]["code"],
            "BAD_USER_INPUT"
        );
    }
    // q is required.
    let answer = graphql("{ reverse { total } }", json!({})).await;
    assert_eq!(answer.status, 400, "{}", answer.text);
}

// ----------------------------------------------------------------- content
// These need the reverse-lookup engine.

#[tokio::test]
async fn q_is_bounded_in_words_and_in_folded_characters() {
    // Fifty one-letter words are 99 characters: the most words a q can have.
    let fifty = vec!["w"; 50].join("+");
    let reply = reverse(&format!("q={fifty}")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    // Fifty-one words need 101 characters, and so more than fifty is always
    // refused first by the length of q once folded (U+FDFA is one character
    // that folds to four words in 18 characters).
    let reply = reverse(&format!("q={}+w", "w+".repeat(50))).await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(reply.error(), "q must be 1 to 100 characters");
    let bomb = vec!["%EF%B7%BA"; 13].join("+");
    let reply = reverse(&format!("q={bomb}")).await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(
        reply.error(),
        "q must be at most 100 characters once folded"
    );
}

#[tokio::test]
async fn a_translation_finds_its_headword_in_the_other_direction() {
    let reply = reverse("q=house&lang=fr-en&limit=10").await;
    let found = words(&reply);
    assert!(found.iter().any(|w| w == "maison"), "{found:?}");
    // German and Italian say it too.
    let found = words(&reverse("q=house&lang=de-en").await);
    assert!(found.iter().any(|w| w == "Haus"), "{found:?}");
    let found = words(&reverse("q=house&lang=it-en").await);
    assert!(found.iter().any(|w| w == "casa"), "{found:?}");
    // Case and accents do not matter.
    let found = words(&reverse(&format!("q={}&lang=fr-en", enc("HOUSE"))).await);
    assert!(found.iter().any(|w| w == "maison"), "{found:?}");
}

#[tokio::test]
async fn a_gloss_said_exactly_finds_its_headword_first() {
    // WordNet: dog (verb), "go after with the intent to catch".
    let reply = reverse(&format!(
        "q={}&lang=en",
        enc("go after with the intent to catch")
    ))
    .await;
    let results = reply.data().as_array().unwrap();
    assert!(!results.is_empty(), "{}", reply.text);
    let first = &results[0];
    assert_eq!(first["word"], "dog", "{}", reply.text);
    assert_eq!(first["dictionaryId"], "wordnet-en", "{first}");
    assert_eq!(first["partOfSpeech"], "verb", "{first}");
    // Case does not matter.
    let reply = reverse(&format!(
        "q={}&lang=en",
        enc("Go After with the INTENT to catch")
    ))
    .await;
    assert_eq!(reply.data()[0]["word"], "dog", "{}", reply.text);
    // A definition's leading stop words are optional: WordNet's school
    // (noun) is "an educational institution" (and MyThes lists its hypernym
    // "educational institution (hypernym)"), which other entries'
    // institutions (a bank's "financial institution") do not say exactly.
    let reply = reverse(&format!(
        "q={}&lang=en&limit=5",
        enc("educational institution")
    ))
    .await;
    let results = reply.data().as_array().unwrap();
    assert_eq!(results[0]["word"], "school", "{}", reply.text);
    assert!(
        results.iter().any(|r| r["word"] == "school"
            && r["dictionaryId"] == "wordnet-en"
            && r["partOfSpeech"] == "noun"),
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn every_result_passes_the_filters() {
    // (query, whether the fixture has a result for it)
    let cases = [
        ("q=house&lang=fr-en", true),
        ("q=house&lang=FR-en", true),
        ("q=house&lang=fr", true),
        ("q=house&lang=en", true),
        ("q=house&source=freedict-fra-eng", true),
        ("q=house&source=gcide", true),
        ("q=house&pos=noun", true),
        ("q=house&pos=NOUN&lang=de", true),
        ("q=house&hasAudio=true", true),
        ("q=house&hasAudio=false", true),
        (
            "q=house&lang=fr-en&source=freedict-fra-eng&pos=noun&hasAudio=true",
            true,
        ),
        ("q=water&lang=en&pos=verb", true),
        ("q=house&lang=xx", false),
        ("q=house&source=freedict-eng-fra&lang=fr-en", false),
    ];
    for (query, nonempty) in cases {
        let (results, totals) = page_through(query, 100).await;
        assert_eq!(
            totals.into_iter().collect::<Vec<_>>(),
            vec![results.len() as u64],
            "{query}: total is every result"
        );
        assert_eq!(!results.is_empty(), nonempty, "{query}: {results:?}");
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|p| p.strip_prefix(&format!("{name}=")))
        };
        for r in &results {
            if let Some(lang) = param("lang").map(str::to_lowercase) {
                match lang.split_once('-') {
                    Some((s, t)) => {
                        assert_eq!(r["sourceLang"], s, "{query}: {r}");
                        assert_eq!(r["targetLang"], t, "{query}: {r}");
                    }
                    None => assert_eq!(r["sourceLang"], lang.as_str(), "{query}: {r}"),
                }
            }
            if let Some(source) = param("source") {
                assert_eq!(r["dictionaryId"], source, "{query}: {r}");
            }
            if let Some(pos) = param("pos") {
                let got = r["partOfSpeech"].as_str().unwrap_or_default();
                assert!(got.eq_ignore_ascii_case(pos), "{query}: {r}");
            }
            if param("hasAudio") == Some("true") {
                assert_eq!(r["hasAudio"], true, "{query}: {r}");
            }
        }
        if query.contains("source=freedict-fra-eng") {
            assert!(
                results.iter().any(|r| r["word"] == "maison"),
                "{query}: {results:?}"
            );
        }
    }
    // A filter narrows, never widens: each filtered list is within the whole.
    let (whole, _) = page_through("q=house", 100).await;
    let whole: HashSet<String> = whole.iter().map(key_of).collect();
    for query in [
        "q=house&lang=fr-en",
        "q=house&pos=noun",
        "q=house&hasAudio=true",
    ] {
        let (some, _) = page_through(query, 100).await;
        for r in &some {
            assert!(whole.contains(&key_of(r)), "{query}: {r}");
        }
    }
}

#[tokio::test]
async fn pages_never_overlap_and_total_is_the_same_on_every_page() {
    for query in ["q=water", "q=good+house", "q=small+person&lang=en"] {
        let (whole, totals) = page_through(query, 100).await;
        assert!(
            whole.len() >= 10,
            "{query} has several pages: {}",
            whole.len()
        );
        assert_eq!(
            totals.into_iter().collect::<Vec<_>>(),
            vec![whole.len() as u64],
            "{query}"
        );
        let keys: Vec<String> = whole.iter().map(key_of).collect();
        let distinct: HashSet<&String> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "{query}: a result twice");
        for limit in [1, 3, 7] {
            let (paged, totals) = page_through(query, limit).await;
            let paged: Vec<String> = paged.iter().map(key_of).collect();
            assert_eq!(paged, keys, "{query}, limit {limit}");
            assert_eq!(totals.len(), 1, "{query}, limit {limit}: {totals:?}");
        }
        let past = reverse(&format!("{query}&offset={}", whole.len() + 5)).await;
        assert_eq!(past.data(), &Value::Array(vec![]), "{query}");
        assert_eq!(past.json["meta"]["total"], whole.len() as u64, "{query}");
    }
}

#[tokio::test]
async fn an_inflected_form_finds_what_its_lemma_finds() {
    for filter in ["&lang=fr-en", "&lang=en", ""] {
        let (house, _) = page_through(&format!("q=house{filter}"), 100).await;
        let (houses, _) = page_through(&format!("q=houses{filter}"), 100).await;
        let house: BTreeSet<String> = house.iter().map(key_of).collect();
        let houses: BTreeSet<String> = houses.iter().map(key_of).collect();
        assert!(!house.is_empty(), "house{filter}");
        assert_eq!(
            houses, house,
            "houses{filter} finds what house{filter} finds"
        );
    }
    let found = words(&reverse("q=houses&lang=fr-en&limit=10").await);
    assert!(found.iter().any(|w| w == "maison"), "{found:?}");
}
