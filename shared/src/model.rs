//! The resources of the interface (section 2), serialised exactly as documented:
//! camelCase names, `targetLang` always present (null for monolingual),
//! optional fields omitted when the source has nothing for them.

use serde::{Deserialize, Serialize};

/// A dictionary as listed by `GET /api/v1/api/dictionaries`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct Dictionary {
    pub dictionary_id: String,
    pub dictionary_name: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
    pub entry_count: u64,
    pub licence: String,
    /// Where the data comes from (for example the Debian package name).
    pub origin: String,
}

/// One search hit (interface section 2, "Search result").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub id: String,
    pub word: String,
    pub preview: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
    pub dictionary_id: String,
    pub dictionary_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part_of_speech: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phonetic: Option<String>,
    pub has_audio: bool,
}

/// One random headword (interface section 2, "Random item").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RandomItem {
    pub id: String,
    pub word: String,
    pub dictionary_id: String,
    pub dictionary_name: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub word: String,
    pub html_content: String,
    pub plain_text: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
    pub dictionary_id: String,
    pub dictionary_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part_of_speech: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phonetic: Option<String>,
    /// Translations into `targetLang` (bilingual dictionaries only); an
    /// extension of the interface's Entry.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub translations: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub synonyms: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub antonyms: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub examples: Vec<String>,
    pub has_audio: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audio_url: Option<String>,
}

/// What storage holds for an entry: the public fields plus what only the
/// service needs (lemma flag for "entry by word", the S3 key of the audio).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntry {
    pub entry: Entry,
    pub is_lemma: bool,
    pub audio_key: Option<String>,
}

/// A related word, as the thesaurus endpoint returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ThesaurusItem {
    pub word: String,
    pub relationship_type: String,
    pub dictionary_id: String,
    pub dictionary_name: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
}

/// The relationship types of decisions.md, in the order results list them.
pub const RELATIONSHIP_TYPES: [&str; 7] = [
    "synonym",
    "antonym",
    "derivation",
    "similar",
    "hypernym",
    "hyponym",
    "related",
];

/// The caller's quota, as `GET /api/v1/api/me/usage` reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UsageRecord {
    pub plan: String,
    pub usage: u64,
    pub limit: u64,
    pub remaining: u64,
    pub reset_date: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Entry {
        Entry {
            id: "a1".into(),
            word: "bank".into(),
            html_content: "<p>banque</p>".into(),
            plain_text: "banque".into(),
            source_lang: "en".into(),
            target_lang: None,
            dictionary_id: "freedict-eng-fra".into(),
            dictionary_name: "English–French (FreeDict)".into(),
            part_of_speech: None,
            phonetic: Some("bæŋk".into()),
            translations: vec![],
            synonyms: vec![],
            antonyms: vec![],
            examples: vec![],
            has_audio: false,
            audio_url: None,
        }
    }

    #[test]
    fn entry_uses_interface_names_and_keeps_null_target() {
        let value = serde_json::to_value(sample()).unwrap();
        assert_eq!(value["htmlContent"], json!("<p>banque</p>"));
        assert_eq!(value["plainText"], json!("banque"));
        assert_eq!(value["dictionaryId"], json!("freedict-eng-fra"));
        assert_eq!(value["hasAudio"], json!(false));
        assert!(value.as_object().unwrap().contains_key("targetLang"));
        assert_eq!(value["targetLang"], json!(null));
    }

    #[test]
    fn absent_optional_fields_are_omitted() {
        let value = serde_json::to_value(sample()).unwrap();
        let object = value.as_object().unwrap();
        for absent in [
            "partOfSpeech",
            "synonyms",
            "antonyms",
            "examples",
            "audioUrl",
            "translations",
        ] {
            assert!(!object.contains_key(absent), "{absent} should be omitted");
        }
        assert!(object.contains_key("phonetic"));
    }
}
