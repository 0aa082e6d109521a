//! `/api/v1/api/me/usage`: a thin Lambda over `shared::api::routes::USAGE`.

use shared::api::routes::USAGE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&USAGE).await
}
