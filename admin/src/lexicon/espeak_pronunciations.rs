//! `dictadmin lexicon espeak-pronunciations`: the IPA espeak-ng gives every
//! headword of the imported dictionaries of a language, stored as the
//! language's pronunciations list (folded word → IPA). Rhymes compare it
//! beside the dictionaries' own transcriptions: one synthesizer transcribes
//! every word of a language the same way, where dictionaries differ in
//! convention and some are wrong (`hat` `/heit/`), and it gives a
//! pronunciation to the words no dictionary transcribes (docs/api.md,
//! "Rhymes").
//!
//! espeak-ng reads a batch of words, one a line, each closed by a full stop
//! so that each is a clause of its own, and writes one line of IPA per
//! clause (`-q --ipa`); a batch whose lines do not match its words one for
//! one is spoken again a word at a time.

use super::{LexiconError, WordList};
use crate::output::say;
use crate::storage::chunked::{read_list, read_listing, read_manifest, StoredError};
use shared::search::lexicon::{LexiconKind, Pair};
use shared::storage::store::Store;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::process::{Command, Stdio};

/// Words spoken by one espeak-ng process: large enough that starting it is
/// nothing beside the speaking (about 1,600 words a second), small enough
/// that a batch spoken again word by word stays short.
const BATCH_WORDS: usize = 2_000;

