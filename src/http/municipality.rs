//! The municipality a request is served for — its profile's Prefeitura — as the pages'
//! headers and titles name it. Set around every request (`middleware`), read by the page
//! templates (`header()`, `name()`), so one binary serves whichever city its profile names.

use std::sync::{Arc, OnceLock};

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::web;

use crate::documents::profile::Profile;
use crate::state::AppState;

tokio::task_local! {
    static PROFILE: Arc<Profile>;
}

/// Runs the request with its application's profile in scope.
pub async fn middleware(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    match req.app_data::<web::Data<AppState>>() {
        Some(state) => {
            let profile = state.letterhead.profile.clone();
            PROFILE.scope(profile, next.call(req)).await
        }
        None => next.call(req).await,
    }
}

/// What `f` reads of the profile in scope; outside a request (a test rendering a page
/// alone), of the embedded one.
fn with(f: impl Fn(&Profile) -> String) -> String {
    PROFILE.try_with(|p| f(p)).unwrap_or_else(|_| {
        static EMBEDDED: OnceLock<Option<Profile>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| Profile::embedded().ok())
            .as_ref()
            .map_or_else(|| "Prefeitura Municipal".to_owned(), f)
    })
}

/// "Prefeitura Municipal de Barra do Garças".
pub fn name() -> String {
    with(|p| p.prefeitura.name.clone())
}

/// "Prefeitura Municipal de Barra do Garças – MT".
pub fn header() -> String {
    with(header_of)
}

/// "Prefeitura de Barra do Garças", for page titles.
pub fn short() -> String {
    with(short_of)
}

/// The name and the state's abbreviation the profile's city ends with (`Barra do Garças-MT`).
fn header_of(p: &Profile) -> String {
    let name = &p.prefeitura.name;
    match p.prefeitura.city.rsplit_once('-') {
        Some((_, uf)) if uf.len() == 2 => format!("{name} – {uf}"),
        _ => name.clone(),
    }
}

fn short_of(p: &Profile) -> String {
    p.prefeitura
        .name
        .replacen("Prefeitura Municipal de ", "Prefeitura de ", 1)
}

/// A file of the field app as served: the municipality it was written with (the default
/// profile's) replaced by the profile's own.
pub fn localized(text: &'static str, profile: &Profile) -> std::borrow::Cow<'static, str> {
    const HEADER: &str = "Prefeitura Municipal de Barra do Garças – MT";
    const SHORT: &str = "Prefeitura de Barra do Garças";
    if !text.contains(HEADER) && !text.contains(SHORT) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.replace(HEADER, &header_of(profile))
            .replace(SHORT, &short_of(profile)),
    )
}
