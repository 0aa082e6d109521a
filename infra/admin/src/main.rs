//! `dictadmin`: the project's admin command line. It reads the same
//! configuration variables as the functions (ENTRIES_TABLE, KEYS_TABLE,
//! AUDIO_BUCKET, and DYNAMODB_ENDPOINT / S3_ENDPOINT for the local stack).
//! What it prints goes through output.rs, which a closed pipe does not stop.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod formats;
mod import;
mod index;
mod keys;
mod lexicon;
mod output;
mod storage;
mod tables;

use clap::{Parser, Subcommand};
use import::ImportError;
use index::IndexError;
use keys::KeyError;
use lexicon::LexiconError;
use output::{say, say_err};
use shared::runtime::app::Clients;
use shared::runtime::config::{Config, MissingVariable};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tables::SetupError;

#[derive(Parser)]
#[command(name = "dictadmin", about = "Admin command line of the dictionary API")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the tables of template.yaml and the audio bucket, if missing.
    Setup {
        #[arg(long, default_value = "template.yaml")]
        template: PathBuf,
        /// Only the tables: for a DynamoDB Local that serves a corpus
        /// without audio, beside no S3.
        #[arg(long)]
        no_bucket: bool,
    },
    /// Import dictionaries from their original formats.
    Import(import::ImportArgs),
    /// Build the search, autocomplete and random indexes from every entry.
    /// Run after imports.
    Index {
        /// Index only the dictionaries (in order of id) that fit within this
        /// many entries: a smaller corpus on the same data, for measuring
        /// memory and speed at several sizes. Search then serves only them.
        #[arg(long)]
        max_entries: Option<u64>,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        action: KeyAction,
    },
    /// Store a language's inflected forms, word frequencies or stop words for
    /// the index (run `dictadmin index` afterwards).
    Lexicon {
        /// Read and convert the source, print counts and a sample, write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Where the list comes from, as the listing record says (each
        /// source has a default).
        #[arg(long)]
        origin: Option<String>,
        #[command(subcommand)]
        source: LexiconSource,
    },
}

#[derive(Subcommand)]
enum LexiconSource {
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
        #[arg(long, default_value = "NAIST-2003")]
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
        #[arg(long, default_value = "ODbL-1.0")]
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
        #[arg(long, default_value = "CC-BY-SA-4.0")]
        licence: String,
        tsv: PathBuf,
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

#[derive(Subcommand)]
enum KeyAction {
    /// Create a key and print its secret (shown only this once).
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "free")]
        plan: String,
        /// A monthly limit of this key's own, instead of the plan's.
        #[arg(long)]
        limit: Option<u64>,
        /// Create exactly this key (for the local demo key).
        #[arg(long)]
        secret: Option<String>,
    },
    /// List keys (ids, plans, limits; never secrets).
    List,
    /// Disable a key: it stops working within 30 seconds (warm instances cache keys that long).
    Disable { key_id: String },
    /// Enable a disabled key again.
    Enable { key_id: String },
    /// Change a key's plan and, optionally, its own limit.
    SetPlan {
        key_id: String,
        #[arg(long)]
        plan: String,
        #[arg(long, conflicts_with = "plan_limit")]
        limit: Option<u64>,
        /// Drop the key's own limit and use the plan's.
        #[arg(long = "plan-limit")]
        plan_limit: bool,
    },
}

