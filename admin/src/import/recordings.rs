//! Recorded pronunciations. A committed table (data/recorded-audio/) names,
//! for words of a language, a recording in a collection of sound files; an
//! entry whose headword is in it gets that recording in place of espeak-ng's
//! speech, since a person saying the word beats a synthesizer. The files are
//! decoded here (WAV, or Ogg Vorbis with lewton) and encoded like speech
//! (speech.rs), so every rendition a dictionary asks for exists.

use super::dictionary::short_hex;
use super::error::ImportError;
use super::speech::{self, Speech};
use sha2::{Digest, Sha256};
use shared::model::{AudioFormat, RECORDED_AUDIO_PREFIX};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The recordings of one collection: its name (the table's file name
/// without extension, which its S3 keys carry), where its files are, and
/// the file of each (language, word).
#[derive(Debug)]
pub struct Recordings {
    collection: String,
    dir: PathBuf,
    files: HashMap<(String, String), String>,
}

impl Recordings {
    /// The table at `table` (`lang<TAB>word<TAB>file` lines, `#` comments),
    /// its files under `dir`, or beside the table when `dir` is `None`.
    /// Every file it names must be there: a missing one is an error now, not
    /// an entry without audio later.
    pub fn load(table: &Path, dir: Option<&Path>) -> Result<Self, ImportError> {
        let text = std::fs::read_to_string(table).map_err(ImportError::io(table))?;
        let collection = table
            .file_stem()
            .and_then(|stem| stem.to_str())
            .filter(|stem| is_key_safe(stem))
            .ok_or_else(|| ImportError::Recordings {
                table: table.to_path_buf(),
                message: "its file name (the collection's) must be letters, digits, - or _".into(),
            })?
            .to_string();
        let dir = dir.map_or_else(
            || table.parent().unwrap_or(Path::new(".")).to_path_buf(),
            Path::to_path_buf,
        );
        let files = parse_table(&text).map_err(|message| ImportError::Recordings {
            table: table.to_path_buf(),
            message,
        })?;
        if let Some(missing) = files.values().find(|file| !dir.join(file).is_file()) {
            return Err(ImportError::Recordings {
                table: table.to_path_buf(),
                message: format!("{} is not a file", dir.join(missing).display()),
            });
        }
        Ok(Self {
            collection,
            dir,
            files,
        })
    }

    /// The recording of `word` in `lang`, if the table has one (the word
    /// compared in lower case, accents kept: `pêcheur` is not `pécheur`).
    pub fn file(&self, lang: &str, word: &str) -> Option<PathBuf> {
        self.files
            .get(&(lang.to_string(), word.to_lowercase()))
            .map(|file| self.dir.join(file))
    }

    /// Whether a recording says `word` in `lang` (compared as [`Self::file`]
    /// compares), without making its path: asked of every entry an import plans.
    pub fn has(&self, lang: &str, word: &str) -> bool {
        self.files
            .contains_key(&(lang.to_string(), word.to_lowercase()))
    }

    /// The S3 folder of this collection's recordings in `lang`.
    pub fn prefix(&self, lang: &str) -> String {
        format!("{RECORDED_AUDIO_PREFIX}{}/{lang}/", self.collection)
    }

    /// The S3 key of `word`'s recording in `lang`, in `format`: like a
    /// synthesized word's, the first 64 bits of the word's SHA-256.
    pub fn key(&self, lang: &str, word: &str, format: AudioFormat) -> String {
        let hash = short_hex(&Sha256::digest(word.to_lowercase().as_bytes()));
        format!("{}{hash}.{}", self.prefix(lang), format.name())
    }
}

/// Whether `name` may stand in an S3 key as it is.
fn is_key_safe(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The table's lines: (language, word in lower case) → file. A word listed
/// twice in a language, a file path that leaves the collection's folder or
/// a line of another shape is an error naming its line.
fn parse_table(text: &str) -> Result<HashMap<(String, String), String>, String> {
    let mut files = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}", number + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        let [lang, word, file] = fields[..] else {
            return Err(bad("not lang<TAB>word<TAB>file"));
        };
        if !(2..=3).contains(&lang.len()) || !lang.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(bad("the language is not an ISO 639 code"));
        }
        if word.trim().is_empty() || word.trim() != word {
            return Err(bad("the word is empty or has spaces around it"));
        }
        let path = Path::new(file);
        if file.is_empty()
            || path.is_absolute()
            || path
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(bad("the file is not a path inside the collection's folder"));
        }
        if files
            .insert((lang.to_string(), word.to_lowercase()), file.to_string())
            .is_some()
        {
            return Err(bad("the word is listed twice in its language"));
        }
    }
    Ok(files)
}

