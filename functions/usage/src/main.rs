//! `/api/v1/api/me/usage`: a thin Lambda over `shared::routes::USAGE`.

use shared::routes::USAGE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&USAGE).await
}
