//! `POST /api/v1/api/graphql`: a thin Lambda over `shared::routes::GRAPHQL`.

use shared::routes::GRAPHQL;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&GRAPHQL).await
}
