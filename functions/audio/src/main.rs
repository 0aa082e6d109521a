//! `/api/v1/api/audio/{source}/{lexid}`: a thin Lambda over `shared::rest::AUDIO`.

use shared::rest::{handler, AUDIO};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&AUDIO, handler(&AUDIO)).await
}
