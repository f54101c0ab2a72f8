//! Autos de infração of the ride-hailing law (arts. 22–27) and the UPF value table (W3).
//! Sanctions a decision may impose are *proposed* here; they are recorded on the
//! authorization only once the decision is final (AMB-29), through `…/sanctions`.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::ApiError;
use crate::documents::format;
use crate::domain::charter::sanctions::{ProcedureAct, ProcedureState};
use crate::domain::dates::local_date;
use crate::domain::fines::FineStanding;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::ride_hailing::sanctions::{AutoDeadlines, InfractionType, auto_deadlines};
use crate::issuance::ride_hailing::autos::{self, NewAuto, Proposal};
use crate::state::AppState;
use crate::storage::{AutoNotification, DocumentKind, RideHailingAuto};
use crate::{issuance, standing};

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
    let upf = UpfValue::try_from((body.into_inner(), *year))?;
    autos::set_upf_value(&state, &official.actor, upf.year, upf.centavos, &upf.act).await?;
    Ok(HttpResponse::Created().json(UpfView {
        year: upf.year,
        centavos: upf.centavos,
        value: format::money(upf.centavos),
        act: upf.act,
    }))
}

/// A year's UPF value and the act that fixed it, parsed.
pub struct UpfValue {
    year: i32,
    centavos: i64,
    act: String,
}

impl TryFrom<(UpfDto, i32)> for UpfValue {
    type Error = ApiError;

    fn try_from((dto, year): (UpfDto, i32)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let year = f.range("year", year, 2000, 2100);
        let act = f.text("act", &dto.act, 200);
        if dto.centavos <= 0 {
            f.take::<(), ()>(
                "centavos",
                Err(()),
                "Informe o valor da UPF em centavos, maior que zero.",
            );
        }
        let (year, act) = f.done(parsed!(year, act))?;
        Ok(Self {
            year,
            centavos: dto.centavos,
            act,
        })
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
    /// Quando a infração foi cometida (horário de Mato Grosso).
    #[schema(format = DateTime)]
    committed_at: String,
    place: String,
    facts: String,
    inspector: String,
    /// Quando o agente lavrou o auto (o "Lavrado em" do documento), se antes do
    /// registro no sistema; padrão: agora.
    #[serde(default)]
    #[schema(format = DateTime)]
    drawn_up_at: Option<String>,
}

/// An auto de infração of the ride-hailing law with its procedure and deadlines.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RideHailingAutoView {
    id: Uuid,
    number: String,
    infraction: Option<InfractionType>,
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
    /// A conta da multa: pagamentos, vencimento, vencida, dívida ativa.
    payment: FineStanding,
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
    let (procedure, payment) =
        standing::ride_hailing::fine_standing_of(state, a, local_date(state.clock.now())).await?;
    let current = standing::ride_hailing::current_consequences(state, a, procedure.annulled)
        .await?
        .map(|c| c.iter().map(Proposal::from).collect::<Vec<_>>());
    let deadlines = match &a.notification {
        Some(n) => {
            let cal = state.calendar().await?;
            Some(auto_deadlines(
                local_date(a.drawn_up_at),
                n.notified_on,
                n.juntada_on,
                &cal,
                &state.deadline_rules,
                &state.ride_hailing_basis(),
            ))
        }
        None => None,
    };
    Ok(RideHailingAutoView {
        id: a.id,
        number: a.number.clone(),
        infraction: state
            .ride_hailing_basis_of(&a.legal_basis_version)
            .infraction(&a.infraction_id)
            .cloned(),
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
        payment,
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
    let auto = autos::procedure_act(&state, &official.actor, id, &body.into_inner()).await?;
    Ok(HttpResponse::Ok().json(auto_json(&state, &auto).await?))
}

/// An act of the procedure, or the notification, to judge before it is recorded.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ActCheckDto {
    /// Um ato do procedimento, como em `…/acts`.
    #[serde(default)]
    act: Option<ProcedureAct>,
    /// A notificação, como em `…/notification`.
    #[serde(default)]
    notification: Option<NotificationDto>,
}

/// What recording an act would do.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ActCheckView {
    /// `true` quando o ato seria registrado como está.
    passes: bool,
    /// O procedimento como ficaria hoje depois do ato (quando seria registrado).
    procedure: Option<ProcedureState>,
    /// Por que o ato não seria registrado, com o campo.
    errors: Vec<super::problem::ProblemItem>,
}

