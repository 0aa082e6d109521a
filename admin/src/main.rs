//! `dictadmin`: the project's admin command line. It reads the same
//! configuration variables as the functions (ENTRIES_TABLE, KEYS_TABLE,
//! AUDIO_BUCKET, and DYNAMODB_ENDPOINT / S3_ENDPOINT for the local stack).
//! The commands live in the `admin` library (lib.rs); this file reads the
//! command line and dispatches.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use admin::import;
use admin::import::ImportError;
use admin::index::{self, IndexError};
use admin::keys::{self, KeyError};
use admin::lexicon::{self, LexiconError};
use admin::tables::{self, SetupError};
use admin::{say, say_err};
use clap::{Parser, Subcommand};
use shared::runtime::app::Clients;
use shared::runtime::config::{Config, ConfigError};
use std::path::PathBuf;
use std::process::ExitCode;

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
        /// Minutes a replaced build stays readable for the instances that
        /// still cache the pointer naming it; builds replaced longer ago are
        /// deleted by this run.
        #[arg(long, default_value_t = index::DEFAULT_GRACE.as_secs() / 60)]
        grace_minutes: u64,
    },
    /// Pronunciation audio made apart from an import.
    Audio {
        #[command(subcommand)]
        action: AudioAction,
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
        source: lexicon::command::LexiconSource,
    },
}

#[derive(Subcommand)]
enum AudioAction {
    /// Speak the words an import listed with --audio-later-file that the
    /// bucket does not hold yet.
    SpeakLater { file: PathBuf },
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
    Config(#[from] ConfigError),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(cli.command, Command::Index { .. }) {
        one_malloc_arena();
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say_err!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// glibc gives threads that allocate at once arenas of their own, and what
/// is freed into one arena is never another's. The index build reads the
/// postings on Tokio's workers and encodes on a blocking thread, so what
/// it lets go of (each section's working memory, the texts only two
/// sections read) came back to the workers' arenas while the encoder's
/// grew: one arena takes the peak at 2.43 M entries from 2.69 GiB to 2.03
/// (docs/benchmarks.md, "The index build in one malloc arena").
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of glibc's allocator, before any
    // other thread of this process exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
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
        Command::Index {
            max_entries,
            grace_minutes,
        } => {
            let grace = std::time::Duration::from_secs(grace_minutes * 60);
            let summary =
                index::build(&clients.dynamodb, &config.entries_table, max_entries, grace).await?;
            let sections: Vec<String> = summary
                .sections
                .iter()
                .map(|(name, parts, bytes)| {
                    format!("{name} {:.1} MB in {parts} items", *bytes as f64 / 1e6)
                })
                .collect();
            let peak = summary
                .peak_resident_bytes
                .map(|b| format!(", peak resident {:.2} GiB", b as f64 / index::GIB))
                .unwrap_or_default();
            say!(
                "index: build {}, {} entries, {} terms; {}; {:.1} s{peak}",
                summary.build,
                summary.entries,
                summary.terms,
                sections.join(", "),
                summary.seconds
            );
            Ok(())
        }
        Command::Audio {
            action: AudioAction::SpeakLater { file },
        } => {
            let made = import::audio::speak_later(&clients.s3, &config.audio_bucket, &file).await?;
            say!(
                "spoke and uploaded {} words in {:.1} s",
                made.words,
                made.took.as_secs_f64()
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
        } => Ok(lexicon::command::run(
            &clients.dynamodb,
            &config.entries_table,
            dry_run,
            origin,
            source,
        )
        .await?),
    }
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
