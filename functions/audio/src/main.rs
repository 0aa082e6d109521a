//! `/api/v1/api/audio/{source}/{lexid}`: a thin Lambda over `shared::api::routes::AUDIO`.

use shared::api::routes::AUDIO;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&AUDIO).await
}
