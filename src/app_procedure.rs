//! Ride-hailing autos after they are drawn up (draft consolidated law, arts. 22–27): the
//! procedure acts (defence, decision, reconsideration), annulment with recidivism recalculated
//! for the driver's other autos (AMB-29), and the signed Notificação de Penalidade in two
//! copies (APP-ART19, APP-ART22). The periods are the charter law's until the decree (AMB-34);
//! they count from the juntada (DL-3, AMB-33).

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;
use uuid::Uuid;

use crate::charter_register::{CharterDocumentStatus, DocSpec, Numbering, issue_document};
use crate::documents::{A4_QR_MM, common_inputs, format, merge};
use crate::domain::calendar::{Calendar, DeadlineRules};
use crate::domain::charter::CharterStatus;
use crate::domain::charter::sanctions::{
    NoticeMethod, ProcedureAct, ProcedureState, procedure_state,
};
use crate::domain::dates::local_date;
use crate::domain::legal_basis::AppLegalBasis;
use crate::domain::ride_hailing::sanctions::{
    Consequence, PriorInfraction, consequences, infraction as app_infraction,
};
use crate::issuance::GrantError;
use crate::state::AppState;
use crate::storage::charter::{CharterDocument, CharterEvent};
use crate::storage::{AppAuto, Repository, StorageError};

/// Entity type of a ride-hailing auto's events.
pub const ENTITY: &str = "app_infraction_auto";
/// Event kind of a procedure act.
pub const ACT_EVENT: &str = "procedure_act";
/// Event kind, on the driver, of an auto whose penalty was annulled.
pub const ANNULLED_EVENT: &str = "auto_annulled";
/// Kind of the Notificação de Penalidade in tokens.
pub const KIND_APP_AUTO: &str = "app_auto";

/// The procedure acts recorded for an auto, in order.
pub async fn acts_of(state: &AppState, auto_id: Uuid) -> Result<Vec<ProcedureAct>, StorageError> {
    state
        .store
        .events_of(ENTITY, &auto_id.to_string())
        .await?
        .iter()
        .filter(|e| e.kind == ACT_EVENT)
        .map(|e| {
            serde_json::from_str(&e.data)
                .map_err(|_| StorageError::Corrupt(format!("procedure act of auto {auto_id}")))
        })
        .collect()
}

/// Where the procedure of `auto` stands on `today`. The start event is the juntada (DL-3).
pub fn state_of(
    auto: &AppAuto,
    acts: &[ProcedureAct],
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &AppLegalBasis,
) -> ProcedureState {
    let mut all = Vec::with_capacity(acts.len() + 1);
    if let Some(n) = &auto.notification {
        all.push(ProcedureAct::Notificacao {
            method: NoticeMethod::CertidaoFiscal,
            notified_on: n.juntada_on,
        });
    }
    all.extend(acts.iter().cloned());
    let mut s = procedure_state(&all, today, cal, rules, basis.into());
    // The notice method of a ride-hailing auto is its own (post, electronic, edital).
    s.notice_method = None;
    s
}

/// APP-ART26 §§1º–2º, APP-ART27-PU with AMB-29: the consequences of `auto` now, counting
/// only the driver's other autos whose penalty was not annulled.
pub async fn current_consequences(
    state: &AppState,
    auto: &AppAuto,
    annulled: bool,
) -> Result<Option<Vec<Consequence>>, StorageError> {
    if annulled {
        return Ok(None);
    }
    let Some(kind) = app_infraction(&auto.infraction_id) else {
        return Err(StorageError::Corrupt(format!(
            "infraction of auto {}",
            auto.id
        )));
    };
    let mut prior: Vec<(String, NaiveDate)> = state.store.prior_autos(auto.driver_id).await?;
    let mut remove = |infraction: &str, on: NaiveDate| {
        if let Some(i) = prior
            .iter()
            .position(|(id, d)| id == infraction && *d == on)
        {
            prior.remove(i);
        }
    };
    // The auto itself, then every annulled one.
    remove(&auto.infraction_id, auto.committed_on);
    for e in state
        .store
        .events_of("driver", &auto.driver_id.to_string())
        .await?
        .iter()
        .filter(|e| e.kind == ANNULLED_EVENT)
    {
        let v: serde_json::Value = serde_json::from_str(&e.data).unwrap_or_default();
        if let (Some(i), Some(d)) = (
            v["infraction_id"].as_str(),
            v["committed_on"].as_str().and_then(|d| d.parse().ok()),
        ) {
            remove(i, d);
        }
    }
    let prior: Vec<PriorInfraction> = prior
        .into_iter()
        .map(|(id, committed_on)| PriorInfraction {
            id,
            committed_on,
            annulled: false,
        })
        .collect();
    let upf = auto.fine_centavos.map(|c| c / auto.fine_upf.max(1));
    Ok(Some(consequences(
        kind,
        auto.committed_on,
        local_date(auto.drawn_up_at),
        &prior,
        upf,
        &state.app_basis,
    )))
}

