//! Pronunciation audio: 302 to the file (MP3 or Speex), 404 without audio.

use blackbox::{client, enc, get_demo};

async fn entry(source: &str, word: &str) -> serde_json::Value {
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

#[tokio::test]
async fn mp3_audio_redirects_to_a_real_file() {
    let bank = entry("freedict-eng-fra", "bank").await;
    assert_eq!(bank["hasAudio"], true);
    let audio_url = bank["audioUrl"].as_str().unwrap();
    assert!(path_of(audio_url).ends_with(".mp3"), "{audio_url}");

    let reply = get_demo(&format!(
        "/api/v1/api/audio/freedict-eng-fra/{}",
        bank["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(reply.status, 302);
    let location = reply.header("location").unwrap();
    assert_eq!(path_of(location), path_of(audio_url));
    let bytes = fetch(location).await;
    assert!(bytes.starts_with(b"ID3") || bytes[0] == 0xFF, "an MP3 file");
}

#[tokio::test]
async fn speex_audio_for_french() {
    let ecole = entry("freedict-fra-eng", "école").await;
    let audio_url = ecole["audioUrl"].as_str().unwrap();
    assert!(path_of(audio_url).ends_with(".spx"), "{audio_url}");
    let reply = get_demo(&format!(
        "/api/v1/api/audio/freedict-fra-eng/{}",
        ecole["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(reply.status, 302);
    assert!(fetch(reply.header("location").unwrap())
        .await
        .starts_with(b"OggS"));
}

#[tokio::test]
async fn entries_without_audio_and_unknown_entries_are_404() {
    let spanish = entry("freedict-eng-spa", "dog").await;
    assert_eq!(spanish["hasAudio"], false);
    assert!(spanish.get("audioUrl").is_none());
    let reply = get_demo(&format!(
        "/api/v1/api/audio/freedict-eng-spa/{}",
        spanish["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!((reply.status, reply.error()), (404, "No audio found"));

    let reply = get_demo("/api/v1/api/audio/freedict-eng-spa/0123456789abcdef").await;
    assert_eq!((reply.status, reply.error()), (404, "Entry not found"));
    let reply = get_demo("/api/v1/api/audio/nope/0123456789abcdef").await;
    assert_eq!(
        (reply.status, reply.error()),
        (404, "Unknown dictionary: nope")
    );
}
