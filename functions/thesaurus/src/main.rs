//! `/api/v1/api/thesaurus/{word}`: a thin Lambda over `shared::rest::THESAURUS`.

use shared::rest::{handler, THESAURUS};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&THESAURUS, handler(&THESAURUS)).await
}
