//! `/api/v1/api/rhymes/{word}`: a thin Lambda over `shared::api::routes::RHYMES`.

use shared::api::routes::RHYMES;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&RHYMES).await
}
