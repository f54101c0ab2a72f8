//! What is due in the registers: in the ride-hailing one, authorizations to renew, vehicles to
//! present or inspect, autos to notify, defences running and fines to collect; in the charter
//! one ([`charter`]), Termos, vistorias, ITV reports, insurance and autos — each with its
//! deadline, computed by the domain's rules on the day asked. Read-only; the back office
//! lists it.

mod charter;

use std::collections::HashSet;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::dates::local_date;
use crate::domain::fines::FineStatus;
use crate::domain::ride_hailing::sanctions::auto_deadlines;
use crate::standing::ride_hailing::{fine_standing_of, ride_hailing_standing};
use crate::state::AppState;
use crate::state::worklist::{Due, Entry, Pending, Snapshot};
use crate::storage::StorageError;

pub use crate::domain::work::{AuthorizationDue, WorkKind};

/// The record an item concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WorkRecord {
    Authorization(Uuid),
    Auto(Uuid),
    Review(Uuid),
    /// A charter company (its Termo).
    Company(Uuid),
    CharterVehicle(Uuid),
    CharterAuto(Uuid),
    DataRequest(Uuid),
    /// A filing sent online.
    Filing(Uuid),
}

impl WorkRecord {
    pub fn id(self) -> Uuid {
        match self {
            Self::Authorization(id)
            | Self::Auto(id)
            | Self::Review(id)
            | Self::Company(id)
            | Self::CharterVehicle(id)
            | Self::CharterAuto(id)
            | Self::DataRequest(id)
            | Self::Filing(id) => id,
        }
    }
}

/// One pendency: what, on which record, by when, and the operation that resolves it.
#[derive(Debug, Clone)]
pub struct WorkItem {
    pub kind: WorkKind,
    /// What is due, in Portuguese, with the article.
    pub what: String,
    /// The record's number, the person and the plate, as a clerk reads them.
    pub number: String,
    pub person: String,
    pub plate: String,
    pub due: NaiveDate,
    /// Days from today to `due`; negative when overdue.
    pub days_left: i64,
    /// The law sets no period: `due` is the day the wait began, shown as how long it has
    /// waited rather than as overdue.
    pub waiting: bool,
    pub record: WorkRecord,
    /// The API operation whose task resolves it (`authorizations.vistoria`…).
    pub task: &'static str,
}

/// How far back the autos whose procedure may still be open are read.
const AUTOS_LOOK_BACK_DAYS: i64 = 5 * 366;

/// Which registers a worklist reads (an official's roles decide).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registers {
    pub ride_hailing: bool,
    pub charter: bool,
}

/// Everything due in `registers` by `today + horizon_days` (overdue included), soonest first.
pub async fn worklist(
    state: &AppState,
    now: DateTime<Utc>,
    horizon_days: i64,
    registers: Registers,
) -> Result<Vec<WorkItem>, StorageError> {
    let all = Window {
        kind: None,
        skip: 0,
        take: usize::MAX,
    };
    Ok(worklist_page(state, now, horizon_days, registers, all)
        .await?
        .items)
}

/// Which part of the worklist is asked: one kind (all when `None`), and the rows from `skip`,
/// `take` of them.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub kind: Option<WorkKind>,
    pub skip: usize,
    pub take: usize,
}

/// A part of the worklist, and how many pendencies the whole holds.
#[derive(Debug)]
pub struct WorkPage {
    pub total: usize,
    pub items: Vec<WorkItem>,
}

