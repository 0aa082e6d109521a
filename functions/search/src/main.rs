//! `/api/v1/api/search`: a thin Lambda over `shared::api::routes::SEARCH`.

use shared::api::routes::SEARCH;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&SEARCH).await
}
