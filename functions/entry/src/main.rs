//! `/api/v1/entry/{source}/{id}`: a thin Lambda over `shared::routes::ENTRY`.

use shared::routes::ENTRY;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&ENTRY).await
}
