//! `dictadmin`: the project's admin command line. It reads the same
//! configuration variables as the functions (ENTRIES_TABLE, KEYS_TABLE,
//! AUDIO_BUCKET, and DYNAMODB_ENDPOINT / S3_ENDPOINT for the local stack).

mod entry_text;
mod formats;
mod html;
mod import;
mod index;
mod keys;
mod languages;
mod lexicon;
mod limits;
mod query;
mod tables;
mod writer;

use clap::{Parser, Subcommand};
use shared::app::Clients;
use shared::config::Config;
use shared::items;
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
    },
    /// Import dictionaries from their original formats.
    Import {
        /// Give pronunciation audio, in this format, to the headwords of
        /// --audio-words (with an MP3 rendition besides, when spx).
        #[arg(long, requires = "audio_words", value_parser = import::audio::format_parser())]
        audio_format: Option<import::audio::AudioFormat>,
        /// Comma-separated headwords to give audio (compared without case or diacritics).
        #[arg(long, value_delimiter = ',', requires = "audio_format")]
        audio_words: Vec<String>,
        /// Read and convert the sources, print what would be written, write nothing.
        #[arg(long)]
        dry_run: bool,
        /// The most one source file may hold, after decompression (`.dz`,
        /// `.gz`): a larger one is refused. Bytes, or with a unit: 2GiB,
        /// 512MiB, 500MB. The default is 1 GiB.
        #[arg(
            long,
            env = "DICTADMIN_MAX_SOURCE_BYTES",
            default_value_t = formats::source::DEFAULT_MAX_SOURCE_BYTES,
            value_parser = formats::source::parse_size
        )]
        max_source_bytes: u64,
        /// Refuse a dictionary (write none of it, exit non-zero) if any of its
        /// articles or links cannot be stored in DynamoDB, instead of skipping
        /// them with a warning.
        #[arg(long)]
        strict: bool,
        /// Keep the entries, links and audio of the previous import that the
        /// source no longer has (by default they are deleted).
        #[arg(long)]
        no_prune: bool,
        #[command(subcommand)]
        source: import::Source,
    },
    /// Build the search, autocomplete and random indexes from every entry.
    /// Run after imports.
    Index,
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        action: KeyAction,
    },
    /// Store a language's inflected forms or word frequencies for the index
    /// (run `dictadmin index` afterwards).
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
        aff: PathBuf,
        dic: PathBuf,
    },
    /// Word frequencies: `word<TAB>zipf` lines, as infra/scripts/wordfreq.sh writes them.
    Wordfreq {
        #[arg(long)]
        lang: String,
        #[arg(long, default_value = "CC-BY-SA-4.0")]
        licence: String,
        tsv: PathBuf,
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

#[tokio::main]
async fn main() -> ExitCode {
    match run(Cli::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    let config = Config::from_env().map_err(|e| e.to_string())?;
    let clients = Clients::for_batch_jobs(&config).await;
    match cli.command {
        Command::Setup { template } => {
            let text = std::fs::read_to_string(&template)
                .map_err(|e| format!("{}: {e}", template.display()))?;
            tables::create_tables(&clients.dynamodb, &config, &text).await?;
            tables::create_bucket(&clients.s3, &config.audio_bucket).await
        }
        Command::Import {
            audio_format,
            audio_words,
            dry_run,
            max_source_bytes,
            strict,
            no_prune,
            source,
        } => {
            for input in source.inputs() {
                let started = Instant::now();
                let mut imported = source
                    .read(input, max_source_bytes)
                    .map_err(|e| e.to_string())?;
                if dry_run {
                    let screened = import::screen::screen(&mut imported);
                    report_skipped(&imported.dictionary.dictionary_id, &screened);
                    println!(
                        "{}: {} entries, {} links read in {:.1} s{} (dry run: nothing written)",
                        imported.dictionary.dictionary_id,
                        imported.entries.len(),
                        imported.links.len(),
                        started.elapsed().as_secs_f64(),
                        skipped_summary(&screened)
                    );
                    refuse_if_strict(strict, &imported, &screened)?;
                    continue;
                }
                if let Some(format) = audio_format {
                    let added = import::audio::add_audio(
                        &clients.s3,
                        &config.audio_bucket,
                        &mut imported.entries,
                        &audio_words,
                        format,
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                    println!(
                        "{}: audio for {added} entries",
                        imported.dictionary.dictionary_id
                    );
                }
                // After the audio, so that the checks see the final items.
                let screened = import::screen::screen(&mut imported);
                report_skipped(&imported.dictionary.dictionary_id, &screened);
                refuse_if_strict(strict, &imported, &screened)?;
                write_dictionary(&clients, &config, imported, screened, !no_prune).await?;
            }
            Ok(())
        }
        Command::Index => {
            let summary = index::build(&clients.dynamodb, &config.entries_table).await?;
            let sections: Vec<String> = summary
                .sections
                .iter()
                .map(|(name, parts, bytes)| {
                    format!("{name} {:.1} MB in {parts} parts", *bytes as f64 / 1e6)
                })
                .collect();
            println!(
                "index: build {}, {} entries, {} terms; {}; {:.1} s",
                summary.build,
                summary.entries,
                summary.terms,
                sections.join(", "),
                summary.seconds
            );
            Ok(())
        }
        Command::Keys { action } => run_keys(&clients.dynamodb, &config.keys_table, action).await,
        Command::Lexicon {
            dry_run,
            origin,
            source,
        } => {
            run_lexicon(
                &clients.dynamodb,
                &config.entries_table,
                dry_run,
                origin,
                source,
            )
            .await
        }
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
) -> Result<(), String> {
    let started = Instant::now();
    let mut lexicon = match source {
        LexiconSource::WordnetForms { dir } => lexicon::wordnet_forms::read(&dir),
        LexiconSource::HunspellForms {
            lang,
            licence,
            aff,
            dic,
        } => {
            let origin = format!("Hunspell dictionary {}", aff.display());
            lexicon::hunspell_forms::read(&lang, &aff, &dic, origin, licence)
        }
        LexiconSource::Wordfreq { lang, licence, tsv } => {
            lexicon::wordfreq::read(&lang, &tsv, "wordfreq".to_string(), licence)
        }
    }
    .map_err(|e| e.to_string())?;
    if let Some(origin) = origin {
        lexicon.list.origin = origin;
    }
    let read_in = started.elapsed().as_secs_f64();
    let list = &lexicon.list;
    let name = format!("{} {}", list.kind.name(), list.lang);
    if dry_run {
        let chunks = lexicon.chunk_items().map_err(|e| e.to_string())?;
        let bytes: usize = chunks.iter().map(limits::item_size).sum();
        println!(
            "{name}: {} pairs, {} chunks, {bytes} bytes, read in {read_in:.1} s (dry run: nothing written)",
            list.count,
            chunks.len()
        );
        for (a, b) in lexicon.sample(LEXICON_SAMPLE) {
            println!("  {a}\t{b}");
        }
        return Ok(());
    }
    let stored = lexicon::store(client, table, &lexicon)
        .await
        .map_err(|e| e.to_string())?;
    println!(
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

/// At most this many skipped articles are listed one per line; the count
/// says how many more there are.
const SKIPPED_LISTED: usize = 100;

/// Warns, on standard error, of every article or link that cannot be stored.
fn report_skipped(dictionary_id: &str, screened: &import::screen::Screened) {
    for skipped in screened.skipped.iter().take(SKIPPED_LISTED) {
        eprintln!("warning: {dictionary_id}: skipped {skipped}");
    }
    if screened.skipped.len() > SKIPPED_LISTED {
        eprintln!(
            "warning: {dictionary_id}: and {} more skipped",
            screened.skipped.len() - SKIPPED_LISTED
        );
    }
}

/// `; skipped 2 entries and 3 links that DynamoDB cannot store`, or nothing.
fn skipped_summary(screened: &import::screen::Screened) -> String {
    if screened.skipped.is_empty() {
        return String::new();
    }
    format!(
        "; skipped {} entries and {} links that DynamoDB cannot store (see the warnings)",
        screened.skipped_entries(),
        screened.skipped_links()
    )
}

fn refuse_if_strict(
    strict: bool,
    imported: &import::dictionary::ImportedDictionary,
    screened: &import::screen::Screened,
) -> Result<(), String> {
    if strict && !screened.skipped.is_empty() {
        return Err(import::error::ImportError::Unstorable {
            dictionary: imported.dictionary.dictionary_id.clone(),
            count: screened.skipped.len(),
        }
        .to_string());
    }
    Ok(())
}

/// Writes the entries, links and postings manifest in segments, saving a
/// checkpoint after each so that a killed run resumes, then the dictionary
/// record: a dictionary is listed only once all its items are in. What the
/// previous import wrote and this one does not (import/prune.rs) is deleted when
/// `prune`, entries and links before the writes; otherwise it is kept and
/// stays in the manifest. The previous manifest's leftover chunks go after
/// the new manifest is written.
async fn write_dictionary(
    clients: &Clients,
    config: &Config,
    mut imported: import::dictionary::ImportedDictionary,
    screened: import::screen::Screened,
    prune: bool,
) -> Result<(), String> {
    let client = &clients.dynamodb;
    let started = Instant::now();
    let id = imported.dictionary.dictionary_id.clone();
    let skipped = skipped_summary(&screened);
    // Every audio object the new entries name: any other of the previous
    // import's is pruned.
    let new_audio: HashSet<String> = screened
        .entry_items
        .iter()
        .flat_map(items::entry_audio)
        .map(|audio| audio.key)
        .collect();
    let mut index_items: Vec<items::Item> = screened.entry_items;
    let count = index_items.len() as u64;
    index_items.extend(screened.link_items);

    let looked_up = Instant::now();
    let new_keys: HashSet<(String, String)> =
        index_items.iter().filter_map(query::key_of).collect();
    let stale = import::prune::find_stale(
        client,
        &config.entries_table,
        &id,
        &new_keys,
        &new_audio,
        prune,
    )
    .await
    .map_err(|e| e.to_string())?;
    for warning in &stale.warnings {
        eprintln!("warning: {id}: {warning}");
    }
    let stale_outcome = if prune {
        import::prune::delete_entries_and_links(
            client,
            &clients.s3,
            &config.entries_table,
            &config.audio_bucket,
            &stale,
        )
        .await
        .map_err(|e| e.to_string())?;
        let dropped = match stale.audio_dropped {
            0 => String::new(),
            n => format!("; removed the audio of {n} entries that no longer have any"),
        };
        format!(
            "; pruned {} entries ({} with audio) and {} links no longer in the source ({} thesaurus partitions read, {:.1} s){dropped}",
            stale.entries.len(),
            stale.audio_entries,
            stale.links.len(),
            stale.partitions_read,
            looked_up.elapsed().as_secs_f64()
        )
    } else {
        imported.dictionary.entry_count += stale.postings.len() as u64;
        format!(
            "; kept {} entries no longer in the source (--no-prune)",
            stale.postings.len()
        )
    };

    let kept: &[shared::search::postings::Posting] = if prune { &[] } else { &stale.postings };
    let manifest = index::manifest_items(&id, &imported.entries, kept);
    for (chunk, item) in manifest.iter().enumerate() {
        limits::check_item(item).map_err(|problem| {
            import::error::ImportError::Manifest {
                dictionary: id.clone(),
                chunk,
                problem,
            }
            .to_string()
        })?;
    }
    let manifest_keys: HashSet<(String, String)> =
        manifest.iter().filter_map(query::key_of).collect();
    index_items.extend(manifest);
    let total = index_items.len();
    let table = table_identity(client, &config.entries_table).await?;
    let checkpoint = import::checkpoint::Checkpoint::new(
        &state_dir(),
        &id,
        import::checkpoint::fingerprint(&table, &index_items),
    );
    let done = checkpoint.items_done().min(total);
    if done > 0 {
        println!("{id}: resuming after {done} of {total} items written by an earlier run");
    }
    // For the tests of resuming: end the process abruptly, as a kill would.
    let crash_after: Option<usize> = std::env::var("DICTADMIN_CRASH_AFTER_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok());
    let bar = writer::progress(total as u64 + 1, &id);
    bar.set_position(done as u64);
    let mut written = done;
    let remaining: Vec<items::Item> = index_items.drain(done..).collect();
    for segment in remaining.chunks(import::checkpoint::SEGMENT) {
        writer::write_all(client, &config.entries_table, segment.to_vec(), &bar)
            .await
            .map_err(|e| e.to_string())?;
        written += segment.len();
        checkpoint.save(written).map_err(|e| e.to_string())?;
        if crash_after.is_some_and(|limit| written >= limit) {
            std::process::exit(137);
        }
    }
    import::prune::delete_manifest_leftovers(client, &config.entries_table, &stale, &manifest_keys)
        .await
        .map_err(|e| e.to_string())?;
    writer::write_all(
        client,
        &config.entries_table,
        vec![items::dictionary_to_item(&imported.dictionary)],
        &bar,
    )
    .await
    .map_err(|e| e.to_string())?;
    checkpoint.finish();
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let this_run = (total - done + 1) as f64;
    println!(
        "imported {id}: {count} entries, {} items in {seconds:.1} s ({:.0} items/s){stale_outcome}{skipped}",
        total + 1,
        this_run / seconds.max(0.001)
    );
    Ok(())
}

/// The table's ARN and creation time: a checkpoint only resumes into the
/// very table it was written for.
async fn table_identity(client: &aws_sdk_dynamodb::Client, table: &str) -> Result<String, String> {
    let described = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| crate::sdk_error(format!("describing {table}"), e))?;
    let table = described
        .table
        .ok_or_else(|| format!("{table} is not described"))?;
    Ok(format!(
        "{}@{}",
        table.table_arn.unwrap_or_default(),
        table
            .creation_date_time
            .map(|t| t.as_nanos().to_string())
            .unwrap_or_default()
    ))
}

/// An AWS SDK error as one line for the operator: what was being done, then
/// the error with its causes.
pub fn sdk_error(doing: String, err: impl std::error::Error) -> String {
    format!(
        "{doing}: {}",
        aws_sdk_dynamodb::error::DisplayErrorContext(err)
    )
}

/// Where import checkpoints live: DICTADMIN_STATE_DIR, else `.local/import-state`.
fn state_dir() -> PathBuf {
    std::env::var_os("DICTADMIN_STATE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(".local/import-state"))
}

async fn run_keys(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    action: KeyAction,
) -> Result<(), String> {
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
                println!(
                    "created {} ({}, plan {}, limit {})",
                    record.key_id,
                    record.name,
                    record.plan.name(),
                    record.limit()
                );
            } else {
                println!(
                    "exists {} ({}, plan {}, limit {})",
                    record.key_id,
                    record.name,
                    record.plan.name(),
                    record.limit()
                );
            }
            println!("API key: {secret}");
            Ok(())
        }
        KeyAction::List => {
            println!(
                "{:<18} {:<8} {:>9} {:<8} {:<20} name",
                "key id", "plan", "limit", "state", "created"
            );
            for r in keys::list(client, table).await? {
                let state = if r.disabled { "disabled" } else { "active" };
                println!(
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
            println!(
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
) -> Result<(), String> {
    let mut record = keys::find(client, table, key_id).await?;
    record.disabled = disabled;
    keys::save(client, table, &record).await?;
    println!(
        "{key_id}: {}",
        if disabled { "disabled" } else { "enabled" }
    );
    Ok(())
}
