//! Quota periods and the quota counter (docs/api.md, "Plans, quotas and the cost of a request"); a key's plan
//! and limit are its record's (`crate::access::auth`).
//! Periods are pure functions of the clock, so that rollover is tested with
//! any instant. The counter is one atomic conditional UpdateItem per request,
//! so `used` never exceeds `limit` under any concurrency.

use crate::access::auth::KeyRecord;
use crate::error::ApiError;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemOutput};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use std::collections::HashMap;
use time::{Date, Month, OffsetDateTime, Time};

/// The quota period containing `now`: its label (`2026-11`) and the first
/// instant of the next period, when the quota resets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Period {
    pub label: String,
    pub resets_at: OffsetDateTime,
}

impl Period {
    pub fn containing(now: OffsetDateTime) -> Self {
        let now = now.to_offset(time::UtcOffset::UTC);
        let (year, month) = (now.year(), now.month());
        let (next_year, next_month) = if month == Month::December {
            (year + 1, Month::January)
        } else {
            (year, month.next())
        };
        let next = Date::from_calendar_date(next_year, next_month, 1)
            .expect("the first of a month is a valid date");
        Self {
            label: format!("{year:04}-{:02}", month as u8),
            resets_at: next.with_time(Time::MIDNIGHT).assume_utc(),
        }
    }

    /// Whole seconds from `now` until the reset, at least 1 (a client told to
    /// retry after 0 seconds would spin).
    pub(crate) fn seconds_until_reset(&self, now: OffsetDateTime) -> u64 {
        let secs = (self.resets_at - now).whole_seconds();
        secs.max(1) as u64
    }

    /// `resetDate` as ISO 8601 UTC, e.g. `2026-12-01T00:00:00Z`.
    pub fn reset_date(&self) -> String {
        let d = self.resets_at;
        format!(
            "{:04}-{:02}-{:02}T00:00:00Z",
            d.year(),
            d.month() as u8,
            d.day()
        )
    }

    /// When DynamoDB's TTL may delete this period's counter: a month after the
    /// reset, so last month's usage can still be looked at for a while.
    pub(crate) fn counter_expires_at(&self) -> i64 {
        (self.resets_at + time::Duration::days(31)).unix_timestamp()
    }
}

/// The partition of every counter, apart from the key records (`KEY#…`), so
/// that the counter's IAM grant can name it (`dynamodb:LeadingKeys`
/// `USAGE#*` in template.yaml) and no function can touch a key record.
pub const COUNTER_PK_PREFIX: &str = "USAGE#";

/// The partition key of a key's counters: `USAGE#<key hash>`.
pub(crate) fn usage_pk(key_hash: &str) -> String {
    format!("{COUNTER_PK_PREFIX}{key_hash}")
}

/// The sort key of a key's counter for `period`: its label (`2026-11`).
pub(crate) fn usage_sk(period: &Period) -> String {
    period.label.clone()
}

/// What a counted request learns about its quota, for the RateLimit headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaState {
    pub limit: u64,
    pub remaining: u64,
    pub reset_secs: u64,
}

/// Each key's count of requests per period, in the keys table under
/// [`COUNTER_PK_PREFIX`].
pub struct QuotaCounter {
    client: aws_sdk_dynamodb::Client,
    table: String,
}

impl QuotaCounter {
    pub fn new(client: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self { client, table }
    }

