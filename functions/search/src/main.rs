//! `/api/v1/api/search`: a thin Lambda over `shared::routes::SEARCH`.

use shared::routes::SEARCH;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&SEARCH).await
}
