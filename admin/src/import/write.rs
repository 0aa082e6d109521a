//! Writing a converted dictionary: its entries stamped with their
//! frequencies (frequency.rs), its audio to S3 first, then, once
//! screened, its entries, links and postings manifest to DynamoDB in
//! checkpointed segments and its record last. What the previous import of
//! the dictionary wrote and this one does not is deleted (prune.rs). A
//! dictionary that an earlier run imported whole into the same table,
//! every item as it would be written now, is not written again.

use super::audio::{make_audio, plan_audio, AudioPlan, SpokenWords};
use super::checkpoint;
use super::dictionary::ImportedDictionary;
use super::error::ImportError;
use super::frequency;
use super::manifest::manifest_items;
use super::prune;
use super::screen::{screen, Screened};
use crate::output::{say, say_err};
use crate::storage::{batch, limits, partition};
use aws_sdk_dynamodb::types::AttributeValue;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use shared::storage::items;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

/// What the flags of `dictadmin import` ask of writing a dictionary.
pub struct WriteOptions<'a> {
    /// Audio, and for which headwords (`--audio-format`, `--audio-words`,
    /// `--audio-min-frequency`).
    pub audio: Option<AudioPlan<'a>>,
    /// Write nothing of a dictionary with anything DynamoDB cannot store
    /// (`--strict`).
    pub strict: bool,
    /// Delete what the previous import wrote and this one does not (unless
    /// `--no-prune`).
    pub prune: bool,
}

/// Screens the dictionary, with the audio it is to have named but not yet
/// made, so that `--strict` refuses it before any work; then makes the
/// audio of the entries that are kept and writes it all.
pub async fn write_dictionary(
    clients: &Clients,
    config: &Config,
    mut imported: ImportedDictionary,
    options: &WriteOptions<'_>,
    table: &TableIdentity,
    spoken: &mut SpokenWords,
) -> Result<(), ImportError> {
    let id = imported.dictionary.dictionary_id.clone();
    // The frequencies first: the plan may ask for the common words only.
    frequency::stamp(clients, config, &mut imported).await?;
    if let Some(plan) = options.audio {
        plan_audio(&mut imported.entries, plan)?;
    }
    let screened = screen(&mut imported);
    screened.report(&id);
    screened.refuse_if_strict(options.strict, &id)?;
    if let Some(plan) = options.audio {
        let made = make_audio(
            &clients.s3,
            &config.audio_bucket,
            &imported.entries,
            spoken,
            plan,
        )
        .await?;
        let later = match made.later {
            0 => String::new(),
            n => format!(", {n} listed to speak later"),
        };
        let recorded = match made.recorded {
            0 => String::new(),
            n => format!(" (and {n} recorded words)"),
        };
        say!(
            "{id}: audio for {} entries, {} words spoken and uploaded{recorded} in {:.1} s{later}",
            made.entries,
            made.words,
            made.took.as_secs_f64()
        );
    }
    write_items(clients, config, imported, screened, table, options.prune).await
}

