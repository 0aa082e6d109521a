//! `/api/v1/api/autocomplete`: a thin Lambda over `shared::routes::AUTOCOMPLETE`.

use shared::routes::AUTOCOMPLETE;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::http::run(&AUTOCOMPLETE).await
}
