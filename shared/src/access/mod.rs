//! Who may call and how much: API keys and their plans ([`auth`]), and the
//! monthly quota counter ([`quota`]).

pub mod auth;
pub mod quota;
