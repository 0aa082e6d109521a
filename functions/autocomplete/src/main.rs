//! `/api/v1/api/autocomplete`: a thin Lambda over `shared::rest::AUTOCOMPLETE`.

use shared::rest::{handler, AUTOCOMPLETE};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&AUTOCOMPLETE, handler(&AUTOCOMPLETE)).await
}
