//! Plans and quota periods (decisions.md, "Keys, plans and quota"): pure
//! functions of the clock, so that period rollover is tested with any instant.

use time::{Date, Month, OffsetDateTime, Time};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Free,
    Starter,
    Pro,
}

impl Plan {
    pub const ALL: [Plan; 3] = [Plan::Free, Plan::Starter, Plan::Pro];

    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Starter => "starter",
            Plan::Pro => "pro",
        }
    }

    /// Requests per calendar month.
    pub fn monthly_limit(self) -> u64 {
        match self {
            Plan::Free => 1_000,
            Plan::Starter => 50_000,
            Plan::Pro => 1_000_000,
        }
    }

    pub fn parse(name: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The quota period containing `now`: its label (`2026-11`) and the first
/// instant of the next period, when the quota resets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
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
    pub fn seconds_until_reset(&self, now: OffsetDateTime) -> u64 {
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
    pub fn counter_expires_at(&self) -> i64 {
        (self.resets_at + time::Duration::days(31)).unix_timestamp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    #[test]
    fn plans_have_the_documented_limits() {
        assert_eq!(Plan::Free.monthly_limit(), 1_000);
        assert_eq!(Plan::Starter.monthly_limit(), 50_000);
        assert_eq!(Plan::Pro.monthly_limit(), 1_000_000);
        assert_eq!(Plan::parse("starter"), Some(Plan::Starter));
        assert_eq!(Plan::parse("gold"), None);
    }

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
