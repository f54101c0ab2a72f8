//! Use case: the ride-hailing auto de infração's notice and annulment (APP-ART19 ff.).

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::documents::auto_notice::{AutoNotice, UpfOfYear};
use crate::documents::{A4_QR_MM, Letterhead, cite_provision, common_inputs, merge};
use crate::domain::charter::sanctions::ProcedureState;
use crate::domain::legal_basis::{RideHailingLegalBasis, with_provision};
use crate::domain::ride_hailing::RideHailingAct;
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
        &state.ride_hailing_basis().version,
        state.clock.now(),
        json!({ "auto_id": auto.id, "number": auto.number, "infraction_id": auto.infraction_id, "committed_on": auto.committed_on }),
    )
}

/// Who an auto is against, as the notice prints it.
pub struct Infractor<'a> {
    pub name: &'a str,
    pub cpf_masked: &'a str,
    /// The car's plate, canonical and formatted, when the auto names an authorization.
    pub plate: Option<(String, String)>,
}

/// Inputs of `templates/auto_infracao.typ` for a ride-hailing auto (`None` before the
/// notification is recorded).
#[expect(
    clippy::too_many_arguments,
    reason = "every fact the notice prints, each its own value"
)]
pub fn notice_inputs(
    auto: &RideHailingAuto,
    infractor: &Infractor<'_>,
    p: &ProcedureState,
    upf: Option<UpfOfYear>,
    basis: &RideHailingLegalBasis,
    letterhead: &Letterhead,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> Option<serde_json::Value> {
    let n = auto.notification.as_ref()?;
    let kind = basis.infraction(&auto.infraction_id)?;
    let (defence, payment) = (p.defence_due.as_ref()?, p.payment_due.as_ref()?);
    let method = match n.method.as_str() {
        "post" => "via postal com aviso de recebimento",
        "electronic" => "meio eletrônico",
        _ => "edital",
    };
    let law = letterhead.profile.law(&auto.legal_basis_version);
    let provisions = basis.document_citations.as_ref();
    // The profile says how a known version cites its defence; an unknown one cites none.
    let defence_article = law.map(|l| l.defence_article.as_str());
    let notice = AutoNotice {
        number: &auto.number,
        title: "AUTO DE INFRAÇÃO E NOTIFICAÇÃO DE PENALIDADE",
        secretariat: &basis.issuing_secretariat,
        infractor_name: infractor.name,
        infractor_doc_label: "CPF",
        infractor_doc: infractor.cpf_masked,
        committed_on: auto.committed_on,
        committed_at: Some(auto.committed_at),
        place: &auto.place,
        plate: infractor.plate.as_ref().map(|(_, f)| f.clone()),
        article: &kind.article,
        class: Some(kind.class.label_pt()),
        description: &kind.description,
        facts: &auto.facts,
        // APP-ART25: the fine of the infraction's class, as the basis cites it.
        penalty_article: basis.fine_class_citation(kind.class).to_owned(),
        unit: "UPFG",
        fine_upf: auto.fine_upf.unsigned_abs(),
        upf,
        notes: vec![format!(
            "{}. Sanções além da multa só se aplicam após decisão definitiva.",
            with_provision(
                "Cópia desta notificação é enviada à plataforma",
                provisions.map(|c| c.platform_copy.as_str())
            )
        )],
        notified_on: n.notified_on,
        notice_method: method,
        juntada_on: Some(n.juntada_on),
        defence_due: defence.due,
        defence_period: with_provision(
            &format!(
                "{} dias contados da juntada do comprovante de notificação",
                basis.defence_days
            ),
            defence_article,
        ),
        reconsideration: format!(
            "Da decisão cabe pedido de reconsideração ao Prefeito Municipal em {} dias da ciência da decisão.",
            basis.reconsideration_days
        ),
        payment_due: payment.due,
        payment_consequence:
            "Não paga no prazo, a multa vence e é inscrita em dívida ativa do Município.".to_owned(),
        deadline_explanation: &defence.explanation,
        inspector: &auto.inspector,
        drawn_up_at: auto.drawn_up_at,
    };
    let cited = cite_provision(
        &letterhead.profile,
        &auto.legal_basis_version,
        provisions.map(|c| c.notice.as_str()),
        &basis.citation,
    );
    Some(merge(
        common_inputs(
            &letterhead.public_url,
            &cited,
            &auto.legal_basis_version,
            code,
            qr_width_mm,
            now,
        ),
        notice.inputs(law, &basis.citation),
    ))
}

/// APP-ART19, APP-ART22: issues the signed Notificação de Penalidade (two copies).
pub async fn issue_notice(
    state: &AppState,
    auto: &RideHailingAuto,
    infractor: &Infractor<'_>,
    p: &ProcedureState,
    actor: &str,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let (Some(payment), Some(_)) = (p.payment_due.as_ref(), auto.notification.as_ref()) else {
        return Err(UseCaseError::Rules(vec![crate::domain::rule::RuleFailure {
            rule: "APP-ART22-P2".into(),
            article: "art. 22, §2º".into(),
            field: "notification",
            message: "Registre a notificação e a juntada antes de emitir a notificação de penalidade: os prazos contam da juntada.".into(),
        }]));
    };
    if p.annulled {
        return Err(UseCaseError::Rules(vec![
            crate::domain::rule::RuleFailure {
                rule: "APP-ART22".into(),
                article: "art. 22".into(),
                field: "auto",
                message: "O auto foi anulado: não há penalidade a notificar.".into(),
            },
        ]));
    }
    let upf = crate::issuance::pipeline::upf_when_drawn_up(state, auto.drawn_up_at).await?;
    // The catalogue and the periods of the basis the auto was drawn up under.
    let basis = &state.ride_hailing_basis_of(&auto.legal_basis_version);
    let letterhead = state.letterhead.as_ref();
    notice_inputs(
        auto,
        infractor,
        p,
        upf.clone(),
        basis,
        letterhead,
        "",
        0.0,
        now,
    )
    .ok_or(UseCaseError::NotFound("Auto de infração não encontrado."))?;
    let spec = DocSpec {
        legal_basis_version: state.ride_hailing_basis().version.clone(),
        kind: DocumentKind::RideHailingAuto,
        subject_type: "app_auto",
        subject_id: auto.id,
        company_id: None,
        issuer: crate::documents::RIDE_HAILING_ISSUER,
        numbering: Numbering::Fixed(auto.number.clone()),
        subject_key: infractor
            .plate
            .as_ref()
            .map(|(canonical, _)| canonical.clone()),
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
                infractor,
                p,
                upf.clone(),
                basis,
                letterhead,
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
