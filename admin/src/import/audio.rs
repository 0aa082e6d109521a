//! Pronunciation audio: espeak-ng speaks every headword of a dictionary
//! (or those `--audio-words` names) in its source language, lame (MP3) or
//! speexenc (Speex in Ogg) encodes it (speech.rs), and the files go to S3.
//! A synthesized word's key is its voice's and its own
//! (`audio/espeak-ng/{voice}/{hash}.{format}`), so that every entry of that
//! word in any dictionary shares one file, a re-import overwrites nothing
//! and a word already in the bucket is not spoken again. Every entry with
//! audio has an MP3 rendition, which every browser plays; a Speex
//! dictionary keeps Speex as its primary format beside it.

use super::dictionary::short_hex;
use super::error::ImportError;
use super::recordings::{self, Recordings};
use super::speech::{self, Speech};
use crate::output::say;
use futures::stream::{self, StreamExt, TryStreamExt};
use sha2::{Digest, Sha256};
pub use shared::model::AudioFormat;
use shared::model::{StoredAudio, StoredEntry, ESPEAK_AUDIO_PREFIX, RECORDED_AUDIO_PREFIX};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Words spoken by one espeak-ng process (speech.rs).
const BATCH_WORDS: usize = 200;
/// Words spoken and uploaded at a time: two chunks are held in memory.
const CHUNK_WORDS: usize = 1_000;
/// Uploads in flight at once.
const UPLOADS: usize = 16;

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

/// The S3 key of an entry's own audio in one format: stable for a stable
/// entry id, with the format as its extension (the functions read the
/// format from it). What the importer gave every entry before synthesized
/// words were shared, and what pruning (prune.rs) still deletes.
pub fn audio_key(dictionary_id: &str, entry_id: &str, format: AudioFormat) -> String {
    format!("audio/{dictionary_id}/{entry_id}.{}", format.name())
}

/// The S3 key of a word as espeak-ng's voice `voice` speaks it: the first 64
/// bits of the word's SHA-256 in hex, since a headword may hold any
/// character and a key should not.
pub fn synthesized_key(voice: &str, word: &str, format: AudioFormat) -> String {
    let hash = short_hex(&Sha256::digest(word.as_bytes()));
    format!("{ESPEAK_AUDIO_PREFIX}{voice}/{hash}.{}", format.name())
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

/// Which entries get audio, and in which format (the flags of `dictadmin
/// import`).
#[derive(Debug, Clone, Copy)]
pub struct AudioPlan<'a> {
    pub format: AudioFormat,
    /// Only these headwords (compared folded); every one when `None`.
    pub words: Option<&'a [String]>,
    /// The rarer words to name now and speak later, if any.
    pub later: Option<&'a SpeakLater>,
    /// Recorded words, which get their recording instead of speech.
    pub recordings: Option<&'a Recordings>,
}

/// `--audio-later-below` and `--audio-later-file`: words rarer than this
/// (Zipf frequency) are named by their entries now, but only listed in the
/// file, which `dictadmin audio speak-later` speaks. So an import that must
/// be quick (`make up`) speaks the common words, and the rest follow in the
/// background.
#[derive(Debug, Clone)]
pub struct SpeakLater {
    pub below: f64,
    pub file: PathBuf,
}

/// Names the audio of the entries with a speakable headword that `plan`
/// selects: records every rendition of `format` (see `renditions`), primary
/// first, under its key (its recording's, if the word is recorded, else its
/// synthesized speech's), and makes nothing yet, so that the screening and
/// `--strict` see the final items before any audio is made ([`make_audio`]
/// then makes what the kept entries name). Returns how many entries will
/// have audio; 0 when espeak-ng has no voice for the language.
pub fn plan_audio(entries: &mut [StoredEntry], plan: AudioPlan) -> Result<usize, ImportError> {
    let AudioPlan {
        format,
        words,
        recordings,
        ..
    } = plan;
    let Some(lang) = entries.first().map(|e| e.entry.source_lang.clone()) else {
        return Ok(0);
    };
    if words.is_some_and(<[String]>::is_empty) {
        return Ok(0);
    }
    if !has_voice(&lang)? {
        say!("espeak-ng has no {lang} voice: no audio");
        return Ok(0);
    }
    let formats = renditions(format);
    let wanted: Option<HashSet<String>> =
        words.map(|words| words.iter().map(|w| shared::fold::fold(w)).collect());
    let mut planned = 0;
    for stored in entries.iter_mut().filter(|e| {
        speech::is_speakable(&e.entry.word)
            && wanted
                .as_ref()
                .is_none_or(|wanted| wanted.contains(&shared::fold::fold(&e.entry.word)))
    }) {
        let word = &stored.entry.word;
        let recorded = recordings.filter(|r| r.has(&lang, word));
        stored.audio = formats
            .iter()
            .map(|&format| StoredAudio {
                format,
                key: match recorded {
                    Some(recordings) => recordings.key(&lang, word, format),
                    None => synthesized_key(&lang, word, format),
                },
            })
            .collect();
        stored.entry.has_audio = true;
        stored.entry.audio_formats = formats.iter().map(|f| f.name().to_string()).collect();
        planned += 1;
    }
    Ok(planned)
}

