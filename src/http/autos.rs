//! Autos de infração of the ride-hailing law (arts. 22–27) and the UPF value table (W3).
//! Sanctions a decision may impose are *proposed* here; they are recorded on the
//! authorization only once the decision is final (AMB-29), through `…/sanctions`.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::documents::format;
use crate::domain::charter::sanctions::ProcedureState;
use crate::domain::charter::sanctions::{Outcome, ProcedureAct, check_act_order};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::sanctions::{
    AutoDeadlines, Consequence, InfractionType, PriorInfraction, auto_deadlines, consequences,
    infraction,
};
use crate::state::AppState;
use crate::storage::{AutoNotification, DocumentKind, Repository, RideHailingAuto, StorageError};
use crate::{issuance, standing};

/// Number series of ride-hailing autos: `AI-APP-2026/000001`.
pub const AUTO_SERIES: &str = "AI-APP";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct UpfDto {
    centavos: i64,
    act: String,
}

/// `PUT /api/v1/upf-values/{year}`: the UPF value of a year, from the annual decree.
#[utoipa::path(put, path = "/api/v1/upf-values/{year}", tag = "ride-hailing infractions", security(("bearer" = [])),
    params(("year" = i32, Path, description = "O ano")),
    responses((status = 201, description = "Valor registrado", body = UpfView)))]
pub async fn set_upf(
    state: web::Data<AppState>,
    official: Official,
    year: web::Path<i32>,
    body: web::Json<UpfDto>,
) -> Result<HttpResponse, ApiError> {
    let mut f = Fields::default();
    let year = f.range("year", *year, 2000, 2100);
    let act = f.text("act", &body.act, 200);
    if body.centavos <= 0 {
        f.take::<(), ()>(
            "centavos",
            Err(()),
            "Informe o valor da UPF em centavos, maior que zero.",
        );
    }
    let (year, act) = f.done(parsed!(year, act))?;
    match state
        .store
        .set_upf_value(
            year,
            body.centavos,
            &act,
            &official.actor,
            state.clock.now(),
        )
        .await
    {
        Ok(()) => Ok(HttpResponse::Created().json(UpfView {
            year,
            centavos: body.centavos,
            value: format::money(body.centavos),
            act,
        })),
        Err(StorageError::Conflict(_)) => Err(ApiError::Conflict(
            format!("O valor da UPF de {year} já está registrado."),
            vec![],
        )),
        Err(e) => Err(e.into()),
    }
}

/// The UPF value of a year (W3), from the annual decree.
#[derive(Serialize, utoipa::ToSchema)]
pub struct UpfView {
    year: i32,
    centavos: i64,
    /// O valor em reais (R$ 1.234,56).
    value: String,
    /// O ato (decreto) que fixou o valor.
    act: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct AutoDto {
    infraction_id: String,
    driver_id: String,
    authorization_id: Option<String>,
    committed_at: String,
    place: String,
    facts: String,
    inspector: String,
}

/// A consequence an auto proposes (a fine now; suspension, cassação or the platform notice
/// only once the decision is final, AMB-29).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proposal {
    Fine {
        upf: u32,
        centavos: Option<i64>,
        value: Option<String>,
        article: &'static str,
    },
    Suspension {
        days: i64,
        article: &'static str,
    },
    Cassacao {
        article: &'static str,
    },
    PlatformNotice {
        article: &'static str,
    },
}

fn proposal(c: &Consequence) -> Proposal {
    match c {
        Consequence::Fine {
            upf,
            centavos,
            article,
        } => Proposal::Fine {
            upf: *upf,
            centavos: *centavos,
            value: centavos.map(format::money),
            article,
        },
        Consequence::Suspension {
            from,
            until,
            article,
        } => Proposal::Suspension {
            days: (*until - *from).num_days(),
            article,
        },
        Consequence::Cassacao { article, .. } => Proposal::Cassacao { article },
        Consequence::PlatformNotice { article } => Proposal::PlatformNotice { article },
    }
}

