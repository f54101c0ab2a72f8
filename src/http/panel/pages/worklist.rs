//! "Pendências": what is due in the register, soonest first, each row a link to its record
//! and to the task that resolves it; filtered by horizon and kind, and exported as CSV.

use super::*;
use crate::domain::dates::local_date;
use crate::standing::worklist::{
    Registers, Window, WorkItem, WorkKind, WorkPage, WorkRecord, worklist_page,
};

/// The horizons a clerk chooses from, in days.
const HORIZONS: [i64; 3] = [30, 60, 90];

/// Rows per page of the list (the spreadsheet and the printed list hold every row).
pub(super) const WORKLIST_PAGE_SIZE: usize = 50;

/// One row as the page shows it.
pub struct WorkRow {
    pub due: String,
    pub days: String,
    pub overdue: bool,
    pub what: String,
    pub number: String,
    pub person: String,
    pub plate: String,
    pub record_href: String,
    pub task_href: String,
    pub task_label: &'static str,
}

fn record_href(record: WorkRecord) -> String {
    match record {
        WorkRecord::Authorization(id) => format!("/painel/ver/app-authorizations/{id}"),
        WorkRecord::Auto(id) => format!("/painel/ver/app-infraction-autos/{id}"),
        WorkRecord::Review(id) => format!("/painel/ver/app-grant-reviews/{id}"),
        WorkRecord::Company(id) => format!("/painel/ver/charter/companies/{id}"),
        WorkRecord::CharterVehicle(id) => format!("/painel/ver/charter/vehicles/{id}"),
        WorkRecord::CharterAuto(id) => format!("/painel/ver/charter/autos/{id}"),
        WorkRecord::DataRequest(id) => format!("/painel/ver/data-requests/{id}"),
        WorkRecord::Filing(id) => format!("/painel/requerimentos/{id}"),
    }
}

/// "faltam 20 dias", "vence hoje", "vencido há 3 dias".
fn days_text(days_left: i64) -> String {
    match days_left {
        0 => "vence hoje".to_owned(),
        1 => "falta 1 dia".to_owned(),
        -1 => "vencido há 1 dia".to_owned(),
        d if d > 0 => format!("faltam {d} dias"),
        d => format!("vencido há {} dias", -d),
    }
}

/// How long something without a legal period has waited: a request for a decision ("em
/// análise há 3 dias"), an auto for its notice ("aguardando há 3 dias").
fn waiting_text(kind: WorkKind, days: i64) -> String {
    let what = if matches!(kind, WorkKind::Review | WorkKind::Filing) {
        "em análise"
    } else {
        "aguardando"
    };
    match days {
        d if d <= 0 => format!("{what} desde hoje"),
        1 => format!("{what} há 1 dia"),
        d => format!("{what} há {d} dias"),
    }
}

fn row(item: &WorkItem) -> WorkRow {
    WorkRow {
        due: format::date(item.due),
        days: if item.waiting {
            waiting_text(item.kind, -item.days_left)
        } else {
            days_text(item.days_left)
        },
        overdue: item.days_left < 0 && !item.waiting,
        what: item.what.clone(),
        number: item.number.clone(),
        person: item.person.clone(),
        plate: crate::domain::ids::Plate::parse(&item.plate)
            .map_or_else(|_| item.plate.clone(), |p| p.formatted()),
        record_href: record_href(item.record),
        // A filing is examined on its own page; else the guided task where there is one, else
        // the act's form.
        task_href: if let WorkRecord::Filing(_) = item.record {
            record_href(item.record)
        } else {
            super::tasks::guided_task_href(item.task, &item.record.id().to_string())
                .unwrap_or_else(|| format!("/painel/acao/{}?id={}", item.task, item.record.id()))
        },
        task_label: if let WorkRecord::Filing(_) = item.record {
            "Examinar o requerimento"
        } else {
            op_label(item.task)
        },
    }
}

/// The filter a query asks for: the horizon in days and the kind (all when absent).
fn filter_of(query: &HashMap<String, String>) -> (i64, Option<WorkKind>) {
    let horizon = query
        .get("prazo")
        .and_then(|p| p.parse().ok())
        .filter(|p| HORIZONS.contains(p))
        .unwrap_or(30);
    let kind = query
        .get("tipo")
        .and_then(|t| WorkKind::ALL.into_iter().find(|k| k.key() == t));
    (horizon, kind)
}

