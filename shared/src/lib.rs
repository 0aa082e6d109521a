//! Everything the Lambda functions share: models, validation, the envelope,
//! DynamoDB and S3 access, auth and quota. Functions stay thin: they pick an
//! endpoint from [`routes`] and hand it to [`http::run`].

pub mod app;
pub mod auth;
pub mod config;
pub mod error;
pub mod fold;
pub mod graphql;
pub mod http;
pub mod items;
pub mod logging;
pub mod model;
pub mod params;
pub mod presign;
pub mod queries;
pub mod quota;
pub mod response;
pub mod rest;
pub mod routes;
pub mod search;
pub mod service;
pub mod store;
pub mod web;

pub use app::App;
pub use error::ApiError;