/// An auto de infração of the ride-hailing law with its procedure and deadlines.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RideHailingAutoView {
    id: Uuid,
    number: String,
    infraction: Option<&'static InfractionType>,
    driver_id: Uuid,
    authorization_id: Option<Uuid>,
    committed_at: DateTime<Utc>,
    committed_on: NaiveDate,
    place: String,
    facts: String,
    inspector: String,
    drawn_up_at: DateTime<Utc>,
    fine: FineView,
    /// As consequências calculadas na lavratura.
    #[schema(value_type = Vec<Proposal>)]
    proposed_consequences: serde_json::Value,
    note: &'static str,
    legal_basis_version: String,
    notification: Option<AutoNotification>,
    deadlines: Option<AutoDeadlines>,
    procedure: ProcedureState,
    annulled: bool,
    /// AMB-29: recalculadas a partir dos autos do condutor cuja penalidade subsiste.
    current_consequences: Option<Vec<Proposal>>,
}

/// The fine of an auto, in UPFG and, when the year's UPF value is known, in reais.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FineView {
    upf: i64,
    centavos: Option<i64>,
    value: Option<String>,
    value_in_words: Option<String>,
}

async fn auto_json(state: &AppState, a: &RideHailingAuto) -> Result<RideHailingAutoView, ApiError> {
    let acts = standing::ride_hailing::acts_of(state, a.id).await?;
    let cal = state.calendar().await?;
    let procedure = standing::ride_hailing::state_of(
        a,
        &acts,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis,
    );
    let current = standing::ride_hailing::current_consequences(state, a, procedure.annulled)
        .await?
        .map(|c| c.iter().map(proposal).collect::<Vec<_>>());
    let deadlines = match &a.notification {
        Some(n) => {
            let cal = state.calendar().await?;
            Some(auto_deadlines(
                local_date(a.drawn_up_at),
                n.notified_on,
                n.juntada_on,
                &cal,
                &state.deadline_rules,
                &state.ride_hailing_basis,
            ))
        }
        None => None,
    };
    Ok(RideHailingAutoView {
        id: a.id,
        number: a.number.clone(),
        infraction: infraction(&a.infraction_id),
        driver_id: a.driver_id,
        authorization_id: a.authorization_id,
        committed_at: a.committed_at,
        committed_on: a.committed_on,
        place: a.place.clone(),
        facts: a.facts.clone(),
        inspector: a.inspector.clone(),
        drawn_up_at: a.drawn_up_at,
        fine: FineView {
            upf: a.fine_upf,
            centavos: a.fine_centavos,
            value: a.fine_centavos.map(format::money),
            value_in_words: a.fine_centavos.map(format::money_in_words),
        },
        proposed_consequences: a.consequences.clone(),
        note: "Sanções além da multa só se aplicam após decisão definitiva (AMB-29).",
        legal_basis_version: a.legal_basis_version.clone(),
        notification: a.notification.clone(),
        deadlines,
        annulled: procedure.annulled,
        procedure,
        current_consequences: current,
    })
}

/// `POST /api/v1/app-infraction-autos/{id}/acts` (APP-ART22, AMB-34): defence, decision,
/// reconsideration and its decision, in order; annulling re-computes recidivism (AMB-29).
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/acts", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "Ato registrado; o auto com o procedimento", body = RideHailingAutoView)))]
pub async fn act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ProcedureAct>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let auto = state
        .store
        .get_auto(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Auto de infração não encontrado.".into()))?;
    let act = body.into_inner();
    let today = local_date(state.clock.now());
    let acts = standing::ride_hailing::acts_of(&state, id).await?;
    let cal = state.calendar().await?;
    let p = standing::ride_hailing::state_of(
        &auto,
        &acts,
        today,
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis,
    );
    let order = if matches!(act, ProcedureAct::Notificacao { .. }) {
        Err("A notificação deste auto é registrada em /notification (art. 22, §§1º–2º).")
    } else {
        check_act_order(&p, &act, auto.committed_on, today)
    };
    if let Err(message) = order {
        return Err(ApiError::Conflict(
            "Ato fora da ordem do procedimento.".into(),
            vec![ProblemItem::field("act", message)],
        ));
    }
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
    let mut events = vec![crate::storage::charter::NewEvent::act(
        standing::ride_hailing::ENTITY,
        id,
        RideHailingAct::ProcedureAct.as_str(),
        &official.actor,
        state.ride_hailing_basis.version,
        state.clock.now(),
        serde_json::to_value(&act).map_err(|_| ApiError::Internal)?,
    )];
    if annuls {
        events.push(issuance::ride_hailing::procedure::annulment_event(
            &state,
            &auto,
            &official.actor,
        ));
    }
    state.store.append_events(events).await?;
    Ok(HttpResponse::Ok().json(auto_json(&state, &auto).await?))
}

