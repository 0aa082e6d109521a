//! Entry by id and entry by word against the running stack, on the imported
//! FreeDict fixture.

use blackbox::{enc, get_demo};
use serde_json::json;

#[tokio::test]
async fn entry_by_word_returns_the_real_freedict_entry() {
    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/bank").await;
    let entry = reply.data();
    assert_eq!(entry["word"], "bank");
    assert_eq!(entry["phonetic"], "bæŋk");
    assert_eq!(entry["translations"], json!(["banque"]));
    assert_eq!(entry["sourceLang"], "en");
    assert_eq!(entry["targetLang"], "fr");
    assert_eq!(entry["dictionaryId"], "freedict-eng-fra");
    assert_eq!(entry["dictionaryName"], "English–French (FreeDict)");
    assert_eq!(entry["hasAudio"], true, "make up gives bank audio");
    assert_eq!(entry["plainText"], "banque");
    assert!(entry["htmlContent"]
        .as_str()
        .unwrap()
        .contains("<b>bank</b>"));
    assert!(entry["id"]
        .as_str()
        .unwrap()
        .chars()
        .all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(
        reply.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn entry_by_id_returns_exactly_that_entry() {
    let by_word = get_demo("/api/v1/api/entry/freedict-deu-eng/word/Haus").await;
    let id = by_word.data()["id"].as_str().unwrap().to_string();
    let by_id = get_demo(&format!("/api/v1/entry/freedict-deu-eng/{id}")).await;
    assert_eq!(by_id.unsigned_data(), by_word.unsigned_data());
    assert_eq!(by_id.data()["partOfSpeech"], "noun");
    assert!(by_id.data()["examples"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "ein Haus bauen — build a house"));
}

#[tokio::test]
async fn words_match_case_and_diacritic_insensitively() {
    let folded = get_demo("/api/v1/api/entry/freedict-fra-eng/word/ecole").await;
    assert_eq!(folded.data()["word"], "école");
    let encoded = get_demo(&format!(
        "/api/v1/api/entry/freedict-fra-eng/word/{}",
        enc("ÉCOLE")
    ))
    .await;
    assert_eq!(encoded.data()["word"], "école");
    let german = get_demo(&format!(
        "/api/v1/api/entry/freedict-deu-eng/word/{}",
        enc("strasse")
    ))
    .await;
    assert_eq!(german.data()["word"], "Straße");
}

#[tokio::test]
async fn exact_case_wins_over_a_case_variant() {
    let lower = get_demo("/api/v1/api/entry/freedict-deu-eng/word/gut").await;
    assert_eq!(lower.data()["word"], "gut");
    let upper = get_demo("/api/v1/api/entry/freedict-deu-eng/word/Gut").await;
    assert_eq!(upper.data()["word"], "Gut");
    assert_eq!(upper.data()["partOfSpeech"], "noun");
}

#[tokio::test]
async fn unknown_entries_and_dictionaries_are_404() {
    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/qwxzzy").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.error(), "Entry not found");
    assert!(reply.json["suggestions"].is_array());

    let reply = get_demo("/api/v1/entry/freedict-eng-fra/0123456789abcdef").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.error(), "Entry not found");

    let reply = get_demo("/api/v1/entry/no-such-dictionary/0123456789abcdef").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.error(), "Unknown dictionary: no-such-dictionary");

    let reply = get_demo("/api/v1/api/entry/no-such-dictionary/word/bank").await;
    assert_eq!(reply.error(), "Unknown dictionary: no-such-dictionary");
}

#[tokio::test]
async fn malformed_parameters_are_400_naming_the_parameter() {
    let reply = get_demo("/api/v1/entry/freedict-eng-fra/not%20an%20id").await;
    assert_eq!(reply.status, 400);
    assert!(reply.error().starts_with("id must be"), "{}", reply.text);

    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/%FF%FE").await;
    assert_eq!(reply.status, 400);
    assert!(
        reply.error().starts_with("word must be valid UTF-8"),
        "{}",
        reply.text
    );

    let long = enc(&"a".repeat(101));
    let reply = get_demo(&format!("/api/v1/api/entry/freedict-eng-fra/word/{long}")).await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.error(), "word must be 1 to 100 characters");

    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/%20%20").await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.error(), "word must not be empty");

    let reply = get_demo("/api/v1/api/audio/freedict-eng-fra/%3Cscript%3E").await;
    assert_eq!(reply.status, 400);
    assert!(reply.error().starts_with("lexid must be"), "{}", reply.text);
}

#[tokio::test]
async fn injection_shaped_input_is_just_a_word() {
    for word in [
        "' OR '1'='1",
        "<script>alert(1)</script>",
        "${jndi:ldap://x}",
        "pk = :pk",
    ] {
        let reply = get_demo(&format!(
            "/api/v1/api/entry/freedict-eng-fra/word/{}",
            enc(word)
        ))
        .await;
        assert_eq!(reply.status, 404, "{word}: {}", reply.text);
        assert_eq!(reply.error(), "Entry not found");
    }
}

#[tokio::test]
async fn wordnet_entries_are_monolingual_with_definitions_and_antonyms() {
    let reply = get_demo("/api/v1/api/entry/wordnet-en/word/good").await;
    let good = reply.data();
    assert_eq!(good["targetLang"], serde_json::Value::Null);
    assert_eq!(good["dictionaryName"], "WordNet 3.0 (English)");
    assert!(
        good["plainText"].as_str().unwrap().starts_with("1. "),
        "{good}"
    );
    assert!(
        good["antonyms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "bad"),
        "{good}"
    );
    assert!(!good["examples"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn gcide_entries_have_definitions_and_citations() {
    let reply = get_demo("/api/v1/api/entry/gcide/word/able").await;
    let able = reply.data();
    assert_eq!(able["word"], "Able");
    assert_eq!(able["dictionaryId"], "gcide");
    // Two GCIDE articles are "Able" (a verb and an adjective); either cites Chaucer.
    assert!(
        able["htmlContent"].as_str().unwrap().contains("Chaucer"),
        "{able}"
    );
    assert!(
        able["plainText"].as_str().unwrap().starts_with("1. "),
        "{able}"
    );
    assert!(!able["htmlContent"]
        .as_str()
        .unwrap()
        .contains("1913 Webster"));

    // dict-gcide's index also lists the Sundog article under "dog": it is
    // Sundog's entry, with the part of speech before its subject label.
    let sundog = get_demo("/api/v1/api/entry/gcide/word/sundog").await;
    let sundog = sundog.data();
    assert_eq!(sundog["word"], "Sundog");
    assert_eq!(sundog["partOfSpeech"], "noun", "{sundog}");
    assert!(sundog["plainText"]
        .as_str()
        .unwrap()
        .contains("luminous spot"));
    // `Dog \Dog\ (d[add]g or d[o^]g), n.`: the respelling is not a sense.
    let dogs = get_demo("/api/v1/api/search?q=dog&matchType=exact&fuzzy=false&source=gcide").await;
    let dogs = dogs.data().as_array().unwrap().clone();
    assert!(dogs.iter().all(|d| d["word"] == "Dog"), "{dogs:?}");
    let noun = dogs
        .iter()
        .find(|d| d["partOfSpeech"] == "noun")
        .unwrap_or_else(|| panic!("a noun Dog: {dogs:?}"));
    let preview = noun["preview"].as_str().unwrap();
    assert!(preview.starts_with("1. (Zool.) A quadruped"), "{preview}");
}
