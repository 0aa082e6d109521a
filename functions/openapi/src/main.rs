//! `/api/v1/openapi.json`: the OpenAPI document of the REST surface
//! (docs/openapi.json, compiled in), served without a key.

use shared::api::web::{run_files, StaticFile};

static FILES: &[StaticFile] = &[StaticFile {
    path: "/api/v1/openapi.json",
    content_type: "application/json; charset=utf-8",
    body: include_bytes!("../../../docs/openapi.json"),
}];

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    run_files("openapi", FILES).await
}