/// `POST /api/v1/app-infraction-autos/{id}/notice` (APP-ART19, APP-ART22): the signed
/// Notificação de Penalidade, two copies (case file and driver), deadlines dated.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/notice", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Notificação de Penalidade emitida", body = NoticeIssued)))]
pub async fn notice(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let auto = state
        .store
        .get_auto(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Auto de infração não encontrado.".into()))?;
    let driver = state
        .store
        .get_driver(auto.driver_id)
        .await?
        .ok_or(ApiError::Internal)?;
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
    let acts = standing::ride_hailing::acts_of(&state, id).await?;
    let cal = state.calendar().await?;
    let p = standing::ride_hailing::state_of(
        &auto,
        &acts,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis,
    );
    match issuance::ride_hailing::procedure::issue_notice(
        &state,
        &auto,
        &driver.name,
        &driver.cpf.masked(),
        plate,
        &p,
        &official.actor,
    )
    .await
    {
        Ok(doc) => Ok(HttpResponse::Created().json(NoticeIssued {
            id: doc.id,
            kind: doc.kind,
            number: doc.number.clone(),
            verification_code: doc.verification_code.clone(),
            verification_url: issuance::verification_url(&state.letterhead.public_url, &doc.token),
            sha256: doc.sha256.clone(),
            pdf: format!("/api/v1/charter/documents/{}", doc.id),
        })),
        Err(e) => Err(e.into()),
    }
}

/// A Notificação de Penalidade just issued.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NoticeIssued {
    id: Uuid,
    kind: DocumentKind,
    number: String,
    verification_code: String,
    verification_url: String,
    sha256: String,
    /// Onde baixar o PDF.
    pdf: String,
}

/// The driver must exist, and the authorization, if given, must be the driver's.
async fn check_parties(
    state: &AppState,
    driver_id: Uuid,
    authorization_id: Option<Uuid>,
) -> Result<(), ApiError> {
    if state.store.get_driver(driver_id).await?.is_none() {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "driver_id",
            "Condutor não cadastrado.",
        )]));
    }
    if let Some(a) = authorization_id
        && state
            .store
            .get_authorization(a)
            .await?
            .is_none_or(|x| x.driver_id != driver_id)
    {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "authorization_id",
            "Autorização inexistente ou de outro condutor.",
        )]));
    }
    Ok(())
}

/// `POST /api/v1/app-infraction-autos`: draws up an auto and computes its consequences.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos", tag = "ride-hailing infractions", security(("bearer" = [])),
    responses((status = 201, description = "Auto lavrado", body = RideHailingAutoView)))]
