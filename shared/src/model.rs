//! The resources of the API (docs/api.md, "Endpoints"), serialised exactly as documented:
//! camelCase names, `targetLang` always present (null for monolingual),
//! optional fields omitted when the source has nothing for them.

use crate::fold::fold;
use crate::search::definitions::definition_text;
use crate::search::postings::{DictionaryRef, Posting, PostingFields};
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

/// `search` and `reverse`: one page and the totals.
// REST answers with `results` (or `words`) and puts the rest in `meta`.
#[derive(Debug, Clone, PartialEq, async_graphql::SimpleObject)]
pub struct SearchPage {
    /// One result per entry (`group: "entry"`, the default); empty with
    /// `group: "word"`.
    pub results: Vec<SearchResult>,
    /// One result per word (`group: "word"`); empty otherwise.
    pub words: Vec<WordResult>,
    /// How many results the query has: entries, or words with
    /// `group: "word"`.
    pub total: u64,
    /// How many entries match, grouped or not.
    pub total_entries: u64,
    pub limit: u32,
    pub offset: u32,
}

/// One word of a grouped search or reverse lookup (`group=word`): a folded
/// headword in one language, with the entries that hold it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WordResult {
    /// The headword as its first entry writes it.
    pub word: String,
    /// The source language of its entries' dictionaries.
    pub lang: String,
    /// The headword's Zipf frequency, as its entries show it.
    pub frequency: f64,
    /// How many entries hold it among the matches.
    pub entry_count: u64,
    /// Its first entries, in rank order: at most 100 over the page, 20 a
    /// word (`engine::entries_per_word`: 5 on the default page of 20).
    pub entries: Vec<SearchResult>,
}

/// `rhymes`: the word looked up, one page of the words that rhyme with it
/// and how many do.
// REST answers with `rhymes` as `data` and puts the rest in `meta`.
#[derive(Debug, Clone, PartialEq, async_graphql::SimpleObject)]
pub struct RhymePage {
    /// The word as its first entry writes it.
    pub word: String,
    /// The language of the word and of its rhymes.
    pub lang: String,
    /// The word's pronunciations: its dictionaries' transcriptions, then
    /// the synthesizer's.
    pub pronunciations: Vec<WordPronunciation>,
    /// `perfect` or `near`.
    pub kind: String,
    pub rhymes: Vec<RhymeResult>,
    /// How many words rhyme.
    pub total: u64,
    pub limit: u32,
    pub offset: u32,
}

/// A pronunciation of a word and where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WordPronunciation {
    /// IPA, as its source writes it.
    pub pronunciation: String,
    /// `dictionary` (the transcription of one of the word's entries) or
    /// `espeak-ng` (synthesized by espeak-ng).
    pub source: String,
}

/// One word that rhymes: a folded headword in the query's language, with
/// the entries that hold it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RhymeResult {
    /// The headword as its first entry writes it.
    pub word: String,
    pub lang: String,
    /// Its pronunciation that rhymes, as its source writes it.
    pub pronunciation: String,
    /// Where the pronunciation comes from: `dictionary` (the transcription
    /// of one of its entries) or `espeak-ng` (synthesized by espeak-ng).
    pub pronunciation_source: String,
    /// Syllables of that pronunciation.
    pub syllables: u32,
    /// The headword's Zipf frequency, as its entries show it.
    pub frequency: f64,
    /// How many of its entries pass the filters.
    pub entry_count: u64,
    /// Its first entries, in rank order ([`WordResult::entries`]).
    pub entries: Vec<SearchResult>,
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
    /// The headword's Zipf frequency (log10 of its occurrences per billion
    /// words, two decimals: 5.16), the one search ranks it by; 0 when no
    /// frequency list of its languages has it.
    pub frequency: f64,
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

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(complex)]
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
    /// The headword's Zipf frequency (log10 of its occurrences per billion
    /// words, two decimals: 5.16), the same as its search results show; 0
    /// when no frequency list has it. Stamped on the entry when its
    /// dictionary is imported.
    #[serde(default)]
    pub frequency: f64,
    /// The URL of the audio in its primary format (the first of
    /// `audioFormats`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audio_url: Option<String>,
    /// The formats of the audio, primary first (`["spx", "mp3"]`,
    /// `["mp3"]`); `[]` without audio.
    #[serde(default)]
    pub audio_formats: Vec<String>,
    /// Each format's URL, in the order of `audioFormats`; absent without
    /// audio. REST gives an object from format to URL; GraphQL a list of
    /// `AudioUrl` (the resolver below).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[graphql(skip)]
    pub audio_urls: Option<AudioUrls>,
    /// Who speaks the audio: a synthesizer and its voice, or a recording;
    /// absent without audio. Every rendition is the same speech.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub audio_source: Option<AudioSource>,
    /// Found through an inflected form: the lemma's headword that was used
    /// (`go` for `went`). REST gives it as `meta.lemma`, GraphQL as a field.
    #[serde(skip)]
    pub lemma: Option<String>,
    /// Found through an inflected form: the word as asked (`went`). REST
    /// gives it as `meta.inflection`, GraphQL as a field.
    #[serde(skip)]
    pub inflection: Option<String>,
}

