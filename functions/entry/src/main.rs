//! `/api/v1/entry/{source}/{id}`: a thin Lambda over `shared::rest::ENTRY`.

use shared::rest::ENTRY;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&ENTRY).await
}