    /// Counts `units` requests against the key's quota for the period
    /// containing `now`: one atomic conditional update. 429 when fewer than
    /// `units` remain, telling how many do; a refused request counts
    /// nothing. The update is sent once, never retried: an attempt that
    /// timed out may still have been applied, and a retry would count it
    /// twice.
    pub async fn consume(
        &self,
        record: &KeyRecord,
        now: OffsetDateTime,
        units: u64,
    ) -> Result<QuotaState, ApiError> {
        let period = Period::containing(now);
        let limit = record.limit();
        let reset_secs = period.seconds_until_reset(now);
        if units > limit {
            let used = self.used(record, now).await?;
            return Err(ApiError::QuotaExceeded {
                retry_after_secs: reset_secs,
                remaining: limit.saturating_sub(used),
            });
        }
        let update = self
            .counter_update(record, &period)
            .update_expression("SET #used = if_not_exists(#used, :zero) + :units, #exp = :exp")
            .condition_expression("attribute_not_exists(#used) OR #used <= :most_used_before")
            .expression_attribute_names("#exp", "expiresAt")
            .expression_attribute_values(":zero", AttributeValue::N("0".into()))
            .expression_attribute_values(":units", AttributeValue::N(units.to_string()))
            .expression_attribute_values(
                ":most_used_before",
                AttributeValue::N((limit - units).to_string()),
            )
            .expression_attribute_values(
                ":exp",
                AttributeValue::N(period.counter_expires_at().to_string()),
            )
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld);
        match send_once(update).await {
            Ok(output) => Ok(QuotaState {
                limit,
                remaining: limit.saturating_sub(used_of(output.attributes()).unwrap_or(limit)),
                reset_secs,
            }),
            Err(SdkError::ServiceError(e)) => match e.err() {
                UpdateItemError::ConditionalCheckFailedException(refused) => {
                    // The counter as the refusal found it: what remains is
                    // what `/me/usage` says remains.
                    let used = match used_of(refused.item()) {
                        Some(used) => used,
                        None => self.used(record, now).await?,
                    };
                    Err(ApiError::QuotaExceeded {
                        retry_after_secs: reset_secs,
                        remaining: limit.saturating_sub(used),
                    })
                }
                _ => Err(SdkError::ServiceError(e).into()),
            },
            Err(other) => Err(other.into()),
        }
    }

    /// Gives back `units` that a request counted in the period containing
    /// `now` for work it then did not do (a GraphQL document that failed
    /// validation): one atomic update that never takes the counter below
    /// zero, sent once as [`Self::consume`] is. The key's state after it.
    pub async fn give_back(
        &self,
        record: &KeyRecord,
        now: OffsetDateTime,
        units: u64,
    ) -> Result<QuotaState, ApiError> {
        let period = Period::containing(now);
        let limit = record.limit();
        let update = self
            .counter_update(record, &period)
            .update_expression("SET #used = #used - :units")
            .condition_expression("#used >= :units")
            .expression_attribute_values(":units", AttributeValue::N(units.to_string()));
        let output = send_once(update).await?;
        Ok(QuotaState {
            limit,
            remaining: limit.saturating_sub(used_of(output.attributes()).unwrap_or(limit)),
            reset_secs: period.seconds_until_reset(now),
        })
    }

    /// An update of `record`'s counter for `period`, whose count `#used`
    /// names, answering the count after it.
    fn counter_update(&self, record: &KeyRecord, period: &Period) -> UpdateItemFluentBuilder {
        self.client
            .update_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(usage_pk(&record.key_hash)))
            .key("sk", AttributeValue::S(usage_sk(period)))
            .expression_attribute_names("#used", "used")
            .return_values(ReturnValue::UpdatedNew)
    }

    /// Requests used in the period containing `now` (not counted itself).
    pub async fn used(&self, record: &KeyRecord, now: OffsetDateTime) -> Result<u64, ApiError> {
        let period = Period::containing(now);
        let output = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(usage_pk(&record.key_hash)))
            .key("sk", AttributeValue::S(usage_sk(&period)))
            .consistent_read(true)
            .send()
            .await?;
        Ok(used_of(output.item()).unwrap_or(0))
    }
}

/// Sends a counter update once, never retried by the SDK: an attempt that
/// timed out may still have been applied, and a retry would count it twice.
async fn send_once(
    update: UpdateItemFluentBuilder,
) -> Result<UpdateItemOutput, SdkError<UpdateItemError, HttpResponse>> {
    update
        .customize()
        .config_override(
            aws_sdk_dynamodb::config::Builder::new().retry_config(RetryConfig::disabled()),
        )
        .send()
        .await
}

/// The `used` count of a counter item, if it has one.
fn used_of(item: Option<&HashMap<String, AttributeValue>>) -> Option<u64> {
    item?.get("used")?.as_n().ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    #[test]
    fn period_of_a_mid_month_instant() {
        let p = Period::containing(datetime!(2026-11-22 03:17:00 UTC));
        assert_eq!(p.label, "2026-11");
        assert_eq!(p.reset_date(), "2026-12-01T00:00:00Z");
    }

    #[test]
    fn december_rolls_into_next_year() {
        let p = Period::containing(datetime!(2026-12-31 23:59:59 UTC));
        assert_eq!(p.label, "2026-12");
        assert_eq!(p.reset_date(), "2027-01-01T00:00:00Z");
        assert_eq!(p.seconds_until_reset(datetime!(2026-12-31 23:59:59 UTC)), 1);
    }

    #[test]
    fn the_first_instant_of_a_month_starts_a_new_period() {
        let before = Period::containing(datetime!(2026-11-30 23:59:59.999 UTC));
        let after = Period::containing(datetime!(2026-12-01 00:00:00 UTC));
        assert_ne!(before.label, after.label);
        assert_eq!(before.resets_at, datetime!(2026-12-01 00:00:00 UTC));
        assert_eq!(after.reset_date(), "2027-01-01T00:00:00Z");
    }

    #[test]
    fn other_offsets_are_read_as_utc() {
        let p = Period::containing(datetime!(2026-12-01 00:30:00 +01:00));
        assert_eq!(p.label, "2026-11");
    }

    #[test]
    fn counters_live_apart_from_key_records() {
        let hash = crate::access::auth::hash_key("dk_abcdefghijklmnopqrstuvwxyz012345");
        assert_eq!(usage_pk(&hash), format!("USAGE#{hash}"));
        assert_ne!(usage_pk(&hash), crate::access::auth::key_pk(&hash));
        let p = Period::containing(datetime!(2026-11-22 03:17:00 UTC));
        assert_eq!(usage_sk(&p), "2026-11");
    }

    proptest! {
        #[test]
        fn reset_is_after_now_and_within_a_month(secs in 0i64..4_102_444_800) {
            let now = OffsetDateTime::from_unix_timestamp(secs).unwrap();
            let p = Period::containing(now);
            prop_assert!(p.resets_at > now);
            prop_assert!((p.resets_at - now) <= time::Duration::days(31));
            prop_assert_eq!(p.resets_at.day(), 1);
            prop_assert!(p.seconds_until_reset(now) >= 1);
        }
    }
}
