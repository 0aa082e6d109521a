//! The `frequency` of every entry (docs/data-model.md, "Frequencies of
//! entries"): the Zipf frequency search ranks its word by, stamped on the
//! entry item when its dictionary is imported, so that entry by id and by
//! word show it without reading the index snapshot.
//!
//! A word is a folded headword in its dictionary's source language, and its
//! frequency is that language's list's (`Lexicon::commonness`): `forte` of
//! an English dictionary takes the English frequency, however common
//! Italian `forte` is. So an entry's value depends on its own dictionary
//! alone, and the import reads one frequency list (one Query).

use super::dictionary::ImportedDictionary;
use super::error::ImportError;
use crate::output::say;
use crate::storage::chunked::read_list;
use shared::fold::fold;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use shared::search::lexicon::{zipf_of_centis, LexiconKind};
use std::collections::{HashMap, HashSet};

/// The stamps of a dictionary's folded headwords from its language's list
/// (`list[term]`, Zipf × 100): listed headwords only.
pub fn stamps(terms: &HashSet<String>, list: &HashMap<String, u16>) -> HashMap<String, u16> {
    terms
        .iter()
        .filter_map(|term| Some((term.clone(), *list.get(term)?)))
        .collect()
}

/// Stamps every entry of `imported` with its word's frequency in the
/// dictionary's source language (0 when its list lacks the word, or when
/// no list of that language is stored).
pub async fn stamp(
    clients: &Clients,
    config: &Config,
    imported: &mut ImportedDictionary,
) -> Result<(), ImportError> {
    let id = &imported.dictionary.dictionary_id;
    let lang = imported.dictionary.source_lang.as_str();
    let terms: HashSet<String> = imported
        .entries
        .iter()
        .map(|e| fold(&e.entry.word))
        .collect();
    let chunks = read_list(
        &clients.dynamodb,
        &config.entries_table,
        LexiconKind::Frequencies,
        lang,
    )
    .await
    .map_err(|e| ImportError::Frequencies(e.to_string()))?;
    let stored = !chunks.is_empty();
    let mut list: HashMap<String, u16> = HashMap::new();
    for (word, centis) in chunks.into_iter().flat_map(|(_, pairs)| pairs) {
        if terms.contains(&word) {
            let centis: u16 = centis.parse().map_err(|_| {
                ImportError::Frequencies(format!(
                    "the frequency list of {lang} has {centis:?} for {word:?}"
                ))
            })?;
            let held = list.entry(word).or_default();
            *held = (*held).max(centis);
        }
    }
    let stamps = stamps(&terms, &list);
    let missing = if stored {
        String::new()
    } else {
        format!(" (no frequency list of {lang} is stored: `dictadmin lexicon wordfreq` first)")
    };
    say!(
        "{id}: {} of {} headwords have a frequency, from the list of {lang}{missing}",
        stamps.len(),
        terms.len(),
    );
    for e in &mut imported.entries {
        let centis = stamps.get(&fold(&e.entry.word)).copied().unwrap_or(0);
        e.entry.frequency = zipf_of_centis(centis);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the dictionary's own language counts: a word its list lacks
    /// has none, whatever other languages say.
    #[test]
    fn a_headword_takes_its_own_languages_frequency() {
        let list: HashMap<String, u16> =
            HashMap::from([("bank".to_string(), 516), ("house".to_string(), 560)]);
        let terms: HashSet<String> = ["bank", "zyzzyva"].map(String::from).into();
        assert_eq!(
            stamps(&terms, &list),
            HashMap::from([("bank".to_string(), 516)])
        );
    }
}