/// The rows of `window` of what is due in `registers` by `today + horizon_days` (overdue
/// included), soonest first, and how many there are. The authorizations in force, by far the
/// most, are read from the snapshot in the list's order: only the window's are made rows.
pub async fn worklist_page(
    state: &AppState,
    now: DateTime<Utc>,
    horizon_days: i64,
    registers: Registers,
    window: Window,
) -> Result<WorkPage, StorageError> {
    let today = local_date(now);
    let horizon = today + Duration::days(horizon_days);
    let mut others = Vec::new();
    if registers.ride_hailing {
        auto_items(state, now, &mut others).await?;
        review_items(state, now, &mut others).await?;
        data_request_items(state, now, &mut others).await?;
    }
    if registers.charter {
        charter::charter_items(state, now, &mut others).await?;
    }
    if registers.ride_hailing || registers.charter {
        filing_items(state, now, registers, &mut others).await?;
    }
    others.retain(|i| i.due <= horizon && window.kind.is_none_or(|k| i.kind == k));
    others.sort_by(|a, b| a.due.cmp(&b.due).then_with(|| a.number.cmp(&b.number)));
    if !registers.ride_hailing {
        return Ok(WorkPage {
            total: others.len(),
            items: others
                .into_iter()
                .skip(window.skip)
                .take(window.take)
                .collect(),
        });
    }
    bring_up_to_date_in_a_task(state, now).await?;
    let (total, mut items) = {
        let kept = state.worklist_cache.0.lock().await;
        let pending = kept
            .as_ref()
            .filter(|s| s.day == today)
            .into_iter()
            .flat_map(|s| s.due_by(horizon))
            .filter(|p| window.kind.is_none_or(|k| p.due.1.kind() == k));
        let total = others.len() + pending.clone().count();
        // The two orders merged (an authorization first on the same day and number, as before).
        let mut pending = pending.peekable();
        let mut others = others.into_iter().peekable();
        let mut items = Vec::new();
        let mut at = 0;
        while items.len() < window.take {
            let take_pending = match (pending.peek(), others.peek()) {
                (Some(p), Some(o)) => (p.due.0, &*p.entry.number) <= (o.due, o.number.as_str()),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let item = if take_pending {
                pending
                    .next()
                    .map(|p| (at >= window.skip).then(|| authorization_item(&p, today)))
            } else {
                others.next().map(|o| (at >= window.skip).then_some(o))
            };
            items.extend(item.flatten());
            at += 1;
        }
        (total, items)
    };
    // The snapshot keeps no names or plates (hundreds of thousands of them): the rows shown
    // read theirs.
    let ids: Vec<Uuid> = items
        .iter()
        .filter_map(|i| match i.record {
            WorkRecord::Authorization(id) => Some(id),
            _ => None,
        })
        .collect();
    let mut labels = state.store.authorization_labels(&ids).await?;
    for item in &mut items {
        if let WorkRecord::Authorization(id) = item.record
            && let Some((person, plate)) = labels.remove(&id)
        {
            (item.person, item.plate) = (person, plate);
        }
    }
    Ok(WorkPage { total, items })
}

/// APP-ART3-PU, APP-ART9, APP-ART16: one pendency of an authorization in force, as a row.
fn authorization_item(p: &Pending<'_>, today: NaiveDate) -> WorkItem {
    let (due, what) = *p.due;
    WorkItem {
        kind: what.kind(),
        what: what.sentence().to_owned(),
        number: p.entry.number.to_string(),
        person: String::new(),
        plate: String::new(),
        due,
        days_left: (due - today).num_days(),
        waiting: false,
        record: WorkRecord::Authorization(p.id),
        task: what.task(),
    }
}

/// Authorizations in force read at once when all are judged again.
const IN_FORCE_PAGE: i64 = 2_000;

/// Past this many drivers touched since the kept list, it is judged again whole.
const RE_JUDGE_AT_MOST: usize = 2_000;

/// Brings what each authorization in force has due up to date, in a task of its own: a
/// request that stops waiting (its deadline, while a new legal day judges a large register
/// again) leaves it running, and the requests after it find it done.
async fn bring_up_to_date_in_a_task(
    state: &AppState,
    now: DateTime<Utc>,
) -> Result<(), StorageError> {
    let task_state = state.clone();
    match tokio::spawn(async move { bring_up_to_date(&task_state, now).await }).await {
        Ok(done) => done,
        Err(e) => {
            tracing::error!(error = %e, "worklist: the update of the authorizations in force stopped");
            Err(StorageError::Unavailable(sqlx::Error::WorkerCrashed))
        }
    }
}

/// Keeps what each authorization in force has due up to date in the background: at the start
/// and every few minutes, so the first official of a legal day (when everything is judged
/// again) does not wait for it on a large register.
pub fn spawn_upkeep(state: AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_mins(5));
        loop {
            tick.tick().await;
            if let Err(e) = bring_up_to_date(&state, state.clock.now()).await {
                tracing::warn!(error = %e, "worklist: not brought up to date in the background");
            }
        }
    });
}

