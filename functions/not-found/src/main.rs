//! Every path no other function serves (the HttpApi `$default` route): 404 in
//! the envelope, without a key and without counting against a quota.

use shared::api::routes::NOT_FOUND;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::pipeline::run(&NOT_FOUND).await
}
