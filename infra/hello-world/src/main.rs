//! The yardstick for binary size and cold init (docs/benchmarks.md): the least a `lambda_http` function is, built with the workspace's release profile; not a function of the service.

use lambda_http::{service_fn, Body, Error, Request, Response};

async fn hello(_request: Request) -> Result<Response<Body>, Error> {
    Ok(Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .body(Body::from(r#"{"ok":true}"#))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_http::run(service_fn(hello)).await
}