/// The speech of a recording, mono: a WAV file of 16-bit samples, or Ogg
/// Vorbis, whose channels are averaged.
pub fn decode(path: &Path) -> Result<Speech, ImportError> {
    let bytes = std::fs::read(path).map_err(ImportError::io(path))?;
    let undecodable = |why: String| ImportError::Recording {
        path: path.to_path_buf(),
        message: why,
    };
    if bytes.starts_with(b"OggS") {
        decode_vorbis(&bytes).map_err(undecodable)
    } else {
        speech::parse_wav(&bytes)
            .ok_or_else(|| undecodable("neither Ogg Vorbis nor a 16-bit mono WAV file".into()))
    }
}

fn decode_vorbis(bytes: &[u8]) -> Result<Speech, String> {
    let mut reader = lewton::inside_ogg::OggStreamReader::new(std::io::Cursor::new(bytes))
        .map_err(|e| e.to_string())?;
    let channels = usize::from(reader.ident_hdr.audio_channels.max(1));
    let mut samples = Vec::new();
    while let Some(packet) = reader.read_dec_packet_itl().map_err(|e| e.to_string())? {
        samples.extend(packet.chunks_exact(channels).map(|frame| {
            let sum: i32 = frame.iter().map(|&s| i32::from(s)).sum();
            (sum / channels as i32) as i16
        }));
    }
    if samples.is_empty() {
        return Err("no samples".into());
    }
    Ok(Speech {
        sample_rate: reader.ident_hdr.audio_sample_rate,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_maps_each_word_of_a_language_to_its_file() {
        let files =
            parse_table("# comment\nen\tHat\ten/hat.ogg\nfr\tchapeau\tfr/chapeau.wav\n\n").unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files[&("en".into(), "hat".into())], "en/hat.ogg");
    }

    #[test]
    fn a_bad_line_is_named() {
        for (table, why) in [
            ("en\that", "not lang"),
            ("english\that\thead.ogg", "ISO 639"),
            ("en\t hat\th.ogg", "spaces"),
            ("en\that\t../x.ogg", "inside"),
            ("en\that\t/etc/passwd", "inside"),
            ("en\that\ta.ogg\nen\tHAT\tb.ogg", "twice"),
        ] {
            let error = parse_table(table).unwrap_err();
            assert!(error.contains(why), "{table:?}: {error}");
        }
        assert!(parse_table("en\that\ta.ogg\nen\tHAT\tb.ogg")
            .unwrap_err()
            .starts_with("line 2"));
    }

    /// The committed fixture's recordings: every file decodes to speech.
    #[test]
    fn the_fixture_recordings_load_and_decode() {
        let table = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../data/fixture/recorded-audio/ktuberling.tsv");
        let recordings = Recordings::load(&table, None).unwrap();
        let hat = recordings.file("en", "Hat").expect("hat is recorded");
        let speech = decode(&hat).unwrap();
        // About half a second or more of sound, at the file's own rate.
        assert!(speech.samples.len() > speech.sample_rate as usize / 4);
        assert!(speech.samples.iter().any(|&s| s.unsigned_abs() > 1_000));
        let wav = recordings.file("fr", "lapin").expect("lapin is recorded");
        assert_eq!(decode(&wav).unwrap().sample_rate, 44_100);
        assert_eq!(recordings.file("fr", "hat"), None);
        assert!(recordings.has("en", "HAT") && !recordings.has("fr", "hat"));
        assert_eq!(
            recordings.key("en", "Hat", AudioFormat::Mp3),
            recordings.key("en", "hat", AudioFormat::Mp3)
        );
        assert!(recordings
            .key("en", "hat", AudioFormat::Mp3)
            .starts_with("audio/recorded/ktuberling/en/"));
    }
}
