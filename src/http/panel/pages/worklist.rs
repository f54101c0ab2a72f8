//! "Pendências": what is due in the register, soonest first, each row a link to its record
//! and to the task that resolves it; filtered by horizon and kind, and exported as CSV.

use super::*;
use crate::domain::dates::local_date;
use crate::standing::worklist::{WorkItem, WorkKind, WorkRecord, ride_hailing_worklist};

/// The horizons a clerk chooses from, in days.
const HORIZONS: [i64; 3] = [30, 60, 90];

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
    }
}

fn record_id(record: WorkRecord) -> uuid::Uuid {
    match record {
        WorkRecord::Authorization(id) | WorkRecord::Auto(id) | WorkRecord::Review(id) => id,
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

/// How long a request has waited for a decision: "em análise desde hoje", "há 3 dias".
fn waiting_text(days: i64) -> String {
    match days {
        d if d <= 0 => "em análise desde hoje".to_owned(),
        1 => "em análise há 1 dia".to_owned(),
        d => format!("em análise há {d} dias"),
    }
}

fn row(item: &WorkItem) -> WorkRow {
    WorkRow {
        due: format::date(item.due),
        days: if item.kind == WorkKind::Review {
            waiting_text(-item.days_left)
        } else {
            days_text(item.days_left)
        },
        overdue: item.days_left < 0 && item.kind != WorkKind::Review,
        what: item.what.clone(),
        number: item.number.clone(),
        person: item.person.clone(),
        plate: crate::domain::ids::Plate::parse(&item.plate)
            .map_or_else(|_| item.plate.clone(), |p| p.formatted()),
        record_href: record_href(item.record),
        task_href: match item.task {
            // The guided task where there is one.
            "renewal.renew" => format!("/painel/tarefa/renovacao?id={}", record_id(item.record)),
            op => format!("/painel/acao/{op}?id={}", record_id(item.record)),
        },
        task_label: op_label(item.task),
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

/// The ride-hailing worklist for the signed-in official, filtered; `None` when their roles do
/// not read that register.
pub(super) async fn items_for(
    state: &AppState,
    s: &Signed,
    horizon: i64,
    kind: Option<WorkKind>,
) -> Result<Option<Vec<WorkItem>>, PanelError> {
    if !s.official.roles.allow(Competence::ReadRideHailing) {
        return Ok(None);
    }
    let items = ride_hailing_worklist(state, state.clock.now(), horizon).await?;
    Ok(Some(
        items
            .into_iter()
            .filter(|i| kind.is_none_or(|k| i.kind == k))
            .collect(),
    ))
}

pub(super) fn rows(items: &[WorkItem]) -> Vec<WorkRow> {
    items.iter().map(row).collect()
}

/// The signed-in official (who must read the register), the filter asked and its items.
async fn filtered(
    state: &AppState,
    req: &HttpRequest,
    query: &HashMap<String, String>,
) -> Result<(Signed, i64, Option<WorkKind>, Vec<WorkItem>), PanelError> {
    let s = Signed::of(req, state).await?;
    s.require(Competence::ReadRideHailing)?;
    let (horizon, kind) = filter_of(query);
    let items = items_for(state, &s, horizon, kind)
        .await?
        .unwrap_or_default();
    Ok((s, horizon, kind, items))
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
    csv_href: String,
}

pub(super) async fn worklist(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let (s, horizon, kind, items) = filtered(&state, &req, &query).await?;
    let kind_key = kind.map_or("", WorkKind::key);
    let body = render(&WorklistPage {
        chrome: Some(chrome_of(&s)),
        horizon,
        horizons: HORIZONS.to_vec(),
        kind: kind_key.to_owned(),
        kinds: WorkKind::ALL
            .iter()
            .map(|k| (k.key(), k.label_pt()))
            .collect(),
        rows: rows(&items),
        csv_href: format!("/painel/pendencias.csv?prazo={horizon}&tipo={kind_key}"),
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
    let (_, _, _, items) = filtered(&state, &req, &query).await?;
    let mut out =
        String::from("\u{feff}Prazo;Situação do prazo;Pendência;Registro;Interessado(a);Placa\r\n");
    for r in rows(&items) {
        let cells = [&r.due, &r.days, &r.what, &r.number, &r.person, &r.plate];
        let line: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&line.join(";"));
        out.push_str("\r\n");
    }
    let today = local_date(state.clock.now());
    let mut res = HttpResponse::Ok();
    page_headers(&mut res);
    Ok(res
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"pendencias-{}.csv\"",
                today.format("%Y-%m-%d")
            ),
        ))
        .body(out))
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
    }
}
