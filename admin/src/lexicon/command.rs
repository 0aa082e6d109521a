//! `dictadmin lexicon <source>`: the sources a list is read from, as the
//! command line names them, and the command that reads one and stores it
//! (or, in a dry run, prints what it would store).

use super::LexiconError;
use crate::output::say;
use clap::Subcommand;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand)]
pub enum LexiconSource {
    /// English forms from WordNet 3.0's exception lists and morphy's rules,
    /// in a directory (for example /usr/share/wordnet).
    WordnetForms { dir: PathBuf },
    /// Forms from a Hunspell dictionary, expanded by Hunspell's `unmunch`
    /// and stemmed by `hunspell -s` (both on PATH).
    HunspellForms {
        #[arg(long)]
        lang: String,
        /// The dictionary's licence, as its package states it (MPL-2.0, GPL-2.0-or-later…).
        #[arg(long)]
        licence: String,
        /// Also stem the words of this list (`word<TAB>…` lines, a wordfreq
        /// list): candidates `unmunch` does not make.
        #[arg(long)]
        words: Option<PathBuf>,
        aff: PathBuf,
        dic: PathBuf,
    },
    /// Japanese forms from IPADIC's lexicon (every `*.csv` of a directory,
    /// EUC-JP, as Debian's mecab-ipadic ships them in
    /// /usr/share/mecab/dic/ipadic): each conjugated row's surface and base form.
    IpadicForms {
        #[arg(long, default_value = "ja")]
        lang: String,
        /// The lexicon's licence (IPADIC's is NAIST-2003).
        #[arg(long, default_value = crate::catalogue::licence("ipadic"))]
        licence: String,
        dir: PathBuf,
    },
    /// Forms from lemma lookup tables (`<lang>_lemma_lookup*.json[.gz]` in a
    /// directory, as infra/scripts/lemma-lookups.sh unpacks them) and a rule
    /// lemmatizer's tables (`<lang>_lemma_{rules,index,exc}.json[.gz]`, run
    /// in the generating direction; Greek's), merged
    /// with a Hunspell dictionary's forms (its derivations filtered out) or
    /// WordNet's when given: one list of the language from all of them.
    LookupForms {
        #[arg(long)]
        lang: String,
        /// The list's licence: the tables' and, when merged, the other
        /// source's (`ODbL-1.0 AND GPL-2.0-or-later`).
        #[arg(long, default_value = crate::catalogue::licence("lemma-lookups"))]
        licence: String,
        /// Also the forms of this Hunspell dictionary (run as `hunspell-forms` does).
        #[arg(long, num_args = 2, value_names = ["AFF", "DIC"])]
        hunspell: Option<Vec<PathBuf>>,
        /// Also the English forms of WordNet 3.0 in this directory (as `wordnet-forms`).
        #[arg(long)]
        wordnet: Option<PathBuf>,
        /// The directory holding the tables.
        tables: PathBuf,
    },
    /// Forms from `form<TAB>lemma` lines made elsewhere (Finnish's by
    /// infra/scripts/voikko-forms.py), one pair a line.
    PairsForms {
        #[arg(long)]
        lang: String,
        /// The pairs' licence, as their sources state it.
        #[arg(long)]
        licence: String,
        tsv: PathBuf,
    },
    /// Word frequencies: `word<TAB>zipf` lines, as infra/scripts/wordfreq.sh writes them.
    Wordfreq {
        #[arg(long)]
        lang: String,
        #[arg(long, default_value = crate::catalogue::licence("wordfreq"))]
        licence: String,
        tsv: PathBuf,
    },
    /// Pronunciations: espeak-ng's IPA of every headword of the imported
    /// dictionaries of `--lang`, or of every language of the catalog that
    /// espeak-ng has a voice for (`--every-language`), a list each.
    EspeakPronunciations {
        #[arg(long, required_unless_present = "every_language")]
        lang: Option<String>,
        #[arg(long, conflicts_with = "lang")]
        every_language: bool,
        /// The list's licence: espeak-ng's rules and dictionaries, which
        /// make it, are GPL-3.0-or-later.
        #[arg(long, default_value = "GPL-3.0-or-later")]
        licence: String,
    },
    /// Stop words (words reverse lookup does not index): a Snowball stop word
    /// list, one word a line, `|` starting a comment, as
    /// infra/scripts/stop-words.sh writes them (`<lang>.stop`).
    StopWords {
        #[arg(long)]
        lang: String,
        /// The list's licence (Snowball's lists are BSD-3-Clause).
        #[arg(long, default_value = "BSD-3-Clause")]
        licence: String,
        file: PathBuf,
    },
}

/// Pairs a dry run prints.
const LEXICON_SAMPLE: usize = 12;

