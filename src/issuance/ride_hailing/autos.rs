//! Use cases of the autos de infração of the ride-hailing law (arts. 19–27): the UPF value of a
//! year (W3), drawing up an auto with its consequences, the acts of its procedure, its
//! notification and its signed Notificação de Penalidade. Sanctions beyond the fine are only
//! proposed here; they are recorded on the authorization once the decision is final (AMB-29).

use chrono::{DateTime, Datelike, Utc};
use serde::Serialize;
use uuid::Uuid;

use crate::documents::format;
use crate::domain::charter::sanctions::{Outcome, ProcedureAct, ProcedureState, act_floor};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::sanctions::{
    Consequence, InfractionType, PriorInfraction, consequences,
};
use crate::issuance::UseCaseError;
use crate::standing;
use crate::state::AppState;
use crate::storage::charter::NewEvent;
use crate::storage::documents::Document;
use crate::storage::{AutoNotification, RideHailingAuto, StorageError};

/// Number series of ride-hailing autos: `AI-APP-2026/000001`.
pub const AUTO_SERIES: &str = "AI-APP";

const NO_AUTO: &str = "Auto de infração não encontrado.";

/// A consequence an auto proposes (a fine now; suspension, cassação or the platform notice
/// only once the decision is final, AMB-29), as stored with the auto and shown.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proposal {
    Fine {
        upf: u32,
        centavos: Option<i64>,
        value: Option<String>,
        article: String,
    },
    Suspension {
        days: i64,
        article: String,
    },
    Cassacao {
        article: String,
    },
    PlatformNotice {
        article: String,
    },
}

impl From<&Consequence> for Proposal {
    fn from(c: &Consequence) -> Self {
        match c {
            Consequence::Fine {
                upf,
                centavos,
                article,
            } => Self::Fine {
                upf: *upf,
                centavos: *centavos,
                value: centavos.map(format::money),
                article: article.clone(),
            },
            Consequence::Suspension {
                from,
                until,
                article,
            } => Self::Suspension {
                days: (*until - *from).num_days(),
                article: article.clone(),
            },
            Consequence::Cassacao { article, .. } => Self::Cassacao {
                article: article.clone(),
            },
            Consequence::PlatformNotice { article } => Self::PlatformNotice {
                article: article.clone(),
            },
        }
    }
}

/// Records the UPF value of a year, from its annual decree (W3); once per year.
pub async fn set_upf_value(
    state: &AppState,
    actor: &str,
    year: i32,
    centavos: i64,
    act: &str,
) -> Result<(), UseCaseError> {
    match state
        .store
        .set_upf_value(year, centavos, act, actor, state.clock.now())
        .await
    {
        Ok(()) => Ok(()),
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Conflict {
            detail: format!("O valor da UPF de {year} já está registrado."),
            field: None,
        }),
        Err(e) => Err(e.into()),
    }
}

/// An auto to draw up, parsed.
pub struct NewAuto {
    pub infraction: InfractionType,
    pub driver_id: Uuid,
    pub authorization_id: Option<Uuid>,
    pub committed_at: DateTime<Utc>,
    /// When the inspector drew it up, if before it was entered; `None`: now.
    pub drawn_up_at: Option<DateTime<Utc>>,
    pub place: String,
    pub facts: String,
    pub inspector: String,
}

/// The driver must exist, and the authorization, if given, must be the driver's.
async fn check_parties(
    state: &AppState,
    driver_id: Uuid,
    authorization_id: Option<Uuid>,
) -> Result<(), UseCaseError> {
    if state.store.get_driver(driver_id).await?.is_none() {
        return Err(UseCaseError::UnknownReference {
            field: "driver_id",
            message: "Condutor não cadastrado.",
        });
    }
    if let Some(a) = authorization_id
        && state
            .store
            .get_authorization(a)
            .await?
            .is_none_or(|x| x.driver_id != driver_id)
    {
        return Err(UseCaseError::UnknownReference {
            field: "authorization_id",
            message: "Autorização inexistente ou de outro condutor.",
        });
    }
    Ok(())
}

/// What drawing up an auto decides before it is written: when it was drawn up, the day of
/// the infraction, the fine (UPFG, and centavos when the year's UPF value is known) and every
/// consequence proposed.
pub struct Assessed {
    pub drawn_up_at: DateTime<Utc>,
    pub committed_on: chrono::NaiveDate,
    pub fine_upf: i64,
    pub fine_centavos: Option<i64>,
    pub proposals: Vec<Proposal>,
}

