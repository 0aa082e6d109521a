//! `/api/v1/random`: a thin Lambda over `shared::routes::RANDOM`.

use shared::routes::RANDOM;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&RANDOM).await
}
