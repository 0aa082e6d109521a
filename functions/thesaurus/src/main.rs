//! `/api/v1/api/thesaurus/{word}`: a thin Lambda over `shared::routes::THESAURUS`.

use shared::routes::THESAURUS;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&THESAURUS).await
}