/// The registers the signed-in official reads.
fn registers_of(s: &Signed) -> Registers {
    Registers {
        ride_hailing: s.official.roles.allow(Competence::ReadRideHailing),
        charter: s.official.roles.allow(Competence::ReadCharter),
    }
}

/// The rows of `window` of the worklist of the registers the signed-in official reads, and
/// how many there are; `None` when their roles read neither.
pub(super) async fn items_for(
    state: &AppState,
    s: &Signed,
    horizon: i64,
    window: Window,
) -> Result<Option<WorkPage>, PanelError> {
    let registers = registers_of(s);
    if !registers.ride_hailing && !registers.charter {
        return Ok(None);
    }
    let page = worklist_page(state, state.clock.now(), horizon, registers, window).await?;
    Ok(Some(page))
}

pub(super) fn rows(items: &[WorkItem]) -> Vec<WorkRow> {
    items.iter().map(row).collect()
}

/// The signed-in official (who must read the register), the filter asked, and the rows of
/// its page `page` (every row when `None`) with how many there are.
async fn filtered(
    state: &AppState,
    req: &HttpRequest,
    query: &HashMap<String, String>,
    page: Option<usize>,
) -> Result<(Signed, i64, Option<WorkKind>, WorkPage), PanelError> {
    let s = Signed::of(req, state).await?;
    if registers_of(&s)
        == (Registers {
            ride_hailing: false,
            charter: false,
        })
    {
        s.require(Competence::ReadRideHailing)?;
    }
    let (horizon, kind) = filter_of(query);
    let window = |page: Option<usize>| Window {
        kind,
        skip: page.map_or(0, |p| (p - 1) * WORKLIST_PAGE_SIZE),
        take: page.map_or(usize::MAX, |_| WORKLIST_PAGE_SIZE),
    };
    let none = || WorkPage {
        total: 0,
        items: Vec::new(),
    };
    let mut found = items_for(state, &s, horizon, window(page))
        .await?
        .unwrap_or_else(none);
    // A page past the last shows the last.
    if let Some(p) = page
        && found.items.is_empty()
        && p > pages_of(found.total)
        && found.total > 0
    {
        found = items_for(state, &s, horizon, window(Some(pages_of(found.total))))
            .await?
            .unwrap_or_else(none);
    }
    Ok((s, horizon, kind, found))
}

/// How many pages `total` rows fill (one when there are none).
fn pages_of(total: usize) -> usize {
    total.div_ceil(WORKLIST_PAGE_SIZE).max(1)
}

#[derive(Template)]
#[template(path = "pages/panel/worklist.html")]
struct WorklistPage {
    chrome: Option<Chrome>,
    horizon: i64,
    horizons: Vec<i64>,
    kind: String,
    kinds: Vec<(&'static str, &'static str)>,
    rows: Vec<WorkRow>,
    /// How many pendencies the filter finds ("4.922 pendências"), the page shown and how many
    /// pages there are.
    total: usize,
    total_text: String,
    page: usize,
    pages: usize,
    /// The page's address without its number (`…&pagina=` follows).
    page_href: String,
    csv_href: String,
    pdf_href: String,
}

/// The page a query asks for, from 1.
fn page_of(query: &HashMap<String, String>) -> usize {
    query
        .get("pagina")
        .and_then(|p| p.parse::<usize>().ok())
        .filter(|p| (1..=1_000_000).contains(p))
        .unwrap_or(1)
}

pub(super) async fn worklist(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    // Only the page's rows are made and rendered: a large register has tens of thousands due.
    let (s, horizon, kind, found) = filtered(&state, &req, &query, Some(page_of(&query))).await?;
    let kind_key = kind.map_or("", WorkKind::key);
    let pages = pages_of(found.total);
    let page = page_of(&query).min(pages);
    let body = render(&WorklistPage {
        chrome: Some(chrome_of(&s)),
        horizon,
        horizons: HORIZONS.to_vec(),
        kind: kind_key.to_owned(),
        kinds: WorkKind::ALL
            .iter()
            .map(|k| (k.key(), k.label_pt()))
            .collect(),
        rows: rows(&found.items),
        total: found.total,
        total_text: match found.total {
            1 => "1 pendência".to_owned(),
            n => format!(
                "{} pendências",
                crate::domain::money::thousands(u64::try_from(n).unwrap_or(u64::MAX))
            ),
        },
        page,
        pages,
        page_href: format!("/painel/pendencias?prazo={horizon}&tipo={kind_key}&pagina="),
        csv_href: format!("/painel/pendencias.csv?prazo={horizon}&tipo={kind_key}"),
        pdf_href: format!("/painel/pendencias.pdf?prazo={horizon}&tipo={kind_key}"),
    })?;
    Ok(html(StatusCode::OK, body))
}

