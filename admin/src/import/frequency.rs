//! The `frequency` of every entry (docs/data-model.md, "Frequencies of
//! entries"): the Zipf frequency search ranks its headword by, stamped on
//! the entry item when its dictionary is imported, so that entry by id and
//! by word show it without reading the index snapshot.
//!
//! Search ranks a folded headword by the highest frequency that the lists
//! of its dictionaries' source languages give it (`Lexicon::commonness`),
//! so an entry's value depends on the other dictionaries that have its
//! headword: `bank` of a German dictionary takes the English frequency
//! when an English dictionary has `bank` too. The import reads every other
//! dictionary's postings manifest (one Query each, once per run: [`Known`])
//! to know them, and the frequency list of each language involved (one
//! Query each), stamps its own entries, and updates the entries of other
//! dictionaries whose value its language raises: the values stay what the
//! next index build ranks by, in whatever order dictionaries are imported.

use super::dictionary::ImportedDictionary;
use super::error::ImportError;
use crate::output::say;
use crate::storage::chunked::{read_list, read_manifest};
use aws_sdk_dynamodb::error::{DisplayErrorContext, SdkError};
use aws_sdk_dynamodb::types::AttributeValue;
use futures::stream::{self, StreamExt, TryStreamExt};
use shared::fold::fold;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use shared::search::lexicon::{zipf_of_centis, LexiconKind};
use shared::storage::items::{self, ENTRY_SK};
use shared::storage::store::Store;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Manifests read, and entries updated, at once.
const IN_FLIGHT: usize = 8;

/// An entry of another dictionary whose folded headword the imported
/// dictionary has too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub dictionary: String,
    pub id: String,
    pub lang: String,
    pub folded: String,
}

/// What an import run knows of the other dictionaries' headwords: every
/// manifest is read once a run, however many dictionaries it imports, and a
/// dictionary the run writes is known from what it wrote.
#[derive(Default)]
pub struct Known {
    dictionaries: HashMap<String, KnownDictionary>,
}

/// A dictionary's source language and its entries' (folded headword, id).
struct KnownDictionary {
    lang: String,
    entries: Vec<(Box<str>, Box<str>)>,
}

impl KnownDictionary {
    fn of(imported: &ImportedDictionary) -> Self {
        Self {
            lang: imported.dictionary.source_lang.clone(),
            entries: imported
                .entries
                .iter()
                .map(|e| (fold(&e.entry.word).into(), e.entry.id.as_str().into()))
                .collect(),
        }
    }
}

impl Known {
    /// What the run now knows of a dictionary it has written.
    pub fn wrote(&mut self, id: &str, written: KnownAfterWrite) {
        self.dictionaries.insert(id.to_string(), written.0);
    }

    /// The entries of the other dictionaries `ids` whose folded headword is
    /// one of `terms`, reading the manifests of those not known yet.
    async fn shared(
        &mut self,
        client: &aws_sdk_dynamodb::Client,
        table: &str,
        ids: &[String],
        terms: &HashSet<String>,
    ) -> Result<Vec<Shared>, ImportError> {
        let unknown: Vec<&String> = ids
            .iter()
            .filter(|id| !self.dictionaries.contains_key(*id))
            .collect();
        let read: Vec<(String, KnownDictionary)> = stream::iter(unknown)
            .map(|id| async move {
                let postings = read_manifest(client, table, id).await?;
                let lang = postings
                    .first()
                    .map(|p| p.dictionary.source_lang.clone())
                    .unwrap_or_default();
                let entries = postings
                    .into_iter()
                    .map(|p| (p.folded.into_boxed_str(), p.id.into_boxed_str()))
                    .collect();
                Ok::<_, crate::storage::chunked::StoredError>((
                    id.clone(),
                    KnownDictionary { lang, entries },
                ))
            })
            .buffer_unordered(IN_FLIGHT)
            .try_collect()
            .await
            .map_err(|e| ImportError::Frequencies(e.to_string()))?;
        self.dictionaries.extend(read);
        Ok(ids
            .iter()
            .flat_map(|id| {
                let known = &self.dictionaries[id];
                known
                    .entries
                    .iter()
                    .filter(|(folded, _)| terms.contains(&**folded))
                    .map(move |(folded, entry)| Shared {
                        dictionary: id.clone(),
                        id: entry.to_string(),
                        lang: known.lang.clone(),
                        folded: folded.to_string(),
                    })
            })
            .collect())
    }
}

/// What a stamped dictionary will be known as once it is written.
pub struct KnownAfterWrite(KnownDictionary);

/// What the frequencies of an import come to.
#[derive(Debug, Default, PartialEq)]
pub struct Stamps {
    /// Folded headword → Zipf × 100 (listed headwords only).
    pub own: HashMap<String, u16>,
    /// Entries of other dictionaries (dictionary, id) to set to a higher
    /// value, which the imported dictionary's language gives their headword.
    pub raised: Vec<(String, String, u16)>,
}

