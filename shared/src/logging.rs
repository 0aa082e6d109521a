//! Structured JSON logs, one object per line, as CloudWatch and the local
//! stack's log files expect. `RUST_LOG` sets the level (default `info`).

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // `try_init` so that a second call (tests, tools) is harmless.
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .try_init();
}
