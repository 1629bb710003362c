//! The page's files, compiled into the binary. Requests name a file of this fixed table; nothing
//! else (no path on disk, no `..`) can be served.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A bundled file: name, content type, content.
type Asset = (&'static str, &'static str, &'static str);

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    ("app.js", JS, include_str!("../assets/app.js")),
    ("nes.js", JS, include_str!("../assets/nes.js")),
    ("watch.js", JS, include_str!("../assets/watch.js")),
    ("replay.js", JS, include_str!("../assets/replay.js")),
    ("analyse.js", JS, include_str!("../assets/analyse.js")),
    ("minijong.js", JS, include_str!("../assets/minijong.js")),
    ("standard.js", JS, include_str!("../assets/standard.js")),
    ("ui.js", JS, include_str!("../assets/ui.js")),
    ("play.js", JS, include_str!("../assets/play.js")),
];

/// The bundled file called `name`, if there is one.
#[must_use]
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|(n, _, _)| *n == name)
}

fn respond(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.1),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        asset.2,
    )
        .into_response()
}

/// `GET /`: the page.
pub async fn index() -> Response {
    find("index.html").map_or_else(not_found_response, respond)
}

/// `GET /assets/{name}`: one bundled file, or 404.
pub async fn asset(Path(name): Path<String>) -> Response {
    find(&name).map_or_else(not_found_response, respond)
}

/// Anything else: 404 (as JSON under `/api/`, where the page reads `{error}`).
pub async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return crate::ApiError::not_found(format!("no API endpoint {}", uri.path()))
            .into_response();
    }
    not_found_response()
}

fn not_found_response() -> Response {
    (
        StatusCode::NOT_FOUND,
        "not found: only the page's bundled files are served\n",
    )
        .into_response()
}