/// The stamps of a dictionary of `lang` with these folded headwords, beside
/// the entries of other dictionaries that share them, from the frequency
/// lists by language (`lists[lang][term]`, Zipf × 100): each headword
/// takes the highest value of the languages of every dictionary that has
/// it, as the index ranks it.
pub fn stamps(
    lang: &str,
    terms: &HashSet<String>,
    shared: &[Shared],
    lists: &HashMap<String, HashMap<String, u16>>,
) -> Stamps {
    let listed = |lang: &str, term: &str| {
        lists
            .get(lang)
            .and_then(|l| l.get(term))
            .copied()
            .unwrap_or(0)
    };
    // The highest value of a headword before this dictionary came.
    let mut before: HashMap<&str, u16> = HashMap::new();
    for s in shared {
        let value = before.entry(&s.folded).or_default();
        *value = (*value).max(listed(&s.lang, &s.folded));
    }
    let mut own = HashMap::new();
    for term in terms {
        let value = listed(lang, term).max(before.get(term.as_str()).copied().unwrap_or(0));
        if value > 0 {
            own.insert(term.clone(), value);
        }
    }
    let raised = shared
        .iter()
        .filter_map(|s| {
            let now = own.get(&s.folded).copied().unwrap_or(0);
            (now > before[s.folded.as_str()]).then(|| (s.dictionary.clone(), s.id.clone(), now))
        })
        .collect();
    Stamps { own, raised }
}

/// Entries of other dictionaries to raise once the import is written:
/// (dictionary, id, Zipf × 100).
pub type Raised = Vec<(String, String, u16)>;

/// Stamps every entry of `imported` with its headword's frequency, and
/// says which entries of other dictionaries its language makes more common
/// ([`raise`] them once the dictionary is written) and what the run will
/// know of it ([`Known::wrote`]).
pub async fn stamp(
    clients: &Clients,
    config: &Config,
    imported: &mut ImportedDictionary,
    known: &mut Known,
) -> Result<(Raised, KnownAfterWrite), ImportError> {
    let client = &clients.dynamodb;
    let table = config.entries_table.as_str();
    let id = imported.dictionary.dictionary_id.clone();
    let lang = imported.dictionary.source_lang.clone();
    let terms: HashSet<String> = imported
        .entries
        .iter()
        .map(|e| fold(&e.entry.word))
        .collect();
    let others: Vec<String> = Store::new(client.clone(), table.to_string())
        .dictionaries()
        .await
        .map_err(|e| ImportError::Frequencies(format!("listing the dictionaries: {e:?}")))?
        .iter()
        .map(|d| d.dictionary_id.clone())
        .filter(|other| *other != id)
        .collect();
    let shared = known.shared(client, table, &others, &terms).await?;
    let langs: BTreeSet<&str> = std::iter::once(lang.as_str())
        .chain(shared.iter().map(|s| s.lang.as_str()))
        .filter(|l| !l.is_empty())
        .collect();
    let mut lists: HashMap<String, HashMap<String, u16>> = HashMap::new();
    let mut own_list = true;
    for l in &langs {
        let chunks = read_list(client, table, LexiconKind::Frequencies, l)
            .await
            .map_err(|e| ImportError::Frequencies(e.to_string()))?;
        if *l == lang && chunks.is_empty() {
            own_list = false;
        }
        let list = lists.entry(l.to_string()).or_default();
        for (_, pairs) in chunks {
            for (word, centis) in pairs {
                if terms.contains(&word) {
                    let centis: u16 = centis.parse().map_err(|_| {
                        ImportError::Frequencies(format!(
                            "the frequency list of {l} has {centis:?} for {word:?}"
                        ))
                    })?;
                    let held = list.entry(word).or_default();
                    *held = (*held).max(centis);
                }
            }
        }
    }
    let stamps = stamps(&lang, &terms, &shared, &lists);
    for e in &mut imported.entries {
        let centis = stamps.own.get(&fold(&e.entry.word)).copied().unwrap_or(0);
        e.entry.frequency = zipf_of_centis(centis);
    }
    let missing = if own_list {
        String::new()
    } else {
        format!(" (no frequency list of {lang} is stored: `dictadmin lexicon wordfreq` first)")
    };
    say!(
        "{id}: {} of {} headwords have a frequency, from the lists of {}{missing}",
        stamps.own.len(),
        terms.len(),
        langs.into_iter().collect::<Vec<_>>().join(", ")
    );
    Ok((
        stamps.raised,
        KnownAfterWrite(KnownDictionary::of(imported)),
    ))
}