impl Entry {
    /// The entry as search lists it: the posting its dictionary's manifest
    /// holds.
    pub fn posting(&self) -> Posting {
        PostingFields {
            folded: fold(&self.word),
            word: self.word.clone(),
            dictionary: DictionaryRef {
                id: self.dictionary_id.clone(),
                source_lang: self.source_lang.clone(),
                target_lang: self.target_lang.clone(),
            }
            .into(),
            part_of_speech: self.part_of_speech.as_deref().map(Into::into),
            has_audio: self.has_audio,
            id: self.id.clone(),
            preview: crate::search::preview(&self.plain_text),
            phonetic: self.phonetic.clone(),
            definition: definition_text(&self.plain_text, &self.examples),
        }
        .into()
    }
}

#[async_graphql::ComplexObject]
impl Entry {
    /// Each format's direct URL (as `audioUrl`: a CDN URL or a presigned S3
    /// GET), in the order of `audioFormats`; null without audio. A page that
    /// plays the audio gives an `<audio>` element one `<source>` per format.
    async fn audio_urls(&self) -> Option<Vec<AudioUrl>> {
        self.audio_urls.as_ref().map(|urls| urls.0.clone())
    }
}

/// A format of pronunciation audio. Its name is the extension of its S3
/// key, its name in `audioFormats` and the audio endpoint's `format` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AudioFormat {
    /// MPEG audio layer III: every browser plays it.
    Mp3,
    /// Speex in Ogg: smaller, but browsers do not play it.
    Spx,
}

impl AudioFormat {
    pub const ALL: [AudioFormat; 2] = [AudioFormat::Mp3, AudioFormat::Spx];

    pub fn name(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "mp3",
            AudioFormat::Spx => "spx",
        }
    }

    /// The format of exactly this name (lower case, as `name` gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format of an S3 key, from its extension.
    pub fn of_key(key: &str) -> Option<Self> {
        key.rsplit_once('.')
            .and_then(|(_, extension)| Self::from_name(extension))
    }

    pub fn content_type(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "audio/mpeg",
            AudioFormat::Spx => "audio/ogg; codecs=speex",
        }
    }

    /// `mp3, spx`: the names, for messages.
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

impl std::fmt::Display for AudioFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for AudioFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Self::from_name(name).ok_or_else(|| format!("must be one of {}", Self::names()))
    }
}

/// Where an entry's audio comes from. Its S3 key says it: a key under
/// `audio/espeak-ng/{voice}/` was synthesized by espeak-ng in that voice, one
/// under `audio/recorded/{collection}/` is a person's recording from that
/// collection, and one of the keys the importer
/// gave before (`audio/{dictionary}/{entry}`) was synthesized by espeak-ng
/// in the entry's language, as every import then was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AudioSource {
    /// `synthesized` or `recorded`.
    pub kind: String,
    /// The synthesizer (`espeak-ng`); absent for a recording.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub synthesizer: Option<String>,
    /// The synthesizer's voice (`fr`); absent for a recording.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub voice: Option<String>,
    /// The collection a recording comes from (`ktuberling`); absent for
    /// synthesized speech.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub collection: Option<String>,
}

/// The S3 folder of espeak-ng's audio, one folder per voice below it.
pub const ESPEAK_AUDIO_PREFIX: &str = "audio/espeak-ng/";
/// The S3 folder of recorded audio, one folder per collection below it.
pub const RECORDED_AUDIO_PREFIX: &str = "audio/recorded/";

impl AudioSource {
    pub fn synthesized(synthesizer: &str, voice: &str) -> Self {
        Self {
            kind: "synthesized".into(),
            synthesizer: Some(synthesizer.into()),
            voice: Some(voice.into()),
            collection: None,
        }
    }

    pub fn recorded(collection: &str) -> Self {
        Self {
            kind: "recorded".into(),
            synthesizer: None,
            voice: None,
            collection: Some(collection.into()),
        }
    }

    /// The source of the audio at `key`, of an entry in `lang`.
    pub fn of_key(key: &str, lang: &str) -> Self {
        if let Some(rest) = key.strip_prefix(RECORDED_AUDIO_PREFIX) {
            return Self::recorded(rest.split('/').next().unwrap_or_default());
        }
        let voice = key
            .strip_prefix(ESPEAK_AUDIO_PREFIX)
            .and_then(|rest| rest.split_once('/'))
            .map_or(lang, |(voice, _)| voice);
        Self::synthesized("espeak-ng", voice)
    }
}

/// One rendition of an entry's audio and its URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
pub struct AudioUrl {
    /// `mp3` or `spx`.
    pub format: String,
    pub url: String,
}

/// An entry's audio URLs in the order of its formats. Serialized as an
/// object from format to URL, in that order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AudioUrls(pub Vec<AudioUrl>);