/// Judges again what each authorization in force has due, for the legal day of `now`: only
/// those of the drivers an act touched since, when the snapshot kept is of that day.
async fn bring_up_to_date(state: &AppState, now: DateTime<Utc>) -> Result<(), StorageError> {
    let today = local_date(now);
    let mut kept = state.worklist_cache.0.lock().await;
    // Read before the register: an act committed after it is seen as touching its driver.
    let read_seq = state.store.changes_caught_up().await?;
    let touched = match kept.as_ref() {
        Some(s) if s.day == today => state.store.changes().touched_since(s.read_seq),
        _ => None,
    };
    match (kept.as_mut(), touched) {
        (Some(snapshot), Some(scopes)) if scopes.len() <= RE_JUDGE_AT_MOST => {
            let drivers: HashSet<Uuid> = scopes
                .iter()
                .filter_map(|s| s.strip_prefix("d:"))
                .filter_map(|d| Uuid::parse_str(d).ok())
                .collect();
            let mut judged = Vec::new();
            for d in &drivers {
                for a in state.store.authorizations_in_force_of(*d, today).await? {
                    judged.push((a.id, entry(state, &a, now).await?));
                }
            }
            snapshot.remove_drivers(&drivers);
            for (id, e) in judged {
                snapshot.insert(id, e);
            }
            snapshot.read_seq = read_seq;
        }
        _ => {
            *kept = None;
            let mut snapshot = Snapshot::new(today, read_seq);
            // A page at a time: a large register's rows are never all in memory at once.
            let mut after = None;
            loop {
                let page = state
                    .store
                    .authorizations_in_force_page(today, after, IN_FORCE_PAGE)
                    .await?;
                let Some(last) = page.last() else { break };
                after = Some(last.id);
                for a in &page {
                    snapshot.insert(a.id, entry(state, a, now).await?);
                }
            }
            *kept = Some(snapshot);
        }
    }
    Ok(())
}

/// Authorization `a` as the worklist keeps it, judged at `now`.
async fn entry(
    state: &AppState,
    a: &crate::storage::worklist::AuthorizationInForce,
    now: DateTime<Utc>,
) -> Result<Entry, StorageError> {
    Ok(Entry {
        driver_id: a.driver_id,
        number: a.number.as_str().into(),
        due: judge(state, a, now).await?.into_boxed_slice(),
    })
}

/// What authorization `a` has due at `now`, by the domain's rules.
async fn judge(
    state: &AppState,
    a: &crate::storage::worklist::AuthorizationInForce,
    now: DateTime<Utc>,
) -> Result<Vec<Due>, StorageError> {
    let today = local_date(now);
    let mut due: Vec<Due> = Vec::new();
    // APP-ART3-PU (AMB-66): the year ends; renew it unless it already was.
    if !a.renewed {
        due.push((a.valid_until, AuthorizationDue::Renewal));
    }
    let (_, report) =
        ride_hailing_standing(state, a.id, a.driver_id, a.vehicle_id, a.granted_at, now).await?;
    if report.last_vistoria.is_none() {
        // APP-ART9: the car is presented within days of the approval.
        let on = report.presentation_due.due;
        let what = if on < today {
            AuthorizationDue::NotPresented
        } else {
            AuthorizationDue::Present
        };
        due.push((on, what));
    } else if let Some(until) = report.vistoria_valid_until {
        // APP-ART16: the annual vistoria.
        due.push((until, AuthorizationDue::Annual));
    }
    // APP-ART16-P1: a summons to an extra vistoria not yet attended.
    if let Some(summons) = &report.summons
        && summons.attended_on.is_none()
    {
        due.push((summons.summons.attend_by, AuthorizationDue::Summons));
    }
    // APP-ART16-P2: what the vistoria found, fixed and inspected again.
    if let Some(fix) = &report.fix_due {
        due.push((fix.due, AuthorizationDue::Fix));
    }
    Ok(due)
}

