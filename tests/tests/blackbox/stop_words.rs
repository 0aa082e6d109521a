//! The stop words the stack stores for reverse lookup to leave out
//! (docs/data-model.md, "Lexicon"): the fixture stores the Snowball lists
//! of its five languages (data/fixture/stop-words/, as Debian's
//! postgresql-15 ships them), folded, each with its origin and licence.

use aws_sdk_dynamodb::types::AttributeValue;
use blackbox::{stack_clients, stored_lexicon};
use shared::search::lexicon::LexiconKind;
use shared::storage::items;

#[tokio::test]
async fn the_fixture_stores_the_stop_words_of_its_languages() {
    let lexicon = stored_lexicon().await;
    for (lang, count, words) in [
        ("en", 127, ["the", "and", "of"]),
        ("fr", 152, ["le", "etait", "ou"]),
        ("de", 231, ["der", "uber", "und"]),
        ("es", 306, ["el", "esta", "mas"]),
        ("it", 278, ["il", "perche", "piu"]),
    ] {
        assert_eq!(lexicon.stop_words[lang].len(), count, "{lang}");
        for word in words {
            assert!(lexicon.is_stop_word(lang, word), "{lang} {word}");
        }
    }
    // Words of substance are not stop words, nor a language's words in another.
    assert!(!lexicon.is_stop_word("en", "house"));
    assert!(!lexicon.is_stop_word("en", "der"));
    assert!(
        !lexicon.is_stop_word("pl", "a"),
        "no Polish list in the fixture"
    );

    let (clients, config) = stack_clients().await;
    let listed = clients
        .dynamodb
        .query()
        .table_name(&config.entries_table)
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(items::LEXICON_PK.into()))
        .send()
        .await
        .expect("query");
    let mut lists: Vec<_> = listed
        .items()
        .iter()
        .map(|item| items::lexicon_list_from_item(item).expect("a list"))
        .filter(|list| list.kind == LexiconKind::StopWords)
        .collect();
    lists.sort_by(|a, b| a.lang.cmp(&b.lang));
    let langs: Vec<&str> = lists.iter().map(|l| l.lang.as_str()).collect();
    assert_eq!(langs, ["de", "en", "es", "fr", "it"]);
    let english = lists.iter().find(|l| l.lang == "en").unwrap();
    assert!(
        english.origin.starts_with(
            "Snowball stop word list english.stop, as Debian package postgresql-15 15."
        ),
        "{}",
        english.origin
    );
    assert_eq!(english.licence, "BSD-3-Clause AND PostgreSQL");
    assert_eq!(english.count, 127);
}
