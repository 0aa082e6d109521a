//! Everything the Lambda functions share, in layers (docs/architecture.md):
//! - [`api`]: the routes, the request pipeline, the handlers, the answers and
//!   the query string, everything that knows HTTP or GraphQL;
//! - [`access`]: API keys and their quota;
//! - [`storage`]: DynamoDB item shapes and reads, audio URL presigning;
//! - [`runtime`]: what a function builds once per cold start, its
//!   configuration and logging;
//! - the domain at the root: the product's rules ([`service`]), the typed
//!   queries ([`queries`]), the models and errors;
//! - [`search`]: the search engine, a crate of its own (`engine/`) that
//!   knows no HTTP, storage service or GraphQL, re-exported here with its
//!   folding ([`fold`]).
//!
//! Functions stay thin: they pick an endpoint from [`api::routes`] and hand it
//! to [`api::pipeline::run`].

pub mod access;
pub mod api;
pub mod error;
pub mod model;
pub mod queries;
pub mod runtime;
pub mod service;
pub mod storage;

pub use engine as search;
pub use engine::fold;
pub use error::ApiError;
pub use runtime::app::App;