/// The auto `new` judged as it would be drawn up now, writing nothing (arts. 25–27; AMB-03:
/// the fine in reais uses the UPF value in force on the day it is drawn up).
pub async fn assess(state: &AppState, new: &NewAuto) -> Result<Assessed, UseCaseError> {
    let now = state.clock.now();
    // "Lavrado em" is the instant the inspector drew the auto up, which may come
    // before it is entered here, never after, and never before the infraction.
    let drawn_up_at = new.drawn_up_at.unwrap_or(now);
    if drawn_up_at > now {
        return Err(UseCaseError::Inconsistent {
            field: "drawn_up_at",
            message: "O auto não pode ter sido lavrado no futuro.",
        });
    }
    if new.committed_at > drawn_up_at {
        return Err(UseCaseError::Inconsistent {
            field: "committed_at",
            message: "A infração não pode ser posterior à lavratura do auto.",
        });
    }
    check_parties(state, new.driver_id, new.authorization_id).await?;
    // Art. 27 only without a valid authorization, art. 26 only with one.
    let held = crate::domain::ride_hailing::sanctions::held_at(
        &state
            .store
            .driver_authorization_facts(new.driver_id)
            .await?,
        new.committed_at,
    );
    if let Some(failure) = crate::domain::ride_hailing::sanctions::precondition(
        &new.infraction,
        held,
        local_date(new.committed_at),
    ) {
        return Err(UseCaseError::Rules(vec![failure]));
    }
    let committed_on = local_date(new.committed_at);
    let today = local_date(now);
    let prior: Vec<PriorInfraction> = state
        .store
        .prior_autos(new.driver_id)
        .await?
        .into_iter()
        .map(|(id, committed_on)| PriorInfraction {
            id,
            committed_on,
            annulled: false,
        })
        .collect();
    // AMB-03: the UPF value in force on the day the auto was drawn up.
    let upf = state
        .store
        .upf_value(local_date(drawn_up_at).year())
        .await?;
    let cons = consequences(
        &new.infraction,
        committed_on,
        today,
        &prior,
        upf,
        &state.ride_hailing_basis(),
    );
    let Some(Consequence::Fine { upf, centavos, .. }) = cons.first() else {
        return Err(UseCaseError::Internal("an auto without its fine"));
    };
    Ok(Assessed {
        drawn_up_at,
        committed_on,
        fine_upf: i64::from(*upf),
        fine_centavos: *centavos,
        proposals: cons.iter().map(Proposal::from).collect(),
    })
}

/// Draws up an auto and computes its consequences from the driver's earlier autos (art. 25;
/// AMB-03: the fine in reais uses the UPF value in force on the day it is drawn up).
pub async fn draw_up(
    state: &AppState,
    actor: &str,
    new: NewAuto,
) -> Result<RideHailingAuto, UseCaseError> {
    let a = assess(state, &new).await?;
    let mut auto = RideHailingAuto {
        id: Uuid::new_v4(),
        number: String::new(),
        infraction_id: new.infraction.id.clone(),
        driver_id: new.driver_id,
        authorization_id: new.authorization_id,
        committed_at: new.committed_at,
        committed_on: a.committed_on,
        place: new.place,
        facts: new.facts,
        inspector: new.inspector,
        drawn_up_at: a.drawn_up_at,
        fine_upf: a.fine_upf,
        fine_centavos: a.fine_centavos,
        consequences: serde_json::to_value(a.proposals).map_err(|_| UseCaseError::Encoding)?,
        legal_basis_version: state.ride_hailing_basis().version.clone(),
        notification: None,
    };
    auto.number = state.store.insert_auto(&auto, AUTO_SERIES, actor).await?;
    Ok(auto)
}

async fn auto(state: &AppState, id: Uuid) -> Result<RideHailingAuto, UseCaseError> {
    state
        .store
        .get_auto(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTO))
}

