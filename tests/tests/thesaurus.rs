//! Thesaurus lookups across WordNet, MyThes and FreeDict links.

use blackbox::{enc, get_demo};
use serde_json::Value;
use shared::model::RELATIONSHIP_TYPES;

fn items(reply: &blackbox::Reply) -> Vec<Value> {
    reply.data().as_array().expect("an array").clone()
}

fn has(items: &[Value], word: &str, kind: &str, dictionary: &str) -> bool {
    items.iter().any(|i| {
        i["word"] == word && i["relationshipType"] == kind && i["dictionaryId"] == dictionary
    })
}

#[tokio::test]
async fn good_has_synonyms_and_antonyms_from_several_dictionaries() {
    let all = items(&get_demo("/api/v1/api/thesaurus/good").await);
    assert!(has(&all, "bad", "antonym", "wordnet-en"), "{all:?}");
    assert!(has(&all, "bad", "antonym", "mythes-en"), "{all:?}");
    assert!(all.iter().any(|i| i["relationshipType"] == "similar"));
    let first = &all[0];
    assert_eq!(first["relationshipType"], "synonym", "synonyms come first");
    for item in &all {
        for field in [
            "word",
            "relationshipType",
            "dictionaryId",
            "dictionaryName",
            "sourceLang",
        ] {
            assert!(item[field].is_string(), "{field} in {item}");
        }
        assert!(item.as_object().unwrap().contains_key("targetLang"));
        let kind = item["relationshipType"].as_str().unwrap();
        assert!(RELATIONSHIP_TYPES.contains(&kind));
    }
    let kinds: Vec<usize> = all
        .iter()
        .map(|i| {
            RELATIONSHIP_TYPES
                .iter()
                .position(|k| *k == i["relationshipType"])
                .unwrap()
        })
        .collect();
    assert!(
        kinds.windows(2).all(|w| w[0] <= w[1]),
        "ordered by relationship type"
    );
}

#[tokio::test]
async fn matching_ignores_case_and_diacritics() {
    let lower = get_demo("/api/v1/api/thesaurus/good").await;
    let upper = get_demo("/api/v1/api/thesaurus/GOOD").await;
    assert_eq!(lower.data(), upper.data());
    let folded = items(&get_demo("/api/v1/api/thesaurus/ecole?lang=fr").await);
    assert!(!folded.is_empty(), "école found from ecole");
}

#[tokio::test]
async fn lang_and_source_filter() {
    let french = items(&get_demo("/api/v1/api/thesaurus/bon?lang=fr").await);
    assert!(!french.is_empty());
    assert!(french.iter().all(|i| i["sourceLang"] == "fr"));

    let pair = items(&get_demo("/api/v1/api/thesaurus/Haus?lang=de-en").await);
    assert!(
        has(&pair, "Zuhause", "synonym", "freedict-deu-eng"),
        "{pair:?}"
    );
    assert!(pair.iter().all(|i| i["dictionaryId"] == "freedict-deu-eng"));

    let source = items(&get_demo("/api/v1/api/thesaurus/good?source=mythes-en").await);
    assert!(!source.is_empty() && source.iter().all(|i| i["dictionaryId"] == "mythes-en"));

    let none = items(&get_demo("/api/v1/api/thesaurus/good?lang=ja").await);
    assert!(
        none.is_empty(),
        "a well-formed language with no dictionaries gives []"
    );
}

#[tokio::test]
async fn words_without_relations_give_an_empty_array() {
    let reply = get_demo(&format!("/api/v1/api/thesaurus/{}", enc("zzqxj wörd"))).await;
    assert_eq!(reply.data(), &Value::Array(vec![]));
}
