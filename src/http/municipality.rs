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

/// The profile in scope; outside a request (a test rendering a page alone), the embedded one.
fn with<T>(f: impl Fn(&Profile) -> T) -> T {
    PROFILE.try_with(|p| f(p)).unwrap_or_else(|_| {
        static EMBEDDED: OnceLock<Option<Profile>> = OnceLock::new();
        match EMBEDDED.get_or_init(|| Profile::embedded().ok()) {
            Some(p) => f(p),
            None => f(&fallback()),
        }
    })
}

/// Never used in practice: the embedded profile is checked by the tests.
fn fallback() -> Profile {
    Profile {
        version: String::new(),
        prefeitura: crate::documents::profile::Prefeitura {
            name: "Prefeitura Municipal".into(),
            state: String::new(),
            cnpj: String::new(),
            address: String::new(),
            city: String::new(),
            brasao: String::new(),
        },
        ouvidoria: crate::documents::profile::Ouvidoria {
            phone: String::new(),
        },
        secretariats: std::collections::BTreeMap::new(),
        defence: crate::documents::profile::Defence {
            place: String::new(),
            address: String::new(),
            hours: String::new(),
            email: String::new(),
        },
        payment: crate::documents::profile::Payment {
            instrument: String::new(),
            where_: String::new(),
        },
        laws: std::collections::BTreeMap::new(),
        legal_bases: crate::documents::profile::BasisFiles::default(),
        initial_bases: crate::domain::legal_basis::InitialBases::default(),
        brasao: None,
    }
}

/// "Prefeitura Municipal de Barra do Garças".
pub fn name() -> String {
    with(|p| p.prefeitura.name.clone())
}

/// "Prefeitura Municipal de Barra do Garças – MT": the name and the state's abbreviation the
/// profile's city ends with (`Barra do Garças-MT`).
pub fn header() -> String {
    with(|p| {
        let name = &p.prefeitura.name;
        match p.prefeitura.city.rsplit_once('-') {
            Some((_, uf)) if uf.len() == 2 => format!("{name} – {uf}"),
            _ => name.clone(),
        }
    })
}

/// "Prefeitura de Barra do Garças", for page titles.
pub fn short() -> String {
    with(|p| {
        p.prefeitura
            .name
            .replacen("Prefeitura Municipal de ", "Prefeitura de ", 1)
    })
}

/// A file of the field app as served: the municipality it was written with (the default
/// profile's) replaced by the profile's own.
pub fn localized(text: &'static str, profile: &Profile) -> std::borrow::Cow<'static, str> {
    const HEADER: &str = "Prefeitura Municipal de Barra do Garças – MT";
    const SHORT: &str = "Prefeitura de Barra do Garças";
    if !text.contains(HEADER) && !text.contains(SHORT) {
        return std::borrow::Cow::Borrowed(text);
    }
    let header = PROFILE.sync_scope(Arc::new(profile.clone()), header);
    let short = PROFILE.sync_scope(Arc::new(profile.clone()), short);
    std::borrow::Cow::Owned(text.replace(HEADER, &header).replace(SHORT, &short))
}