/// APP-ART4-P2: each platform's data request not yet delivered, due 24 hours from its notice
/// (DL-7), overdue ones included.
async fn data_request_items(
    state: &AppState,
    now: DateTime<Utc>,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    let today = local_date(now);
    for r in state.store.pending_data_requests().await? {
        let Ok(id) = Uuid::parse_str(&r.id) else {
            continue;
        };
        let platform = state.store.get_platform(&r.platform_id).await?;
        let due = local_date(r.due_at);
        let what = if r.due_at < now {
            "Plataforma não entregou os dados no prazo de 24 horas (art. 4º, §2º)".to_owned()
        } else {
            format!(
                "Plataforma deve entregar os dados pedidos até as {} (art. 4º, §2º)",
                crate::documents::format::time_local(r.due_at)
            )
        };
        items.push(WorkItem {
            kind: WorkKind::DataRequest,
            what,
            number: platform
                .as_ref()
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            person: r.scope.clone(),
            plate: String::new(),
            due,
            days_left: (due - today).num_days(),
            waiting: false,
            record: WorkRecord::DataRequest(id),
            task: "platforms.record_delivery",
        });
    }
    Ok(())
}

/// AMB-25: each request waiting for an official's decision, due since the day it was filed
/// (the law sets no period; the oldest come first).
async fn review_items(
    state: &AppState,
    now: DateTime<Utc>,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    let today = local_date(now);
    for r in state.store.pending_reviews().await? {
        let person = state
            .store
            .get_driver(r.driver_id)
            .await?
            .map(|d| d.name)
            .unwrap_or_default();
        let plate = state
            .store
            .get_vehicle(r.vehicle_id)
            .await?
            .map(|v| v.plate.as_str().to_owned())
            .unwrap_or_default();
        let number = match r.renewal_of {
            Some(a) => state
                .store
                .get_authorization(a)
                .await?
                .map_or_else(String::new, |a| format!("Renovação de {}", a.number)),
            None => "Nova autorização".to_owned(),
        };
        let why: Vec<String> = r
            .reasons
            .iter()
            .map(|x| format!("{} ({})", x.reason, x.citation))
            .collect();
        let filed_on = local_date(r.filed_at);
        items.push(WorkItem {
            kind: WorkKind::Review,
            what: format!("Decidir o pedido em análise: {}", why.join("; ")),
            number,
            person,
            plate,
            due: filed_on,
            days_left: (filed_on - today).num_days(),
            waiting: true,
            record: WorkRecord::Review(r.id),
            task: "authorizations.decide_review",
        });
    }
    Ok(())
}