pub async fn run(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dry_run: bool,
    origin: Option<String>,
    source: LexiconSource,
) -> Result<(), LexiconError> {
    if let LexiconSource::EspeakPronunciations {
        lang,
        every_language: _,
        licence,
    } = source
    {
        let langs = match lang {
            Some(lang) => vec![lang],
            None => {
                let (spoken, unspoken) =
                    super::espeak_pronunciations::languages(client, table).await?;
                if !unspoken.is_empty() {
                    say!(
                        "pronunciations: espeak-ng has no voice for {}",
                        unspoken.join(", ")
                    );
                }
                spoken
            }
        };
        for lang in langs {
            let started = Instant::now();
            let origin = origin.clone().unwrap_or_else(espeak_version);
            let list =
                super::espeak_pronunciations::read(client, table, &lang, origin, licence.clone())
                    .await?;
            finish(client, table, dry_run, list, started).await?;
        }
        return Ok(());
    }
    let started = Instant::now();
    let mut lexicon = match source {
        LexiconSource::WordnetForms { dir } => super::wordnet_forms::read(&dir),
        LexiconSource::HunspellForms {
            lang,
            licence,
            words,
            aff,
            dic,
        } => {
            let mut origin = format!("Hunspell dictionary {}", aff.display());
            if let Some(words) = &words {
                origin += &format!(", stemming also the words of {}", words.display());
            }
            super::hunspell_forms::read(&lang, &aff, &dic, words.as_deref(), origin, licence)
        }
        LexiconSource::IpadicForms { lang, licence, dir } => {
            let origin = format!("IPADIC {}", dir.display());
            let (list, rows) = super::ipadic_forms::read(&lang, &dir, origin, licence)?;
            let inflected: Vec<String> = rows
                .inflected
                .iter()
                .map(|(pos, n)| format!("{pos} {n}"))
                .collect();
            say!(
                "forms {lang}: {} rows, {} of them conjugated ({})",
                rows.rows,
                rows.inflected.values().sum::<usize>(),
                inflected.join(", ")
            );
            Ok(list)
        }
        LexiconSource::LookupForms {
            lang,
            licence,
            hunspell,
            wordnet,
            tables,
        } => {
            let hunspell = hunspell.as_deref().map(|files| (&*files[0], &*files[1]));
            let others = super::lookup_forms::Others {
                hunspell,
                wordnet: wordnet.as_deref(),
            };
            let mut origin = format!("lemma lookup tables {}", tables.display());
            if let Some((aff, _)) = hunspell {
                origin += &format!(" + Hunspell dictionary {}", aff.display());
            }
            if let Some(dir) = &wordnet {
                origin += &format!(" + WordNet {}", dir.display());
            }
            let (list, merged) =
                super::lookup_forms::read(&lang, &tables, &others, origin, licence)?;
            say!(
                "forms {lang}: {} pairs of the tables, {} of Hunspell ({} dropped as derivations), {} of WordNet",
                merged.tables,
                merged.hunspell,
                merged.derivations,
                merged.wordnet
            );
            if let Some(rules) = &merged.rules {
                say!(
                    "forms {lang}: of the rule tables, {} pairs made by the rules and {} exceptions; left out: {} junk lemmas and exceptions, {} made forms that are lemmas, {} that the exceptions give",
                    rules.generated,
                    rules.exceptions,
                    rules.junk,
                    rules.lemma_forms,
                    rules.excepted
                );
            }
            if !merged.repaired.is_empty() {
                say!(
                    "forms {lang}: double-encoded UTF-8 undone in {}",
                    merged.repaired.join(", ")
                );
            }
            Ok(list)
        }
        LexiconSource::PairsForms { lang, licence, tsv } => {
            let origin = format!("pairs of {}", tsv.display());
            super::pairs_forms::read(&lang, &tsv, origin, licence)
        }
        LexiconSource::Wordfreq { lang, licence, tsv } => {
            super::wordfreq::read(&lang, &tsv, "wordfreq".to_string(), licence)
        }
        LexiconSource::EspeakPronunciations { .. } => unreachable!("answered above"),
        LexiconSource::StopWords {
            lang,
            licence,
            file,
        } => {
            let origin = format!("Snowball stop word list {}", file.display());
            super::stop_words::read(&lang, &file, origin, licence)
        }
    }?;
    if let Some(origin) = origin {
        lexicon.list.origin = origin;
    }
    finish(client, table, dry_run, lexicon, started).await
}

/// `espeak-ng --version`'s first words (`eSpeak NG text-to-speech: 1.51`),
/// the origin of a pronunciations list.
fn espeak_version() -> String {
    let output = std::process::Command::new("espeak-ng")
        .arg("--version")
        .output();
    let text = output
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
        .unwrap_or_default();
    match text.split("  Data at").next().map(str::trim) {
        Some(version) if !version.is_empty() => version.to_string(),
        _ => "espeak-ng".to_string(),
    }
}

/// Stores a list read (or, in a dry run, prints what it would store).
async fn finish(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dry_run: bool,
    lexicon: super::WordList,
    started: Instant,
) -> Result<(), LexiconError> {
    let read_in = started.elapsed().as_secs_f64();
    let list = &lexicon.list;
    let name = format!("{} {}", list.kind.name(), list.lang);
    if dry_run {
        let chunks = lexicon.chunk_items()?;
        let bytes: usize = chunks.iter().map(crate::storage::limits::item_size).sum();
        say!(
            "{name}: {} pairs, {} chunks, {bytes} bytes, read in {read_in:.1} s (dry run: nothing written)",
            list.count,
            chunks.len()
        );
        for (a, b) in lexicon.sample(LEXICON_SAMPLE) {
            say!("  {a}\t{b}");
        }
        return Ok(());
    }
    let stored = super::store(client, table, &lexicon).await?;
    say!(
        "stored {name}: {} pairs in {} chunks ({} bytes), read in {read_in:.1} s, stored in {:.1} s{}",
        list.count,
        stored.chunks,
        stored.bytes,
        started.elapsed().as_secs_f64() - read_in,
        match stored.leftovers_deleted {
            0 => String::new(),
            n => format!("; deleted {n} chunks of the previous list"),
        }
    );
    Ok(())
}
