//! The offline verifier at `/fiscal/`: an installable web app (manifest and service
//! worker) that verifies QR tokens in the browser with the published keys and the signed status
//! list, kept on the device for use with no signal. The files are embedded in the binary
//! (`templates/fiscal/`), the QR decoder vendored (`templates/fiscal/vendor/`): nothing is
//! fetched from elsewhere at build or run time.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

/// (path under `/fiscal/`, content type, body).
const FILES: &[(&str, &str, &str)] = &[
    (
        "",
        "text/html; charset=utf-8",
        include_str!("../../templates/fiscal/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../templates/fiscal/app.js"),
    ),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../templates/fiscal/app.css"),
    ),
    (
        "sw.js",
        "text/javascript; charset=utf-8",
        include_str!("../../templates/fiscal/sw.js"),
    ),
    (
        "vendor/jsQR.js",
        "text/javascript; charset=utf-8",
        include_str!("../../templates/fiscal/vendor/jsQR.js"),
    ),
    (
        "manifest.webmanifest",
        "application/manifest+json",
        include_str!("../../templates/fiscal/manifest.webmanifest"),
    ),
    (
        "icon.svg",
        "image/svg+xml",
        include_str!("../../templates/fiscal/icon.svg"),
    ),
];

/// The app's pages may run only their own scripts and reach only this service.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
    media-src 'self' blob: mediastream:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; \
    frame-ancestors 'none'; form-action 'self'";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/fiscal").route(web::get().to(redirect)))
        .service(web::resource("/fiscal/{file:.*}").route(web::get().to(file)));
}

/// The service worker's scope is `/fiscal/`: the app lives there.
async fn redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/fiscal/"))
        .finish()
}

async fn file(
    path: web::Path<String>,
    req: actix_web::HttpRequest,
    state: web::Data<crate::state::AppState>,
) -> HttpResponse {
    use sha2::Digest as _;
    let Some((_, content_type, body)) = FILES.iter().find(|(p, ..)| *p == path.as_str()) else {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("Arquivo não encontrado.");
    };
    // The page and the manifest name the municipality of the profile.
    let body = super::municipality::localized(body, &state.letterhead.profile);
    let digest = sha2::Sha256::digest(body.as_bytes());
    let etag = format!("\"{}\"", crate::signing::hex(&digest[..12]));
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if unchanged {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish();
    }
    HttpResponse::Ok()
        .content_type(*content_type)
        .insert_header((header::ETAG, etag))
        // Revalidated on every load with signal (the service worker keeps a copy for without).
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("Content-Security-Policy", CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("Permissions-Policy", "camera=(self)"))
        .body(body.into_owned())
}
