//! Speaking headwords with espeak-ng and encoding the speech, many words to
//! one espeak-ng process: starting one costs about 12 ms, speaking a word in
//! a running one under 1 ms (docs/benchmarks.md, "Audio for every entry").
//!
//! A batch is one SSML document: each word, then a break far longer than any
//! pause espeak-ng makes inside a word. The speech comes back as one WAV, cut
//! again at its long silences (espeak-ng's silence is exact zeros). Words
//! with a character that makes espeak-ng pause (a full stop, a comma …) are
//! spoken alone, and so is every word of a batch whose pieces do not come out
//! one per word, so no word is ever given another's speech.

use super::error::ImportError;
use shared::model::AudioFormat;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The break after each word of a batch.
const BREAK_MS: u32 = 800;
/// The shortest silence a batch is cut at: longer than any pause inside a
/// word, shorter than `BREAK_MS`.
const CUT_MS: u32 = 500;
/// The silence kept before and after a word's speech.
const PAD_MS: u32 = 50;
/// The longest headword spoken, in characters: a longer one has no audio.
pub const MAX_SPOKEN_CHARS: usize = 200;

/// Mono 16-bit speech, as espeak-ng writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Speech {
    pub sample_rate: u32,
    pub samples: Vec<i16>,
}

/// Whether a word is spoken at all: it has a letter or digit and is not
/// too long.
pub fn is_speakable(word: &str) -> bool {
    word.chars().count() <= MAX_SPOKEN_CHARS && word.chars().any(char::is_alphanumeric)
}

/// Whether espeak-ng could pause inside the word, so that it must be
/// spoken alone.
fn may_pause(word: &str) -> bool {
    word.chars()
        .any(|c| matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '…') || c.is_control())
}

/// The speech of each word in `lang`, in order; `None` for a word espeak-ng
/// says nothing for.
pub fn speak_all(words: &[&str], lang: &str) -> Result<Vec<Option<Speech>>, ImportError> {
    let mut speeches: Vec<Option<Speech>> = vec![None; words.len()];
    let batched: Vec<usize> = (0..words.len()).filter(|&i| !may_pause(words[i])).collect();
    let batch_words: Vec<&str> = batched.iter().map(|&i| words[i]).collect();
    let mut alone: Vec<usize> = (0..words.len()).filter(|&i| may_pause(words[i])).collect();
    if !batch_words.is_empty() {
        let speech = run_espeak(lang, &batch_ssml(&batch_words), true)?;
        let pieces = cut_at_breaks(&speech);
        if pieces.len() == batch_words.len() {
            for (&i, piece) in batched.iter().zip(pieces) {
                speeches[i] = Some(piece);
            }
        } else {
            alone.extend(batched);
        }
    }
    for i in alone {
        let speech = run_espeak(lang, words[i], false)?;
        let mut pieces = cut_at_breaks(&speech);
        speeches[i] = match pieces.len() {
            0 => None,
            1 => pieces.pop(),
            // A word with its own pauses keeps them: its whole speech.
            _ => Some(pad(speech.sample_rate, trim(&speech.samples))),
        };
    }
    Ok(speeches)
}

/// The SSML of a batch: each word, escaped, then a break.
fn batch_ssml(words: &[&str]) -> String {
    let mut ssml = String::from("<speak>");
    for word in words {
        for c in word.chars() {
            match c {
                '&' => ssml.push_str("&amp;"),
                '<' => ssml.push_str("&lt;"),
                '>' => ssml.push_str("&gt;"),
                '"' => ssml.push_str("&quot;"),
                '\'' => ssml.push_str("&apos;"),
                c => ssml.push(c),
            }
        }
        ssml.push_str(&format!("<break time=\"{BREAK_MS}ms\"/>\n"));
    }
    ssml.push_str("</speak>");
    ssml
}