pub async fn create(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<AutoDto>,
) -> Result<HttpResponse, ApiError> {
    let mut f = Fields::default();
    let kind = f.take(
        "infraction_id",
        infraction(&body.infraction_id).ok_or(()),
        "Infração desconhecida; veja /api/v1/app-infractions.",
    );
    let driver_id = f.uuid("driver_id", &body.driver_id);
    let authorization_id = match &body.authorization_id {
        Some(a) => f.uuid("authorization_id", a).map(Some),
        None => Some(None),
    };
    let committed_at = f.take(
        "committed_at",
        DateTime::parse_from_rfc3339(body.committed_at.trim()).map(|t| t.to_utc()),
        "Data e hora inválidas; use RFC 3339, ex. 2026-11-30T14:05:00-04:00.",
    );
    let place = f.text("place", &body.place, 300);
    let facts = f.text("facts", &body.facts, 4000);
    let inspector = f.text("inspector", &body.inspector, 200);
    let (kind, driver_id, authorization_id, committed_at, place, facts, inspector) =
        f.done(parsed!(
            kind,
            driver_id,
            authorization_id,
            committed_at,
            place,
            facts,
            inspector
        ))?;
    let now = state.clock.now();
    if committed_at > now {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "committed_at",
            "A infração não pode ser posterior à lavratura do auto.",
        )]));
    }
    check_parties(&state, driver_id, authorization_id).await?;
    let committed_on = local_date(committed_at);
    let today = local_date(now);
    let prior: Vec<PriorInfraction> = state
        .store
        .prior_autos(driver_id)
        .await?
        .into_iter()
        .map(|(id, committed_on)| PriorInfraction {
            id,
            committed_on,
            annulled: false,
        })
        .collect();
    // AMB-03: the UPF value in force on the date the auto is drawn up.
    let upf = state.store.upf_value(today.year()).await?;
    let cons = consequences(
        kind,
        committed_on,
        today,
        &prior,
        upf,
        &state.ride_hailing_basis,
    );
    let (fine_upf, fine_centavos) = match cons.first() {
        Some(Consequence::Fine { upf, centavos, .. }) => (i64::from(*upf), *centavos),
        _ => return Err(ApiError::Internal),
    };
    let mut auto = RideHailingAuto {
        id: Uuid::new_v4(),
        number: String::new(),
        infraction_id: kind.id.to_owned(),
        driver_id,
        authorization_id,
        committed_at,
        committed_on,
        place,
        facts,
        inspector,
        drawn_up_at: now,
        fine_upf,
        fine_centavos,
        consequences: serde_json::to_value(cons.iter().map(proposal).collect::<Vec<_>>())
            .map_err(|_| ApiError::Internal)?,
        legal_basis_version: state.ride_hailing_basis.version.to_owned(),
        notification: None,
    };
    auto.number = state
        .store
        .insert_auto(&auto, AUTO_SERIES, &official.actor)
        .await?;
    Ok(HttpResponse::Created().json(auto_json(&state, &auto).await?))
}

fn parse_auto_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound("Auto de infração não encontrado.".into()))
}

/// An auto with its procedure, deadlines and consequences now.
#[utoipa::path(get, path = "/api/v1/app-infraction-autos/{id}", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O auto", body = RideHailingAutoView)))]
pub async fn get(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let auto = state
        .store
        .get_auto(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Auto de infração não encontrado.".into()))?;
    Ok(HttpResponse::Ok().json(auto_json(&state, &auto).await?))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NotificationDto {
    method: String,
    notified_on: String,
    juntada_on: String,
}

/// `POST /api/v1/app-infraction-autos/{id}/notification`: art. 22 §§1º–2º.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/notification", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Notificação registrada", body = RideHailingAutoView)))]
pub async fn notify(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NotificationDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let mut f = Fields::default();
    let method = f.take(
        "method",
        ["post", "electronic", "edital"]
            .contains(&body.method.as_str())
            .then(|| body.method.clone())
            .ok_or(()),
        "Use post (AR), electronic ou edital (art. 22, §1º).",
    );
    let notified_on = f.date("notified_on", &body.notified_on);
    let juntada_on = f.date("juntada_on", &body.juntada_on);
    if let (Some(n), Some(j)) = (notified_on, juntada_on)
        && j < n
    {
        f.take::<(), ()>(
            "juntada_on",
            Err(()),
            "A juntada não pode ser anterior à notificação.",
        );
    }
    let (method, notified_on, juntada_on) = f.done(parsed!(method, notified_on, juntada_on))?;
    let n = AutoNotification {
        method,
        notified_on,
        juntada_on,
    };
    match state
        .store
        .record_notification(id, &n, &official.actor, state.clock.now())
        .await
    {
        Ok(true) => {
            let auto = state.store.get_auto(id).await?.ok_or(ApiError::Internal)?;
            Ok(HttpResponse::Created().json(auto_json(&state, &auto).await?))
        }
        Ok(false) => Err(ApiError::NotFound(
            "Auto de infração não encontrado.".into(),
        )),
        Err(StorageError::Conflict(_)) => Err(ApiError::Conflict(
            "A notificação deste auto já foi registrada.".into(),
            vec![],
        )),
        Err(e) => Err(e.into()),
    }
}
