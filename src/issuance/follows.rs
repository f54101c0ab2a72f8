//! The records an applicant follows at `/servicos`, and the reminders before their expiries.
//! A driver is followed by an authorization's number and the driver's CPF together, a charter
//! company by a Termo's number and the company's CNPJ together (a pair that does not go
//! together gets the same answer as a number that does not exist); opening a renewal online
//! follows the driver too. A reminder goes, through the outbox, to every applicant who
//! follows the holder, on the days before the expiry the municipality profile names (60, 30
//! and 7 by default): an authorization's year (art. 3º, parágrafo único), a Termo's two years
//! (Lei 4.937/2025, art. 8º, §1º), a bus's ITV report (art. 12, IV) and its insurance (art.
//! 12, III). Each is queued once, whatever the nodes.

use std::collections::HashMap;

use chrono::NaiveDate;
use uuid::Uuid;

use crate::documents::format;
use crate::domain::dates::local_date;
use crate::domain::ids::{Cnpj, Cpf};
use crate::domain::reminders::reminder_due;
use crate::issuance::UseCaseError;
use crate::standing::worklist::{Registers, WorkKind, WorkRecord, worklist};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::applicant_links::{FollowedKind, LinkedEntity};
use crate::storage::applicants::Applicant;
use crate::storage::outbox::OutgoingMail;

/// A record the applicant follows, as the counter shows it.
pub struct Followed {
    /// "Autorização APP-2026/000001" or "Termo de Autorização FRET-2026/000001".
    pub title: String,
    /// The holder's name.
    pub holder: String,
    /// Its status in words.
    pub status: String,
    /// The last day of validity (dd/mm/aaaa), when known.
    pub valid_until: Option<String>,
}

const NOT_HELD_APP: &str = "Não encontramos uma autorização com este número e este CPF. Confira \
    os dois como estão impressos na autorização.";
const NOT_HELD_TERMO: &str = "Não encontramos um Termo de Autorização com este número e este \
    CNPJ. Confira os dois como estão impressos no Termo.";

/// Follows the driver who holds authorization `number`, whose CPF is `cpf`.
pub async fn follow_driver(
    state: &AppState,
    applicant: &Applicant,
    number: &str,
    cpf: &str,
) -> Result<(), UseCaseError> {
    let refused = UseCaseError::Inconsistent {
        field: "numero",
        message: NOT_HELD_APP,
    };
    let Ok(cpf) = Cpf::parse(cpf) else {
        return Err(refused);
    };
    let a = crate::issuance::ride_hailing::authorizations::held_by(state, number, &cpf)
        .await?
        .ok_or(refused)?;
    state
        .store
        .link_applicant(
            applicant.id,
            LinkedEntity::Driver(a.driver_id),
            state.clock.now(),
        )
        .await?;
    Ok(())
}

/// Follows the charter company that holds Termo `number`, whose CNPJ is `cnpj`.
pub async fn follow_company(
    state: &AppState,
    applicant: &Applicant,
    number: &str,
    cnpj: &str,
) -> Result<(), UseCaseError> {
    let refused = UseCaseError::Inconsistent {
        field: "numero",
        message: NOT_HELD_TERMO,
    };
    let Ok(cnpj) = Cnpj::parse(cnpj) else {
        return Err(refused);
    };
    let company = state
        .store
        .company_holding_termo(number, cnpj.as_str())
        .await?
        .ok_or(refused)?;
    state
        .store
        .link_applicant(
            applicant.id,
            LinkedEntity::Company(company),
            state.clock.now(),
        )
        .await?;
    Ok(())
}

/// What the applicant follows, with each record's status now.
pub async fn followed(
    state: &AppState,
    applicant: &Applicant,
) -> Result<Vec<Followed>, UseCaseError> {
    let now = state.clock.now();
    let today = local_date(now);
    let mut out = Vec::new();
    for link in state.store.links_of(applicant.id).await? {
        match link {
            LinkedEntity::Driver(driver) => {
                let Some(a) = state.store.latest_authorization_of(driver).await? else {
                    continue;
                };
                let s =
                    crate::issuance::ride_hailing::webhooks::driver_standing(state, a, now).await?;
                let holder = state
                    .store
                    .get_driver(driver)
                    .await?
                    .map(|d| d.name)
                    .unwrap_or_default();
                out.push(Followed {
                    title: format!("Autorização {}", s.authorization_number),
                    holder,
                    status: s.status.label_pt().to_owned(),
                    valid_until: Some(format::date(s.valid_until)),
                });
            }
            LinkedEntity::Company(id) => {
                use crate::standing::charter::{
                    company_status, current_termo, load_company, termos_of,
                };
                let Some(company) = load_company(&state.store, id).await? else {
                    continue;
                };
                let termos = termos_of(&state.store, id).await?;
                let (status, _) = company_status(&company, &termos, today);
                let termo = current_termo(&termos, today);
                out.push(Followed {
                    title: termo.map_or_else(
                        || "Termo de Autorização".to_owned(),
                        |t| format!("Termo de Autorização {}", t.number),
                    ),
                    holder: company.data.name.clone(),
                    status: status.label_pt().to_owned(),
                    valid_until: termo.map(|t| format::date(t.data.valid_until)),
                });
            }
        }
    }
    Ok(out)
}

