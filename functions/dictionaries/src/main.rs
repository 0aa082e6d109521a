//! `/api/v1/api/dictionaries`: a thin Lambda over `shared::routes::DICTIONARIES`.

use shared::routes::DICTIONARIES;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&DICTIONARIES).await
}