/// The synthesized audio already in the bucket, listed once a voice per
/// run: a word in it is not spoken again.
#[derive(Default)]
pub struct SpokenWords {
    listed: HashSet<String>,
    keys: HashSet<String>,
    /// The primary keys of the words listed to speak later in this run.
    later: HashSet<String>,
}

impl SpokenWords {
    /// Lists the keys under `prefix` (a voice's folder, or a collection's
    /// of a language), once a run.
    async fn list(
        &mut self,
        s3: &aws_sdk_s3::Client,
        bucket: &str,
        prefix: &str,
    ) -> Result<(), ImportError> {
        if !self.listed.insert(prefix.to_string()) {
            return Ok(());
        }
        let prefix = prefix.to_string();
        let mut pages = s3
            .list_objects_v2()
            .bucket(bucket)
            .prefix(&prefix)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| ImportError::ListAudio {
                prefix: prefix.clone(),
                message: aws_sdk_s3::error::DisplayErrorContext(e).to_string(),
            })?;
            self.keys.extend(
                page.contents()
                    .iter()
                    .filter_map(|o| o.key().map(String::from)),
            );
        }
        Ok(())
    }
}

/// What [`make_audio`] did.
#[derive(Debug, Default)]
pub struct MadeAudio {
    /// Entries that have audio.
    pub entries: usize,
    /// Words spoken: those the bucket did not hold yet.
    pub words: usize,
    /// Recordings encoded and uploaded: those the bucket did not hold yet.
    pub recorded: usize,
    /// Words listed to speak later.
    pub later: usize,
    /// Speaking, encoding and uploading them.
    pub took: Duration,
}

/// Speaks and encodes the audio that [`plan_audio`] named for these entries
/// and uploads what the bucket does not hold yet, a word once however many
/// entries name it.
pub async fn make_audio(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    entries: &[StoredEntry],
    spoken: &mut SpokenWords,
    plan: AudioPlan<'_>,
) -> Result<MadeAudio, ImportError> {
    let later = plan.later;
    let with_audio: Vec<&StoredEntry> = entries.iter().filter(|e| !e.audio.is_empty()).collect();
    let mut made = MadeAudio {
        entries: with_audio.len(),
        ..MadeAudio::default()
    };
    let Some(lang) = with_audio.first().map(|e| e.entry.source_lang.clone()) else {
        return Ok(made);
    };
    let (recorded, with_audio): (Vec<&StoredEntry>, Vec<&StoredEntry>) = with_audio
        .into_iter()
        .partition(|e| e.audio[0].key.starts_with(RECORDED_AUDIO_PREFIX));
    if let (Some(recordings), false) = (plan.recordings, recorded.is_empty()) {
        let started = Instant::now();
        spoken.list(s3, bucket, &recordings.prefix(&lang)).await?;
        made.recorded = upload_recorded(s3, bucket, &lang, recordings, &recorded, spoken).await?;
        made.took += started.elapsed();
    }
    if !with_audio.is_empty() {
        spoken
            .list(s3, bucket, &format!("{ESPEAK_AUDIO_PREFIX}{lang}/"))
            .await?;
    }
    // Each word to speak once, with the keys of its renditions; the rarer
    // ones to speak later, when asked.
    let mut wanted: BTreeMap<&str, &[StoredAudio]> = BTreeMap::new();
    let mut for_later: BTreeMap<&str, &[StoredAudio]> = BTreeMap::new();
    for stored in &with_audio {
        if stored.audio.iter().all(|a| spoken.keys.contains(&a.key))
            || spoken.later.contains(&stored.audio[0].key)
        {
            continue;
        }
        match later {
            Some(later) if stored.entry.frequency < later.below => {
                for_later.insert(&stored.entry.word, &stored.audio)
            }
            _ => wanted.insert(&stored.entry.word, &stored.audio),
        };
    }
    if let Some(later) = later {
        for_later.retain(|word, _| !wanted.contains_key(word));
        spoken
            .later
            .extend(for_later.values().map(|audio| audio[0].key.clone()));
        append_later(&later.file, &lang, &for_later)?;
        made.later = for_later.len();
    }
    let wanted: Vec<(String, Vec<StoredAudio>)> = wanted
        .into_iter()
        .map(|(word, audio)| (word.to_string(), audio.to_vec()))
        .collect();
    made.words = wanted.len();
    speak_and_upload(s3, bucket, &lang, wanted, spoken, &mut made).await?;
    Ok(made)
}