/// Whether `act` may be recorded on auto `id` now (APP-ART22, AMB-34): the auto and its
/// acts so far, or why not.
async fn checked_act(
    state: &AppState,
    id: Uuid,
    act: &ProcedureAct,
) -> Result<(RideHailingAuto, Vec<ProcedureAct>), UseCaseError> {
    let auto = auto(state, id).await?;
    if matches!(act, ProcedureAct::Notificacao { .. }) {
        return Err(UseCaseError::Conflict {
            detail: "Ato fora da ordem do procedimento.".into(),
            field: Some((
                "act",
                "A notificação deste auto é registrada em /notification (art. 22, §§1º–2º)."
                    .to_owned(),
            )),
        });
    }
    let acts = standing::ride_hailing::acts_of(state, id).await?;
    let cal = state.calendar().await?;
    // Acts follow the notice's delivery; the defence period counts from the juntada (DL-3).
    let start = auto
        .notification
        .as_ref()
        .map_or(auto.committed_on, |n| n.notified_on);
    crate::issuance::procedure::check_procedure_act(
        state,
        &crate::issuance::procedure::ProcedureCase {
            acts: &standing::ride_hailing::with_notification(&auto, &acts),
            start: auto.committed_on,
            floor: act_floor(&acts, start),
            fine_upf: auto.fine_upf,
            drawn_up_on: local_date(auto.drawn_up_at),
            days: state.ride_hailing_basis().as_ref().into(),
        },
        act,
        &cal,
    )
    .await?;
    Ok((auto, acts))
}

/// What recording an act or the notification on auto `id` would do, writing nothing:
/// the procedure as it would stand today after it (APP-ART22), or why it cannot be recorded.
pub async fn check_act(
    state: &AppState,
    id: Uuid,
    act: Option<&ProcedureAct>,
    notification: Option<&AutoNotification>,
) -> Result<ProcedureState, UseCaseError> {
    let today = local_date(state.clock.now());
    let (auto, acts) = match (act, notification) {
        (Some(act), _) => {
            let (auto, mut acts) = checked_act(state, id, act).await?;
            acts.push(act.clone());
            (auto, acts)
        }
        (None, Some(n)) => {
            let mut drawn = auto(state, id).await?;
            if drawn.notification.is_some() {
                return Err(UseCaseError::Conflict {
                    detail: "A notificação deste auto já foi registrada.".into(),
                    field: None,
                });
            }
            notice_dates(&drawn, n, today)?;
            drawn.notification = Some(n.clone());
            let acts = standing::ride_hailing::acts_of(state, id).await?;
            (drawn, acts)
        }
        (None, None) => auto(state, id).await.map(|a| (a, Vec::new()))?,
    };
    let cal = state.calendar().await?;
    Ok(standing::ride_hailing::state_of(
        &auto,
        &acts,
        today,
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    ))
}

/// Records an act of the procedure (APP-ART22, AMB-34): defence, decision, reconsideration
/// and its decision, in order; annulling re-computes recidivism (AMB-29).
pub async fn procedure_act(
    state: &AppState,
    actor: &str,
    id: Uuid,
    act: &ProcedureAct,
) -> Result<RideHailingAuto, UseCaseError> {
    // Read first: whatever is recorded on the auto after this is caught at the commit.
    let head = state
        .store
        .entity_head(standing::ride_hailing::ENTITY, id)
        .await?;
    let (auto, _) = checked_act(state, id, act).await?;
    let annuls = matches!(
        act,
        ProcedureAct::Decisao {
            outcome: Outcome::Anulado,
            ..
        } | ProcedureAct::DecisaoPrefeito {
            outcome: Outcome::Anulado,
            ..
        }
    );
    let mut events = vec![NewEvent::act(
        standing::ride_hailing::ENTITY,
        id,
        RideHailingAct::ProcedureAct.as_str(),
        actor,
        &state.ride_hailing_basis().version,
        state.clock.now(),
        serde_json::to_value(act).map_err(|_| UseCaseError::Encoding)?,
    )];
    if annuls {
        events.push(super::procedure::annulment_event(state, &auto, actor));
    }
    crate::issuance::procedure::commit_act(state, head, events).await?;
    Ok(auto)
}

/// Art. 22, §§1º–2º: the notice's dates follow the auto and are not future.
fn notice_dates(
    drawn: &RideHailingAuto,
    n: &AutoNotification,
    today: chrono::NaiveDate,
) -> Result<(), UseCaseError> {
    crate::domain::ride_hailing::sanctions::app_art22_notice_dates(
        local_date(drawn.drawn_up_at),
        n.notified_on,
        n.juntada_on,
        today,
    )
    .map_err(|(field, message)| UseCaseError::Inconsistent { field, message })
}

