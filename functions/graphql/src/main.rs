//! `POST /api/v1/api/graphql`: a thin Lambda over `shared::rest::GRAPHQL`.

use shared::rest::GRAPHQL;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&GRAPHQL).await
}
