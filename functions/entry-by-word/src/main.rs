//! `/api/v1/api/entry/{source}/word/{word}`: a thin Lambda over `shared::api::routes::ENTRY_BY_WORD`.

use shared::api::routes::ENTRY_BY_WORD;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&ENTRY_BY_WORD).await
}
