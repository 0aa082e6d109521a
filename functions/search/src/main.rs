//! `/api/v1/api/search`: a thin Lambda over `shared::rest::SEARCH`.

use shared::rest::SEARCH;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&SEARCH).await
}
