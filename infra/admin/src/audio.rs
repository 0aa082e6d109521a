//! Pronunciation audio: espeak-ng speaks a headword in its dictionary's source
//! language, lame (MP3) or speexenc (Speex in Ogg) encodes it, and the file goes
//! to S3 under a stable key, so a re-import overwrites rather than adds.

use shared::model::StoredEntry;
use std::path::Path;
use std::process::Command;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AudioFormat {
    Mp3,
    Spx,
}

impl AudioFormat {
    pub fn extension(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "mp3",
            AudioFormat::Spx => "spx",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "audio/mpeg",
            AudioFormat::Spx => "audio/ogg; codecs=speex",
        }
    }
}

/// The S3 key of an entry's audio: stable for a stable entry id.
pub fn audio_key(dictionary_id: &str, entry_id: &str, format: AudioFormat) -> String {
    format!("audio/{dictionary_id}/{entry_id}.{}", format.extension())
}

/// Whether espeak-ng has a voice for the ISO 639-1 language.
pub fn has_voice(lang: &str) -> Result<bool, String> {
    let output = Command::new("espeak-ng")
        .arg(format!("--voices={lang}"))
        .output()
        .map_err(|e| format!("espeak-ng: {e} (run infra/scripts/install-audio-tools.sh)"))?;
    // The first line is a header; any further line is a voice.
    Ok(String::from_utf8_lossy(&output.stdout).lines().count() > 1)
}

fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("{what}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// Speaks `word` in `lang` and encodes it; the bytes of the audio file.
pub fn synthesize(
    word: &str,
    lang: &str,
    format: AudioFormat,
    work_dir: &Path,
) -> Result<Vec<u8>, String> {
    let wav = work_dir.join("word.wav");
    let encoded = work_dir.join(format!("word.{}", format.extension()));
    // `--` keeps a headword that starts with '-' from being read as an option.
    run(
        Command::new("espeak-ng")
            .args(["-v", lang, "-w"])
            .arg(&wav)
            .arg("--")
            .arg(word),
        "espeak-ng",
    )?;
    match format {
        AudioFormat::Mp3 => run(
            Command::new("lame")
                .args(["--quiet", "-V", "6"])
                .arg(&wav)
                .arg(&encoded),
            "lame",
        )?,
        AudioFormat::Spx => run(
            Command::new("speexenc")
                .arg("--quiet")
                .arg(&wav)
                .arg(&encoded),
            "speexenc",
        )?,
    }
    std::fs::read(&encoded).map_err(|e| format!("reading {}: {e}", encoded.display()))
}

/// Gives audio to the entries whose headword is in `words` (compared folded):
/// synthesizes, uploads and sets `audio_key`. Returns how many got audio; 0
/// when espeak-ng has no voice for the language.
pub async fn add_audio(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    entries: &mut [StoredEntry],
    words: &[String],
    format: AudioFormat,
) -> Result<usize, String> {
    let Some(lang) = entries.first().map(|e| e.entry.source_lang.clone()) else {
        return Ok(0);
    };
    if words.is_empty() {
        return Ok(0);
    }
    if !has_voice(&lang)? {
        println!("espeak-ng has no {lang} voice: no audio");
        return Ok(0);
    }
    let wanted: Vec<String> = words.iter().map(|w| shared::fold::fold(w)).collect();
    let work_dir = std::env::temp_dir().join(format!("dictadmin-audio-{}", std::process::id()));
    std::fs::create_dir_all(&work_dir).map_err(|e| format!("{}: {e}", work_dir.display()))?;
    let mut added = 0;
    for stored in entries
        .iter_mut()
        .filter(|e| wanted.contains(&shared::fold::fold(&e.entry.word)))
    {
        let bytes = synthesize(&stored.entry.word, &lang, format, &work_dir)?;
        let key = audio_key(&stored.entry.dictionary_id, &stored.entry.id, format);
        s3.put_object()
            .bucket(bucket)
            .key(&key)
            .content_type(format.content_type())
            .body(bytes.into())
            .send()
            .await
            .map_err(|e| crate::sdk_error(format!("uploading {key}"), e))?;
        stored.audio_key = Some(key);
        stored.entry.has_audio = true;
        added += 1;
    }
    let _ = std::fs::remove_dir_all(&work_dir);
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_and_carry_the_format() {
        assert_eq!(
            audio_key("freedict-eng-fra", "ca0e5aa6bf1c6edd", AudioFormat::Mp3),
            "audio/freedict-eng-fra/ca0e5aa6bf1c6edd.mp3"
        );
        assert!(audio_key("d", "x", AudioFormat::Spx).ends_with(".spx"));
    }

    /// Runs the real tools (installed by infra/scripts/install-audio-tools.sh).
    #[test]
    fn synthesizes_both_formats() {
        if Command::new("espeak-ng").arg("--version").output().is_err() {
            panic!("espeak-ng is not installed: run infra/scripts/install-audio-tools.sh");
        }
        let dir = std::env::temp_dir().join(format!("audio-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mp3 = synthesize("bank", "en", AudioFormat::Mp3, &dir).unwrap();
        assert!(mp3.len() > 1000);
        assert!(
            mp3.starts_with(b"ID3") || mp3[0] == 0xFF,
            "an MP3 frame or tag"
        );
        let spx = synthesize("-école", "fr", AudioFormat::Spx, &dir).unwrap();
        assert!(spx.starts_with(b"OggS"));
        assert!(has_voice("fr").unwrap());
        assert!(!has_voice("qq").unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