/// The languages of the catalog's dictionaries (their source languages)
/// that espeak-ng has a voice for, and those it has none for.
pub async fn languages(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<(Vec<String>, Vec<String>), LexiconError> {
    let dictionaries = Store::new(client.clone(), table.to_string())
        .dictionaries()
        .await
        .map_err(|e| tool("the catalog", e))?;
    let mut langs: Vec<String> = dictionaries.iter().map(|d| d.source_lang.clone()).collect();
    langs.sort();
    langs.dedup();
    let (mut spoken, mut unspoken) = (Vec::new(), Vec::new());
    for lang in langs {
        if has_voice(&lang)? {
            spoken.push(lang);
        } else {
            unspoken.push(lang);
        }
    }
    Ok((spoken, unspoken))
}

/// The pronunciations list of `lang`: every headword of its dictionaries
/// (their postings manifests), spoken by espeak-ng's voice of `lang`; the
/// words that the stored list of the same espeak-ng has keep its IPA.
pub async fn read(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    lang: &str,
    origin: String,
    licence: String,
) -> Result<WordList, LexiconError> {
    if !has_voice(lang)? {
        return Err(LexiconError::Tool {
            tool: "espeak-ng".into(),
            message: format!("no voice for {lang} (espeak-ng --voices lists them)"),
        });
    }
    let dictionaries = Store::new(client.clone(), table.to_string())
        .dictionaries()
        .await
        .map_err(|e| tool("the catalog", e))?;
    // Each folded word once, spoken as its first headword writes it.
    let mut words: BTreeMap<String, String> = BTreeMap::new();
    for d in dictionaries.iter().filter(|d| d.source_lang == lang) {
        let postings = read_manifest(client, table, &d.dictionary_id)
            .await
            .map_err(|e| tool(&d.dictionary_id, e))?;
        for p in postings {
            words
                .entry(p.folded().to_string())
                .or_insert_with(|| p.word().to_string());
        }
    }
    let stored = stored_pronunciations(client, table, lang, &origin).await?;
    let (mut pronunciations, unspoken) = already_spoken(words, stored);
    say!(
        "pronunciations {lang}: {} words kept from the stored list, {} to speak",
        pronunciations.len(),
        unspoken.len()
    );
    pronunciations.extend(speak_all(lang, &unspoken)?);
    Ok(WordList::from_folded(
        LexiconKind::Pronunciations,
        lang,
        origin,
        licence,
        pronunciations,
    ))
}

/// The stored pronunciations list of `lang` (folded word → IPA) if the
/// same espeak-ng (`origin`) made it; else none, and every word is spoken
/// again.
async fn stored_pronunciations(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    lang: &str,
    origin: &str,
) -> Result<HashMap<String, String>, LexiconError> {
    let listing = read_listing(client, table)
        .await
        .map_err(|e| tool("the lexicon listing", e))?;
    let same_voice = listing
        .iter()
        .any(|l| l.kind == LexiconKind::Pronunciations && l.lang == lang && l.origin == origin);
    if !same_voice {
        return Ok(HashMap::new());
    }
    match read_list(client, table, LexiconKind::Pronunciations, lang).await {
        Ok(chunks) => Ok(chunks.into_iter().flat_map(|(_, pairs)| pairs).collect()),
        // A list whose storing was cut short is spoken again whole.
        Err(StoredError::IncompleteList { .. }) => Ok(HashMap::new()),
        Err(e) => Err(tool("the stored pronunciations", e)),
    }
}

/// Of `words` (folded → as written), the pronunciations `stored` already
/// has, and the words left to speak: espeak-ng takes about 45 minutes for
/// the headwords of every dictionary, and a resumed or repeated run speaks
/// only the words added since. A word no longer a headword is left out.
fn already_spoken(
    words: BTreeMap<String, String>,
    mut stored: HashMap<String, String>,
) -> (Vec<Pair>, Vec<(String, String)>) {
    let mut kept = Vec::new();
    let mut unspoken = Vec::new();
    for (folded, written) in words {
        match stored.remove(&folded) {
            Some(ipa) => kept.push((folded, ipa)),
            None => unspoken.push((folded, written)),
        }
    }
    (kept, unspoken)
}

fn tool(what: &str, error: impl std::fmt::Display) -> LexiconError {
    LexiconError::Tool {
        tool: what.to_string(),
        message: error.to_string(),
    }
}

/// Whether espeak-ng has a voice for the language.
fn has_voice(lang: &str) -> Result<bool, LexiconError> {
    crate::import::audio::has_voice(lang).map_err(|e| tool("espeak-ng", e))
}

/// (folded word, IPA) of every word espeak-ng speaks, in batches on two
/// threads (the machines have two cores).
fn speak_all(lang: &str, words: &[(String, String)]) -> Result<Vec<Pair>, LexiconError> {
    let batches: Vec<&[(String, String)]> = words.chunks(BATCH_WORDS).collect();
    let halves = batches.split_at(batches.len() / 2);
    let spoken = std::thread::scope(|scope| {
        let first = scope.spawn(|| speak_batches(lang, halves.0));
        let second = speak_batches(lang, halves.1);
        first
            .join()
            .expect("a speaking thread does not panic")
            .and_then(|mut a| {
                a.extend(second?);
                Ok(a)
            })
    })?;
    Ok(spoken)
}

fn speak_batches(lang: &str, batches: &[&[(String, String)]]) -> Result<Vec<Pair>, LexiconError> {
    let mut spoken = Vec::new();
    for batch in batches {
        spoken.extend(speak_batch(lang, batch)?);
    }
    Ok(spoken)
}

/// One batch, one line of IPA a word; word by word when espeak-ng's lines
/// do not match the words one for one.
fn speak_batch(lang: &str, batch: &[(String, String)]) -> Result<Vec<Pair>, LexiconError> {
    let lines: Vec<String> = batch.iter().map(|(_, word)| speakable(word)).collect();
    let ipa = espeak(lang, &lines)?;
    let ipa = if ipa.len() == lines.len() {
        ipa
    } else {
        let mut one_by_one = Vec::with_capacity(lines.len());
        for line in &lines {
            let mut spoken = espeak(lang, std::slice::from_ref(line))?;
            one_by_one.push(match spoken.len() {
                1 => spoken.remove(0),
                _ => String::new(),
            });
        }
        one_by_one
    };
    Ok(batch
        .iter()
        .zip(ipa)
        .filter(|(_, ipa)| !ipa.is_empty())
        .map(|((folded, _), ipa)| (folded.clone(), ipa))
        .collect())
}

/// A headword as one clause: letters, marks, digits, apostrophes and
/// hyphens kept, anything else (a full stop, a question mark, a bracket,
/// which would end or break the clause) a space.
fn speakable(word: &str) -> String {
    let kept: String = word
        .chars()
        .map(|c| match c {
            c if c.is_alphanumeric() => c,
            '\'' | '’' | '-' => c,
            c if ('\u{0300}'..='\u{036F}').contains(&c) => c,
            _ => ' ',
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// espeak-ng's IPA of each line, one line each (trimmed).
fn espeak(lang: &str, lines: &[String]) -> Result<Vec<String>, LexiconError> {
    let mut child = Command::new("espeak-ng")
        .args(["-q", "--ipa", "-v", lang])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            tool(
                "espeak-ng",
                format!("cannot start: {e} (infra/scripts/install-audio-tools.sh installs it)"),
            )
        })?;
    let mut input = String::new();
    for line in lines {
        // An empty line is no clause: a full stop alone keeps the count.
        input.push_str(line);
        input.push_str(".\n");
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| tool("espeak-ng", e))?;
    writer
        .join()
        .expect("the writer does not panic")
        .map_err(|e| tool("espeak-ng", e))?;
    if !output.status.success() {
        return Err(tool(
            "espeak-ng",
            String::from_utf8_lossy(&output.stderr).trim(),
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_headword_is_spoken_as_one_clause() {
        assert_eq!(speakable("e.g."), "e g");
        assert_eq!(speakable("what?!"), "what");
        assert_eq!(speakable("rock 'n' roll"), "rock 'n' roll");
        assert_eq!(speakable("self-service"), "self-service");
        assert_eq!(speakable("École"), "École");
    }

    /// A word the stored list has keeps its IPA; the others are spoken; a
    /// stored word that is no longer a headword goes.
    #[test]
    fn only_the_words_the_stored_list_lacks_are_spoken() {
        let words: BTreeMap<String, String> = [("cat", "Cat"), ("hat", "hat"), ("bat", "bat")]
            .iter()
            .map(|(f, w)| (f.to_string(), w.to_string()))
            .collect();
        let stored: HashMap<String, String> = [("cat", "kˈat"), ("gone", "ɡˈɒn")]
            .iter()
            .map(|(f, ipa)| (f.to_string(), ipa.to_string()))
            .collect();
        let (kept, unspoken) = already_spoken(words, stored);
        assert_eq!(kept, vec![("cat".to_string(), "kˈat".to_string())]);
        assert_eq!(
            unspoken,
            vec![
                ("bat".to_string(), "bat".to_string()),
                ("hat".to_string(), "hat".to_string())
            ]
        );
    }

    /// Needs espeak-ng (CI installs it with the audio tools).
    #[test]
    fn each_word_gets_its_line_of_ipa() {
        let words: Vec<(String, String)> = ["cat", "hat", "e.g.", "what?", "new york"]
            .iter()
            .map(|w| (w.to_string(), w.to_string()))
            .collect();
        let spoken = speak_batch("en", &words).unwrap();
        let ipa: BTreeMap<&str, &str> = spoken
            .iter()
            .map(|(w, ipa)| (w.as_str(), ipa.as_str()))
            .collect();
        assert_eq!(ipa["cat"], "kˈat");
        assert_eq!(ipa["hat"], "hˈat");
        assert_eq!(spoken.len(), 5, "{spoken:?}");
    }
}
