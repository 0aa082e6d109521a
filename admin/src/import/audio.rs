//! Pronunciation audio: espeak-ng speaks a headword in its dictionary's source
//! language, lame (MP3) or speexenc (Speex in Ogg) encodes it, and the files go
//! to S3 under stable keys, so a re-import overwrites rather than adds. Every
//! entry with audio has an MP3 rendition, which every browser plays; a Speex
//! dictionary keeps Speex as its primary format beside it.

use super::error::ImportError;
use crate::output::say;
pub use shared::model::AudioFormat;
use shared::model::{StoredAudio, StoredEntry};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `--audio-format`: one of the format names (`mp3`, `spx`), listed in the
/// help.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = AudioFormat> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(AudioFormat::ALL.map(AudioFormat::name))
        .map(|name| AudioFormat::from_name(&name).expect("one of the possible values"))
}

/// The formats an entry's audio is stored in, primary first: the
/// dictionary's format, and MP3 besides when that is another.
pub fn renditions(primary: AudioFormat) -> Vec<AudioFormat> {
    let mut formats = vec![primary];
    if primary != AudioFormat::Mp3 {
        formats.push(AudioFormat::Mp3);
    }
    formats
}

/// The S3 key of an entry's audio in one format: stable for a stable entry
/// id, with the format as its extension (the functions read the format from
/// it).
pub fn audio_key(dictionary_id: &str, entry_id: &str, format: AudioFormat) -> String {
    format!("audio/{dictionary_id}/{entry_id}.{}", format.name())
}

/// Whether espeak-ng has a voice for the ISO 639-1 language.
pub fn has_voice(lang: &str) -> Result<bool, ImportError> {
    let output = Command::new("espeak-ng")
        .arg(format!("--voices={lang}"))
        .output()
        .map_err(ImportError::NoEspeak)?;
    // The first line is a header; any further line is a voice.
    Ok(String::from_utf8_lossy(&output.stdout).lines().count() > 1)
}

fn run(command: &mut Command, tool: &'static str) -> Result<(), ImportError> {
    let output = command
        .output()
        .map_err(|source| ImportError::ToolStart { tool, source })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(ImportError::ToolFailed {
            tool,
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        })
    }
}

/// Speaks `word` in `lang` into a WAV file in `work_dir`.
fn speak(word: &str, lang: &str, work_dir: &Path) -> Result<PathBuf, ImportError> {
    let wav = work_dir.join("word.wav");
    // `--` keeps a headword that starts with '-' from being read as an option.
    run(
        Command::new("espeak-ng")
            .args(["-v", lang, "-w"])
            .arg(&wav)
            .arg("--")
            .arg(word),
        "espeak-ng",
    )?;
    Ok(wav)
}

/// Encodes a WAV file; the bytes of the audio file.
fn encode(wav: &Path, format: AudioFormat, work_dir: &Path) -> Result<Vec<u8>, ImportError> {
    let encoded = work_dir.join(format!("word.{}", format.name()));
    match format {
        AudioFormat::Mp3 => run(
            Command::new("lame")
                .args(["--quiet", "-V", "6"])
                .arg(wav)
                .arg(&encoded),
            "lame",
        )?,
        AudioFormat::Spx => run(
            Command::new("speexenc")
                .arg("--quiet")
                .arg(wav)
                .arg(&encoded),
            "speexenc",
        )?,
    }
    std::fs::read(&encoded).map_err(|source| ImportError::ReadAudio {
        path: encoded.clone(),
        source,
    })
}

/// Speaks `word` in `lang` once and encodes it in each of `formats`; the
/// bytes of each audio file, in that order.
pub fn synthesize(
    word: &str,
    lang: &str,
    formats: &[AudioFormat],
    work_dir: &Path,
) -> Result<Vec<(AudioFormat, Vec<u8>)>, ImportError> {
    let wav = speak(word, lang, work_dir)?;
    formats
        .iter()
        .map(|&format| Ok((format, encode(&wav, format, work_dir)?)))
        .collect()
}

