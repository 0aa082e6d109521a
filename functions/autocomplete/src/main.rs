//! `/api/v1/api/autocomplete`: a thin Lambda over `shared::rest::AUTOCOMPLETE`.

use shared::rest::AUTOCOMPLETE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&AUTOCOMPLETE).await
}
