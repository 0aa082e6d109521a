//! `/api/v1/api/audio/{source}/{lexid}`: a thin Lambda over `shared::routes::AUDIO`.

use shared::routes::AUDIO;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&AUDIO).await
}