/// What stops a command, as the command's own layer says it: printed after
/// `error: `, and the exit code is 1.
#[derive(Debug, thiserror::Error)]
enum AdminError {
    #[error(transparent)]
    Config(#[from] MissingVariable),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error(transparent)]
    Lexicon(#[from] LexiconError),
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Cli::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say_err!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), AdminError> {
    let config = Config::from_env()?;
    let clients = Clients::for_batch_jobs(&config).await;
    match cli.command {
        Command::Setup {
            template,
            no_bucket,
        } => {
            let text =
                std::fs::read_to_string(&template).map_err(|source| SetupError::ReadTemplate {
                    path: template.clone(),
                    source,
                })?;
            tables::create_tables(&clients.dynamodb, &config, &text).await?;
            if no_bucket {
                return Ok(());
            }
            Ok(tables::create_bucket(&clients.s3, &config.audio_bucket).await?)
        }
        Command::Import(args) => Ok(import::run(&clients, &config, args).await?),
        Command::Index { max_entries } => {
            let summary =
                index::build(&clients.dynamodb, &config.entries_table, max_entries).await?;
            let sections: Vec<String> = summary
                .sections
                .iter()
                .map(|(name, parts, bytes)| {
                    format!("{name} {:.1} MB in {parts} items", *bytes as f64 / 1e6)
                })
                .collect();
            say!(
                "index: build {}, {} entries, {} terms; {}; {:.1} s",
                summary.build,
                summary.entries,
                summary.terms,
                sections.join(", "),
                summary.seconds
            );
            Ok(())
        }
        Command::Keys { action } => {
            Ok(run_keys(&clients.dynamodb, &config.keys_table, action).await?)
        }
        Command::Lexicon {
            dry_run,
            origin,
            source,
        } => Ok(run_lexicon(
            &clients.dynamodb,
            &config.entries_table,
            dry_run,
            origin,
            source,
        )
        .await?),
    }
}

/// Pairs a dry run prints.
const LEXICON_SAMPLE: usize = 12;

async fn run_lexicon(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dry_run: bool,
    origin: Option<String>,
    source: LexiconSource,
) -> Result<(), LexiconError> {
    let started = Instant::now();
    let mut lexicon = match source {
        LexiconSource::WordnetForms { dir } => lexicon::wordnet_forms::read(&dir),
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
            lexicon::hunspell_forms::read(&lang, &aff, &dic, words.as_deref(), origin, licence)
        }
        LexiconSource::IpadicForms { lang, licence, dir } => {
            let origin = format!("IPADIC {}", dir.display());
            let (list, rows) = lexicon::ipadic_forms::read(&lang, &dir, origin, licence)?;
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
            let others = lexicon::lookup_forms::Others {
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
                lexicon::lookup_forms::read(&lang, &tables, &others, origin, licence)?;
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
            lexicon::pairs_forms::read(&lang, &tsv, origin, licence)
        }
        LexiconSource::Wordfreq { lang, licence, tsv } => {
            lexicon::wordfreq::read(&lang, &tsv, "wordfreq".to_string(), licence)
        }
        LexiconSource::StopWords {
            lang,
            licence,
            file,
        } => {
            let origin = format!("Snowball stop word list {}", file.display());
            lexicon::stop_words::read(&lang, &file, origin, licence)
        }
    }?;
    if let Some(origin) = origin {
        lexicon.list.origin = origin;
    }
    let read_in = started.elapsed().as_secs_f64();
    let list = &lexicon.list;
    let name = format!("{} {}", list.kind.name(), list.lang);
    if dry_run {
        let chunks = lexicon.chunk_items()?;
        let bytes: usize = chunks.iter().map(storage::limits::item_size).sum();
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
    let stored = lexicon::store(client, table, &lexicon).await?;
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

async fn run_keys(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    action: KeyAction,
) -> Result<(), KeyError> {
    match action {
        KeyAction::Create {
            name,
            plan,
            limit,
            secret,
        } => {
            let (secret, record, created) = keys::create(
                client,
                table,
                &name,
                keys::parse_plan(&plan)?,
                limit,
                secret,
            )
            .await?;
            if created {
                say!(
                    "created {} ({}, plan {}, limit {})",
                    record.key_id,
                    record.name,
                    record.plan.name(),
                    record.limit()
                );
            } else {
                say!(
                    "exists {} ({}, plan {}, limit {})",
                    record.key_id,
                    record.name,
                    record.plan.name(),
                    record.limit()
                );
            }
            say!("API key: {secret}");
            Ok(())
        }
        KeyAction::List => {
            say!(
                "{:<18} {:<8} {:>9} {:<8} {:<20} name",
                "key id",
                "plan",
                "limit",
                "state",
                "created"
            );
            for r in keys::list(client, table).await? {
                let state = if r.disabled { "disabled" } else { "active" };
                say!(
                    "{:<18} {:<8} {:>9} {:<8} {:<20} {}",
                    r.key_id,
                    r.plan.name(),
                    r.limit(),
                    state,
                    r.created_at,
                    r.name
                );
            }
            Ok(())
        }
        KeyAction::Disable { key_id } => set_disabled(client, table, &key_id, true).await,
        KeyAction::Enable { key_id } => set_disabled(client, table, &key_id, false).await,
        KeyAction::SetPlan {
            key_id,
            plan,
            limit,
            plan_limit,
        } => {
            let mut record = keys::find(client, table, &key_id).await?;
            record.plan = keys::parse_plan(&plan)?;
            if limit.is_some() || plan_limit {
                record.custom_limit = limit;
            }
            keys::save(client, table, &record).await?;
            say!(
                "{key_id}: plan {}, limit {}",
                record.plan.name(),
                record.limit()
            );
            Ok(())
        }
    }
}

async fn set_disabled(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    key_id: &str,
    disabled: bool,
) -> Result<(), KeyError> {
    let mut record = keys::find(client, table, key_id).await?;
    record.disabled = disabled;
    keys::save(client, table, &record).await?;
    say!(
        "{key_id}: {}",
        if disabled { "disabled" } else { "enabled" }
    );
    Ok(())
}
