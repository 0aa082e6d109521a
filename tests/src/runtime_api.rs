//! The project's Lambda Runtime API emulator on loopback (infra/runtime-api,
//! which the cold-init benchmark starts binaries on too), for the tests:
//! [`invoke_once`] runs a function binary for real (its own `main`, logging
//! and runtime loop) on one event and returns its answer and its logs.

pub use runtime_api::{invoke_once, Invocation};