impl Serialize for AudioUrls {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for audio in &self.0 {
            map.serialize_entry(&audio.format, &audio.url)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for AudioUrls {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = AudioUrls;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object from audio format to URL")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<AudioUrls, A::Error> {
                let mut urls = Vec::new();
                while let Some((format, url)) = map.next_entry()? {
                    urls.push(AudioUrl { format, url });
                }
                Ok(AudioUrls(urls))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// One stored rendition of an entry's audio: its format and S3 key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAudio {
    pub format: AudioFormat,
    pub key: String,
}

impl StoredAudio {
    /// The rendition at `key`, its format read from the key's extension;
    /// `None` for a format this build does not know.
    pub(crate) fn from_key(key: String) -> Option<Self> {
        AudioFormat::of_key(&key).map(|format| Self { format, key })
    }
}

/// What storage holds for an entry: the public fields plus what only the
/// service needs (lemma flag for "entry by word", the S3 keys of the audio).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntry {
    pub entry: Entry,
    pub is_lemma: bool,
    /// The entry's audio, primary format first; empty without audio.
    pub audio: Vec<StoredAudio>,
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

/// The relationship types of decisions.md, in the order results list them:
/// the words a writer can use in place of the word first.
pub const RELATIONSHIP_TYPES: [&str; 7] = [
    "synonym",
    "similar",
    "antonym",
    "derivation",
    "related",
    "hypernym",
    "hyponym",
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
            phonetic: Some("bæŋk".into()),
            ..Default::default()
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
            "audioUrls",
            "translations",
        ] {
            assert!(!object.contains_key(absent), "{absent} should be omitted");
        }
        assert!(object.contains_key("phonetic"));
        assert_eq!(value["audioFormats"], json!([]), "always present");
    }

    #[test]
    fn the_audio_source_is_read_from_the_key() {
        let espeak = AudioSource::of_key("audio/espeak-ng/fr/0a1b2c3d4e5f6789.spx", "de");
        assert_eq!(espeak, AudioSource::synthesized("espeak-ng", "fr"));
        assert_eq!(
            serde_json::to_value(&espeak).unwrap(),
            json!({"kind": "synthesized", "synthesizer": "espeak-ng", "voice": "fr"})
        );
        // The keys of every import before voices were named: espeak-ng in
        // the entry's language.
        assert_eq!(
            AudioSource::of_key("audio/freedict-eng-fra/00ff.mp3", "en"),
            AudioSource::synthesized("espeak-ng", "en")
        );
        let recorded = AudioSource::of_key("audio/recorded/ktuberling/en/00ff.mp3", "en");
        assert_eq!(
            serde_json::to_value(&recorded).unwrap(),
            json!({"kind": "recorded", "collection": "ktuberling"})
        );
    }

    #[test]
    fn audio_urls_are_an_object_in_the_order_of_the_formats() {
        let mut entry = sample();
        entry.has_audio = true;
        entry.audio_formats = vec!["spx".into(), "mp3".into()];
        entry.audio_url = Some("https://cdn/a.spx".into());
        entry.audio_urls = Some(AudioUrls(vec![
            AudioUrl {
                format: "spx".into(),
                url: "https://cdn/a.spx".into(),
            },
            AudioUrl {
                format: "mp3".into(),
                url: "https://cdn/a.mp3".into(),
            },
        ]));
        let value = serde_json::to_value(&entry).unwrap();
        assert_eq!(value["audioFormats"], json!(["spx", "mp3"]));
        assert_eq!(
            value["audioUrls"],
            json!({"spx": "https://cdn/a.spx", "mp3": "https://cdn/a.mp3"})
        );
        let keys: Vec<&String> = value["audioUrls"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["spx", "mp3"], "primary first");
        let back: Entry = serde_json::from_value(value).unwrap();
        assert_eq!(back, entry);
    }

    #[test]
    fn audio_formats_by_name_and_by_key() {
        assert_eq!(AudioFormat::from_name("mp3"), Some(AudioFormat::Mp3));
        assert_eq!("spx".parse::<AudioFormat>(), Ok(AudioFormat::Spx));
        for bad in ["", "MP3", "wav", " mp3", "mp3 ", "ogg"] {
            assert_eq!(AudioFormat::from_name(bad), None, "{bad:?}");
        }
        assert_eq!(
            "wav".parse::<AudioFormat>(),
            Err("must be one of mp3, spx".to_string())
        );
        assert_eq!(
            AudioFormat::of_key("audio/freedict-fra-eng/00ff.spx"),
            Some(AudioFormat::Spx)
        );
        assert_eq!(AudioFormat::of_key("audio/d/x.mp3"), Some(AudioFormat::Mp3));
        assert_eq!(AudioFormat::of_key("audio/d/x.wav"), None);
        assert_eq!(AudioFormat::of_key("audio/d/mp3"), None);
        for format in AudioFormat::ALL {
            assert_eq!(AudioFormat::from_name(&format.to_string()), Some(format));
        }
    }
}
