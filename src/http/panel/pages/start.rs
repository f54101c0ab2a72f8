//! The start page, the search box and the lists of each register.

use super::*;

/// The registers, what each is called, and who reads it.
pub(super) const LISTS: &[(&str, &str, Competence)] = &[
    (
        "authorization",
        "Autorizações (aplicativo)",
        Competence::ReadRideHailing,
    ),
    (
        "driver",
        "Condutores (aplicativo)",
        Competence::ReadRideHailing,
    ),
    (
        "vehicle",
        "Veículos (aplicativo)",
        Competence::ReadRideHailing,
    ),
    ("platform", "Plataformas", Competence::ReadRideHailing),
    (
        "app_auto",
        "Autos (aplicativo)",
        Competence::ReadRideHailing,
    ),
    ("company", "Empresas de fretamento", Competence::ReadCharter),
    (
        "charter_vehicle",
        "Ônibus e micro-ônibus",
        Competence::ReadCharter,
    ),
    (
        "charter_driver",
        "Motoristas (fretamento)",
        Competence::ReadCharter,
    ),
    ("termo", "Termos de Autorização", Competence::ReadCharter),
    (
        "charter_auto",
        "Autos (fretamento)",
        Competence::ReadCharter,
    ),
];

/// The guided tasks, offered first on the start page.
pub(super) const TASKS: &[(&str, &str, Competence)] = &[
    (
        "/painel/tarefa/autorizacao",
        "Nova autorização por aplicativo (condutor, veículo e taxas)",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/renovacao",
        "Renovação anual da autorização",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/substituicao",
        "Substituição do veículo da autorização",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/vistoria-aplicativo",
        "Vistoria do veículo autorizado (aplicativo)",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/sancao",
        "Sanção sobre a autorização (suspensão ou cassação)",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/revogacao",
        "Revogação da autorização",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/alteracao",
        "Comunicação de alteração de dados do condutor",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/certidao",
        "Certidão de situação cadastral (aplicativo)",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/auto",
        "Lavrar auto de infração (aplicativo)",
        Competence::InspectRideHailing,
    ),
    (
        "/painel/tarefa/procedimento",
        "Procedimento do auto de infração (aplicativo): notificação, defesa, decisão, pagamento",
        Competence::IssueRideHailing,
    ),
    (
        "/painel/tarefa/empresa",
        "Cadastro de empresa de fretamento (art. 7º)",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/termo",
        "Termo de Autorização de fretamento (emissão ou renovação)",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/contrato",
        "Registro de contrato de fretamento",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/auto-fretamento",
        "Lavrar auto de infração (fretamento)",
        Competence::InspectCharter,
    ),
    (
        "/painel/tarefa/procedimento-fretamento",
        "Procedimento do auto de infração (fretamento): notificação, defesa, decisão, pagamento",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/onibus",
        "Cadastro de ônibus ou micro-ônibus de fretamento",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/motorista",
        "Cadastro de motorista de fretamento",
        Competence::IssueCharter,
    ),
    (
        "/painel/tarefa/vistoria",
        "Vistoria de ônibus ou micro-ônibus (selo)",
        Competence::IssueCharter,
    ),
];

/// The acts that start from nothing, offered on the start page after the tasks (those a task
/// does — an auto, a company — open from the task's "Outros casos").
pub(super) const NEW: &[&str] = &[
    "registry.create_driver",
    "registry.create_vehicle",
    "authorizations.grant",
    "platforms.create",
    "charter.issue_certidao",
    "calendar.add_closed_days",
    "autos.set_upf",
    "legal_bases.activate_ride_hailing",
    "legal_bases.suspend_ride_hailing",
    "legal_bases.activate_charter",
];

pub struct HitView {
    kind: String,
    title: String,
    detail: String,
    href: String,
}

impl HitView {
    fn of(h: crate::storage::search::Hit) -> Self {
        Self {
            kind: kind_label(&h.kind, &h.sub),
            href: href_of(&h.kind, &h.id, &h.sub),
            title: h.title,
            detail: detail_of(&h.detail),
        }
    }
}

pub(super) fn kind_label(kind: &str, sub: &str) -> String {
    match kind {
        "driver" => "Condutor (aplicativo)".into(),
        "vehicle" => "Veículo (aplicativo)".into(),
        "authorization" => "Autorização (aplicativo)".into(),
        "platform" => "Plataforma".into(),
        "app_auto" => "Auto de infração (aplicativo)".into(),
        "company" => "Empresa de fretamento".into(),
        "charter_vehicle" => "Veículo de fretamento".into(),
        "charter_driver" => "Motorista de fretamento".into(),
        "termo" => "Termo de Autorização".into(),
        "charter_auto" => "Auto de infração (fretamento)".into(),
        "document" => crate::storage::DocumentKind::parse(sub)
            .map_or_else(|| "Documento".to_owned(), |k| k.label_pt().to_owned()),
        _ => kind.to_owned(),
    }
}

/// Where a record of the register opens in the back office.
pub(super) fn href_of(kind: &str, id: &str, sub: &str) -> String {
    match kind {
        "driver" => format!("/painel/ver/drivers/{id}"),
        "vehicle" => format!("/painel/ver/vehicles/{id}"),
        "authorization" => format!("/painel/ver/app-authorizations/{id}"),
        "platform" => format!("/painel/ver/platforms/{id}"),
        "app_auto" => format!("/painel/ver/app-infraction-autos/{id}"),
        "company" => format!("/painel/ver/charter/companies/{id}"),
        "charter_vehicle" => format!("/painel/ver/charter/vehicles/{id}"),
        "charter_driver" => format!("/painel/ver/charter/drivers/{id}"),
        "termo" => format!("/painel/ver/charter/termos/{id}/history"),
        "charter_auto" => format!("/painel/ver/charter/autos/{id}"),
        "document" => match crate::storage::DocumentKind::parse(sub) {
            Some(
                crate::storage::DocumentKind::RideHailingAuthorization
                | crate::storage::DocumentKind::RideHailingSticker,
            ) => format!("/painel/ver/documents/{id}"),
            _ => format!("/painel/ver/charter/documents/{id}"),
        },
        _ => "/painel".to_owned(),
    }
}

