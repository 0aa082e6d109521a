//! `/api/v1/api/dictionaries`: a thin Lambda over `shared::api::routes::DICTIONARIES`.

use shared::api::routes::DICTIONARIES;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&DICTIONARIES).await
}