/// Records how and when the notice reached the infractor and when it was filed (art. 22,
/// §§1º–2º), once.
pub async fn record_notification(
    state: &AppState,
    actor: &str,
    id: Uuid,
    n: &AutoNotification,
) -> Result<RideHailingAuto, UseCaseError> {
    let drawn = auto(state, id).await?;
    notice_dates(&drawn, n, local_date(state.clock.now()))?;
    match state
        .store
        .record_notification(id, n, actor, state.clock.now())
        .await
    {
        Ok(true) => auto(state, id).await,
        Ok(false) => Err(UseCaseError::NotFound(NO_AUTO)),
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Conflict {
            detail: "A notificação deste auto já foi registrada.".into(),
            field: None,
        }),
        Err(e) => Err(e.into()),
    }
}

/// Replaces a notification entered wrongly with the right one (art. 22,
/// §§1º–2º), with the reason and the day of the rectification; the history keeps both. Only
/// while no act of the procedure follows it (those counted from the wrong dates: rectify
/// them first), and with the same date rules as the first.
pub async fn rectify_notification(
    state: &AppState,
    actor: &str,
    id: Uuid,
    n: &AutoNotification,
    reason: &str,
    rectified_on: chrono::NaiveDate,
) -> Result<RideHailingAuto, UseCaseError> {
    let head = state
        .store
        .entity_head(standing::ride_hailing::ENTITY, id)
        .await?;
    let drawn = auto(state, id).await?;
    let today = local_date(state.clock.now());
    let Some(current) = &drawn.notification else {
        return Err(UseCaseError::Conflict {
            detail: "Ato fora da ordem do procedimento.".into(),
            field: Some((
                "act",
                "Este auto ainda não tem notificação registrada: registre-a em /notification."
                    .to_owned(),
            )),
        });
    };
    if !standing::ride_hailing::acts_of(state, id).await?.is_empty() {
        return Err(UseCaseError::Conflict {
            detail: "Ato fora da ordem do procedimento.".into(),
            field: Some((
                "act",
                "Há atos do procedimento contados desta notificação; retifique-os antes."
                    .to_owned(),
            )),
        });
    }
    notice_dates(&drawn, n, today)?;
    if rectified_on > today || rectified_on < current.juntada_on.min(current.notified_on) {
        return Err(UseCaseError::Inconsistent {
            field: "rectified_on",
            message: "A retificação não pode ter data futura nem anterior à notificação que corrige.",
        });
    }
    let rectification = crate::storage::ride_hailing::notices::NotificationRectification {
        auto_id: id,
        notification: n,
        reason,
        rectified_on,
        actor,
        at: state.clock.now(),
        head,
    };
    match state.store.rectify_notification(&rectification).await {
        Ok(()) => auto(state, id).await,
        Err(StorageError::Conflict("concurrent")) => Err(UseCaseError::Concurrent(
            crate::issuance::procedure::CONCURRENT_ACT,
        )),
        Err(e) => Err(e.into()),
    }
}

/// Issues the signed Notificação de Penalidade (APP-ART19, APP-ART22): two copies, deadlines
/// dated.
pub async fn notice(state: &AppState, actor: &str, id: Uuid) -> Result<Document, UseCaseError> {
    let auto = auto(state, id).await?;
    let driver = state
        .store
        .get_driver(auto.driver_id)
        .await?
        .ok_or(UseCaseError::Internal("an auto whose driver is gone"))?;
    let plate = match auto.authorization_id {
        Some(a) => match state.store.get_authorization(a).await? {
            Some(a) => state
                .store
                .get_vehicle(a.vehicle_id)
                .await?
                .map(|v| (v.plate.as_str().to_owned(), v.plate.formatted())),
            None => None,
        },
        None => None,
    };
    let acts = standing::ride_hailing::acts_of(state, id).await?;
    let cal = state.calendar().await?;
    let p = standing::ride_hailing::state_of(
        &auto,
        &acts,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    );
    let infractor = super::procedure::Infractor {
        name: &driver.name,
        cpf_masked: &driver.cpf.masked(),
        plate,
    };
    super::procedure::issue_notice(state, &auto, &infractor, &p, actor).await
}