/// What a reminder is about, as the holder reads it.
fn reminder_text(
    kind: WorkKind,
    task: &str,
    number: &str,
    due: NaiveDate,
    days: i64,
) -> Option<(String, String)> {
    let when = match days {
        0 => "hoje".to_owned(),
        1 => "amanhã".to_owned(),
        d => format!("em {d} dias"),
    };
    let until = format::date(due);
    let (subject, text) = match (kind, task) {
        (WorkKind::Renewal, "renewal.renew") => (
            format!("A autorização {number} vence {when}"),
            format!(
                "A autorização {number} vale até {until}. Para continuar trabalhando depois \
                 dessa data, peça a renovação anual: entre nos serviços da Prefeitura pela \
                 internet, junte os documentos pedidos e envie o pedido."
            ),
        ),
        (WorkKind::Renewal, _) => (
            format!("O Termo de Autorização {number} vence {when}"),
            format!(
                "O Termo de Autorização {number} vale até {until}. Para continuar operando o \
                 fretamento depois dessa data, peça a renovação do Termo à Prefeitura antes do \
                 vencimento."
            ),
        ),
        (WorkKind::Document, task) => {
            // The worklist heads a bus's line with its kind (`Micro-ônibus QBA1C23`).
            let bus = in_sentence(number);
            if task == "charter.file_itv" {
                (
                    format!("O laudo de inspeção técnica (ITV) do {bus} vence {when}"),
                    format!(
                        "O laudo de inspeção técnica (ITV) do {bus} vale até {until}. Faça a \
                         nova inspeção e apresente o novo laudo à Prefeitura antes do vencimento."
                    ),
                )
            } else {
                (
                    format!("O seguro do {bus} vence {when}"),
                    format!(
                        "A apólice de seguro de responsabilidade civil do {bus} vale até \
                         {until}. Apresente a nova apólice à Prefeitura antes do vencimento."
                    ),
                )
            }
        }
        _ => return None,
    };
    Some((subject, text))
}

/// `label` with its first letter in lower case, to stand within a sentence.
fn in_sentence(label: &str) -> String {
    let mut chars = label.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// Queues the reminders due today to the applicants who follow each holder; answers how many
/// were queued now.
pub async fn queue_due_reminders(state: &AppState) -> Result<usize, StorageError> {
    let days_before = &state.letterhead.profile.reminders.days_before;
    let Some(horizon) = days_before.iter().max() else {
        return Ok(0);
    };
    let now = state.clock.now();
    let today = local_date(now);
    let registers = Registers {
        ride_hailing: true,
        charter: true,
    };
    let base = state.letterhead.public_url.trim_end_matches('/');
    let city = &state.letterhead.profile.prefeitura.name;
    // Who follows what, read first: most records due have no follower, and they cost
    // nothing more than their place in the worklist.
    let mut followed: HashMap<WorkRecord, Vec<(Uuid, String)>> = HashMap::new();
    for f in state.store.followed_records().await? {
        let record = match f.kind {
            FollowedKind::Authorization => WorkRecord::Authorization(f.record),
            FollowedKind::Company => WorkRecord::Company(f.record),
            FollowedKind::CharterVehicle => WorkRecord::CharterVehicle(f.record),
        };
        followed
            .entry(record)
            .or_default()
            .push((f.applicant, f.email));
    }
    if followed.is_empty() {
        return Ok(0);
    }
    let mut queued = 0;
    for item in worklist(state, now, i64::from(*horizon), registers).await? {
        let Some(followers) = followed.get(&item.record) else {
            continue;
        };
        let Some(days) = reminder_due(days_before, item.due, today) else {
            continue;
        };
        let Some((subject, text)) =
            reminder_text(item.kind, item.task, &item.number, item.due, item.days_left)
        else {
            continue;
        };
        let key = format!(
            "{}:{}:{}:{}:{days}",
            item.task,
            item.record.id(),
            item.due,
            item.number
        );
        for (applicant, email) in followers {
            let mail = OutgoingMail {
                recipient: email.clone(),
                subject: subject.clone(),
                body: format!(
                    "Olá,\n\n{text}\n\nServiços pela internet:\n{base}/servicos\n\n\
                     Você recebe este lembrete porque acompanha este cadastro nos serviços da \
                     Prefeitura.\n\n{city}\n"
                ),
                topic: "reminder",
                entity: None,
            };
            if state
                .store
                .queue_reminder(*applicant, &key, &mail, now)
                .await?
            {
                queued += 1;
            }
        }
    }
    if queued > 0 {
        state.mail_wake.notify_one();
        tracing::info!(queued, "reminders queued");
    }
    Ok(queued)
}

/// Reads the register for reminders now and then every `SELO_REMINDER_POLL_SECS`.
pub fn spawn_reminders(state: AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(state.settings.mail.reminder_poll);
        loop {
            tick.tick().await;
            if let Err(e) = queue_due_reminders(&state).await {
                tracing::error!(error = %e, "reminders not read; tried again at the next pass");
            }
        }
    });
}

/// An applicant account's id, for a follow made by another use case (a renewal opened).
pub async fn follow_driver_id(
    state: &AppState,
    applicant: Uuid,
    driver: Uuid,
) -> Result<(), StorageError> {
    state
        .store
        .link_applicant(applicant, LinkedEntity::Driver(driver), state.clock.now())
        .await
}