/// Names the audio of the entries whose headword is in `words` (compared
/// folded): records every rendition of `format` (see `renditions`), primary
/// first, under its stable key, and makes nothing yet, so that the
/// screening and `--strict` see the final items before any audio is made
/// ([`make_audio`] then makes what the kept entries name). Returns how many
/// entries will have audio; 0 when espeak-ng has no voice for the language.
pub fn plan_audio(
    entries: &mut [StoredEntry],
    words: &[String],
    format: AudioFormat,
) -> Result<usize, ImportError> {
    let Some(lang) = entries.first().map(|e| e.entry.source_lang.clone()) else {
        return Ok(0);
    };
    if words.is_empty() {
        return Ok(0);
    }
    if !has_voice(&lang)? {
        say!("espeak-ng has no {lang} voice: no audio");
        return Ok(0);
    }
    let formats = renditions(format);
    let wanted: Vec<String> = words.iter().map(|w| shared::fold::fold(w)).collect();
    let mut planned = 0;
    for stored in entries
        .iter_mut()
        .filter(|e| wanted.contains(&shared::fold::fold(&e.entry.word)))
    {
        stored.audio = formats
            .iter()
            .map(|&format| StoredAudio {
                format,
                key: audio_key(&stored.entry.dictionary_id, &stored.entry.id, format),
            })
            .collect();
        stored.entry.has_audio = true;
        stored.entry.audio_formats = formats.iter().map(|f| f.name().to_string()).collect();
        planned += 1;
    }
    Ok(planned)
}

/// Speaks and encodes the audio that [`plan_audio`] named for these entries
/// and uploads it. Returns how many entries got audio.
pub async fn make_audio(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    entries: &[StoredEntry],
) -> Result<usize, ImportError> {
    let work_dir = std::env::temp_dir().join(format!("dictadmin-audio-{}", std::process::id()));
    std::fs::create_dir_all(&work_dir).map_err(ImportError::io(&work_dir))?;
    let mut made = 0;
    for stored in entries.iter().filter(|e| !e.audio.is_empty()) {
        let formats: Vec<AudioFormat> = stored.audio.iter().map(|a| a.format).collect();
        let files = synthesize(
            &stored.entry.word,
            &stored.entry.source_lang,
            &formats,
            &work_dir,
        )?;
        for (audio, (format, bytes)) in stored.audio.iter().zip(files) {
            s3.put_object()
                .bucket(bucket)
                .key(&audio.key)
                .content_type(format.content_type())
                .body(bytes.into())
                .send()
                .await
                .map_err(|e| ImportError::UploadAudio {
                    key: audio.key.clone(),
                    message: aws_sdk_s3::error::DisplayErrorContext(e).to_string(),
                })?;
        }
        made += 1;
    }
    let _ = std::fs::remove_dir_all(&work_dir);
    Ok(made)
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
        for format in AudioFormat::ALL {
            assert_eq!(
                AudioFormat::of_key(&audio_key("d", "x", format)),
                Some(format),
                "the functions read the format back from the key"
            );
        }
    }

    #[test]
    fn every_format_has_an_mp3_rendition_after_the_primary() {
        assert_eq!(renditions(AudioFormat::Mp3), [AudioFormat::Mp3]);
        assert_eq!(
            renditions(AudioFormat::Spx),
            [AudioFormat::Spx, AudioFormat::Mp3]
        );
    }

    #[test]
    fn the_format_option_takes_the_format_names() {
        #[derive(clap::Parser)]
        struct Args {
            #[arg(long, value_parser = format_parser())]
            audio_format: AudioFormat,
        }
        let parse = |value: &str| {
            <Args as clap::Parser>::try_parse_from(["x", "--audio-format", value])
                .map(|a| a.audio_format)
        };
        assert_eq!(parse("mp3").unwrap(), AudioFormat::Mp3);
        assert_eq!(parse("spx").unwrap(), AudioFormat::Spx);
        assert!(parse("wav").is_err());
    }

    /// Runs the real tools (installed by infra/scripts/install-audio-tools.sh).
    #[test]
    fn synthesizes_both_formats() {
        if Command::new("espeak-ng").arg("--version").output().is_err() {
            panic!("espeak-ng is not installed: run infra/scripts/install-audio-tools.sh");
        }
        let dir = std::env::temp_dir().join(format!("audio-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mp3 = synthesize("bank", "en", &[AudioFormat::Mp3], &dir).unwrap();
        assert_eq!(mp3.len(), 1);
        let (format, mp3) = &mp3[0];
        assert_eq!(*format, AudioFormat::Mp3);
        assert!(mp3.len() > 1000);
        assert!(
            mp3.starts_with(b"ID3") || mp3[0] == 0xFF,
            "an MP3 frame or tag"
        );
        let both = synthesize("-école", "fr", &renditions(AudioFormat::Spx), &dir).unwrap();
        assert_eq!(both[0].0, AudioFormat::Spx);
        assert!(both[0].1.starts_with(b"OggS"));
        assert_eq!(both[1].0, AudioFormat::Mp3);
        assert!(both[1].1.starts_with(b"ID3") || both[1].1[0] == 0xFF);
        assert!(has_voice("fr").unwrap());
        assert!(!has_voice("qq").unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
