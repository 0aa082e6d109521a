//! `POST /api/v1/api/graphql`: a thin Lambda over `shared::api::routes::GRAPHQL`.

use shared::api::routes::GRAPHQL;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&GRAPHQL).await
}
