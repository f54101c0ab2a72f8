//! Signing in and out of the back office.

use super::*;

#[derive(Template)]
#[template(path = "pages/panel/login.html")]
pub(super) struct LoginPage {
    chrome: Option<Chrome>,
    csrf: String,
    back: String,
    login: String,
    error: Option<String>,
    expired: bool,
}

/// Only a path inside the back office is a place to come back to.
pub(super) fn safe_back(back: Option<&String>) -> String {
    back.filter(|b| b.starts_with("/painel") && !b.starts_with("//") && !b.contains('\\'))
        .cloned()
        .unwrap_or_else(|| "/painel".to_owned())
}

pub(super) fn login_form(
    state: &AppState,
    status: StatusCode,
    back: String,
    login: String,
    error: Option<String>,
    expired: bool,
) -> Page {
    let csrf = secrets::random_secret().map_err(|_| PanelError::Internal)?;
    let body = render(&LoginPage {
        chrome: None,
        csrf: csrf.clone(),
        back,
        login,
        error,
        expired,
    })?;
    let mut res = html(status, body);
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(state, LOGIN_CSRF_COOKIE, &csrf, Some(3600)),
    );
    Ok(res)
}

pub(super) async fn login_page(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    login_form(
        &state,
        StatusCode::OK,
        safe_back(query.get("volta")),
        String::new(),
        None,
        query.contains_key("expirou"),
    )
}

pub(super) async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let sent = form.get(CSRF_FIELD).map_or("", String::as_str);
    let expected = cookie(&req, LOGIN_CSRF_COOKIE).unwrap_or_default();
    if sent.is_empty()
        || !bool::from(subtle::ConstantTimeEq::ct_eq(
            sent.as_bytes(),
            expected.as_bytes(),
        ))
    {
        return Err(PanelError::Csrf);
    }
    let login_typed = form.get("login").cloned().unwrap_or_default();
    let password = form.get("password").cloned().unwrap_or_default();
    let back = safe_back(form.get("volta"));
    let client = crate::http::limits::client_of(&req)
        .map_or_else(|| "desconhecido".to_owned(), |ip| ip.to_string());
    if let Err(wait) = state.login_throttle.check(&login_typed, &client) {
        return Err(PanelError::Throttled(wait.as_secs().max(1)));
    }
    match accounts::sign_in(&state, &login_typed, &password).await {
        Ok(Some(new)) => {
            state.login_throttle.succeeded(&login_typed);
            tracing::info!(official = %new.session.official.id, "signed in to the back office");
            let mut res = HttpResponse::SeeOther();
            res.insert_header((header::LOCATION, back));
            page_headers(&mut res);
            let mut res = res.finish();
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, SESSION_COOKIE, &new.cookie, None),
            );
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, LOGIN_CSRF_COOKIE, "", Some(0)),
            );
            Ok(res)
        }
        Ok(None) => {
            state.login_throttle.failed(&login_typed, &client);
            login_form(
                &state,
                StatusCode::UNAUTHORIZED,
                back,
                login_typed,
                Some("Login ou senha incorretos, ou conta desativada.".to_owned()),
                false,
            )
        }
        Err(e) => {
            tracing::error!(error = %e, "sign-in failed");
            Err(PanelError::Internal)
        }
    }
}

pub(super) async fn logout(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let signed = Signed::of(&req, &state).await?;
    signed.check_csrf(&form)?;
    if let Some(c) = cookie(&req, SESSION_COOKIE) {
        accounts::sign_out(&state, &c).await?;
    }
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, "/painel/entrar"));
    page_headers(&mut res);
    let mut res = res.finish();
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&state, SESSION_COOKIE, "", Some(0)),
    );
    Ok(res)
}