/// Speaks, encodes and uploads each word's renditions.
async fn speak_and_upload(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    lang: &str,
    wanted: Vec<(String, Vec<StoredAudio>)>,
    spoken: &mut SpokenWords,
    made: &mut MadeAudio,
) -> Result<(), ImportError> {
    let started = Instant::now();
    let work_dir = std::env::temp_dir().join(format!("dictadmin-audio-{}", std::process::id()));
    // One chunk is spoken while the one before uploads: speaking is the
    // encoders' work, uploading S3's (or the emulator's).
    let mut speaking: Option<Speaking> = None;
    for chunk in wanted.chunks(CHUNK_WORDS).map(<[_]>::to_vec) {
        let (lang, work_dir) = (lang.to_string(), work_dir.clone());
        let next = tokio::task::spawn_blocking(move || synthesize_chunk(&chunk, &lang, &work_dir));
        if let Some(previous) = speaking.replace(next) {
            upload_spoken(s3, bucket, previous, spoken).await?;
        }
    }
    if let Some(last) = speaking {
        upload_spoken(s3, bucket, last, spoken).await?;
    }
    made.took += started.elapsed();
    let _ = std::fs::remove_dir_all(&work_dir);
    Ok(())
}

/// Encodes and uploads the recordings of the recorded entries' words that
/// the bucket does not hold yet (a few hundred words at most: one at a
/// time); returns how many words that was.
async fn upload_recorded(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    lang: &str,
    recordings: &Recordings,
    entries: &[&StoredEntry],
    spoken: &mut SpokenWords,
) -> Result<usize, ImportError> {
    let mut words: BTreeMap<String, &[StoredAudio]> = BTreeMap::new();
    for stored in entries {
        if !stored.audio.iter().all(|a| spoken.keys.contains(&a.key)) {
            words.insert(stored.entry.word.to_lowercase(), &stored.audio);
        }
    }
    let work_dir = std::env::temp_dir().join(format!("dictadmin-recorded-{}", std::process::id()));
    std::fs::create_dir_all(&work_dir).map_err(ImportError::io(&work_dir))?;
    for (word, audio) in &words {
        let file = recordings
            .file(lang, word)
            .expect("a recorded key names a recorded word");
        let speech = recordings::decode(&file)?;
        for rendition in audio.iter() {
            let bytes = speech::encode(&speech, rendition.format, &work_dir)?;
            upload(s3, bucket, rendition.key.clone(), rendition.format, bytes).await?;
            spoken.keys.insert(rendition.key.clone());
        }
    }
    let _ = std::fs::remove_dir_all(&work_dir);
    Ok(words.len())
}

/// Lists words to speak later, a line each: voice, formats, word.
fn append_later(
    file: &Path,
    voice: &str,
    words: &BTreeMap<&str, &[StoredAudio]>,
) -> Result<(), ImportError> {
    let mut lines = String::new();
    for (word, audio) in words {
        let formats: Vec<&str> = audio.iter().map(|a| a.format.name()).collect();
        lines.push_str(&format!("{voice}\t{}\t{word}\n", formats.join(",")));
    }
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(ImportError::io(file))?;
    out.write_all(lines.as_bytes())
        .map_err(ImportError::io(file))
}

