//! `/api/v1/random`: a thin Lambda over `shared::rest::RANDOM`.

use shared::rest::RANDOM;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&RANDOM).await
}
