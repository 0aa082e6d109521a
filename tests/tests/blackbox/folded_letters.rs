//! Letters without a Unicode decomposition, against the running stack
//! (docs/api.md, "Matching and ranking"): folding maps Polish `ł` to `l`
//! as it drops the accents of `ó` and `ź`, so `Lodz` finds `Łódź` and
//! `Krakow` finds `Kraków`. The fixture's FreeDict Polish–English excerpt
//! (data/fixture/freedict/freedict-pol-eng.*, from WikDict) has both of
//! its `łódź` articles: the city `Łódź` and `łódź`, a boat.

use blackbox::{demo_key, enc, get_demo};
use serde_json::{json, Value};

const SOURCE: &str = "freedict-pol-eng";

/// Search results, whole.
async fn search(query: &str) -> Vec<Value> {
    let reply = get_demo(&format!("/api/v1/api/search?{query}")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.data().as_array().unwrap().clone()
}

fn words(results: &[Value]) -> Vec<(&str, &str)> {
    results
        .iter()
        .map(|r| {
            (
                r["word"].as_str().unwrap(),
                r["dictionaryId"].as_str().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn lodz_finds_lodz_first() {
    for matching in ["exact", "prefix"] {
        let results = search(&format!("q=Lodz&matchType={matching}")).await;
        let found = words(&results);
        // The exact matches come first: the two headwords that fold to
        // `lodz`, the city and the boat, entries of one headword together.
        let mut first: Vec<(&str, &str)> = found.iter().take(2).copied().collect();
        first.sort();
        assert_eq!(
            first,
            [("Łódź", SOURCE), ("łódź", SOURCE)],
            "{matching}: {found:?}"
        );
        let city = results
            .iter()
            .find(|r| r["word"] == "Łódź")
            .expect("the city");
        assert_eq!(city["partOfSpeech"], "proper noun", "{city}");
        assert_eq!(city["sourceLang"], "pl");
        assert_eq!(city["targetLang"], "en");
    }
    // The proper nouns alone: the city first.
    let results = search(&format!("q=Lodz&pos={}", enc("proper noun"))).await;
    assert_eq!(words(&results)[0], ("Łódź", SOURCE), "{results:?}");
    // Typed with its letters, or in capitals, the same two.
    for q in ["Łódź", "ŁÓDŹ", "lodz", "LODZ"] {
        let results = search(&format!("q={}&matchType=exact&fuzzy=false", enc(q))).await;
        let mut found = words(&results);
        found.sort();
        assert_eq!(found, [("Łódź", SOURCE), ("łódź", SOURCE)], "{q}");
    }
}

/// The exact matches capitalised as `q` was typed come first, as entry by
/// word chooses (docs/api.md, "Matching and ranking"): `Lodz` lists the city
/// first, `lodz` the boat, though the boat's id sorts first.
#[tokio::test]
async fn the_capital_of_q_chooses_the_city_or_the_boat_first() {
    for (q, first, second) in [
        ("Lodz", "Łódź", "łódź"),
        ("LODZ", "Łódź", "łódź"),
        ("Łódź", "Łódź", "łódź"),
        ("lodz", "łódź", "Łódź"),
        ("łódź", "łódź", "Łódź"),
    ] {
        for matching in ["exact", "prefix"] {
            for fuzzy in [true, false] {
                let query = format!("q={}&matchType={matching}&fuzzy={fuzzy}", enc(q));
                let results = search(&query).await;
                let found = words(&results);
                assert_eq!(
                    found.get(..2),
                    Some(&[(first, SOURCE), (second, SOURCE)][..]),
                    "{query}: {found:?}"
                );
            }
        }
        // One result a page: the order and the total hold across pages.
        for (offset, word) in [(0, first), (1, second)] {
            let path = format!(
                "/api/v1/api/search?q={}&matchType=exact&fuzzy=false&limit=1&offset={offset}",
                enc(q)
            );
            let reply = get_demo(&path).await;
            assert_eq!(reply.status, 200, "{}", reply.text);
            assert_eq!(words(reply.data().as_array().unwrap()), [(word, SOURCE)]);
            assert_eq!(reply.json["meta"]["total"], 2, "{path}");
        }
        // GraphQL's search is the same search.
        let body = json!({
            "query": "query($q: String!) { search(q: $q, matchType: \"exact\", fuzzy: false) { results { word } } }",
            "variables": {"q": q},
        });
        let reply = blackbox::graphql_body(Some(&demo_key()), &body).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        let listed: Vec<&str> = reply.json["data"]["search"]["results"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", reply.text))
            .iter()
            .map(|r| r["word"].as_str().unwrap())
            .collect();
        assert_eq!(listed, [first, second], "GraphQL {q}");
    }
}

#[tokio::test]
async fn krakow_and_the_other_cities_find_theirs() {
    for (q, city) in [
        ("Krakow", "Kraków"),
        ("Wroclaw", "Wrocław"),
        ("Gdansk", "Gdańsk"),
    ] {
        let results = search(&format!("q={q}")).await;
        assert_eq!(words(&results).first(), Some(&(city, SOURCE)), "{q}");
    }
    // Ordinary words too: `zolw` is `żółw`, a turtle.
    let results = search("q=zolw&matchType=exact").await;
    assert_eq!(words(&results), [("żółw", SOURCE)]);
}

#[tokio::test]
async fn entry_by_word_answers_the_city_for_lodz() {
    let reply = get_demo(&format!("/api/v1/api/entry/{SOURCE}/word/Lodz")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let entry = reply.data();
    assert_eq!(entry["word"], "Łódź");
    assert_eq!(entry["partOfSpeech"], "proper noun");
    // The article's translation line, alone: its Polish gloss, the next
    // line, is the sense's gloss (`Gloss: …`), no translation.
    assert_eq!(
        entry["translations"],
        serde_json::json!(["Lodz"]),
        "{entry}"
    );
    let translations = entry["translations"].as_array().unwrap();
    assert!(
        !translations
            .iter()
            .any(|t| t.as_str().unwrap().starts_with('(')),
        "{entry}"
    );
    assert!(
        entry["plainText"].as_str().unwrap().contains(
            "Gloss: (geografia, geograficzny) (administracja) miasto w centralnej Polsce"
        ),
        "{entry}"
    );
    assert_eq!(entry["dictionaryId"], SOURCE);
    // Found by folding: no lemma, no inflection.
    assert!(reply.json["meta"].get("lemma").is_none(), "{}", reply.json);
    // Lower case asks for the boat, the headword written in lower case.
    let reply = get_demo(&format!("/api/v1/api/entry/{SOURCE}/word/lodz")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.data()["word"], "łódź");
    assert_eq!(reply.data()["translations"][0], "boat");
    // As written, each is itself.
    for word in ["Łódź", "łódź"] {
        let reply = get_demo(&format!("/api/v1/api/entry/{SOURCE}/word/{}", enc(word))).await;
        assert_eq!(reply.status, 200, "{word}");
        assert_eq!(reply.data()["word"], word);
    }
    let reply = get_demo(&format!("/api/v1/api/entry/{SOURCE}/word/Krakow")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.data()["word"], "Kraków");
}

#[tokio::test]
async fn the_polish_dictionary_is_listed() {
    let reply = get_demo("/api/v1/api/dictionaries").await;
    assert_eq!(reply.status, 200);
    let polish = reply
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["dictionaryId"] == SOURCE)
        .unwrap_or_else(|| panic!("{SOURCE} is not listed: {}", reply.text))
        .clone();
    assert_eq!(polish["sourceLang"], "pl");
    assert_eq!(polish["targetLang"], "en");
    assert_eq!(polish["licence"], "CC-BY-SA-3.0");
    // The excerpt: łódź twice, three more cities, five ordinary words.
    assert_eq!(polish["entryCount"], 10, "{polish}");
}