/// `POST /api/v1/app-infraction-autos/{id}/act-checks` (APP-ART22): judges an act of the
/// procedure or the notification as it would be recorded now; writes nothing.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/act-checks", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O que o ato decidiria: o procedimento depois dele, ou por que não seria registrado", body = ActCheckView)))]
pub async fn check_act(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<ActCheckDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let dto = body.into_inner();
    let notification = dto
        .notification
        .map(AutoNotification::try_from)
        .transpose()?;
    if dto.act.is_none() && notification.is_none() {
        return Err(ApiError::Invalid(vec![super::problem::ProblemItem::field(
            "act",
            "Informe o ato (`act`) ou a notificação (`notification`) a conferir.",
        )]));
    }
    let judged = autos::check_act(&state, id, dto.act.as_ref(), notification.as_ref()).await;
    Ok(HttpResponse::Ok().json(act_check_view(judged)?))
}

/// A check's answer: the procedure after the act, or the act's refusal as an item; any
/// other error as it is.
pub(super) fn act_check_view(
    judged: Result<ProcedureState, issuance::UseCaseError>,
) -> Result<ActCheckView, ApiError> {
    Ok(match judged {
        Ok(procedure) => ActCheckView {
            passes: true,
            procedure: Some(procedure),
            errors: Vec::new(),
        },
        Err(e) => ActCheckView {
            passes: false,
            procedure: None,
            errors: vec![refusal_item(e)?],
        },
    })
}

/// The refusal of an act as the item a check answers; any other error as it is.
fn refusal_item(
    e: issuance::UseCaseError,
) -> Result<super::problem::ProblemItem, issuance::UseCaseError> {
    use super::problem::ProblemItem;
    match e {
        issuance::UseCaseError::Inconsistent { field, message }
        | issuance::UseCaseError::UnknownReference { field, message } => {
            Ok(ProblemItem::field(field, message))
        }
        issuance::UseCaseError::Conflict {
            field: Some((field, message)),
            ..
        } => Ok(ProblemItem::field(field, message)),
        issuance::UseCaseError::Conflict {
            field: None,
            detail,
        } => Ok(ProblemItem::field("act", detail)),
        other => Err(other),
    }
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
    match autos::notice(&state, &official.actor, id).await {
        Ok(doc) => Ok(HttpResponse::Created().json(NoticeIssued {
            id: doc.id,
            kind: doc.kind,
            number: doc.number.clone(),
            verification_code: doc.verification_code.clone(),
            verification_url: issuance::verification_url(&state.letterhead.public_url, &doc.token),
            sha256: doc.sha256.clone(),
            pdf: format!("/api/v1/charter/documents/{}", doc.id),
            profile_version: doc.profile_version.clone(),
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
    /// A versão do perfil do município sob a qual foi emitida.
    profile_version: Option<String>,
}

/// `POST /api/v1/app-infraction-autos`: draws up an auto and computes its consequences.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos", tag = "ride-hailing infractions", security(("bearer" = [])),
    responses((status = 201, description = "Auto lavrado", body = RideHailingAutoView)))]
pub async fn create(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<AutoDto>,
) -> Result<HttpResponse, ApiError> {
    let new = NewAuto::try_from((body.into_inner(), &*state.ride_hailing_basis()))?;
    let auto = autos::draw_up(&state, &official.actor, new).await?;
    Ok(HttpResponse::Created().json(auto_json(&state, &auto).await?))
}

/// What drawing up an auto would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AutoCheckView {
    /// `true` quando o auto seria lavrado como está.
    passes: bool,
    /// A multa em UPFG e, com o valor da UPF do ano, em centavos.
    fine_upf: Option<i64>,
    fine_centavos: Option<i64>,
    /// A multa em reais (R$ 1.234,56), quando o valor da UPF do ano é conhecido.
    fine_value: Option<String>,
    /// As consequências que o auto proporia, com a reincidência contada.
    proposed_consequences: Vec<Proposal>,
    /// Por que o auto não seria lavrado, com o campo.
    errors: Vec<super::problem::ProblemItem>,
}

/// `POST /api/v1/app-infraction-auto-checks` (APP-ART25, APP-ART26, APP-ART27): judges an
/// auto as it would be drawn up now — the fine and the consequences proposed, recidivism
/// counted — writing nothing.
#[utoipa::path(post, path = "/api/v1/app-infraction-auto-checks", tag = "ride-hailing infractions", security(("bearer" = [])),
    responses((status = 200, description = "O que a lavratura decidiria: a multa e as consequências, ou por que não seria lavrado", body = AutoCheckView)))]
