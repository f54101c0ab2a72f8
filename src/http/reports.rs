//! The passenger's report form (`/denuncia`), reached from every verdict of the verification
//! page: it names the document the page verified (by the same QR token or printed code, checked
//! again), asks what happened and when, and takes an optional e-mail for the answer. No account;
//! a double-submit CSRF token; sends are rate-limited per client address (`http::limits`).

use std::collections::HashMap;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::panel::{cookie, page_headers, set_cookie};
use crate::domain::dates::local_date;
use crate::domain::reports::{self, Category, Typed};
use crate::signing::secrets;
use crate::state::AppState;
use crate::verification::cache::VerdictCache;
use crate::verification::{Verification, verify_code, verify_token};

pub mod message;

use message::{MessagePage, Phone};

const CSRF_COOKIE: &str = "selo_denuncia";
const CSRF_FIELD: &str = "_csrf";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/denuncia")
            .route(web::get().to(form))
            .route(web::post().to(send)),
    )
    .service(web::resource("/denuncia/recebida").route(web::get().to(received)));
}

type Page = Result<HttpResponse, actix_web::Error>;

/// What the report is about, as the verification page showed it.
struct About {
    document: Option<String>,
    plate: Option<String>,
    verdict: &'static str,
}

#[derive(Template)]
#[template(path = "pages/report.html")]
struct FormPage<'a> {
    about: Option<About>,
    /// The hidden field naming what was verified: (`t` | `codigo`, value).
    reference: Option<(&'static str, String)>,
    categories: Vec<(&'static str, &'static str, bool)>,
    account: &'a str,
    date: &'a str,
    time: &'a str,
    contact: &'a str,
    today: String,
    errors: Vec<&'static str>,
    csrf: String,
    retention_days: i64,
    max_account: usize,
    phone: Phone,
}

fn page(status: StatusCode, t: &impl Template) -> Page {
    let body = t.render().map_err(|e| {
        tracing::error!(error = %e, "report page did not render");
        actix_web::error::ErrorInternalServerError("erro interno")
    })?;
    let mut res = HttpResponse::build(status);
    page_headers(&mut res);
    Ok(res.content_type("text/html; charset=utf-8").body(body))
}

/// The reference a form carries, from the query or the posted form.
fn reference_of(fields: &HashMap<String, String>) -> Option<(&'static str, String)> {
    let pick = |k: &str| {
        fields
            .get(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty() && v.len() <= 4096)
    };
    pick("t")
        .map(|t| ("t", t))
        .or_else(|| pick("codigo").map(|c| ("codigo", c.chars().take(16).collect())))
}