/// Sets the frequency of entries of other dictionaries that the dictionary
/// `id` raised; an entry deleted since its manifest was written is left
/// alone.
pub async fn raise(
    clients: &Clients,
    config: &Config,
    id: &str,
    raised: &[(String, String, u16)],
) -> Result<(), ImportError> {
    if raised.is_empty() {
        return Ok(());
    }
    let client = &clients.dynamodb;
    let table = config.entries_table.as_str();
    stream::iter(raised)
        .map(|(dictionary, id, centis)| async move {
            let result = client
                .update_item()
                .table_name(table)
                .key("pk", AttributeValue::S(items::entry_pk(dictionary, id)))
                .key("sk", AttributeValue::S(ENTRY_SK.into()))
                .update_expression("SET frequency = :f")
                .condition_expression("attribute_exists(pk)")
                .expression_attribute_values(
                    ":f",
                    AttributeValue::N(items::frequency_number(zipf_of_centis(*centis))),
                )
                .send()
                .await;
            match result {
                Ok(_) => Ok(()),
                Err(SdkError::ServiceError(e))
                    if e.err().is_conditional_check_failed_exception() =>
                {
                    Ok(())
                }
                Err(e) => Err(ImportError::Frequencies(format!(
                    "updating {dictionary} {id}: {}",
                    DisplayErrorContext(e)
                ))),
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .try_collect::<Vec<()>>()
        .await?;
    let mut by_dictionary: BTreeMap<&str, usize> = BTreeMap::new();
    for (d, _, _) in raised {
        *by_dictionary.entry(d.as_str()).or_default() += 1;
    }
    let counts: Vec<String> = by_dictionary
        .iter()
        .map(|(d, n)| format!("{n} of {d}"))
        .collect();
    say!(
        "{id}: raised the frequency of entries its language lists higher: {}",
        counts.join(", ")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(all: &[(&str, &[(&str, u16)])]) -> HashMap<String, HashMap<String, u16>> {
        all.iter()
            .map(|(lang, words)| {
                (
                    lang.to_string(),
                    words.iter().map(|(w, f)| (w.to_string(), *f)).collect(),
                )
            })
            .collect()
    }

    fn shared(dictionary: &str, id: &str, lang: &str, folded: &str) -> Shared {
        Shared {
            dictionary: dictionary.into(),
            id: id.into(),
            lang: lang.into(),
            folded: folded.into(),
        }
    }

    fn terms(words: &[&str]) -> HashSet<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_headword_alone_takes_its_languages_frequency() {
        let lists = lists(&[("en", &[("bank", 516), ("house", 560)])]);
        let got = stamps("en", &terms(&["bank", "zyzzyva"]), &[], &lists);
        assert_eq!(got.own, HashMap::from([("bank".to_string(), 516)]));
        assert!(got.raised.is_empty());
    }

    /// `bank` of a German dictionary imported after an English one that has
    /// `bank` takes the English frequency, the higher, as search ranks it.
    #[test]
    fn a_headword_other_languages_have_takes_the_highest() {
        let lists = lists(&[("en", &[("bank", 516)]), ("de", &[("bank", 491)])]);
        let others = [shared("freedict-eng-fra", "1", "en", "bank")];
        let got = stamps("de", &terms(&["bank"]), &others, &lists);
        assert_eq!(got.own["bank"], 516);
        assert!(got.raised.is_empty(), "English already had the higher one");
    }

    /// Imported the other way round, the English dictionary raises the
    /// German entries of `bank` (and those of a language without a list);
    /// entries of headwords it does not make more common stay.
    #[test]
    fn a_language_that_lists_a_headword_higher_raises_the_others() {
        let lists = lists(&[
            ("en", &[("bank", 516), ("kind", 500)]),
            ("de", &[("bank", 491), ("kind", 560)]),
        ]);
        let mut others = vec![
            shared("freedict-deu-eng", "1", "de", "bank"),
            shared("freedict-deu-eng", "2", "de", "bank"),
            shared("freedict-deu-eng", "3", "de", "kind"),
            shared("unlisted", "5", "xx", "bank"),
        ];
        let got = stamps("en", &terms(&["bank", "kind"]), &others, &lists);
        assert_eq!(got.own["bank"], 516);
        assert_eq!(got.own["kind"], 560, "German lists kind higher");
        let raised: Vec<(&str, &str, u16)> = got
            .raised
            .iter()
            .map(|(d, id, f)| (d.as_str(), id.as_str(), *f))
            .collect();
        assert_eq!(
            raised,
            [
                ("freedict-deu-eng", "1", 516),
                ("freedict-deu-eng", "2", 516),
                ("unlisted", "5", 516)
            ]
        );
        // An English dictionary that has `bank` already raised them.
        others.push(shared("gcide", "4", "en", "bank"));
        let got = stamps("en", &terms(&["bank", "kind"]), &others, &lists);
        assert_eq!(got.own["bank"], 516);
        assert!(got.raised.is_empty(), "{:?}", got.raised);
    }
}