/// espeak-ng speaking `text` (SSML when `ssml`) in `lang`'s voice.
fn run_espeak(lang: &str, text: &str, ssml: bool) -> Result<Speech, ImportError> {
    let mut command = Command::new("espeak-ng");
    command.args(["-v", lang, "--stdout", "--stdin"]);
    if ssml {
        command.arg("-m");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(ImportError::NoEspeak)?;
    let mut stdin = child.stdin.take().expect("piped");
    let text = text.to_string();
    // Written from a thread of its own, so that a long batch cannot fill
    // both pipes at once.
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|source| ImportError::ToolStart {
            tool: "espeak-ng",
            source,
        })?;
    let written = writer.join().expect("the writer does not panic");
    if !output.status.success() || written.is_err() {
        return Err(ImportError::ToolFailed {
            tool: "espeak-ng",
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    parse_wav(&output.stdout).ok_or(ImportError::ToolFailed {
        tool: "espeak-ng",
        stderr: "its output is no 16-bit mono WAV".into(),
    })
}

/// The speech of a 16-bit mono WAV. espeak-ng writing to a pipe cannot go
/// back to fill in the sizes, so the samples are whatever follows the `data`
/// chunk's header.
pub(super) fn parse_wav(wav: &[u8]) -> Option<Speech> {
    if wav.len() < 12 || &wav[..4] != b"RIFF" || &wav[8..12] != b"WAVE" {
        return None;
    }
    let mut at = 12;
    let mut sample_rate = None;
    while at + 8 <= wav.len() {
        let id = &wav[at..at + 4];
        let size = u32::from_le_bytes(wav[at + 4..at + 8].try_into().ok()?) as usize;
        let body = at + 8;
        if id == b"fmt " {
            let fmt = wav.get(body..body + 16)?;
            let channels = u16::from_le_bytes([fmt[2], fmt[3]]);
            let bits = u16::from_le_bytes([fmt[14], fmt[15]]);
            if channels != 1 || bits != 16 {
                return None;
            }
            sample_rate = Some(u32::from_le_bytes(fmt[4..8].try_into().ok()?));
        } else if id == b"data" {
            let samples = wav[body..]
                .chunks_exact(2)
                .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
                .collect();
            return Some(Speech {
                sample_rate: sample_rate?,
                samples,
            });
        }
        at = body.checked_add(size)?;
    }
    None
}

/// The pieces of speech between silences of at least `CUT_MS`, each padded
/// with `PAD_MS` of silence; none for silence alone.
pub fn cut_at_breaks(speech: &Speech) -> Vec<Speech> {
    let cut = (speech.sample_rate * CUT_MS / 1000) as usize;
    let mut pieces = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_sound = 0;
    for (i, &sample) in speech.samples.iter().enumerate() {
        if sample == 0 {
            continue;
        }
        match start {
            None => start = Some(i),
            Some(s) if i - last_sound > cut => {
                pieces.push(pad(speech.sample_rate, &speech.samples[s..=last_sound]));
                start = Some(i);
            }
            Some(_) => {}
        }
        last_sound = i;
    }
    if let Some(s) = start {
        pieces.push(pad(speech.sample_rate, &speech.samples[s..=last_sound]));
    }
    pieces
}

/// The samples without the silence before and after.
fn trim(samples: &[i16]) -> &[i16] {
    let first = samples
        .iter()
        .position(|&s| s != 0)
        .unwrap_or(samples.len());
    let last = samples
        .iter()
        .rposition(|&s| s != 0)
        .map_or(first, |l| l + 1);
    &samples[first..last]
}

fn pad(sample_rate: u32, sound: &[i16]) -> Speech {
    let silence = vec![0; (sample_rate * PAD_MS / 1000) as usize];
    let mut samples = Vec::with_capacity(sound.len() + 2 * silence.len());
    samples.extend_from_slice(&silence);
    samples.extend_from_slice(sound);
    samples.extend_from_slice(&silence);
    Speech {
        sample_rate,
        samples,
    }
}

/// The speech as a WAV file's bytes.
fn wav_bytes(speech: &Speech) -> Vec<u8> {
    let data_len = (speech.samples.len() * 2) as u32;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&speech.sample_rate.to_le_bytes());
    wav.extend_from_slice(&(speech.sample_rate * 2).to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    for sample in &speech.samples {
        wav.extend_from_slice(&sample.to_le_bytes());
    }
    wav
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

/// The speech encoded in `format`: MP3 mono at 32 kbit/s (lame), or Speex
/// in Ogg (speexenc). `work_dir` holds the files the encoders read and
/// write; one per thread.
pub fn encode(
    speech: &Speech,
    format: AudioFormat,
    work_dir: &Path,
) -> Result<Vec<u8>, ImportError> {
    let wav = work_dir.join("word.wav");
    std::fs::write(&wav, wav_bytes(speech)).map_err(ImportError::io(&wav))?;
    let encoded = work_dir.join(format!("word.{}", format.name()));
    match format {
        // Speech needs no stereo and little bandwidth: 32 kbit/s mono keeps
        // a word clear at under half the bytes of lame's default VBR.
        AudioFormat::Mp3 => run(
            Command::new("lame")
                .args(["--quiet", "-m", "m", "-b", "32"])
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
    std::fs::read(&encoded).map_err(|source| ImportError::ReadAudio {
        path: encoded.clone(),
        source,
    })
}

/// espeak-ng's sample rate, which batch MP3 encoding is laid out for:
/// MPEG-2 layer III at 22,050 Hz has 576 samples a frame.
const BATCH_MP3_RATE: u32 = 22_050;
const FRAME_SAMPLES: usize = 576;
/// Silent frames between two words of an MP3 batch, past their padding:
/// the encoder's delay (about two frames, with the decoder's) stays inside.
const GAP_FRAMES: usize = 2;

/// Each speech as an MP3 file (mono, 32 kbit/s), from one lame process:
/// starting lame costs more than encoding a word. The words are laid out
/// one after another, each from a frame boundary and followed by silent
/// frames; lame encodes without its bit reservoir (`--nores`), so every
/// frame holds its own data, and the stream is cut at those boundaries.
/// Each piece is a stream of whole frames, which is an MP3 file. Speech at
/// another rate is encoded a file at a time.
pub fn encode_mp3_batch(
    speeches: &[&Speech],
    work_dir: &Path,
) -> Result<Vec<Vec<u8>>, ImportError> {
    if speeches.iter().any(|s| s.sample_rate != BATCH_MP3_RATE) {
        return speeches
            .iter()
            .map(|s| encode(s, AudioFormat::Mp3, work_dir))
            .collect();
    }
    let mut pcm: Vec<u8> = Vec::new();
    let mut starts = Vec::with_capacity(speeches.len());
    for speech in speeches {
        starts.push(pcm.len() / 2 / FRAME_SAMPLES);
        let frames = speech.samples.len().div_ceil(FRAME_SAMPLES) + GAP_FRAMES;
        for sample in &speech.samples {
            pcm.extend_from_slice(&sample.to_le_bytes());
        }
        pcm.resize((starts.last().unwrap() + frames) * FRAME_SAMPLES * 2, 0);
    }
    let mut child = Command::new("lame")
        .args([
            "--quiet",
            "-r",
            "-s",
            "22.05",
            "--bitwidth",
            "16",
            "--signed",
        ])
        .args([
            "--little-endian",
            "-m",
            "m",
            "-b",
            "32",
            "--cbr",
            "-t",
            "--nores",
        ])
        .args(["-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| ImportError::ToolStart {
            tool: "lame",
            source,
        })?;
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&pcm));
    let output = child
        .wait_with_output()
        .map_err(|source| ImportError::ToolStart {
            tool: "lame",
            source,
        })?;
    let written = writer.join().expect("the writer does not panic");
    let failed = |why: String| ImportError::ToolFailed {
        tool: "lame",
        stderr: why,
    };
    if !output.status.success() || written.is_err() {
        return Err(failed(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    }
    let frames =
        mp3_frames(&output.stdout).ok_or_else(|| failed("its output is no MP3 stream".into()))?;
    let total = pcm_frames(speeches);
    if frames.len() < total {
        return Err(failed(format!(
            "{} frames for {total} frames of speech",
            frames.len()
        )));
    }
    Ok((0..starts.len())
        .map(|i| {
            let end = starts.get(i + 1).copied().unwrap_or(frames.len());
            frames[starts[i]..end].concat()
        })
        .collect())
}

/// The frames the batch layout of `speeches` takes.
fn pcm_frames(speeches: &[&Speech]) -> usize {
    speeches
        .iter()
        .map(|s| s.samples.len().div_ceil(FRAME_SAMPLES) + GAP_FRAMES)
        .sum()
}

/// The frames of an MPEG-2 layer III stream of 576-sample frames, each
/// whole; `None` when the bytes are anything else.
fn mp3_frames(stream: &[u8]) -> Option<Vec<&[u8]>> {
    const KBITS: [usize; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    const RATES: [usize; 3] = [22_050, 24_000, 16_000];
    let mut frames = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let header = stream.get(at..at + 4)?;
        let sync = header[0] == 0xFF && header[1] & 0xE0 == 0xE0;
        let mpeg2 = (header[1] >> 3) & 3 == 2;
        let layer3 = (header[1] >> 1) & 3 == 1;
        let kbits = *KBITS.get(usize::from(header[2] >> 4))?;
        let rate = *RATES.get(usize::from((header[2] >> 2) & 3))?;
        if !(sync && mpeg2 && layer3) || kbits == 0 {
            return None;
        }
        let len = 72_000 * kbits / rate + usize::from((header[2] >> 1) & 1);
        frames.push(stream.get(at..at + len)?);
        at += len;
    }
    Some(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speech(samples: Vec<i16>) -> Speech {
        Speech {
            sample_rate: 1000,
            samples,
        }
    }

    #[test]
    fn speech_is_cut_at_long_silences_only() {
        // At 1,000 samples a second: a 100-sample pause stays inside a
        // word, a 600-sample one divides two.
        let mut samples = vec![0; 30];
        samples.extend([5, -5, 5]);
        samples.extend(vec![0; 100]);
        samples.extend([7]);
        samples.extend(vec![0; 600]);
        samples.extend([9, 9]);
        samples.extend(vec![0; 10]);
        let pieces = cut_at_breaks(&speech(samples));
        assert_eq!(pieces.len(), 2);
        let pad = vec![0; 50];
        let mut first = pad.clone();
        first.extend([5, -5, 5]);
        first.extend(vec![0; 100]);
        first.extend([7]);
        first.extend(&pad);
        assert_eq!(pieces[0].samples, first);
        assert_eq!(pieces[1].samples, [pad.clone(), vec![9, 9], pad].concat());
        assert!(cut_at_breaks(&speech(vec![0; 2000])).is_empty());
    }

    #[test]
    fn a_wav_reads_back() {
        let original = Speech {
            sample_rate: 22050,
            samples: vec![0, 1, -1, i16::MAX, i16::MIN],
        };
        assert_eq!(parse_wav(&wav_bytes(&original)), Some(original));
        assert_eq!(parse_wav(b"RIFF\0\0\0\0WAVE"), None);
        assert_eq!(parse_wav(b"not a wav"), None);
    }

    #[test]
    fn words_that_pause_are_spoken_alone_and_words_without_letters_not_at_all() {
        assert!(may_pause("etc."));
        assert!(may_pause("well, well"));
        assert!(!may_pause("ice cream"));
        assert!(!may_pause("rock'n'roll"));
        assert!(is_speakable("école"));
        assert!(is_speakable("42"));
        assert!(!is_speakable("-"));
        assert!(!is_speakable(&"a".repeat(MAX_SPOKEN_CHARS + 1)));
        assert_eq!(
            batch_ssml(&["a<b", "R&D"]),
            "<speak>a&lt;b<break time=\"800ms\"/>\nR&amp;D<break time=\"800ms\"/>\n</speak>"
        );
    }

    /// Runs lame (infra/scripts/install-audio-tools.sh): every piece of a
    /// batch is an MP3 file of its word alone. lame decodes each back; the
    /// sound it holds is its word's, as loud as the word (no word is cut,
    /// none spills into a neighbour).
    #[test]
    fn an_mp3_batch_cuts_into_one_file_a_word() {
        let dir = std::env::temp_dir().join(format!("mp3-batch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Three "words" of different lengths and loudness, padded as
        // cut_at_breaks pads them.
        let tone = |millis: usize, amplitude: f64| {
            let n = BATCH_MP3_RATE as usize * millis / 1000;
            let sound: Vec<i16> = (0..n)
                .map(|i| (amplitude * (i as f64 * 0.07).sin()) as i16)
                .collect();
            pad(BATCH_MP3_RATE, &sound)
        };
        let words = [tone(300, 8000.0), tone(40, 20000.0), tone(700, 3000.0)];
        let refs: Vec<&Speech> = words.iter().collect();
        let files = encode_mp3_batch(&refs, &dir).unwrap();
        assert_eq!(files.len(), 3);
        let energy = |samples: &[i16]| samples.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>();
        for (word, file) in words.iter().zip(&files) {
            assert!(mp3_frames(file).is_some_and(|f| !f.is_empty()));
            let mp3 = dir.join("piece.mp3");
            std::fs::write(&mp3, file).unwrap();
            let wav = dir.join("piece.wav");
            let decoded = Command::new("lame")
                .args(["--quiet", "--decode"])
                .arg(&mp3)
                .arg(&wav)
                .status()
                .unwrap();
            assert!(decoded.success());
            let back = parse_wav(&std::fs::read(&wav).unwrap()).unwrap();
            let ratio = energy(&back.samples) / energy(&word.samples);
            assert!((0.7..1.3).contains(&ratio), "energy ratio {ratio}");
        }
        assert_eq!(mp3_frames(b"not an mp3 at all"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs the real tools (installed by infra/scripts/install-audio-tools.sh):
    /// a batch comes out one piece a word, each as long as the word spoken
    /// alone, and each encodes.
    #[test]
    fn a_batch_speaks_each_word_as_alone() {
        let words = ["house", "garden", "etc.", "ice cream", "-", "beautiful"];
        let speeches = speak_all(&words, "en").unwrap();
        assert_eq!(speeches.len(), words.len());
        assert!(speeches[4].is_none(), "nothing to say for a dash");
        for (word, speech) in words.iter().zip(&speeches) {
            if *word == "-" {
                continue;
            }
            let batched = speech.as_ref().unwrap();
            let alone = run_espeak("en", word, false).unwrap();
            let (a, b) = (
                batched.samples.len() as f64,
                trim(&alone.samples).len() as f64,
            );
            // The batch's piece is the word's speech plus 100 ms of padding.
            let expected = b + f64::from(2 * PAD_MS * batched.sample_rate / 1000);
            assert!(
                (a - expected).abs() / expected < 0.1,
                "{word}: {a} vs {expected}"
            );
        }
        let dir = std::env::temp_dir().join(format!("speech-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let house = speeches[0].as_ref().unwrap();
        let mp3 = encode(house, AudioFormat::Mp3, &dir).unwrap();
        assert!(mp3.len() > 500 && (mp3.starts_with(b"ID3") || mp3[0] == 0xFF));
        let spx = encode(house, AudioFormat::Spx, &dir).unwrap();
        assert!(spx.starts_with(b"OggS"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
