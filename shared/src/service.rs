//! The read operations behind both REST and GraphQL: one implementation of each
//! rule, with typed inputs that the callers have already validated.

use crate::app::App;
use crate::auth::KeyRecord;
use crate::error::ApiError;
use crate::model::{Dictionary, Entry, StoredEntry, UsageRecord};
use crate::quota::Period;
use crate::store::choose_entry_for_word;
use std::time::Duration;

/// How long a presigned audio URL stays valid when no CDN is configured.
const PRESIGNED_AUDIO_TTL: Duration = Duration::from_secs(3600);

/// Entry by id: exactly that entry; 404 `Unknown dictionary` or `Entry not found`.
pub async fn entry_by_id(app: &App, source: &str, id: &str) -> Result<Entry, ApiError> {
    match app.store.entry(source, id).await? {
        Some(stored) => with_audio_url(app, stored).await,
        None => {
            // Only the miss pays for telling an unknown dictionary apart.
            app.store.dictionary(source).await?;
            Err(ApiError::EntryNotFound {
                suggestions: Vec::new(),
            })
        }
    }
}

/// Entry by word: exact headword, else case-insensitive, else folded; among
/// several, the lemma, then the lowest id.
pub async fn entry_by_word(app: &App, source: &str, word: &str) -> Result<Entry, ApiError> {
    let candidates = app.store.entries_with_folded_word(source, word).await?;
    match choose_entry_for_word(candidates, word) {
        Some(stored) => with_audio_url(app, stored).await,
        None => {
            app.store.dictionary(source).await?;
            Err(ApiError::EntryNotFound {
                suggestions: Vec::new(),
            })
        }
    }
}

/// The audio URL of an entry: 404 `No audio found` when it has none.
pub async fn audio_url(app: &App, source: &str, id: &str) -> Result<String, ApiError> {
    let entry = entry_by_id(app, source, id).await?;
    entry.audio_url.ok_or(ApiError::NoAudio)
}

pub async fn dictionaries(app: &App) -> Result<Vec<Dictionary>, ApiError> {
    Ok(app.store.dictionaries().await?.as_ref().clone())
}

/// Checks that `source`, when given, names a dictionary (404 otherwise).
pub async fn check_source(app: &App, source: Option<&str>) -> Result<(), ApiError> {
    if let Some(source) = source {
        app.store.dictionary(source).await?;
    }
    Ok(())
}

pub async fn usage(app: &App, key: &KeyRecord) -> Result<UsageRecord, ApiError> {
    let now = (app.clock)();
    let period = Period::containing(now);
    let limit = key.limit();
    // A lowered custom limit can leave usage above it; never report more than the limit.
    let used = app.keys.usage(key, now).await?.min(limit);
    Ok(UsageRecord {
        plan: key.plan.name().to_string(),
        usage: used,
        limit,
        remaining: limit - used,
        reset_date: period.reset_date(),
    })
}

async fn with_audio_url(app: &App, stored: StoredEntry) -> Result<Entry, ApiError> {
    let mut entry = stored.entry;
    if let Some(key) = stored.audio_key {
        entry.audio_url = Some(audio_url_for_key(app, &key).await?);
    }
    Ok(entry)
}

/// The CDN URL of an audio object, or a presigned S3 GET URL without a CDN.
async fn audio_url_for_key(app: &App, key: &str) -> Result<String, ApiError> {
    if let Some(base) = &app.config.audio_base_url {
        return Ok(format!("{base}/{key}"));
    }
    let presigning = aws_sdk_s3::presigning::PresigningConfig::expires_in(PRESIGNED_AUDIO_TTL)
        .map_err(|e| ApiError::Internal(format!("presigning config: {e}")))?;
    let request = app
        .s3
        .get_object()
        .bucket(&app.config.audio_bucket)
        .key(key)
        .presigned(presigning)
        .await
        .map_err(|e| ApiError::Internal(format!("presigning audio URL: {e}")))?;
    Ok(request.uri().to_string())
}
