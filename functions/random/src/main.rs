//! `/api/v1/random`: a thin Lambda over `shared::api::routes::RANDOM`.

use shared::api::routes::RANDOM;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&RANDOM).await
}
