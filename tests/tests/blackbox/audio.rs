//! Pronunciation audio: 302 to the file (MP3 or Speex), 404 without audio.
//! Every entry of a dictionary imported with audio has it: a person's
//! recording where data/recorded-audio/ has one for its word, else
//! synthesized by espeak-ng, and labelled so. Every entry with audio has an MP3 rendition;
//! Speex dictionaries keep Speex as the primary format. Entries list their
//! formats and each format's URL, over REST and GraphQL.

use blackbox::{client, demo_key, enc, get_demo, stack_clients};
use serde_json::{json, Value};

async fn entry(source: &str, word: &str) -> Value {
    get_demo(&format!("/api/v1/api/entry/{source}/word/{}", enc(word)))
        .await
        .data()
        .clone()
}

/// The path of a URL, without the query (presigned URLs carry their signature there).
fn path_of(url: &str) -> &str {
    url.split('?').next().unwrap()
}

async fn fetch(url: &str) -> Vec<u8> {
    let response = client()
        .get(url)
        .send()
        .await
        .expect("the audio URL answers");
    assert_eq!(response.status().as_u16(), 200, "{url}");
    response.bytes().await.unwrap().to_vec()
}

fn is_mp3(bytes: &[u8]) -> bool {
    // An ID3 tag, or an MPEG audio frame's sync word (11 set bits).
    bytes.starts_with(b"ID3") || (bytes.len() > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
}

fn is_speex(bytes: &[u8]) -> bool {
    bytes.starts_with(b"OggS")
}

/// GET the audio endpoint of an entry, with `query` (`?format=mp3` or "").
async fn audio(source: &str, id: &str, query: &str) -> blackbox::Reply {
    get_demo(&format!("/api/v1/api/audio/{source}/{id}{query}")).await
}

/// The `Location` of a 302 from the audio endpoint.
async fn redirect(source: &str, id: &str, query: &str) -> String {
    let reply = audio(source, id, query).await;
    assert_eq!(reply.status, 302, "{source}/{id}{query}: {}", reply.text);
    reply.header("location").unwrap().to_string()
}

/// `audioUrls` of a REST entry as format → URL path, in its order.
fn url_paths(entry: &Value) -> Vec<(String, String)> {
    entry["audioUrls"]
        .as_object()
        .unwrap_or_else(|| panic!("audioUrls is an object: {entry}"))
        .iter()
        .map(|(format, url)| (format.clone(), path_of(url.as_str().unwrap()).to_string()))
        .collect()
}

#[tokio::test]
async fn mp3_audio_redirects_to_a_real_file() {
    let bank = entry("freedict-eng-fra", "bank").await;
    assert_eq!(bank["hasAudio"], true);
    let audio_url = bank["audioUrl"].as_str().unwrap();
    assert!(path_of(audio_url).ends_with(".mp3"), "{audio_url}");
    let id = bank["id"].as_str().unwrap();

    let location = redirect("freedict-eng-fra", id, "").await;
    assert_eq!(path_of(&location), path_of(audio_url));
    assert!(is_mp3(&fetch(&location).await), "an MP3 file");
    let explicit = redirect("freedict-eng-fra", id, "?format=mp3").await;
    assert_eq!(path_of(&explicit), path_of(audio_url));
}

#[tokio::test]
async fn an_mp3_dictionary_has_only_mp3() {
    let bank = entry("freedict-eng-fra", "bank").await;
    assert_eq!(bank["audioFormats"], json!(["mp3"]));
    let audio_url = path_of(bank["audioUrl"].as_str().unwrap()).to_string();
    assert_eq!(url_paths(&bank), [("mp3".to_string(), audio_url)]);
    let reply = audio(
        "freedict-eng-fra",
        bank["id"].as_str().unwrap(),
        "?format=spx",
    )
    .await;
    assert_eq!((reply.status, reply.error()), (404, "No audio found"));
}

#[tokio::test]
async fn speex_audio_for_french() {
    let ecole = entry("freedict-fra-eng", "école").await;
    let audio_url = ecole["audioUrl"].as_str().unwrap();
    assert!(path_of(audio_url).ends_with(".spx"), "{audio_url}");
    let location = redirect("freedict-fra-eng", ecole["id"].as_str().unwrap(), "").await;
    assert!(is_speex(&fetch(&location).await));
}

#[tokio::test]
async fn a_speex_entry_has_an_mp3_rendition_too() {
    let maison = entry("freedict-fra-eng", "maison").await;
    let id = maison["id"].as_str().unwrap();
    assert_eq!(maison["hasAudio"], true);
    assert_eq!(maison["audioFormats"], json!(["spx", "mp3"]));
    let primary = path_of(maison["audioUrl"].as_str().unwrap()).to_string();
    assert!(primary.ends_with(".spx"), "{primary}");
    let paths = url_paths(&maison);
    assert_eq!(paths.len(), 2, "{maison}");
    assert_eq!(paths[0], ("spx".to_string(), primary.clone()));
    assert_eq!(paths[1].0, "mp3");
    assert_eq!(paths[1].1, primary.replace(".spx", ".mp3"));

    // ?format=mp3: the MP3 object, which exists and is MP3.
    let mp3 = redirect("freedict-fra-eng", id, "?format=mp3").await;
    assert!(path_of(&mp3).ends_with(".mp3"), "{mp3}");
    assert_eq!(path_of(&mp3), paths[1].1);
    let bytes = fetch(&mp3).await;
    assert!(
        is_mp3(&bytes),
        "an MP3 file: {:?}",
        &bytes[..bytes.len().min(4)]
    );

    // ?format=spx, and no format: the Speex file.
    let spx = redirect("freedict-fra-eng", id, "?format=spx").await;
    assert_eq!(path_of(&spx), primary);
    assert!(is_speex(&fetch(&spx).await));
    let default = redirect("freedict-fra-eng", id, "").await;
    assert_eq!(path_of(&default), primary, "the primary format");

    // The entry's own URLs are the files themselves (what an <audio>
    // element's <source>s load, without a key).
    let urls = maison["audioUrls"].as_object().unwrap();
    assert!(is_speex(&fetch(urls["spx"].as_str().unwrap()).await));
    assert!(is_mp3(&fetch(urls["mp3"].as_str().unwrap()).await));
}

#[tokio::test]
async fn formats_other_than_mp3_and_spx_are_400() {
    let maison = entry("freedict-fra-eng", "maison").await;
    let id = maison["id"].as_str().unwrap();
    for query in [
        "?format=wav",
        "?format=",
        "?format=MP3",
        "?format=ogg",
        "?format=mp3x",
    ] {
        let reply = audio("freedict-fra-eng", id, query).await;
        assert_eq!(
            (reply.status, reply.error()),
            (400, "format must be one of mp3, spx"),
            "{query}"
        );
    }
    // Before any read: the same for an entry without audio.
    let reply = audio("freedict-eng-spa", "0123456789abcdef", "?format=wav").await;
    assert_eq!(
        (reply.status, reply.error()),
        (400, "format must be one of mp3, spx")
    );
}

#[tokio::test]
async fn entries_without_audio_and_unknown_entries_are_404() {
    // The fixture's GCIDE is imported without audio.
    let able = entry("gcide", "able").await;
    assert_eq!(able["hasAudio"], false);
    assert!(able.get("audioUrl").is_none());
    assert!(able.get("audioSource").is_none());
    assert_eq!(able["audioFormats"], json!([]), "always present");
    assert!(able.get("audioUrls").is_none());
    let by_id = get_demo(&format!(
        "/api/v1/entry/gcide/{}",
        able["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(by_id.data()["audioFormats"], json!([]));
    assert!(by_id.data().get("audioUrls").is_none());
    for query in ["", "?format=mp3", "?format=spx"] {
        let reply = audio("gcide", able["id"].as_str().unwrap(), query).await;
        assert_eq!(
            (reply.status, reply.error()),
            (404, "No audio found"),
            "{query}"
        );
    }

    let reply = audio("freedict-eng-spa", "0123456789abcdef", "").await;
    assert_eq!((reply.status, reply.error()), (404, "Entry not found"));
    let reply = audio("freedict-eng-spa", "0123456789abcdef", "?format=mp3").await;
    assert_eq!((reply.status, reply.error()), (404, "Entry not found"));
    let reply = audio("nope", "0123456789abcdef", "").await;
    assert_eq!(
        (reply.status, reply.error()),
        (404, "Unknown dictionary: nope")
    );
}

#[tokio::test]
async fn the_entry_by_id_lists_the_same_audio() {
    let maison = entry("freedict-fra-eng", "maison").await;
    let by_id = get_demo(&format!(
        "/api/v1/entry/freedict-fra-eng/{}",
        maison["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(by_id.data()["audioFormats"], json!(["spx", "mp3"]));
    assert_eq!(url_paths(by_id.data()), url_paths(&maison));
}

#[tokio::test]
async fn graphql_lists_the_formats_and_their_urls() {
    const FIELDS: &str =
        "id hasAudio audioUrl audioFormats audioUrls { format url } audioSource { kind synthesizer voice }";
    let query = format!(
        "query E($id: String!, $source: String!, $word: String!) {{ entry(id: $id, source: $source) {{ {FIELDS} }} wordEntry(word: $word, source: $source) {{ {FIELDS} }} }}"
    );
    for (source, word, formats) in [
        ("freedict-fra-eng", "maison", json!(["spx", "mp3"])),
        ("freedict-eng-fra", "bank", json!(["mp3"])),
        ("gcide", "able", json!([])),
    ] {
        let rest = entry(source, word).await;
        let body = json!({
            "query": query,
            "variables": {"id": rest["id"], "source": source, "word": word},
        });
        let reply = blackbox::graphql_body(Some(&demo_key()), &body).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert!(reply.json.get("errors").is_none(), "{}", reply.text);
        for field in ["entry", "wordEntry"] {
            let got = &reply.json["data"][field];
            assert_eq!(got["audioFormats"], formats, "{word} {field}");
            assert_eq!(got["hasAudio"], rest["hasAudio"], "{word} {field}");
            if formats == json!([]) {
                assert_eq!(got["audioSource"], Value::Null, "{word} {field}");
                assert_eq!(got["audioUrls"], Value::Null, "{word} {field}");
                assert_eq!(got["audioUrl"], Value::Null, "{word} {field}");
                continue;
            }
            let listed: Vec<(String, String)> = got["audioUrls"]
                .as_array()
                .unwrap_or_else(|| panic!("a list: {got}"))
                .iter()
                .map(|u| {
                    (
                        u["format"].as_str().unwrap().to_string(),
                        path_of(u["url"].as_str().unwrap()).to_string(),
                    )
                })
                .collect();
            assert_eq!(listed, url_paths(&rest), "{word} {field}: primary first");
            let mut source = rest["audioSource"].clone();
            source["voice"] = source.get("voice").cloned().unwrap_or(Value::Null);
            source["synthesizer"] = source.get("synthesizer").cloned().unwrap_or(Value::Null);
            assert_eq!(got["audioSource"], source, "{word} {field}");
            assert_eq!(
                path_of(got["audioUrl"].as_str().unwrap()),
                listed[0].1,
                "{word} {field}"
            );
        }
    }
}

/// Issue 38: every entry of a dictionary imported with audio can be heard.
/// Ten random entries of each dictionary (all but the fixture's GCIDE, kept
/// without audio) each have an MP3 that their own URL serves (but a
/// headword without a letter or digit, which nothing speaks), spoken by
/// espeak-ng's voice of the dictionary's language, and say so.
#[tokio::test]
async fn random_entries_of_every_dictionary_play_and_say_who_speaks() {
    let listed = get_demo("/api/v1/api/dictionaries").await;
    let dictionaries = listed.data().as_array().expect("a list").clone();
    assert!(dictionaries.len() >= 8, "{dictionaries:?}");
    for dictionary in &dictionaries {
        let id = dictionary["dictionaryId"].as_str().unwrap();
        if id == "gcide" {
            continue;
        }
        let picks = get_demo(&format!("/api/v1/random?source={id}&count=10")).await;
        let picks = picks.data().as_array().expect("a list").clone();
        assert!(!picks.is_empty(), "{id}");
        for pick in picks {
            let entry_id = pick["id"].as_str().unwrap();
            let reply = get_demo(&format!("/api/v1/entry/{id}/{entry_id}")).await;
            let entry = reply.data();
            let word = &entry["word"];
            // A headword without a letter or digit ("...") is not spoken.
            let speakable = word.as_str().unwrap().chars().any(char::is_alphanumeric);
            assert_eq!(entry["hasAudio"], speakable, "{id} {word}");
            if !speakable {
                continue;
            }
            let lang = entry["sourceLang"].as_str().unwrap();
            let label = if entry["audioSource"]["kind"] == "recorded" {
                // Only a word the committed table lists is recorded (the
                // fixture's stack has an excerpt of it).
                assert!(
                    recorded_words()
                        .contains(&(lang.to_string(), word.as_str().unwrap().to_lowercase())),
                    "{id} {word}: recorded, but not in data/recorded-audio/ktuberling.tsv"
                );
                json!({"kind": "recorded", "collection": "ktuberling"})
            } else {
                json!({"kind": "synthesized", "synthesizer": "espeak-ng", "voice": lang})
            };
            assert_eq!(entry["audioSource"], label, "{id} {word}");
            let mp3 = entry["audioUrls"]["mp3"]
                .as_str()
                .expect("an MP3 rendition");
            let bytes = fetch(mp3).await;
            // A word is at least a tenth of a second: 400 bytes at 32 kbit/s.
            assert!(
                is_mp3(&bytes) && bytes.len() > 400,
                "{id} {word}: {} bytes",
                bytes.len()
            );
            let location = redirect(id, entry_id, "?format=mp3").await;
            assert_eq!(path_of(&location), path_of(mp3), "{id} {word}");
        }
    }
}

/// (language, word in lower case) of every row of the committed table of
/// recordings.
fn recorded_words() -> std::collections::HashSet<(String, String)> {
    let table = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/recorded-audio/ktuberling.tsv");
    std::fs::read_to_string(&table)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let mut fields = line.split('\t');
            let lang = fields.next().unwrap().to_string();
            (lang, fields.next().unwrap().to_lowercase())
        })
        .collect()
}

/// A word the committed recordings say (data/fixture/recorded-audio/) plays
/// its recording, in every rendition its dictionary asks for, and says it
/// is a person's, in REST and GraphQL; the same word in another language is
/// still synthesized.
#[tokio::test]
async fn recorded_words_play_the_recording_and_say_so() {
    let recorded = json!({"kind": "recorded", "collection": "ktuberling"});
    for (source, word) in [
        ("freedict-eng-fra", "hat"),
        ("freedict-eng-spa", "olive"),
        ("freedict-fra-eng", "lapin"),
    ] {
        let entry = entry(source, word).await;
        assert_eq!(entry["audioSource"], recorded, "{source} {word}");
        let paths = url_paths(&entry);
        for (format, path) in &paths {
            assert!(
                path.contains("/audio/recorded/ktuberling/"),
                "{source} {word}: {path}"
            );
            let bytes = fetch(entry["audioUrls"][format].as_str().unwrap()).await;
            let plays = match format.as_str() {
                "mp3" => is_mp3(&bytes),
                _ => is_speex(&bytes),
            };
            // A recording is about a second: over 2 KB at 32 kbit/s.
            assert!(
                plays && bytes.len() > 2_000,
                "{source} {word} {format}: {} bytes",
                bytes.len()
            );
        }
        let id = entry["id"].as_str().unwrap();
        let location = redirect(source, id, "?format=mp3").await;
        assert!(
            path_of(&location).contains("/audio/recorded/ktuberling/"),
            "{location}"
        );
    }
    // The Speex dictionary's recorded word has both renditions.
    let lapin = entry("freedict-fra-eng", "lapin").await;
    assert_eq!(lapin["audioFormats"], json!(["spx", "mp3"]));
    // GraphQL says the same.
    let reply = blackbox::graphql(
        r#"{ wordEntry(source: "freedict-eng-fra", word: "hat") { audioSource { kind collection synthesizer voice } } }"#,
        json!({}),
    )
    .await;
    assert_eq!(
        reply.json["data"]["wordEntry"]["audioSource"],
        json!({"kind": "recorded", "collection": "ktuberling", "synthesizer": null, "voice": null}),
        "{}",
        reply.text
    );
    // A word no recording says is espeak-ng's.
    let bank = entry("freedict-eng-fra", "bank").await;
    assert_eq!(bank["audioSource"]["kind"], "synthesized");
}

/// An entry item written before there were several formats has only
/// `audioKey`: its one format is its key's extension.
#[tokio::test]
async fn an_entry_stored_with_only_the_single_audio_key_still_plays() {
    let maison = entry("freedict-fra-eng", "maison").await;
    // The key scheme of dictadmin's import/audio.rs before synthesized
    // words were shared: the entry's own.
    let spx_key = format!(
        "audio/freedict-fra-eng/{}.spx",
        maison["id"].as_str().unwrap()
    );
    let shared_path = url_paths(&maison)[0].1.clone();
    let bucket_path = &shared_path[..shared_path.find("audio/espeak-ng/fr/").unwrap()];
    let spx_path = format!("{bucket_path}{spx_key}");
    let (clients, config) = stack_clients().await;
    let id = "blackbox-legacy-audio";
    let stored = shared::model::StoredEntry {
        entry: shared::model::Entry {
            id: id.into(),
            word: "maison".into(),
            html_content: "<p>house</p>".into(),
            plain_text: "house".into(),
            source_lang: "fr".into(),
            target_lang: Some("en".into()),
            dictionary_id: "freedict-fra-eng".into(),
            dictionary_name: "French–English".into(),
            has_audio: true,
            audio_formats: vec!["spx".into()],
            ..Default::default()
        },
        is_lemma: true,
        audio: vec![shared::model::StoredAudio {
            format: shared::model::AudioFormat::Spx,
            key: spx_key.clone(),
        }],
    };
    let mut item = shared::storage::items::entry_to_item(&stored);
    // As the import wrote it then; and no `wordKey`, so that no index and
    // no word lookup sees this test's item.
    item.remove("audioKeys");
    item.remove("wordKey");
    assert_eq!(item["audioKey"].as_s().unwrap(), &spx_key);
    clients
        .dynamodb
        .put_item()
        .table_name(&config.entries_table)
        .set_item(Some(item.clone()))
        .send()
        .await
        .unwrap();

    let by_id = get_demo(&format!("/api/v1/entry/freedict-fra-eng/{id}")).await;
    let default = audio("freedict-fra-eng", id, "").await;
    let spx = audio("freedict-fra-eng", id, "?format=spx").await;
    let mp3 = audio("freedict-fra-eng", id, "?format=mp3").await;
    clients
        .dynamodb
        .delete_item()
        .table_name(&config.entries_table)
        .key("pk", item["pk"].clone())
        .key("sk", item["sk"].clone())
        .send()
        .await
        .unwrap();

    let data = by_id.data();
    assert_eq!(data["hasAudio"], true, "{data}");
    assert_eq!(data["audioFormats"], json!(["spx"]));
    assert_eq!(url_paths(data), [("spx".to_string(), spx_path.clone())]);
    assert_eq!(
        data["audioSource"],
        json!({"kind": "synthesized", "synthesizer": "espeak-ng", "voice": "fr"}),
        "every import before voices were named was espeak-ng's"
    );
    for (reply, what) in [(&default, "no format"), (&spx, "spx")] {
        assert_eq!(reply.status, 302, "{what}: {}", reply.text);
        assert_eq!(
            path_of(reply.header("location").unwrap()),
            spx_path,
            "{what}"
        );
    }
    assert_eq!((mp3.status, mp3.error()), (404, "No audio found"));
}

/// Where the imports of this file keep their checkpoints.
fn state_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("audio-state-{}", std::process::id()))
}

/// Runs dictadmin against `table` instead of the stack's entries table; its
/// standard output.
fn dictadmin_into(table: &str, args: &[&str]) -> String {
    let out = dictadmin_output(table, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Headword → the `audioKeys` of its entry item, of every entry in `table`.
async fn stored_audio_keys(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> std::collections::BTreeMap<String, Vec<String>> {
    let page = client.scan().table_name(table).send().await.unwrap();
    assert!(page.last_evaluated_key.is_none(), "a small table");
    page.items()
        .iter()
        .filter(|item| item["pk"].as_s().unwrap().starts_with("E#"))
        .map(|item| {
            let keys = shared::storage::items::entry_audio(item)
                .into_iter()
                .map(|a| a.key)
                .collect();
            (item["word"].as_s().unwrap().clone(), keys)
        })
        .collect()
}

/// A word's synthesized audio is made once and shared: a re-import speaks
/// nothing again, and an entry that loses its audio loses its keys while
/// the word's files stay for whoever else has the word.
#[tokio::test]
async fn a_word_is_spoken_once_and_its_files_are_shared() {
    let (clients, config) = stack_clients().await;
    let bucket = config.audio_bucket.as_str();
    let table = format!("test-audio-shared-{}", std::process::id());
    dictadmin_into(&table, &["setup"]);
    let dir = std::env::temp_dir().join(format!("audio-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A language of its own (Swahili): its files are this test's alone.
    let source = dir.join("th_sw_TZ_v2.dat");
    let source_text = source.to_str().unwrap().to_string();
    std::fs::write(
        &source,
        "UTF-8\nsimba|1\n(noun)|simbani\ntembo|1\n(noun)|tembokubwa\nndege|1\n(noun)|ndegeni\n",
    )
    .unwrap();
    let import = |audio: &[&str]| {
        let mut args = vec!["import"];
        args.extend_from_slice(audio);
        args.extend(["mythes", source_text.as_str()]);
        dictadmin_into(&table, &args)
    };

    // Speex, with an MP3 rendition of each, under the voice's folder.
    let stdout = import(&["--audio-format", "spx"]);
    assert!(
        stdout.contains("mythes-sw: audio for 3 entries, 3 words spoken"),
        "{stdout}"
    );
    let first = stored_audio_keys(&clients.dynamodb, &table).await;
    assert_eq!(first.len(), 3, "{first:?}");
    for (word, keys) in &first {
        assert_eq!(keys.len(), 2, "{word}: {keys:?}");
        assert!(keys[0].starts_with("audio/espeak-ng/sw/"), "{keys:?}");
        assert!(
            keys[0].ends_with(".spx") && keys[1].ends_with(".mp3"),
            "{keys:?}"
        );
        assert_eq!(keys[1], keys[0].replace(".spx", ".mp3"));
        for key in keys {
            assert!(exists(&clients, bucket, key).await, "{key}");
        }
    }

    // Again: every file is there, nothing is spoken.
    let stdout = import(&["--audio-format", "spx"]);
    assert!(
        stdout.contains("audio for 3 entries, 0 words spoken"),
        "{stdout}"
    );
    assert_eq!(stored_audio_keys(&clients.dynamodb, &table).await, first);

    // ndege keeps its entry but loses its audio; the word's files stay.
    let stdout = import(&["--audio-format", "spx", "--audio-words", "simba,tembo"]);
    assert!(
        stdout.contains("1 entries no longer have audio"),
        "{stdout}"
    );
    let now = stored_audio_keys(&clients.dynamodb, &table).await;
    assert!(now["ndege"].is_empty(), "{now:?}");
    assert_eq!(now["simba"], first["simba"]);
    for key in first.values().flatten() {
        assert!(exists(&clients, bucket, key).await, "{key}");
    }

    // This test's files leave the stack's bucket with it.
    clean_up(&clients, bucket, first.values().flatten(), &table, &dir).await;
}

/// Leaves nothing of a test in the stack: the audio files it made, its
/// table, its folder and the imports' checkpoints.
async fn clean_up<'a>(
    clients: &shared::runtime::app::Clients,
    bucket: &str,
    keys: impl IntoIterator<Item = &'a String>,
    table: &str,
    dir: &std::path::Path,
) {
    for key in keys {
        clients
            .s3
            .delete_object()
            .bucket(bucket)
            .key(key)
            .send()
            .await
            .unwrap();
    }
    clients
        .dynamodb
        .delete_table()
        .table_name(table)
        .send()
        .await
        .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    let _ = std::fs::remove_dir_all(state_dir());
}

/// Runs dictadmin against `table`; its output, whether or not it succeeds.
fn dictadmin_output(table: &str, args: &[&str]) -> std::process::Output {
    blackbox::dictadmin_on_table(table, args, &[], &state_dir())
}

/// The objects of the stack's bucket under a dictionary's audio prefix.
async fn audio_objects(
    clients: &shared::runtime::app::Clients,
    bucket: &str,
    dictionary: &str,
) -> Vec<String> {
    let listed = clients
        .s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(format!("audio/{dictionary}/"))
        .send()
        .await
        .unwrap();
    listed
        .contents()
        .iter()
        .filter_map(|o| o.key().map(str::to_string))
        .collect()
}

/// Whether the stack's bucket has this object.
async fn exists(clients: &shared::runtime::app::Clients, bucket: &str, key: &str) -> bool {
    clients
        .s3
        .head_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .is_ok()
}

/// `--audio-later-below`: the rarer words' entries name their audio at once,
/// the words are listed, and `dictadmin audio speak-later` speaks them (and,
/// run again, nothing).
#[tokio::test]
async fn rarer_words_are_named_now_and_spoken_later() {
    let (clients, config) = stack_clients().await;
    let bucket = config.audio_bucket.as_str();
    let table = format!("test-audio-later-{}", std::process::id());
    dictadmin_into(&table, &["setup"]);
    let dir = std::env::temp_dir().join(format!("audio-later-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A language of its own (Esperanto): its files are this test's alone.
    let source = dir.join("th_eo_EO_v2.dat");
    std::fs::write(
        &source,
        "UTF-8\nhundo|1\n(noun)|kato\nlibro|1\n(noun)|volumo\n",
    )
    .unwrap();
    let later = dir.join("later.tsv");
    let (source_text, later_text) = (source.to_str().unwrap(), later.to_str().unwrap());
    // No Esperanto frequency list is stored: every word is rarer than 1.
    let stdout = dictadmin_into(
        &table,
        &[
            "import",
            "--audio-format",
            "mp3",
            "--audio-later-below",
            "1",
            "--audio-later-file",
            later_text,
            "mythes",
            source_text,
        ],
    );
    assert!(
        stdout.contains("audio for 2 entries, 0 words spoken and uploaded in")
            && stdout.contains("2 listed to speak later"),
        "{stdout}"
    );
    let keys = stored_audio_keys(&clients.dynamodb, &table).await;
    assert_eq!(keys.len(), 2, "{keys:?}");
    let listed = std::fs::read_to_string(&later).unwrap();
    assert_eq!(listed, "eo\tmp3\thundo\neo\tmp3\tlibro\n");
    for key in keys.values().flatten() {
        assert!(key.starts_with("audio/espeak-ng/eo/"), "{key}");
        assert!(!exists(&clients, bucket, key).await, "not yet: {key}");
    }

    let speak = |file: &str| dictadmin_into(&table, &["audio", "speak-later", file]);
    assert!(speak(later_text).contains("spoke and uploaded 2 words"));
    for key in keys.values().flatten() {
        assert!(exists(&clients, bucket, key).await, "{key}");
    }
    assert!(speak(later_text).contains("spoke and uploaded 0 words"));
    // A line that is not "voice<TAB>formats<TAB>word", or whose word has
    // nothing to speak, is refused.
    for bad in ["eo\tmp3\n", "eo\twav\thundo\n", "eo\tmp3\t...\n"] {
        std::fs::write(&later, bad).unwrap();
        let out = dictadmin_output(&table, &["audio", "speak-later", later_text]);
        assert_eq!(out.status.code(), Some(1), "{bad:?} {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("line 1 is not"),
            "{bad:?} {out:?}"
        );
    }

    clean_up(&clients, bucket, keys.values().flatten(), &table, &dir).await;
}

/// Issue 27: `--strict` refuses a dictionary before any audio is made, and
/// an import without audio leaves its entries without any (`--no-prune`
/// too).
#[tokio::test]
async fn strict_makes_no_audio_and_an_import_without_audio_names_none() {
    let (clients, config) = stack_clients().await;
    let bucket = config.audio_bucket.as_str();
    let table = format!("test-audio-flags-{}", std::process::id());
    dictadmin_into(&table, &["setup"]);
    let dir = std::env::temp_dir().join(format!("audio-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A language of its own (Welsh): its files are this test's alone.
    let source = dir.join("th_cy_GB_v2.dat");
    let source_text = source.to_str().unwrap().to_string();
    let storable = "UTF-8\ntyddyn|1\n(noun)|bwthyn\ncwm|1\n(noun)|dyffryn\n";
    let huge = "dyffryn dwfn ".repeat(40_000); // over DynamoDB's item limit
    std::fs::write(
        &source,
        format!("UTF-8\ntyddyn|1\n(noun)|bwthyn\ncwm|1\n(noun)|{huge}\n"),
    )
    .unwrap();
    let welsh_files = || audio_objects(&clients, bucket, "espeak-ng/cy");
    let before = welsh_files().await;

    // --strict: refused, and no audio was made, not even the storable
    // entry's.
    let out = dictadmin_output(
        &table,
        &[
            "import",
            "--strict",
            "--audio-format",
            "mp3",
            "mythes",
            &source_text,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nothing written, as --strict asks"),
        "{out:?}"
    );
    assert_eq!(welsh_files().await, before);
    std::fs::write(&source, storable).unwrap();
    let stdout = dictadmin_into(
        &table,
        &["import", "--audio-format", "mp3", "mythes", &source_text],
    );
    assert!(
        stdout.contains("mythes-cy: audio for 2 entries"),
        "{stdout}"
    );
    let keys: Vec<String> = stored_audio_keys(&clients.dynamodb, &table)
        .await
        .into_values()
        .flatten()
        .collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    for key in &keys {
        assert!(exists(&clients, bucket, key).await, "{key}");
    }

    // --no-prune without --audio-format: the entries stay, without audio.
    let stdout = dictadmin_into(&table, &["import", "--no-prune", "mythes", &source_text]);
    assert!(
        stdout.contains("2 entries no longer have audio"),
        "{stdout}"
    );
    let words = stored_audio_keys(&clients.dynamodb, &table).await;
    assert_eq!(words.len(), 2, "both entries stay: {words:?}");
    assert!(words.values().all(Vec::is_empty), "{words:?}");

    clean_up(&clients, bucket, &keys, &table, &dir).await;
}
