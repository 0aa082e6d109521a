//! What a function builds once per cold start ([`app`]), from its
//! configuration ([`config`]), and its JSON logs ([`logging`]).

pub mod app;
pub mod config;
pub mod logging;
