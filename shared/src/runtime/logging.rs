//! Structured JSON logs, one object per line, as CloudWatch and the local
//! stack's log files expect. `RUST_LOG` sets the level (default `info`).
//!
//! Logs never hold key material, at any level: other crates log whole
//! requests at TRACE (lambda_runtime the raw event with its `Authorization`
//! header, the AWS SDK every request and response, key hashes included), so
//! their TRACE events are dropped whatever `RUST_LOG` says. Ours stay.

use tracing::{Level, Metadata};
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// The crates whose TRACE events are ours, and so known to be safe.
const OWN_CRATES: [&str; 2] = ["shared", "dictadmin"];

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json = tracing_subscriber::fmt::layer()
        .json()
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .with_filter(filter)
        .with_filter(filter_fn(is_safe_to_log));
    // `try_init` so that a second call (tests, tools) is harmless.
    let _ = tracing_subscriber::registry().with(json).try_init();
}

/// Whether an event or span may be written: anything but another crate's TRACE.
pub(crate) fn is_safe_to_log(metadata: &Metadata<'_>) -> bool {
    *metadata.level() < Level::TRACE || is_own(metadata.target())
}

fn is_own(target: &str) -> bool {
    OWN_CRATES.iter().any(|own| {
        target
            .strip_prefix(own)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_own_crates_trace() {
        assert!(is_own("shared"));
        assert!(is_own("shared::api::pipeline"));
        assert!(is_own("dictadmin::import"));
        assert!(!is_own("lambda_runtime::layers::api_response"));
        assert!(!is_own("aws_smithy_runtime::client::orchestrator"));
        assert!(
            !is_own("shared_secrets"),
            "a prefix of a name is not the crate"
        );
    }
}
