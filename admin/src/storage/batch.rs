//! BatchWriteItem in chunks of 25, several in flight, retrying unprocessed
//! items with exponential backoff until every item is written (or deleted).

use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, WriteRequest};
use futures::stream::{self, StreamExt, TryStreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use shared::storage::items::Item;
use std::time::Duration;

const BATCH: usize = 25;
const IN_FLIGHT: usize = 8;
const MAX_ATTEMPTS: u32 = 12;

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("writing to {table}: {message}")]
    Dynamo { table: String, message: String },
    #[error("writing to {table}: {left} items still unprocessed after {MAX_ATTEMPTS} attempts")]
    Unprocessed { table: String, left: usize },
}

/// A progress bar with rate and ETA on a terminal; hidden when not one (CI logs).
pub fn progress(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>24} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

pub async fn write_all(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    items: Vec<Item>,
    bar: &ProgressBar,
) -> Result<(), WriteError> {
    let requests = items
        .into_iter()
        .map(|item| {
            let put = PutRequest::builder()
                .set_item(Some(item))
                .build()
                .expect("item is set");
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    send_all(client, table, requests, bar).await
}

/// Deletes the items with these primary keys.
pub async fn delete_all(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: Vec<Item>,
    bar: &ProgressBar,
) -> Result<(), WriteError> {
    let requests = keys
        .into_iter()
        .map(|key| {
            let delete = DeleteRequest::builder()
                .set_key(Some(key))
                .build()
                .expect("key is set");
            WriteRequest::builder().delete_request(delete).build()
        })
        .collect();
    send_all(client, table, requests, bar).await
}

async fn send_all(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    requests: Vec<WriteRequest>,
    bar: &ProgressBar,
) -> Result<(), WriteError> {
    let chunks: Vec<Vec<WriteRequest>> = requests.chunks(BATCH).map(<[_]>::to_vec).collect();
    stream::iter(chunks)
        .map(|chunk| async move {
            let written = chunk.len() as u64;
            write_batch(client, table, chunk).await?;
            bar.inc(written);
            Ok::<_, WriteError>(())
        })
        .buffer_unordered(IN_FLIGHT)
        .try_collect::<Vec<_>>()
        .await?;
    Ok(())
}

async fn write_batch(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    mut pending: Vec<WriteRequest>,
) -> Result<(), WriteError> {
    let mut delay = Duration::from_millis(50);
    for _ in 0..MAX_ATTEMPTS {
        let output = client
            .batch_write_item()
            .request_items(table, pending.clone())
            .send()
            .await
            .map_err(|e| WriteError::Dynamo {
                table: table.to_string(),
                message: format!("{}", aws_sdk_dynamodb::error::DisplayErrorContext(e)),
            })?;
        pending = output
            .unprocessed_items
            .and_then(|mut m| m.remove(table))
            .unwrap_or_default();
        if pending.is_empty() {
            return Ok(());
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(5));
    }
    Err(WriteError::Unprocessed {
        table: table.to_string(),
        left: pending.len(),
    })
}