/// The event recording, on the driver, that an auto's penalty was annulled.
pub fn annulment_event<'a>(
    state: &'a AppState,
    auto: &AppAuto,
    actor: &'a str,
) -> CharterEvent<'a> {
    CharterEvent {
        entity_type: "driver",
        entity_id: auto.driver_id,
        kind: ANNULLED_EVENT,
        actor,
        reason: None,
        legal_basis_version: state.app_basis.version,
        at: state.clock.now(),
        data: json!({ "auto_id": auto.id, "number": auto.number, "infraction_id": auto.infraction_id, "committed_on": auto.committed_on }),
    }
}

/// Inputs of `templates/auto_infracao.typ` for a ride-hailing auto (`None` before the
/// notification is recorded).
#[allow(clippy::too_many_arguments)]
pub fn notice_inputs(
    auto: &AppAuto,
    driver_name: &str,
    driver_cpf_masked: &str,
    plate: Option<String>,
    p: &ProcedureState,
    basis: &AppLegalBasis,
    public_url: &str,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> Option<serde_json::Value> {
    let n = auto.notification.as_ref()?;
    let kind = app_infraction(&auto.infraction_id)?;
    let (defence, payment) = (p.defence_due.as_ref()?, p.payment_due.as_ref()?);
    let method = match n.method.as_str() {
        "post" => "via postal com aviso de recebimento",
        "electronic" => "meio eletrônico",
        _ => "edital",
    };
    Some(merge(
        common_inputs(
            public_url,
            basis.citation,
            &auto.legal_basis_version,
            code,
            qr_width_mm,
            now,
        ),
        json!({
        "number": auto.number,
        "title": "AUTO DE INFRAÇÃO E NOTIFICAÇÃO DE PENALIDADE",
        "secretariat": "Secretaria Municipal de Finanças",
        "law": "lei municipal do transporte por aplicativo (minuta consolidada)",
        "infractor_name": driver_name,
        "infractor_doc_label": "CPF",
        "infractor_doc": driver_cpf_masked,
        "committed_on": format::date(auto.committed_on),
        "place": auto.place,
        "plate": plate.unwrap_or_else(|| "—".to_owned()),
        "article": format!("{} ({})", kind.article, kind.class.label_pt()),
        "description": kind.description,
        "facts": auto.facts,
        "fine_upf": format!("{} UPFG", format::thousands(auto.fine_upf.unsigned_abs())),
        "fine_brl": auto.fine_centavos.map_or_else(|| "a calcular".to_owned(), format::money),
        "fine_words": auto.fine_centavos.map_or_else(|| "—".to_owned(), format::money_in_words),
        "fine_note": "Cópia desta notificação é enviada à plataforma (art. 22). Sanções além da multa só se aplicam após decisão definitiva.",
        "notified_on": format!("{} (juntada em {})", format::date(n.notified_on), format::date(n.juntada_on)),
        "notice_method": method,
        "inspector": auto.inspector,
        "defence_due": format::date(defence.due),
        "payment_due": format::date(payment.due),
        "defence_how": format!("por escrito, dirigida à Secretaria Municipal de Finanças, até {} — 15 dias contados da juntada do comprovante de notificação (art. 22, §2º; prazo da Lei 4.937/2025 aplicado por analogia até o decreto).", format::date(defence.due)),
        "reconsideration_how": "da decisão cabe pedido de reconsideração em 10 dias da ciência da decisão, encaminhado ao Prefeito Municipal.",
        "payment_how": format!("sem defesa no prazo, a multa deve ser paga até {}; depois, inscrição em dívida ativa.", format::date(payment.due)),
        "deadline_explanation": defence.explanation,
        "drawn_up_at": format::datetime_local(auto.drawn_up_at),
        }),
    ))
}

/// APP-ART19, APP-ART22: issues the signed Notificação de Penalidade (two copies).
#[allow(clippy::too_many_arguments)]
pub async fn issue_notice(
    state: &AppState,
    auto: &AppAuto,
    driver_name: &str,
    driver_cpf_masked: &str,
    plate: Option<(String, String)>,
    p: &ProcedureState,
    actor: &str,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let (Some(payment), Some(_)) = (p.payment_due.as_ref(), auto.notification.as_ref()) else {
        return Err(GrantError::Rules(vec![crate::domain::rule::RuleFailure {
            rule: "APP-ART22-P2",
            article: "art. 22, §2º",
            field: "notification",
            message: "Registre a notificação e a juntada antes de emitir a notificação de penalidade: os prazos contam da juntada.".into(),
        }]));
    };
    if p.annulled {
        return Err(GrantError::Rules(vec![crate::domain::rule::RuleFailure {
            rule: "APP-ART22",
            article: "art. 22",
            field: "auto",
            message: "O auto foi anulado: não há penalidade a notificar.".into(),
        }]));
    }
    let printed_plate = plate.as_ref().map(|(_, formatted)| formatted.clone());
    notice_inputs(
        auto,
        driver_name,
        driver_cpf_masked,
        printed_plate.clone(),
        p,
        &state.app_basis,
        &state.letterhead.public_url,
        "",
        0.0,
        now,
    )
    .ok_or(GrantError::Missing("auto"))?;
    let spec = DocSpec {
        kind: KIND_APP_AUTO,
        subject_type: "app_auto",
        subject_id: auto.id,
        company_id: None,
        issuer: crate::documents::APP_ISSUER,
        numbering: Numbering::Fixed(auto.number.clone()),
        subject_key: plate.map(|(canonical, _)| canonical),
        valid_until: payment.due,
        template: "auto_infracao.typ",
        reason: "Notificação de Penalidade",
        qr_mm: A4_QR_MM,
        facts: None,
    };
    issue_document(
        state,
        spec,
        |_, code, qr| {
            notice_inputs(
                auto,
                driver_name,
                driver_cpf_masked,
                printed_plate.clone(),
                p,
                &state.app_basis,
                &state.letterhead.public_url,
                code,
                qr,
                now,
            )
            .unwrap_or_default()
        },
        |_| Ok(None),
        |number| {
            vec![CharterEvent {
                entity_type: ENTITY,
                entity_id: auto.id,
                kind: "notice_issued",
                actor,
                reason: None,
                legal_basis_version: state.app_basis.version,
                at: now,
                data: json!({ "number": number }),
            }]
        },
    )
    .await
}

/// What a ride-hailing auto notice says now: `anulado` once annulled, else `ativo`.
pub async fn document_status(
    state: &AppState,
    doc: &CharterDocument,
    now: DateTime<Utc>,
) -> Result<Option<CharterDocumentStatus>, StorageError> {
    if doc.kind != KIND_APP_AUTO {
        return Ok(None);
    }
    let Some(auto) = state.store.get_auto(doc.subject_id).await? else {
        return Ok(None);
    };
    let acts = acts_of(state, auto.id).await?;
    let cal = state.calendar().await?;
    let p = state_of(
        &auto,
        &acts,
        local_date(now),
        &cal,
        &state.deadline_rules,
        &state.app_basis,
    );
    Ok(Some(CharterDocumentStatus {
        status: if p.annulled {
            CharterStatus::Anulado
        } else {
            CharterStatus::Ativo
        },
        suspended_until: None,
        company_name: None,
        subject: crate::domain::ids::Plate::parse(&doc.subject_key)
            .map_or_else(|_| doc.subject_key.clone(), |p| p.formatted()),
        facts_hold: None,
    }))
}
