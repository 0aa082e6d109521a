//! Everything that knows HTTP or GraphQL: the list of routes ([`routes`]), the
//! request pipeline ([`pipeline`]), the REST and GraphQL handlers ([`rest`],
//! [`graphql`]), the answers ([`response`]), the query string ([`params`]) and
//! the keyless pages ([`web`]).

#[cfg(test)]
mod declared_parameters;
pub mod graphql;
mod introspection;
pub mod params;
pub mod pipeline;
pub mod response;
pub mod rest;
pub mod routes;
pub mod web;
