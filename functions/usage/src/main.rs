//! `/api/v1/api/me/usage`: a thin Lambda over `shared::rest::USAGE`.

use shared::rest::USAGE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&USAGE).await
}