/// `dictadmin audio speak-later FILE`: speaks every word the file lists
/// that the bucket does not hold yet, a voice at a time. Run again, it
/// speaks nothing twice.
pub async fn speak_later(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    file: &Path,
) -> Result<MadeAudio, ImportError> {
    let text = std::fs::read_to_string(file).map_err(ImportError::io(file))?;
    let mut by_voice: BTreeMap<&str, BTreeMap<&str, Vec<StoredAudio>>> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let mut fields = line.splitn(3, '\t');
        let (Some(voice), Some(formats), Some(word)) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(ImportError::SpeakLater {
                file: file.to_path_buf(),
                line: number + 1,
            });
        };
        let audio: Option<Vec<StoredAudio>> = formats
            .split(',')
            .map(|name| {
                AudioFormat::from_name(name).map(|format| StoredAudio {
                    format,
                    key: synthesized_key(voice, word, format),
                })
            })
            .collect();
        let Some(audio) = audio.filter(|a| !a.is_empty() && speech::is_speakable(word)) else {
            return Err(ImportError::SpeakLater {
                file: file.to_path_buf(),
                line: number + 1,
            });
        };
        // A word listed by several dictionaries gets every format one asks.
        let renditions = by_voice.entry(voice).or_default().entry(word).or_default();
        for rendition in audio {
            if !renditions.contains(&rendition) {
                renditions.push(rendition);
            }
        }
    }
    let mut spoken = SpokenWords::default();
    let mut made = MadeAudio::default();
    for (voice, words) in by_voice {
        spoken
            .list(s3, bucket, &format!("{ESPEAK_AUDIO_PREFIX}{voice}/"))
            .await?;
        let wanted: Vec<(String, Vec<StoredAudio>)> = words
            .into_iter()
            .filter(|(_, audio)| audio.iter().any(|a| !spoken.keys.contains(&a.key)))
            .map(|(word, audio)| (word.to_string(), audio))
            .collect();
        say!("{voice}: {} words to speak", wanted.len());
        made.words += wanted.len();
        speak_and_upload(s3, bucket, voice, wanted, &mut spoken, &mut made).await?;
    }
    Ok(made)
}

/// An encoded file and its key.
type AudioFile = (String, AudioFormat, Vec<u8>);

/// A chunk being spoken on the blocking threads.
type Speaking = tokio::task::JoinHandle<Result<Vec<AudioFile>, ImportError>>;

/// Waits for a chunk's files, uploads them and records them as in the
/// bucket.
async fn upload_spoken(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    speaking: Speaking,
    spoken: &mut SpokenWords,
) -> Result<(), ImportError> {
    let files = speaking.await.expect("speaking does not panic")?;
    let keys: Vec<String> = files.iter().map(|(key, _, _)| key.clone()).collect();
    stream::iter(files)
        .map(|(key, format, bytes)| upload(s3, bucket, key, format, bytes))
        .buffer_unordered(UPLOADS)
        .try_collect::<Vec<()>>()
        .await?;
    spoken.keys.extend(keys);
    Ok(())
}

/// Every file of the words of `chunk`: speech.rs's batches on two threads
/// (the machines this runs on have two cores), each encoding in every
/// format its word needs.
fn synthesize_chunk(
    chunk: &[(String, Vec<StoredAudio>)],
    lang: &str,
    work_dir: &Path,
) -> Result<Vec<AudioFile>, ImportError> {
    let batches: Vec<&[(String, Vec<StoredAudio>)]> = chunk.chunks(BATCH_WORDS).collect();
    let next = AtomicUsize::new(0);
    let files = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| {
                let (next, files, batches) = (&next, &files, &batches);
                let dir = work_dir.join(thread.to_string());
                scope.spawn(move || -> Result<(), ImportError> {
                    std::fs::create_dir_all(&dir).map_err(ImportError::io(&dir))?;
                    loop {
                        let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            return Ok(());
                        };
                        let words: Vec<&str> =
                            batch.iter().map(|(word, _)| word.as_str()).collect();
                        let speeches: Vec<Speech> = speech::speak_all(&words, lang)?
                            .into_iter()
                            .map(|speech| speech.unwrap_or_else(silence))
                            .collect();
                        // Every word has an MP3 rendition (see `renditions`).
                        let refs: Vec<&Speech> = speeches.iter().collect();
                        let mp3s = speech::encode_mp3_batch(&refs, &dir)?;
                        let mut made = Vec::new();
                        for (((_, audio), speech), mp3) in batch.iter().zip(&speeches).zip(mp3s) {
                            for rendition in audio.iter() {
                                let bytes = match rendition.format {
                                    AudioFormat::Mp3 => mp3.clone(),
                                    format => speech::encode(speech, format, &dir)?,
                                };
                                made.push((rendition.key.clone(), rendition.format, bytes));
                            }
                        }
                        files.lock().expect("no worker panics").extend(made);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|worker| worker.join().expect("no worker panics"))
    })?;
    Ok(files.into_inner().expect("no worker panics"))
}

