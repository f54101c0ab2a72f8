//! An official's own password.

use super::*;

#[derive(Template)]
#[template(path = "pages/panel/password.html")]
pub(super) struct PasswordPage {
    chrome: Option<Chrome>,
    csrf: String,
    notice: Option<String>,
    error: Option<String>,
}

pub(super) async fn password_page(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    let body = render(&PasswordPage {
        chrome: Some(chrome_of(&s)),
        csrf: s.session.csrf_token.clone(),
        notice: None,
        error: None,
    })?;
    Ok(html(StatusCode::OK, body))
}

pub(super) async fn password_change(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let get = |k: &str| form.get(k).map_or("", String::as_str);
    let (status, notice, error) = match accounts::change_own_password(
        &state.store,
        &s.session.official,
        get("atual"),
        get("nova"),
        state.clock.now(),
    )
    .await
    {
        Ok(()) => (StatusCode::OK, Some("Senha trocada.".to_owned()), None),
        Err(accounts::AccountError::Storage(e)) => return Err(e.into()),
        Err(e) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
            Some(capitalize(&e.to_string())),
        ),
    };
    let body = render(&PasswordPage {
        chrome: Some(chrome_of(&s)),
        csrf: s.session.csrf_token.clone(),
        notice,
        error,
    })?;
    Ok(html(status, body))
}
