//! `/api/v1/api/reverse`: a thin Lambda over `shared::api::routes::REVERSE`.

use shared::api::routes::REVERSE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&REVERSE).await
}
