//! BatchWriteItem in chunks of 25, several in flight, retrying unprocessed
//! items with exponential backoff until every item is written.

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use futures::stream::{self, StreamExt, TryStreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use shared::items::Item;
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
    let chunks: Vec<Vec<Item>> = items.chunks(BATCH).map(<[Item]>::to_vec).collect();
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
    chunk: Vec<Item>,
) -> Result<(), WriteError> {
    let mut pending: Vec<WriteRequest> = chunk
        .into_iter()
        .map(|item| {
            let put = PutRequest::builder()
                .set_item(Some(item))
                .build()
                .expect("item is set");
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
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
