//! What is due in the charter register (Lei 4.937/2025): Termos to renew, buses to inspect,
//! their ITV reports and insurance policies to renew, autos to notify, defences and
//! reconsiderations running and fines to collect.

use chrono::{DateTime, NaiveDate, Utc};

use super::{WorkItem, WorkKind, WorkRecord};
use crate::domain::charter::CharterStatus;
use crate::domain::dates::local_date;
use crate::domain::fines::FineStatus;
use crate::standing::charter::{
    company_autos_now, company_status, load_company, termos_of, vehicle_live_status, vehicles_of,
};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::charter::CharterTable;

/// Every pendency of every charter company (the horizon is applied by the caller).
pub(super) async fn charter_items(
    state: &AppState,
    now: DateTime<Utc>,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    let today = local_date(now);
    let basis = state.charter_basis();
    for id in state.store.charter_ids(CharterTable::Companies).await? {
        let Some(company) = load_company(&state.store, id).await? else {
            continue;
        };
        let termos = termos_of(&state.store, id).await?;
        let (status, _) = company_status(&company, &termos, today);
        // Lei 4.937/2025, art. 8º, §1º: the Termo lasts two years and may be renewed; the
        // latest one's last day is when the company needs the next.
        if !matches!(status, CharterStatus::Cassado | CharterStatus::Suspenso)
            && let Some(last) = termos.iter().max_by_key(|t| t.data.valid_until)
        {
            items.push(WorkItem {
                kind: WorkKind::Renewal,
                what: "Termo de Autorização chega ao fim da validade: renovar (art. 8º, §1º)"
                    .into(),
                number: last.number.clone(),
                person: company.data.name.clone(),
                plate: String::new(),
                due: last.data.valid_until,
                days_left: (last.data.valid_until - today).num_days(),
                waiting: false,
                record: WorkRecord::Company(id),
                task: "charter.grant_termo",
            });
        }
        for v in vehicles_of(&state.store, id).await? {
            let (report, _) = vehicle_live_status(&v, &company, &termos, today, &basis);
            if matches!(
                report.status,
                CharterStatus::Baixado | CharterStatus::VidaUtilVencida
            ) {
                continue;
            }
            let facts = &v.record.facts;
            let mut push = |kind, what: &str, due: NaiveDate, task| {
                items.push(WorkItem {
                    kind,
                    what: what.to_owned(),
                    number: format!("{} {}", facts.kind_label_pt(), v.plate.formatted()),
                    person: company.data.name.clone(),
                    plate: v.plate.as_str().to_owned(),
                    due,
                    days_left: (due - today).num_days(),
                    waiting: false,
                    record: WorkRecord::CharterVehicle(v.id),
                    task,
                });
            };
            match report.vistoria_valid_until {
                // Art. 13, §1º: the municipality's annual vistoria, which renews the selo.
                Some(until) => push(
                    WorkKind::Vistoria,
                    &format!(
                        "Vistoria anual do {}: renovar o selo (art. 13, §1º)",
                        facts.kind_noun_pt()
                    ),
                    until,
                    "charter.record_vistoria",
                ),
                // Art. 13: no bus runs without the vistoria; the law sets no period, so
                // the bus is due from its enrolment.
                None => push(
                    WorkKind::Vistoria,
                    &format!(
                        "{} cadastrado sem vistoria aprovada (art. 13)",
                        facts.kind_label_pt()
                    ),
                    v.enrolled_on,
                    "charter.record_vistoria",
                ),
            }
            // Art. 12, IV: the ITV report, renewed every six months.
            if let Some(until) = report.itv_valid_until {
                push(
                    WorkKind::Document,
                    "Laudo de inspeção técnica (ITV) vence: juntar o novo (art. 12, IV)",
                    until,
                    "charter.file_itv",
                );
            }
            // Art. 12, III: the liability insurance.
            if let Some(until) = report.insurance_valid_to {
                push(
                    WorkKind::Document,
                    "Seguro de responsabilidade civil vence: juntar a nova apólice (art. 12, III)",
                    until,
                    "charter.file_vehicle_documents",
                );
            }
        }
        auto_items(state, &company, today, items).await?;
    }
    Ok(())
}

/// Arts. 22 and 23: each open auto of the company — the notice to serve, the defence and the
/// reconsideration running, the fine to collect.
async fn auto_items(
    state: &AppState,
    company: &crate::standing::charter::Company,
    today: NaiveDate,
    items: &mut Vec<WorkItem>,
) -> Result<(), StorageError> {
    for auto in company_autos_now(state, company.id, today).await? {
        let p = &auto.procedure;
        if p.annulled
            || matches!(
                auto.payment.status,
                FineStatus::Anulada | FineStatus::Paga | FineStatus::InscritaEmDividaAtiva
            )
        {
            continue;
        }
        let mut push = |kind, what: &str, due: NaiveDate, waiting| {
            items.push(WorkItem {
                kind,
                what: what.to_owned(),
                number: auto.number.clone(),
                person: company.data.name.clone(),
                plate: auto.data.vehicle_plate.clone().unwrap_or_default(),
                due,
                days_left: (due - today).num_days(),
                waiting,
                record: WorkRecord::CharterAuto(auto.id),
                task: "charter.procedure_act",
            });
        };
        if p.notified_on.is_none() {
            // Art. 22, §1º: served by contrafé or the inspector's certificate; the law sets no
            // period, so the auto waits from the day it was drawn up.
            push(
                WorkKind::Auto,
                "Notificar a empresa do auto (art. 22, §1º)",
                local_date(auto.data.drawn_up_at),
                true,
            );
            continue;
        }
        if let Some(d) = &p.defence_due
            && d.due >= today
            && p.defence_timely.is_none()
        {
            push(
                WorkKind::Auto,
                "Prazo de defesa da empresa em curso (art. 22)",
                d.due,
                false,
            );
        }
        if let Some(d) = &p.reconsideration_due
            && d.due >= today
            && p.reconsideration_timely.is_none()
        {
            push(
                WorkKind::Auto,
                "Prazo do pedido de reconsideração em curso (art. 22, §3º)",
                d.due,
                false,
            );
        }
        if let Some(due) = auto.payment.due {
            match auto.payment.status {
                FineStatus::APagar => push(WorkKind::Fine, "Multa a pagar (art. 23)", due, false),
                FineStatus::Vencida => push(
                    WorkKind::Fine,
                    "Multa vencida sem pagamento: inscrever em dívida ativa (art. 23)",
                    due,
                    false,
                ),
                _ => {}
            }
        }
    }
    Ok(())
}
