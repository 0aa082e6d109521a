//! `/api/v1/entry/{source}/{id}`: a thin Lambda over `shared::api::routes::ENTRY`.

use shared::api::routes::ENTRY;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&ENTRY).await
}