/// A CSV cell: quoted when it holds the separator, a quote or a line break; a leading `=`, `+`,
/// `-` or `@` is prefixed with `'` so a spreadsheet never reads it as a formula.
fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// The same list as CSV for a spreadsheet in Portuguese: `;` between cells, UTF-8 with its
/// byte-order mark, headers in Portuguese.
pub(super) async fn worklist_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let (_, _, _, WorkPage { items, .. }) = filtered(&state, &req, &query, None).await?;
    let mut out =
        String::from("\u{feff}Prazo;Situação do prazo;Pendência;Registro;Interessado(a);Placa\r\n");
    for r in rows(&items) {
        let cells = [&r.due, &r.days, &r.what, &r.number, &r.person, &r.plate];
        let line: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&line.join(";"));
        out.push_str("\r\n");
    }
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("pendencias-{}.csv", local_date(state.clock.now())),
        out.into_bytes(),
    ))
}

/// A file to download, named `file`.
fn download(content_type: &str, file: &str, body: Vec<u8>) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    page_headers(&mut res);
    res.content_type(content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{file}\""),
        ))
        .body(body)
}

/// The secretariats whose registers the list covers, as the letterhead names them.
fn secretariats_of(state: &AppState, s: &Signed) -> String {
    let profile = state.renderer.profile();
    let registers = registers_of(s);
    [("smf", registers.ride_hailing), ("sis", registers.charter)]
        .iter()
        .filter(|(_, read)| *read)
        .filter_map(|(key, _)| profile.secretariat(key).map(|x| x.name.clone()))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The same list as a PDF to print and work from (A4 landscape, every page numbered).
pub(super) async fn worklist_pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let (s, horizon, kind, WorkPage { items, .. }) = filtered(&state, &req, &query, None).await?;
    let now = state.clock.now();
    let rows: Vec<serde_json::Value> = rows(&items)
        .iter()
        .map(|r| {
            serde_json::json!({
                "due": r.due, "days": r.days, "overdue": r.overdue, "what": r.what,
                "number": r.number, "person": r.person, "plate": r.plate,
            })
        })
        .collect();
    let count = match rows.len() {
        1 => "1 pendência".to_owned(),
        n => format!("{n} pendências"),
    };
    let inputs = serde_json::json!({
        "secretariat": secretariats_of(&state, &s),
        "generated_on": format::date(local_date(now)),
        "generated_at": format::datetime_local(now),
        "official": s.official.name,
        "filter": format!(
            "vencendo em até {horizon} dias (e as vencidas) · {}",
            kind.map_or("todas", WorkKind::label_pt)
        ),
        "count": count,
        "rows": rows,
    });
    let pdf = state
        .renderer
        .render("worklist.typ", inputs, None, now)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "worklist PDF failed to render");
            PanelError::Internal
        })?;
    Ok(download(
        "application/pdf",
        &format!("pendencias-{}.pdf", local_date(now)),
        pdf,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_quoted_and_never_formulas() {
        assert_eq!(csv_cell("Maria"), "Maria");
        assert_eq!(csv_cell("a;b"), "\"a;b\"");
        assert_eq!(csv_cell("diz \"x\""), "\"diz \"\"x\"\"\"");
        assert_eq!(csv_cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(days_text(20), "faltam 20 dias");
        assert_eq!(days_text(-3), "vencido há 3 dias");
        assert_eq!(days_text(0), "vence hoje");
        assert_eq!(waiting_text(WorkKind::Auto, 3), "aguardando há 3 dias");
        assert_eq!(waiting_text(WorkKind::Review, 0), "em análise desde hoje");
    }

    #[test]
    fn a_page_is_a_number_from_one() {
        let query = |p: &str| HashMap::from([("pagina".to_owned(), p.to_owned())]);
        assert_eq!(page_of(&HashMap::new()), 1);
        assert_eq!(page_of(&query("2")), 2);
        assert_eq!(page_of(&query("0")), 1);
        assert_eq!(page_of(&query("x")), 1);
        assert_eq!(pages_of(0), 1);
        assert_eq!(pages_of(50), 1);
        assert_eq!(pages_of(51), 2);
    }
}