/// The filings sent online: each protocolled one waits for the desk (since its protocol
/// date); one with an exigência waits for its applicant until the exigência's deadline.
async fn filing_items(
    state: &AppState,
    now: DateTime<Utc>,
    registers: Registers,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    use crate::domain::filings::{FilingKind, Opening};
    let today = local_date(now);
    for f in state.store.filing_queue().await? {
        let (Ok(id), Some(kind)) = (Uuid::parse_str(&f.id), FilingKind::parse(&f.kind)) else {
            continue;
        };
        let in_registers = if kind.is_charter() {
            registers.charter
        } else {
            registers.ride_hailing
        };
        if !in_registers {
            continue;
        }
        let subject = Uuid::parse_str(&f.subject_id).ok();
        let (person, plate) = match (kind.opening(), subject) {
            (Opening::Authorization, Some(a)) => match state.store.get_authorization(a).await? {
                Some(a) => (
                    state
                        .store
                        .get_driver(a.driver_id)
                        .await?
                        .map(|d| d.name)
                        .unwrap_or_default(),
                    state
                        .store
                        .get_vehicle(a.vehicle_id)
                        .await?
                        .map(|v| v.plate.as_str().to_owned())
                        .unwrap_or_default(),
                ),
                None => (String::new(), String::new()),
            },
            (Opening::Company, Some(c)) => (
                crate::standing::charter::load_company(&state.store, c)
                    .await?
                    .map(|c| c.data.name)
                    .unwrap_or_default(),
                String::new(),
            ),
            // What is not registered yet is named as the applicant stated it.
            _ => {
                let stated: std::collections::BTreeMap<String, String> = f
                    .details
                    .as_deref()
                    .and_then(|d| serde_json::from_str(d).ok())
                    .unwrap_or_default();
                (
                    stated.get("name").cloned().unwrap_or_default(),
                    stated.get("vehicle.plate").cloned().unwrap_or_default(),
                )
            }
        };
        let waiting_applicant = f.status == "exigencia";
        let due = if waiting_applicant {
            f.demand_due.unwrap_or(today)
        } else {
            f.protocolled_on.unwrap_or(today)
        };
        items.push(WorkItem {
            kind: WorkKind::Filing,
            what: if waiting_applicant {
                "Exigência feita: aguardar a resposta do requerente até o prazo".into()
            } else {
                format!(
                    "Examinar os arquivos do requerimento e decidir: {}",
                    kind.label().to_lowercase()
                )
            },
            number: f.number.clone().unwrap_or_default(),
            person,
            plate,
            due,
            days_left: (due - today).num_days(),
            waiting: !waiting_applicant,
            record: WorkRecord::Filing(id),
            task: "filing",
        });
    }
    Ok(())
}

/// APP-ART22 and the fines: what each open auto has due.
async fn auto_items(
    state: &AppState,
    now: DateTime<Utc>,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    let today = local_date(now);
    let mut push = |item: WorkItem| items.push(item);
    let cal = state.calendar().await?;
    let basis = state.ride_hailing_basis();
    for id in state
        .store
        .autos_since(now - Duration::days(AUTOS_LOOK_BACK_DAYS))
        .await?
    {
        let Some(auto) = state.store.get_auto(id).await? else {
            continue;
        };
        let (procedure, fine) = fine_standing_of(state, &auto, today).await?;
        if matches!(
            fine.status,
            FineStatus::Anulada | FineStatus::Paga | FineStatus::InscritaEmDividaAtiva
        ) {
            continue;
        }
        let person = state
            .store
            .get_driver(auto.driver_id)
            .await?
            .map(|d| d.name)
            .unwrap_or_default();
        let item = |kind, what: &str, due: NaiveDate, task| WorkItem {
            kind,
            what: what.to_owned(),
            number: auto.number.clone(),
            person: person.clone(),
            plate: String::new(),
            due,
            days_left: (due - today).num_days(),
            waiting: false,
            record: WorkRecord::Auto(auto.id),
            task,
        };
        if auto.notification.is_none() {
            // APP-ART22-P1: the notice goes out within 90 days of the drawing-up.
            let drawn_up_on = local_date(auto.drawn_up_at);
            let deadlines = auto_deadlines(
                drawn_up_on,
                drawn_up_on,
                drawn_up_on,
                &cal,
                &state.deadline_rules,
                &basis,
            );
            push(item(
                WorkKind::Auto,
                "Notificar o autuado (art. 22, §1º: até 90 dias da lavratura)",
                deadlines.dispatch_due.due,
                "autos.notify",
            ));
            continue;
        }
        if let Some(defence) = &procedure.defence_due
            && defence.due >= today
            && procedure.defence_timely.is_none()
        {
            push(item(
                WorkKind::Auto,
                "Prazo de defesa do autuado em curso",
                defence.due,
                "autos.act",
            ));
        }
        if let Some(due) = fine.due {
            match fine.status {
                FineStatus::APagar => push(item(WorkKind::Fine, "Multa a pagar", due, "autos.act")),
                FineStatus::Vencida => push(item(
                    WorkKind::Fine,
                    "Multa vencida sem pagamento: inscrever em dívida ativa",
                    due,
                    "autos.act",
                )),
                _ => {}
            }
        }
    }
    Ok(())
}