/// Writes the screened entries, links and postings manifest in segments,
/// saving a checkpoint after each so that a killed run resumes, then the
/// dictionary record: a dictionary is listed only once all its items are in.
/// What the previous import wrote and this one does not (prune.rs) is
/// deleted when `prune`, entries and links before the writes; otherwise it
/// is kept and stays in the manifest. The previous manifest's leftover
/// chunks go after the new manifest is written.
async fn write_items(
    clients: &Clients,
    config: &Config,
    mut imported: ImportedDictionary,
    screened: Screened,
    table: &TableIdentity,
    prune: bool,
) -> Result<(), ImportError> {
    let client = &clients.dynamodb;
    let started = Instant::now();
    let id = imported.dictionary.dictionary_id.clone();
    let skipped = screened.summary();
    // Every audio object the new entries name: any other of the previous
    // import's is pruned.
    let new_audio: HashSet<String> = screened
        .entry_items
        .iter()
        .flat_map(items::entry_audio)
        .map(|audio| audio.key)
        .collect();
    let with_audio: HashSet<String> = imported
        .entries
        .iter()
        .filter(|e| !e.audio.is_empty())
        .map(|e| e.entry.id.clone())
        .collect();
    let mut index_items: Vec<items::Item> = screened.entry_items;
    let count = index_items.len() as u64;
    index_items.extend(screened.link_items);
    // Pruning, the manifest is the new entries' alone: known before the
    // stale items are looked up, so an unchanged import can stop here.
    let pruned_manifest = prune.then(|| manifest_items(&id, &imported.entries, &[]));
    if let Some(manifest) = &pruned_manifest {
        let fingerprint = checkpoint::fingerprint(&table.0, &[&index_items, manifest]);
        let record = items::dictionary_to_item(&imported.dictionary);
        if checkpoint::Checkpoint::new(&state_dir(), &id, fingerprint).complete()
            && stored_record(client, &config.entries_table, &id).await? == Some(record)
        {
            say!(
                "{id}: unchanged since its last import into this table ({} items): nothing written",
                index_items.len() + manifest.len() + 1
            );
            return Ok(());
        }
    }

    let looked_up = Instant::now();
    let new_keys: HashSet<(String, String)> =
        index_items.iter().filter_map(partition::key_of).collect();
    let stale = prune::find_stale(
        client,
        &config.entries_table,
        &id,
        &new_keys,
        &new_audio,
        &with_audio,
        prune,
    )
    .await?;
    for warning in &stale.warnings {
        say_err!("warning: {id}: {warning}");
    }
    // The audio of entries that stay and no longer name it goes whatever
    // the flags; that of entries that left, with them when pruning.
    prune::delete_audio(&clients.s3, &config.audio_bucket, &stale.audio_unnamed).await?;
    let dropped = match stale.audio_dropped {
        0 => String::new(),
        n => format!("; {n} entries no longer have audio"),
    };
    let stale_outcome = if prune {
        prune::delete_entries_and_links(client, &config.entries_table, &stale).await?;
        prune::delete_audio(&clients.s3, &config.audio_bucket, &stale.audio).await?;
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
            "; kept {} entries no longer in the source (--no-prune){dropped}",
            stale.postings.len()
        )
    };

    let manifest =
        pruned_manifest.unwrap_or_else(|| manifest_items(&id, &imported.entries, &stale.postings));
    for (chunk, item) in manifest.iter().enumerate() {
        limits::check_item(item).map_err(|problem| ImportError::Manifest {
            dictionary: id.clone(),
            chunk,
            problem,
        })?;
    }
    let manifest_keys: HashSet<(String, String)> =
        manifest.iter().filter_map(partition::key_of).collect();
    index_items.extend(manifest);
    let total = index_items.len();
    let checkpoint = checkpoint::Checkpoint::new(
        &state_dir(),
        &id,
        checkpoint::fingerprint(&table.0, &[&index_items]),
    );
    let done = checkpoint.items_done().min(total);
    if done > 0 {
        say!("{id}: resuming after {done} of {total} items written by an earlier run");
    }
    // For the tests of resuming: end the process abruptly, as a kill would.
    let crash_after: Option<usize> = std::env::var("DICTADMIN_CRASH_AFTER_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok());
    let bar = batch::progress(total as u64 + 1, &id);
    bar.set_position(done as u64);
    let mut written = done;
    let remaining: Vec<items::Item> = index_items.drain(done..).collect();
    for segment in remaining.chunks(checkpoint::SEGMENT) {
        batch::write_all(client, &config.entries_table, segment.to_vec(), &bar).await?;
        written += segment.len();
        checkpoint.save(written)?;
        if crash_after.is_some_and(|limit| written >= limit) {
            std::process::exit(137);
        }
    }
    prune::delete_manifest_leftovers(client, &config.entries_table, &stale, &manifest_keys).await?;
    batch::write_all(
        client,
        &config.entries_table,
        vec![items::dictionary_to_item(&imported.dictionary)],
        &bar,
    )
    .await?;
    checkpoint.finish()?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let this_run = (total - done + 1) as f64;
    say!(
        "imported {id}: {count} entries, {} items in {seconds:.1} s ({:.0} items/s){stale_outcome}{skipped}",
        total + 1,
        this_run / seconds.max(0.001)
    );
    Ok(())
}

/// The entries table's ARN and creation time: a checkpoint only resumes
/// into the very table it was written for. Described once per run, at its
/// first dictionary to write: DynamoDB Local counts a table's items to describe
/// it, 22 s of every dictionary of a resumed `CORPUS=all` import that had
/// nothing to write.
pub struct TableIdentity(String);

impl TableIdentity {
    pub async fn describe(
        client: &aws_sdk_dynamodb::Client,
        table: &str,
    ) -> Result<Self, ImportError> {
        let described = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| ImportError::DescribeTable {
                table: table.to_string(),
                message: aws_sdk_dynamodb::error::DisplayErrorContext(e).to_string(),
            })?;
        let table = described.table.ok_or_else(|| ImportError::NotDescribed {
            table: table.to_string(),
        })?;
        Ok(Self(format!(
            "{}@{}",
            table.table_arn.unwrap_or_default(),
            table
                .creation_date_time
                .map(|t| t.as_nanos().to_string())
                .unwrap_or_default()
        )))
    }
}

/// The dictionary's record as the table holds it, if it does (read
/// consistently: it is written last, so it says the import finished).
async fn stored_record(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary_id: &str,
) -> Result<Option<items::Item>, ImportError> {
    let read = client
        .get_item()
        .table_name(table)
        .key("pk", AttributeValue::S(items::DICTIONARIES_PK.into()))
        .key("sk", AttributeValue::S(dictionary_id.into()))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| ImportError::ReadRecord {
            dictionary: dictionary_id.to_string(),
            message: aws_sdk_dynamodb::error::DisplayErrorContext(e).to_string(),
        })?;
    Ok(read.item)
}

/// Where import checkpoints live: DICTADMIN_STATE_DIR, else `.local/import-state`.
fn state_dir() -> PathBuf {
    std::env::var_os("DICTADMIN_STATE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(".local/import-state"))
}
