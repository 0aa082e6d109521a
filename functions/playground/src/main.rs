//! `/` and `/assets/{file}`: the playground page, its assets and those of the
//! GraphQL explorer, compiled in and served without a key.

use shared::api::web::{content_type, run_files, StaticFile};

/// A file of `assets/` (or of `assets/vendor/`), served at `/assets/<name>`:
/// one path segment, as the `/assets/{file}` route matches.
macro_rules! asset {
    ($name:literal) => {
        asset!("", $name)
    };
    ($dir:literal, $name:literal) => {
        StaticFile {
            path: concat!("/assets/", $name),
            content_type: content_type($name),
            body: include_bytes!(concat!("../assets/", $dir, $name)),
        }
    };
}

static FILES: &[StaticFile] = &[
    StaticFile {
        path: "/",
        content_type: content_type("index.html"),
        body: include_bytes!("../assets/index.html"),
    },
    asset!("playground.css"),
    asset!("playground.js"),
    asset!("favicon.svg"),
    asset!("explorer.css"),
    asset!("explorer.js"),
    asset!("vendor/", "graphiql.min.css"),
    asset!("vendor/", "graphiql.min.js"),
    asset!("vendor/", "react.production.min.js"),
    asset!("vendor/", "react-dom.production.min.js"),
];

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    run_files("playground", FILES).await
}

#[cfg(test)]
mod tests {
    use super::FILES;
    use shared::api::pipeline::match_path;
    use shared::api::routes::{ASSETS, PLAYGROUND};

    #[test]
    fn every_file_is_on_a_route_of_this_function() {
        for file in FILES {
            let routed = match_path(PLAYGROUND.path, file.path).is_ok()
                || match_path(ASSETS.path, file.path).is_ok();
            assert!(routed, "{} is on no route of the playground", file.path);
        }
    }

    /// An asset added to the folder but not to FILES would be a page's 404.
    #[test]
    fn every_browser_file_of_the_assets_folder_is_served() {
        let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        for dir in [assets.clone(), assets.join("vendor")] {
            for entry in std::fs::read_dir(dir).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                let web_file = [".js", ".css", ".svg", ".html"]
                    .iter()
                    .any(|ext| name.ends_with(ext));
                // index.html is `/`.
                if !web_file || name == "index.html" {
                    continue;
                }
                let path = format!("/assets/{name}");
                assert!(FILES.iter().any(|f| f.path == path), "{name} is not served");
            }
        }
    }
}
