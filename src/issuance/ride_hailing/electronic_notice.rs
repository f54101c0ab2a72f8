//! An auto notified electronically (art. 22, §1º: by post with proof of delivery,
//! electronically, or by edital; the post stays the default). Where the auto's legal basis
//! allows it, an official sends the notification to every applicant who follows the driver at
//! `/servicos`: the e-mail says only that there is one; the applicant reads the auto there, and
//! the first opening is recorded with its instant — the proof of delivery the official files
//! when recording the notification (art. 22, §2º: the periods count from that juntada), after
//! which the signed Notificação de Penalidade, its deadlines dated, is on the same page.
//! Nothing is notified by the sending alone.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::documents::format;
use crate::domain::ride_hailing::infractions::InfractionType;
use crate::issuance::UseCaseError;
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::applicant_links::LinkedEntity;
use crate::storage::applicants::Applicant;
use crate::storage::documents::Document;
use crate::storage::outbox::OutgoingMail;
use crate::storage::ride_hailing::electronic_notices::{ALREADY_SENT, ElectronicNoticeRow};
use crate::storage::{DocumentKind, RideHailingAuto};

/// What the sending did.
pub struct Sent {
    pub sent_at: DateTime<Utc>,
    pub recipients: usize,
    /// The provision that allows it, as the basis cites it.
    pub citation: String,
}

fn refused(detail: &str) -> UseCaseError {
    UseCaseError::Conflict {
        detail: detail.to_owned(),
        field: None,
    }
}

/// Sends the notice of penalty of auto `id` electronically to the driver's followers.
pub async fn send(state: &AppState, actor: &str, id: Uuid) -> Result<Sent, UseCaseError> {
    let auto = state
        .store
        .get_auto(id)
        .await?
        .ok_or(UseCaseError::NotFound("Auto de infração não encontrado."))?;
    let basis = state.ride_hailing_basis_of(&auto.legal_basis_version);
    // APP-ART22-P1: only where the basis of the auto allows the electronic means.
    let Some(citation) = basis.electronic_notice_citation.clone() else {
        return Err(refused(
            "A base legal deste auto não prevê a notificação por meio eletrônico: notifique \
             por via postal com aviso de recebimento ou por edital.",
        ));
    };
    if auto.notification.is_some() {
        return Err(refused("A notificação deste auto já foi registrada."));
    }
    let followers = state
        .store
        .followers_of(LinkedEntity::Driver(auto.driver_id))
        .await?;
    if followers.is_empty() {
        return Err(refused(
            "O condutor não acompanha o cadastro pelos serviços na internet, então não há a quem \
             enviar: notifique por via postal com aviso de recebimento ou por edital.",
        ));
    }
    let now = state.clock.now();
    let base = state.letterhead.public_url.trim_end_matches('/');
    let city = &state.letterhead.profile.prefeitura.name;
    let law = state
        .letterhead
        .profile
        .law(&auto.legal_basis_version)
        .map_or_else(|| basis.citation.clone(), |l| l.number.clone());
    let to: Vec<(Uuid, OutgoingMail)> = followers
        .into_iter()
        .map(|(applicant, email)| {
            (
                applicant,
                OutgoingMail {
                    recipient: email,
                    subject: format!("Notificação: auto de infração {}", auto.number),
                    body: format!(
                        "Olá,\n\nA Prefeitura notifica, por meio eletrônico ({citation}, {law}), \
                         o auto de infração {number}, lavrado em {drawn}.\n\n\
                         Para lê-lo, entre nos serviços pela internet e abra \
                         \"Notificações\":\n{base}/servicos/notificacoes\n\n\
                         A abertura fica registrada e serve de comprovante de recebimento; os \
                         prazos de defesa e de pagamento contam da juntada desse comprovante ao \
                         processo.\n\n{city}\n",
                        number = auto.number,
                        drawn = format::date(crate::domain::dates::local_date(auto.drawn_up_at)),
                    ),
                    topic: "electronic_notice",
                    entity: Some(("app_infraction_auto", id.to_string())),
                },
            )
        })
        .collect();
    let recipients = to.len();
    state
        .store
        .send_electronic_notice(id, &to, actor, now)
        .await
        .map_err(|e| match e {
            StorageError::Conflict(ALREADY_SENT) => {
                refused("A notificação deste auto já foi enviada por meio eletrônico.")
            }
            e => e.into(),
        })?;
    state.mail_wake.notify_one();
    tracing::info!(auto = %id, recipients, "notice of penalty sent electronically");
    Ok(Sent {
        sent_at: now,
        recipients,
        citation,
    })
}

/// An electronic notice as its applicant sees it.
pub struct NoticeLine {
    pub row: ElectronicNoticeRow,
    pub auto_number: String,
}

/// The notices sent to `applicant`, the latest first.
pub async fn of_applicant(
    state: &AppState,
    applicant: &Applicant,
) -> Result<Vec<NoticeLine>, UseCaseError> {
    let mut out = Vec::new();
    for row in state
        .store
        .electronic_notices_of_applicant(applicant.id)
        .await?
    {
        let auto_id = crate::storage::parse_uuid(&row.auto_id)?;
        let number = state
            .store
            .get_auto(auto_id)
            .await?
            .map(|a| a.number)
            .unwrap_or_default();
        out.push(NoticeLine {
            row,
            auto_number: number,
        });
    }
    Ok(out)
}

/// An auto as its notified applicant reads it.
pub struct OpenedNotice {
    pub row: ElectronicNoticeRow,
    pub auto: RideHailingAuto,
    /// The infraction of the catalogue of the auto's basis.
    pub infraction: Option<InfractionType>,
    /// The provision that allows the electronic means, and the defence period in days.
    pub citation: String,
    pub defence_days: u32,
    /// The signed Notificação de Penalidade, once issued (after the notification is recorded).
    pub documents: Vec<Document>,
}

/// Opens notice `id` for `applicant` (the first opening is recorded); `None` when it is not
/// the applicant's.
pub async fn open(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
) -> Result<Option<OpenedNotice>, UseCaseError> {
    let Some(row) = state
        .store
        .open_electronic_notice(id, applicant.id, state.clock.now())
        .await?
    else {
        return Ok(None);
    };
    let auto_id = crate::storage::parse_uuid(&row.auto_id)?;
    let auto = state
        .store
        .get_auto(auto_id)
        .await?
        .ok_or(UseCaseError::Internal(
            "an electronic notice whose auto is gone",
        ))?;
    let basis = state.ride_hailing_basis_of(&auto.legal_basis_version);
    let documents = state
        .store
        .documents_of_subject(auto_id)
        .await?
        .into_iter()
        .filter(|d| d.kind == DocumentKind::RideHailingAuto)
        .collect();
    Ok(Some(OpenedNotice {
        row,
        infraction: basis.infraction(&auto.infraction_id).cloned(),
        citation: basis.electronic_notice_citation.clone().unwrap_or_default(),
        defence_days: basis.defence_days,
        auto,
        documents,
    }))
}