pub async fn check(
    state: web::Data<AppState>,
    _official: Official,
    body: web::Json<AutoDto>,
) -> Result<HttpResponse, ApiError> {
    let new = NewAuto::try_from((body.into_inner(), &*state.ride_hailing_basis()))?;
    let view = match autos::assess(&state, &new).await {
        Ok(a) => AutoCheckView {
            passes: true,
            fine_upf: Some(a.fine_upf),
            fine_centavos: a.fine_centavos,
            fine_value: a.fine_centavos.map(format::money),
            proposed_consequences: a.proposals,
            errors: Vec::new(),
        },
        Err(issuance::UseCaseError::Rules(failures)) => AutoCheckView {
            passes: false,
            fine_upf: None,
            fine_centavos: None,
            fine_value: None,
            proposed_consequences: Vec::new(),
            errors: failures
                .into_iter()
                .map(super::problem::ProblemItem::from)
                .collect(),
        },
        Err(e) => AutoCheckView {
            passes: false,
            fine_upf: None,
            fine_centavos: None,
            fine_value: None,
            proposed_consequences: Vec::new(),
            errors: vec![refusal_item(e)?],
        },
    };
    Ok(HttpResponse::Ok().json(view))
}

impl TryFrom<(AutoDto, &RideHailingLegalBasis)> for NewAuto {
    type Error = ApiError;

    /// The infraction is one of the catalogue of the basis in force.
    fn try_from((dto, basis): (AutoDto, &RideHailingLegalBasis)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let kind = f.take(
            "infraction_id",
            basis.infraction(&dto.infraction_id).cloned().ok_or(()),
            "Infração desconhecida; veja /api/v1/app-infractions.",
        );
        let driver_id = f.uuid("driver_id", &dto.driver_id);
        let authorization_id = match &dto.authorization_id {
            Some(a) => f.uuid("authorization_id", a).map(Some),
            None => Some(None),
        };
        let committed_at = f.instant("committed_at", &dto.committed_at);
        let drawn_up_at = match &dto.drawn_up_at {
            Some(t) => f.instant("drawn_up_at", t).map(Some),
            None => Some(None),
        };
        let place = f.text("place", &dto.place, 300);
        let facts = f.text("facts", &dto.facts, 4000);
        let inspector = f.text("inspector", &dto.inspector, 200);
        let (
            infraction,
            driver_id,
            authorization_id,
            committed_at,
            drawn_up_at,
            place,
            facts,
            inspector,
        ) = f.done(parsed!(
            kind,
            driver_id,
            authorization_id,
            committed_at,
            drawn_up_at,
            place,
            facts,
            inspector
        ))?;
        Ok(Self {
            infraction,
            driver_id,
            authorization_id,
            committed_at,
            drawn_up_at,
            place,
            facts,
            inspector,
        })
    }
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
    let n = AutoNotification::try_from(body.into_inner())?;
    let auto = autos::record_notification(&state, &official.actor, id, &n).await?;
    Ok(HttpResponse::Created().json(auto_json(&state, &auto).await?))
}

/// A notification that replaces the one entered wrongly, and why.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct NotificationRectificationDto {
    method: String,
    notified_on: String,
    juntada_on: String,
    /// Why the notification recorded was wrong.
    reason: String,
    /// The day of the rectification (AAAA-MM-DD; default today).
    rectified_on: Option<String>,
}

/// `POST /api/v1/app-infraction-autos/{id}/notification/rectification`:
/// replaces a notification entered wrongly, while no act of the procedure follows it.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/notification/rectification", tag = "ride-hailing infractions", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Notificação retificada", body = RideHailingAutoView)))]
pub async fn rectify_notification(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NotificationRectificationDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_auto_id(&id)?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let reason = f.text("reason", &dto.reason, 500);
    let rectified_on = match dto.rectified_on.as_deref() {
        Some(d) => f.date("rectified_on", d),
        None => Some(crate::domain::dates::local_date(state.clock.now())),
    };
    let n = AutoNotification::try_from(NotificationDto {
        method: dto.method,
        notified_on: dto.notified_on,
        juntada_on: dto.juntada_on,
    });
    let (reason, rectified_on) = f.done(parsed!(reason, rectified_on))?;
    let auto = autos::rectify_notification(&state, &official.actor, id, &n?, &reason, rectified_on)
        .await?;
    Ok(HttpResponse::Created().json(auto_json(&state, &auto).await?))
}

impl TryFrom<NotificationDto> for AutoNotification {
    type Error = ApiError;

    fn try_from(dto: NotificationDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let method = f.take(
            "method",
            ["post", "electronic", "edital"]
                .contains(&dto.method.as_str())
                .then(|| dto.method.clone())
                .ok_or(()),
            "Use post (AR), electronic ou edital (art. 22, §1º).",
        );
        let notified_on = f.date("notified_on", &dto.notified_on);
        let juntada_on = f.date("juntada_on", &dto.juntada_on);
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
        Ok(Self {
            method,
            notified_on,
            juntada_on,
        })
    }
}
