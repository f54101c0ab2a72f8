//! Use case: the ride-hailing auto de infração's notice and annulment (APP-ART19 ff.).

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::documents::{A4_QR_MM, common_inputs, format, merge};
use crate::domain::charter::sanctions::ProcedureState;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::sanctions::infraction as ride_hailing_infraction;
use crate::issuance::UseCaseError;
use crate::issuance::pipeline::{Act, DocSpec, Numbering, issue_document};
use crate::standing::ride_hailing::ENTITY;
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::storage::RideHailingAuto;
use crate::storage::charter::NewEvent;
use crate::storage::documents::Document;

/// The event recording, on the driver, that an auto's penalty was annulled.
pub fn annulment_event<'a>(
    state: &'a AppState,
    auto: &RideHailingAuto,
    actor: &'a str,
) -> NewEvent<'a> {
    NewEvent::act(
        "driver",
        auto.driver_id,
        RideHailingAct::AutoAnnulled.as_str(),
        actor,
        state.ride_hailing_basis.version,
        state.clock.now(),
        json!({ "auto_id": auto.id, "number": auto.number, "infraction_id": auto.infraction_id, "committed_on": auto.committed_on }),
    )
}

/// Inputs of `templates/auto_infracao.typ` for a ride-hailing auto (`None` before the
/// notification is recorded).
#[allow(clippy::too_many_arguments)]
pub fn notice_inputs(
    auto: &RideHailingAuto,
    driver_name: &str,
    driver_cpf_masked: &str,
    plate: Option<String>,
    p: &ProcedureState,
    basis: &RideHailingLegalBasis,
    public_url: &str,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> Option<serde_json::Value> {
    let n = auto.notification.as_ref()?;
    let kind = ride_hailing_infraction(&auto.infraction_id)?;
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
    auto: &RideHailingAuto,
    driver_name: &str,
    driver_cpf_masked: &str,
    plate: Option<(String, String)>,
    p: &ProcedureState,
    actor: &str,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let (Some(payment), Some(_)) = (p.payment_due.as_ref(), auto.notification.as_ref()) else {
        return Err(UseCaseError::Rules(vec![crate::domain::rule::RuleFailure {
            rule: "APP-ART22-P2",
            article: "art. 22, §2º",
            field: "notification",
            message: "Registre a notificação e a juntada antes de emitir a notificação de penalidade: os prazos contam da juntada.".into(),
        }]));
    };
    if p.annulled {
        return Err(UseCaseError::Rules(vec![
            crate::domain::rule::RuleFailure {
                rule: "APP-ART22",
                article: "art. 22",
                field: "auto",
                message: "O auto foi anulado: não há penalidade a notificar.".into(),
            },
        ]));
    }
    let printed_plate = plate.as_ref().map(|(_, formatted)| formatted.clone());
    notice_inputs(
        auto,
        driver_name,
        driver_cpf_masked,
        printed_plate.clone(),
        p,
        &state.ride_hailing_basis,
        &state.letterhead.public_url,
        "",
        0.0,
        now,
    )
    .ok_or(UseCaseError::NotFound("Auto de infração não encontrado."))?;
    let spec = DocSpec {
        legal_basis_version: state.ride_hailing_basis.version,
        kind: DocumentKind::RideHailingAuto,
        subject_type: "app_auto",
        subject_id: auto.id,
        company_id: None,
        issuer: crate::documents::RIDE_HAILING_ISSUER,
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
        actor,
        |_, code, qr| {
            notice_inputs(
                auto,
                driver_name,
                driver_cpf_masked,
                printed_plate.clone(),
                p,
                &state.ride_hailing_basis,
                &state.letterhead.public_url,
                code,
                qr,
                now,
            )
            .unwrap_or_default()
        },
        |_| Ok(None),
        |number| {
            vec![Act::new(
                ENTITY,
                auto.id,
                RideHailingAct::NoticeIssued.as_str(),
                json!({ "number": number }),
            )]
        },
    )
    .await
}
