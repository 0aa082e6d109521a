//! `/api/v1/api/autocomplete`: a thin Lambda over `shared::api::routes::AUTOCOMPLETE`.

use shared::api::routes::AUTOCOMPLETE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&AUTOCOMPLETE).await
}