/// A tenth of a second of silence: what a word espeak-ng says nothing for
/// gets, since its entry was already named as having audio.
fn silence() -> Speech {
    Speech {
        sample_rate: 22_050,
        samples: vec![0; 2_205],
    }
}

async fn upload(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    key: String,
    format: AudioFormat,
    bytes: Vec<u8>,
) -> Result<(), ImportError> {
    s3.put_object()
        .bucket(bucket)
        .key(&key)
        .content_type(format.content_type())
        .body(bytes.into())
        .send()
        .await
        .map_err(|e| ImportError::UploadAudio {
            key,
            message: aws_sdk_s3::error::DisplayErrorContext(e).to_string(),
        })?;
    Ok(())
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

    #[test]
    fn a_word_has_one_key_a_voice_and_format() {
        let key = synthesized_key("fr", "école", AudioFormat::Spx);
        assert!(key.starts_with("audio/espeak-ng/fr/") && key.ends_with(".spx"));
        assert_eq!(key.len(), "audio/espeak-ng/fr/".len() + 16 + ".spx".len());
        assert_eq!(
            key,
            synthesized_key("fr", "école", AudioFormat::Spx),
            "stable"
        );
        assert_ne!(key, synthesized_key("fr", "ecole", AudioFormat::Spx));
        assert_ne!(key, synthesized_key("de", "école", AudioFormat::Spx));
        assert_eq!(AudioFormat::of_key(&key), Some(AudioFormat::Spx));
        assert_eq!(
            shared::model::AudioSource::of_key(&key, "xx"),
            shared::model::AudioSource::synthesized("espeak-ng", "fr")
        );
    }

    /// A French entry of `word`, without audio yet.
    fn entry(word: &str) -> StoredEntry {
        let mut stored = StoredEntry {
            entry: Default::default(),
            is_lemma: true,
            audio: vec![],
        };
        stored.entry.word = word.into();
        stored.entry.source_lang = "fr".into();
        stored
    }

    #[test]
    fn every_speakable_entry_is_planned_or_only_the_words_named() {
        let mut entries = vec![entry("École"), entry("chat"), entry("-")];
        let every = AudioPlan {
            format: AudioFormat::Spx,
            words: None,
            later: None,
            recordings: None,
        };
        assert_eq!(plan_audio(&mut entries, every).unwrap(), 2);
        assert_eq!(entries[0].entry.audio_formats, ["spx", "mp3"]);
        assert_eq!(
            entries[1].audio[1].key,
            synthesized_key("fr", "chat", AudioFormat::Mp3)
        );
        assert!(!entries[2].entry.has_audio, "nothing to say");
        let mut entries = vec![entry("École"), entry("chat")];
        let words = ["ecole".to_string()];
        let named = AudioPlan {
            format: AudioFormat::Mp3,
            words: Some(&words),
            later: None,
            recordings: None,
        };
        assert_eq!(plan_audio(&mut entries, named).unwrap(), 1);
        assert!(entries[0].entry.has_audio && !entries[1].entry.has_audio);
    }

    #[test]
    fn a_recorded_word_names_its_recording_in_every_rendition() {
        let table = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../data/fixture/recorded-audio/ktuberling.tsv");
        let recordings = Recordings::load(&table, None).unwrap();
        let mut entries = vec![entry("Lapin"), entry("chat")];
        let plan = AudioPlan {
            format: AudioFormat::Spx,
            words: None,
            later: None,
            recordings: Some(&recordings),
        };
        assert_eq!(plan_audio(&mut entries, plan).unwrap(), 2);
        let keys: Vec<&str> = entries[0].audio.iter().map(|a| a.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                recordings.key("fr", "lapin", AudioFormat::Spx),
                recordings.key("fr", "lapin", AudioFormat::Mp3)
            ]
        );
        assert_eq!(
            shared::model::AudioSource::of_key(keys[0], "fr"),
            shared::model::AudioSource::recorded("ktuberling")
        );
        assert_eq!(
            entries[1].audio[0].key,
            synthesized_key("fr", "chat", AudioFormat::Spx),
            "a word without a recording is spoken"
        );
    }
}