/// A charter row's JSON facts shown as its name.
pub(super) fn detail_of(detail: &str) -> String {
    if detail.starts_with('{') {
        serde_json::from_str::<Value>(detail)
            .ok()
            .and_then(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default()
    } else {
        detail.to_owned()
    }
}

pub(super) fn allowed_hit(s: &Signed, kind: &str, sub: &str) -> bool {
    let ride = match HitKind::parse(kind) {
        Some(HitKind::Document) => crate::storage::DocumentKind::parse(sub)
            .is_some_and(crate::storage::DocumentKind::is_ride_hailing),
        Some(k) => k.is_ride_hailing(),
        None => return false,
    };
    s.official.roles.allow(if ride {
        Competence::ReadRideHailing
    } else {
        Competence::ReadCharter
    })
}

#[derive(Template)]
#[template(path = "pages/panel/home.html")]
pub(super) struct HomePage {
    chrome: Option<Chrome>,
    csrf: String,
    /// The query was too short to search names, and found nothing.
    short: bool,
    /// The first pendencies of the next 30 days, and how many there are.
    pending: Vec<super::worklist::WorkRow>,
    pending_total: usize,
    q: String,
    hits: Vec<HitView>,
    hidden: usize,
    new: Vec<(String, String)>,
    lists: Vec<(String, String)>,
}

/// How many pendencies the start page shows.
const START_PAGE_PENDING: usize = 10;

pub(super) async fn home(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    // The Ouvidoria reads no register: its start is its queue.
    let reads = [Competence::ReadRideHailing, Competence::ReadCharter]
        .into_iter()
        .any(|c| s.official.roles.allow(c));
    if !reads && s.official.roles.allow(Competence::HandleReports) {
        return Ok(redirect("/painel/denuncias"));
    }
    start_page(&state, &s, String::new()).await
}

/// The search is posted, never put in the address: a CPF typed in it stays out of URLs,
/// browser history and proxy logs.
pub(super) async fn search(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let q = form
        .get("q")
        .map(|q| q.trim().to_owned())
        .unwrap_or_default();
    start_page(&state, &s, q).await
}

pub(super) async fn start_page(state: &AppState, s: &Signed, q: String) -> Page {
    let found = if q.is_empty() {
        Vec::new()
    } else {
        state.store.search(&q).await?
    };
    let total = found.len();
    let hits: Vec<HitView> = found
        .into_iter()
        .filter(|h| allowed_hit(s, &h.kind, &h.sub))
        .map(HitView::of)
        .collect();
    // The guided tasks first, then the form of each act that starts from nothing.
    let tasks = TASKS
        .iter()
        .filter(|(_, _, c)| s.official.roles.allow(*c))
        .map(|(href, text, _)| ((*href).to_owned(), (*text).to_owned()));
    let new = tasks
        .chain(NEW.iter().filter_map(|op| {
            let (m, p) = operation(op)?;
            s.official
                .roles
                .allow(competence(m, p))
                .then(|| (format!("/painel/acao/{op}"), op_label(op).to_owned()))
        }))
        .collect();
    let lists = LISTS
        .iter()
        .filter(|(.., c)| s.official.roles.allow(*c))
        .map(|(k, t, _)| (format!("/painel/lista/{k}"), (*t).to_owned()))
        .collect();
    // The worklist of the next 30 days on the start page; the whole list on its own page.
    let worklist = if q.is_empty() {
        let first = crate::standing::worklist::Window {
            kind: None,
            skip: 0,
            take: START_PAGE_PENDING,
        };
        super::worklist::items_for(state, s, 30, first).await?
    } else {
        None
    };
    let pending_total = worklist.as_ref().map_or(0, |w| w.total);
    let pending = worklist
        .map(|w| super::worklist::rows(&w.items))
        .unwrap_or_default();
    let short = !q.is_empty()
        && total == 0
        && q.chars().count() < crate::storage::search::NAME_SEARCH_MIN_CHARS;
    let body = render(&HomePage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        short,
        pending,
        pending_total,
        q,
        hidden: total - hits.len(),
        hits,
        new,
        lists,
    })?;
    Ok(html(StatusCode::OK, body))
}

#[derive(Template)]
#[template(path = "pages/panel/list.html")]
pub(super) struct ListPage {
    chrome: Option<Chrome>,
    title: String,
    hits: Vec<HitView>,
    page: i64,
    more: bool,
}

/// Rows per page of a list.
pub(super) const PAGE_SIZE: i64 = 25;

pub(super) async fn list(
    state: web::Data<AppState>,
    req: HttpRequest,
    kind: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let Some((kind, title, c)) = LISTS.iter().find(|(k, ..)| *k == kind.as_str()) else {
        return Err(PanelError::NotFound);
    };
    s.require(*c)?;
    let page = query
        .get("pagina")
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|p| (1..=100_000).contains(p))
        .unwrap_or(1);
    let (rows, more) = state
        .store
        .list(kind, PAGE_SIZE, (page - 1) * PAGE_SIZE)
        .await?;
    let hits = rows.into_iter().map(HitView::of).collect();
    let body = render(&ListPage {
        chrome: Some(chrome_of(&s)),
        title: (*title).to_owned(),
        hits,
        page,
        more,
    })?;
    Ok(html(StatusCode::OK, body))
}
