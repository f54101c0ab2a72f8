//! The officials' accounts (admin): list, add, change roles, disable.

use super::*;

pub struct OfficialRow {
    login: String,
    name: String,
    roles: String,
    state: &'static str,
    active: bool,
    role_boxes: Vec<(String, String, bool)>,
}

#[derive(Template)]
#[template(path = "pages/panel/officials.html")]
pub(super) struct OfficialsPage {
    chrome: Option<Chrome>,
    csrf: String,
    officials: Vec<OfficialRow>,
    notice: Option<String>,
    error: Option<String>,
    form_login: String,
    form_name: String,
    form_roles: Vec<(String, String, bool)>,
}

pub(super) fn role_boxes(checked: &[String]) -> Vec<(String, String, bool)> {
    Role::ALL
        .iter()
        .map(|r| {
            (
                r.as_str().to_owned(),
                r.label_pt().to_owned(),
                checked.iter().any(|c| c == r.as_str()),
            )
        })
        .collect()
}

pub(super) async fn officials_view(
    state: &AppState,
    s: &Signed,
    notice: Option<String>,
    error: Option<String>,
    form: (String, String, Vec<String>),
    status: StatusCode,
) -> Page {
    let officials = state
        .store
        .officials()
        .await?
        .into_iter()
        .map(|o| OfficialRow {
            role_boxes: role_boxes(
                &o.roles
                    .iter()
                    .map(|r| r.as_str().to_owned())
                    .collect::<Vec<_>>(),
            ),
            login: o.login.to_string(),
            name: o.name,
            roles: o
                .roles
                .iter()
                .map(Role::label_pt)
                .collect::<Vec<_>>()
                .join("; "),
            state: if o.active {
                "ativo(a)"
            } else {
                "desativado(a)"
            },
            active: o.active,
        })
        .collect();
    let body = render(&OfficialsPage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        officials,
        notice,
        error,
        form_login: form.0,
        form_name: form.1,
        form_roles: role_boxes(&form.2),
    })?;
    Ok(html(status, body))
}

pub(super) async fn officials_page(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::ManageOfficials)?;
    officials_view(&state, &s, None, None, Default::default(), StatusCode::OK).await
}

pub(super) fn form_pairs(form: Vec<(String, String)>) -> (HashMap<String, String>, Vec<String>) {
    let mut map = HashMap::new();
    let mut roles = Vec::new();
    for (k, v) in form {
        if k == "papel" {
            roles.push(v);
        } else {
            map.insert(k, v);
        }
    }
    (map, roles)
}

pub(super) async fn officials_add(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let (map, roles) = form_pairs(form.into_inner());
    s.check_csrf(&map)?;
    s.require(Competence::ManageOfficials)?;
    let get = |k: &str| map.get(k).cloned().unwrap_or_default();
    match accounts::add(
        &state.store,
        &s.official.actor,
        &get("login"),
        &get("nome"),
        &roles.join(","),
        &get("senha"),
        state.clock.now(),
    )
    .await
    {
        Ok(o) => {
            officials_view(
                &state,
                &s,
                Some(format!("{} cadastrado(a).", o.login)),
                None,
                Default::default(),
                StatusCode::OK,
            )
            .await
        }
        Err(accounts::AccountError::Storage(e)) => Err(e.into()),
        Err(e) => {
            let msg = capitalize(&e.to_string());
            officials_view(
                &state,
                &s,
                None,
                Some(msg),
                (get("login"), get("nome"), roles),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    }
}

pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().chain(c).collect::<String>() + "."
    })
}

pub(super) async fn official_change(
    state: web::Data<AppState>,
    req: HttpRequest,
    login: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let (map, roles) = form_pairs(form.into_inner());
    s.check_csrf(&map)?;
    s.require(Competence::ManageOfficials)?;
    let now = state.clock.now();
    let actor = s.official.actor.clone();
    let result = match map.get("acao").map(String::as_str) {
        Some("desativar") => accounts::disable(&state.store, &login, &actor, now)
            .await
            .map(|o| {
                format!(
                    "{} desativado(a): sessões encerradas e tokens recusados.",
                    o.login
                )
            }),
        Some("reativar") => accounts::enable(&state.store, &login, &actor, now)
            .await
            .map(|o| format!("{} reativado(a).", o.login)),
        Some("papeis") => accounts::set_roles(&state.store, &login, &roles.join(","), &actor, now)
            .await
            .map(|o| format!("Papéis de {} salvos.", o.login)),
        Some("senha") => accounts::reset_password(
            &state.store,
            &login,
            map.get("senha").map_or("", String::as_str),
            &actor,
            now,
        )
        .await
        .map(|o| {
            format!(
                "Senha de {} redefinida; as sessões dele(a) foram encerradas.",
                o.login
            )
        }),
        _ => return Err(PanelError::NotFound),
    };
    match result {
        Ok(n) => {
            officials_view(
                &state,
                &s,
                Some(n),
                None,
                Default::default(),
                StatusCode::OK,
            )
            .await
        }
        Err(accounts::AccountError::Storage(e)) => Err(e.into()),
        Err(e) => {
            officials_view(
                &state,
                &s,
                None,
                Some(capitalize(&e.to_string())),
                Default::default(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    }
}
