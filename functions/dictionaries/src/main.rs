//! `/api/v1/api/dictionaries`: a thin Lambda over `shared::rest::DICTIONARIES`.

use shared::rest::DICTIONARIES;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&DICTIONARIES).await
}
