//! The values of `matchType` (`shared::search::matching::MatchType::ALL`)
//! are the ones the OpenAPI document and the playground list.

use drift::repo_root;
use shared::search::matching::MatchType;

/// The OpenAPI document's `matchType` enum and the playground's options
/// list exactly the values of `MatchType::ALL` (each in its own order).
#[test]
fn the_documents_and_the_playground_list_every_value() {
    let mut names: Vec<String> = MatchType::ALL.iter().map(|m| m.name().into()).collect();
    names.sort_unstable();
    let openapi: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("docs/openapi.json")).unwrap(),
    )
    .unwrap();
    let mut enums = Vec::new();
    find_match_type_enums(&openapi, &mut enums);
    assert!(!enums.is_empty(), "docs/openapi.json has no matchType enum");
    for mut listed in enums {
        listed.sort_unstable();
        assert_eq!(listed, names, "docs/openapi.json's matchType enum");
    }
    let page = std::fs::read_to_string(repo_root().join("functions/playground/assets/index.html"))
        .unwrap();
    let select = page
        .split_once(r#"<select id="matchType""#)
        .and_then(|(_, rest)| rest.split_once("</select>"))
        .expect("the playground has a matchType select")
        .0;
    let mut options: Vec<String> = select
        .split(r#"<option value=""#)
        .skip(1)
        .map(|o| o.split('"').next().unwrap().into())
        .collect();
    options.sort_unstable();
    assert_eq!(options, names, "the playground's matchType options");
}

/// Every `enum` of a schema named `matchType` (a parameter or a property).
fn find_match_type_enums(value: &serde_json::Value, out: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::Object(map) => {
            if map.get("name").and_then(|n| n.as_str()) == Some("matchType") {
                if let Some(list) = map
                    .get("schema")
                    .and_then(|s| s.pointer("/enum"))
                    .and_then(|e| e.as_array())
                {
                    out.push(
                        list.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect(),
                    );
                }
            }
            if let Some(list) = map
                .get("matchType")
                .and_then(|p| p.get("enum"))
                .and_then(|e| e.as_array())
            {
                out.push(
                    list.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect(),
                );
            }
            map.values().for_each(|v| find_match_type_enums(v, out));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| find_match_type_enums(v, out)),
        _ => {}
    }
}