/// Verifies again what the page verified: the report records it as it is now.
async fn verified(
    state: &AppState,
    cache: &VerdictCache,
    reference: Option<&(&'static str, String)>,
) -> Option<Verification> {
    let now = state.clock.now();
    match reference? {
        ("t", token) => Some(verify_token(token, &state.keys.public, state, cache, now).await),
        (_, code) => Some(verify_code(code, state, now).await),
    }
}

fn about(v: Option<&Verification>) -> Option<About> {
    v.map(|v| About {
        document: v
            .document
            .as_ref()
            .map(|d| format!("{} {}", d.kind.label_pt(), d.number)),
        plate: v.document.as_ref().map(|d| d.plate.clone()),
        verdict: super::verify::page::headline_of(v.verdict.as_str()).unwrap_or_default(),
    })
}

fn categories(chosen: &str) -> Vec<(&'static str, &'static str, bool)> {
    Category::ALL
        .into_iter()
        .map(|c| (c.as_str(), c.label(), c.as_str() == chosen))
        .collect()
}

/// The form, with what was typed and what is wrong with it; a fresh CSRF token in its cookie.
fn form_page(
    state: &AppState,
    status: StatusCode,
    v: Option<&Verification>,
    reference: Option<(&'static str, String)>,
    typed: &Typed<'_>,
    errors: Vec<&'static str>,
) -> Page {
    let csrf = secrets::random_secret().map_err(|e| {
        tracing::error!(error = %e, "no random CSRF token");
        actix_web::error::ErrorInternalServerError("erro interno")
    })?;
    let today = local_date(state.clock.now());
    let today_iso = today.format("%Y-%m-%d").to_string();
    let date = if typed.date.is_empty() {
        today_iso.as_str()
    } else {
        typed.date
    };
    let mut res = page(
        status,
        &FormPage {
            about: about(v),
            reference,
            categories: categories(typed.category),
            account: typed.account,
            date,
            time: typed.time,
            contact: typed.contact,
            today: today_iso.clone(),
            errors,
            csrf: csrf.clone(),
            retention_days: state.settings.limits.report_retention_days,
            max_account: reports::MAX_ACCOUNT,
            phone: Phone::of(state),
        },
    )?;
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(state, CSRF_COOKIE, &csrf, Some(3600)),
    );
    Ok(res)
}

async fn form(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let reference = reference_of(&query);
    let v = verified(&state, &cache, reference.as_ref()).await;
    form_page(
        &state,
        StatusCode::OK,
        v.as_ref(),
        reference,
        &Typed::default(),
        Vec::new(),
    )
}

async fn send(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    req: HttpRequest,
    fields: web::Form<HashMap<String, String>>,
) -> Page {
    let sent = fields.get(CSRF_FIELD).map_or("", String::as_str);
    let expected = cookie(&req, CSRF_COOKIE).unwrap_or_default();
    if sent.is_empty()
        || !bool::from(subtle::ConstantTimeEq::ct_eq(
            sent.as_bytes(),
            expected.as_bytes(),
        ))
    {
        return page(
            StatusCode::FORBIDDEN,
            &MessagePage {
                title: "Formulário vencido",
                text: "Este formulário expirou ou foi aberto em outra janela. Volte à página de verificação e toque em “Denunciar pela internet” de novo.",
                number: None,
                phone: Phone::of(&state),
            },
        );
    }
    let get = |k: &str| fields.get(k).map_or("", String::as_str);
    let typed = Typed {
        category: get("categoria"),
        account: get("relato"),
        date: get("data"),
        time: get("hora"),
        contact: get("email"),
    };
    let reference = reference_of(&fields);
    let v = verified(&state, &cache, reference.as_ref()).await;
    let today = local_date(state.clock.now());
    let input = match reports::check(&typed, today, |e| {
        crate::issuance::applicants::parse_email(e).ok()
    }) {
        Ok(input) => input,
        Err(errors) => {
            return form_page(
                &state,
                StatusCode::UNPROCESSABLE_ENTITY,
                v.as_ref(),
                reference,
                &typed,
                errors,
            );
        }
    };
    // A report with nothing verified is about what the passenger tells.
    match crate::issuance::reports::file(&state, v.as_ref(), &input).await {
        Ok((_, number)) => {
            let mut res = HttpResponse::SeeOther();
            res.insert_header((
                header::LOCATION,
                format!(
                    "/denuncia/recebida?protocolo={}&email={}",
                    super::panel::urlencode(&number),
                    u8::from(input.contact.is_some())
                ),
            ));
            page_headers(&mut res);
            Ok(res.finish())
        }
        Err(e) => {
            tracing::error!(error = %e, "passenger report not recorded");
            page(
                StatusCode::SERVICE_UNAVAILABLE,
                &MessagePage {
                    title: "Denúncia não registrada",
                    text: "O registro não respondeu e a denúncia não foi gravada. Tente de novo em alguns minutos ou ligue para a Ouvidoria Municipal.",
                    number: None,
                    phone: Phone::of(&state),
                },
            )
        }
    }
}

async fn received(state: web::Data<AppState>, query: web::Query<HashMap<String, String>>) -> Page {
    let number = query
        .get("protocolo")
        .map(String::as_str)
        .filter(|n| n.len() <= 20 && n.starts_with("DEN-"))
        .unwrap_or_default();
    let text = if query.get("email").map(String::as_str) == Some("1") {
        "A Ouvidoria Municipal recebeu a sua denúncia. Enviamos o número do protocolo ao e-mail informado, e a resposta chegará por lá."
    } else {
        "A Ouvidoria Municipal recebeu a sua denúncia. Anote o número do protocolo para acompanhá-la pelo telefone."
    };
    page(
        StatusCode::OK,
        &MessagePage {
            title: "Denúncia recebida",
            text,
            number: Some(number).filter(|n| !n.is_empty()),
            phone: Phone::of(&state),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_names_a_token_before_a_code_and_trims_a_code_to_the_field() {
        let m = |pairs: &[(&str, &str)]| -> HashMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(
            reference_of(&m(&[("t", "abc"), ("codigo", "K7Q")])),
            Some(("t", "abc".to_owned()))
        );
        assert_eq!(
            reference_of(&m(&[("codigo", " K7Q-29X-HM6-AAAAAAAAAA ")])),
            Some(("codigo", "K7Q-29X-HM6-AAAA".to_owned()))
        );
        assert_eq!(reference_of(&m(&[("t", "  ")])), None);
        assert_eq!(reference_of(&m(&[("t", &"x".repeat(5000))])), None);
    }

    #[test]
    fn the_form_escapes_what_was_typed() {
        let page = FormPage {
            about: Some(About {
                document: Some("Adesivo <i>x".into()),
                plate: Some("ABC1D23".into()),
                verdict: "SUSPENSO",
            }),
            reference: Some(("t", "\"><script>".into())),
            categories: categories("conduta"),
            account: "</textarea><script>",
            date: "2026-12-04",
            time: "",
            contact: "\"onmouseover=x",
            today: "2026-12-04".into(),
            errors: vec!["Escolha o que aconteceu."],
            csrf: "c".into(),
            retention_days: 730,
            max_account: 2000,
            phone: Phone("(66) 3401-9999".into(), "+556634019999".into()),
        }
        .render()
        .unwrap();
        for raw in ["<script>", "<i>x", "\"onmouseover"] {
            assert!(!page.contains(raw), "{raw} in {page}");
        }
        assert!(page.contains("value=\"conduta\" checked"), "{page}");
        assert!(page.contains("SUSPENSO") && page.contains("ABC1D23"));
    }
}
