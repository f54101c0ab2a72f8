//! Passengers' reports (denúncias): sent from the verification page with no account, tied to
//! what the page showed (the verdict and, when there was one, the document's kind, number and
//! plate), answered by the Ouvidoria, and deleted after the retention the city configures.

use uuid::Uuid;

use crate::domain::dates::local_date;
use crate::domain::reports::{NOT_VERIFIED, ReportInput};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::outbox::OutgoingMail;
use crate::storage::reports::{NewReport, REPORT_CLOSED};
use crate::verification::Verification;

/// Why an answer was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("denúncia não encontrada")]
    NotFound,
    #[error("{0}")]
    Refused(&'static str),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The longest answer the Ouvidoria may write, in characters.
pub const MAX_OUTCOME: usize = 4000;

fn mail(state: &AppState, to: &str, id: Uuid, subject: String, text: &str) -> OutgoingMail {
    let city = &state.letterhead.profile.prefeitura.name;
    OutgoingMail {
        recipient: to.to_owned(),
        subject,
        body: format!(
            "Olá,\n\n{text}\n\nEste endereço foi informado no formulário de denúncia da página de \
             verificação e será apagado quando a Ouvidoria responder.\n\nOuvidoria Municipal — {city}\n"
        ),
        topic: "passenger_report",
        entity: Some(("passenger_report", id.to_string())),
    }
}

/// Records the report `input` about what the page verified (`v`, if anything); answers its id
/// and number.
pub async fn file(
    state: &AppState,
    v: Option<&Verification>,
    input: &ReportInput,
) -> Result<(Uuid, String), StorageError> {
    let now = state.clock.now();
    let verdict = v.map_or(NOT_VERIFIED, |v| v.verdict.as_str());
    let doc = v.and_then(|v| v.document.as_ref());
    let law = doc.map(|d| {
        if d.kind.is_ride_hailing() {
            "ride_hailing"
        } else {
            "charter"
        }
    });
    let report = NewReport {
        verdict,
        document_kind: doc.map(|d| d.kind.as_str()),
        document_number: doc.map(|d| d.number.as_str()),
        plate: doc.map(|d| d.plate.as_str()),
        law,
        category: input.category.as_str(),
        account: &input.account,
        occurred_on: input.occurred_on,
        occurred_time: input.occurred_at.map(|t| t.format("%H:%M").to_string()),
        contact_email: input.contact.as_deref(),
    };
    let id = Uuid::new_v4();
    let receipt = |number: &str| {
        input.contact.as_deref().map(|to| {
            mail(
                state,
                to,
                id,
                format!("Denúncia recebida — protocolo {number}"),
                &format!(
                    "A Ouvidoria Municipal recebeu a sua denúncia, protocolo {number}. Ela será \
                     analisada e a resposta chegará a este e-mail."
                ),
            )
        })
    };
    let number = state
        .store
        .insert_report(id, &report, local_date(now), now, receipt)
        .await?;
    if input.contact.is_some() {
        state.mail_wake.notify_one();
    }
    tracing::info!(number = %number, verdict, "passenger report received");
    Ok((id, number))
}

/// Closes report `id` with the Ouvidoria's `outcome`, told to the passenger when they left an
/// address (which is then erased).
pub async fn close(
    state: &AppState,
    actor: &str,
    id: Uuid,
    outcome: &str,
) -> Result<(), ReportError> {
    let outcome = outcome.trim();
    if outcome.is_empty() {
        return Err(ReportError::Refused(
            "Escreva a resposta: é o que fica registrado e o que o passageiro recebe, se deixou e-mail.",
        ));
    }
    if outcome.chars().count() > MAX_OUTCOME {
        return Err(ReportError::Refused(
            "A resposta passou de 4.000 caracteres: resuma.",
        ));
    }
    let row = state.store.report(id).await?.ok_or(ReportError::NotFound)?;
    let now = state.clock.now();
    let to_mail = |to: &str| {
        mail(
            state,
            to,
            id,
            format!("Resposta à denúncia {}", row.number),
            &format!(
                "A Ouvidoria Municipal respondeu à sua denúncia, protocolo {}:\n\n{outcome}",
                row.number
            ),
        )
    };
    match state
        .store
        .close_report(id, outcome, actor, now, to_mail)
        .await
    {
        Ok(()) => {
            state.mail_wake.notify_one();
            Ok(())
        }
        Err(StorageError::Conflict(REPORT_CLOSED)) => Err(ReportError::Refused(
            "Esta denúncia já foi respondida e encerrada.",
        )),
        Err(StorageError::NotFound) => Err(ReportError::NotFound),
        Err(e) => Err(e.into()),
    }
}

/// Deletes the reports closed longer ago than the retention; answers how many.
pub async fn purge(state: &AppState) -> Result<u64, StorageError> {
    let days = state.settings.limits.report_retention_days;
    let before = state.clock.now() - chrono::Duration::days(days);
    let n = state.store.purge_reports(before).await?;
    if n > 0 {
        tracing::info!(
            deleted = n,
            "closed passenger reports past their retention deleted"
        );
    }
    Ok(n)
}

/// Runs [`purge`] now and every hour for as long as the process runs.
pub fn spawn_purge(state: AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_hours(1));
        loop {
            tick.tick().await;
            if let Err(e) = purge(&state).await {
                tracing::error!(error = %e, "passenger reports not purged; tried again in an hour");
            }
        }
    });
}
