//! `/api/v1/api/thesaurus/{word}`: a thin Lambda over `shared::api::routes::THESAURUS`.

use shared::api::routes::THESAURUS;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&THESAURUS).await
}
