//! Use cases of the charter law (Lei 4.937/2025): the Termo de Autorização, the selo de
//! vistoria, the certidão and the auto de infração, each through the issuing pipeline.

pub mod register;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde_json::json;
use uuid::Uuid;

use crate::documents::auto_notice::{AutoNotice, UpfOfYear};
use crate::documents::profile::LawCitation;
use crate::documents::{
    A4_QR_MM, Letterhead, SELO_QR_MM, cite_provision, common_inputs, format, merge,
};
use crate::domain::charter::CharterAct;
use crate::domain::charter::{TermoDecision, Vistoria, vistoria_valid_until};
use crate::domain::dates::local_date;
use crate::domain::ids::Plate;
use crate::domain::legal_basis::{CharterDocumentCitations, CharterLegalBasis, with_provision};
use crate::issuance::UseCaseError;
use crate::issuance::pipeline::{Act, DocSpec, Numbering, certified_rows, issue_document, void};
use crate::issuance::rectification;
use crate::standing::charter::{
    AutoData, AutoView, CertidaoSubject, CertifiedFacts, CharterVehicle, Company, Termo, TermoData,
    current_termo, termos_of,
};
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::storage::charter::{CharterCommit, CharterRow, CharterTable, NewEvent};
use crate::storage::documents::Document;
use crate::storage::rectifications::ACT_RECTIFIED;

/// Series of Termo numbers (`FRET-2025/000001`), selos and autos.
pub const TERMO_SERIES: &str = "FRET";

pub const SELO_SERIES: &str = "SELO";

pub const AUTO_SERIES: &str = "AIF";

/// Who issues charter documents: Secretaria de Infraestrutura e Serviços (FRET-ART8, 13).
pub const CHARTER_ISSUER: &str = "BDG-SIS";

/// Series of certidão numbers (FRET-ART25).
pub const CERTIDAO_SERIES: &str = "CERT";

pub(crate) const SIS: &str = "Secretaria Municipal de Infraestrutura e Serviços";

/// The provision `pick` takes from the charter basis's document citations, if it lists them.
fn provision(
    basis: &CharterLegalBasis,
    pick: fn(&CharterDocumentCitations) -> &str,
) -> Option<&str> {
    basis.document_citations.as_ref().map(pick)
}

/// " (art. 10)", or nothing when the basis cites no provision for it.
fn in_parentheses(provision: Option<&str>) -> String {
    provision.map_or_else(String::new, |p| format!(" ({p})"))
}

/// The inputs every charter document shares, under Lei 4.937/2025, citing the provision
/// `pick` takes from the basis as the profile cites the law.
fn charter_common(
    letterhead: &Letterhead,
    basis: &CharterLegalBasis,
    pick: fn(&CharterDocumentCitations) -> &str,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let profile = &letterhead.profile;
    merge(
        common_inputs(
            &letterhead.public_url,
            &cite_provision(
                profile,
                &basis.version,
                provision(basis, pick),
                &basis.citation,
            ),
            &basis.version,
            code,
            qr_width_mm,
            now,
        ),
        // The key of the profile's secretariat that issues and signs.
        json!({ "law": law_of(letterhead, basis), "issuer_key": basis.issuing_secretariat }),
    )
}

/// "Lei Municipal nº 4.937, de 26 de fevereiro de 2025", as the profile cites it.
fn law_of(letterhead: &Letterhead, basis: &CharterLegalBasis) -> String {
    letterhead
        .profile
        .law(&basis.version)
        .map_or_else(|| basis.citation.clone(), LawCitation::law)
}

/// Inputs of `templates/charter_termo.typ` (FRET-ART8).
pub fn termo_inputs(
    company: &Company,
    t: &Termo,
    letterhead: &Letterhead,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let years = basis.termo_validity_months / 12;
    let validity = if basis.termo_validity_months.is_multiple_of(12) {
        format!("{years} {}", if years == 1 { "ano" } else { "anos" })
    } else {
        format!("{} meses", basis.termo_validity_months)
    };
    let law = law_of(letterhead, basis);
    let life_years = basis.service_life_months / 12;
    merge(
        charter_common(
            letterhead,
            basis,
            |c| &c.termo_grounds,
            code,
            qr_width_mm,
            now,
        ),
        json!({
            "grounded_on": crate::documents::grounded_on(provision(basis, |c| &c.termo), &law),
            "registration": match provision(basis, |c| &c.registration) {
                Some(p) => format!("deferido o cadastro previsto no {p}"),
                None => "deferido o cadastro da empresa".to_owned(),
            },
            "validity": format!(
                "{validity}, renovável mediante nova comprovação de regularidade{}",
                provision(basis, |c| &c.termo_validity).map_or_else(String::new, |p| format!("; {p}"))
            ),
            "conditions": [
                format!(
                    "Somente ônibus e micro-ônibus cadastrados, com vistoria municipal em dia e até {life_years} anos de vida útil contados do primeiro emplacamento{}",
                    in_parentheses(provision(basis, |c| &c.fleet))
                ),
                with_provision(
                    "Condutores com CNH categoria D ou E e observação EAR, curso de transporte coletivo e vínculo com a empresa",
                    provision(basis, |c| &c.drivers)
                ),
                format!(
                    "Comunicar à Secretaria cada contrato em até {} dias da assinatura e do seu término{}, e imediatamente cada inclusão ou baixa de veículo ou condutor{}",
                    basis.contract_notice_days,
                    in_parentheses(provision(basis, |c| &c.contracts)),
                    in_parentheses(provision(basis, |c| &c.fleet_changes))
                ),
                with_provision(
                    "Vedados a venda de passagens, o embarque e desembarque ao longo do trajeto e o uso de terminais rodoviários",
                    provision(basis, |c| &c.prohibitions)
                ),
                with_provision(
                    "A transferência desta autorização sem anuência do Município acarreta a cassação do registro",
                    provision(basis, |c| &c.transfer)
                ),
            ],
            "number": t.number,
            "company_name": company.data.name,
            "cnpj": company.cnpj.formatted(),
            "address": company.data.address,
            "modality": t.data.modality.label_pt(),
            "valid_from": format::date(t.data.valid_from),
            "valid_until": format::date(t.data.valid_until),
            "valid_until_long": format::date_long(t.data.valid_until),
            "renewal_note": t.data.renews.as_ref().map_or_else(String::new, |n| format!(
                "Este Termo renova o Termo nº {n}, sem interrupção de vigência."
            )),
        }),
    )
}

/// Inputs of `templates/charter_selo.typ` (FRET-ART13).
#[expect(
    clippy::too_many_arguments,
    reason = "every fact the document prints, each its own value"
)]
pub fn selo_inputs(
    company: &Company,
    vehicle: &CharterVehicle,
    vistoria: &Vistoria,
    number: &str,
    letterhead: &Letterhead,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let facts = &vehicle.record.facts;
    merge(
        charter_common(letterhead, basis, |c| &c.selo, code, qr_width_mm, now),
        json!({
            "citation": crate::documents::capitalized(&cite_provision(
                &letterhead.profile,
                &basis.version,
                provision(basis, |c| &c.selo),
                &basis.citation
            )),
            "standing": with_provision("proibido passageiro em pé", provision(basis, |c| &c.standing)),
            "selo_return": with_provision("devolver na baixa do veículo", provision(basis, |c| &c.selo_return)),
            "number": number,
            "plate": vehicle.plate.formatted(),
            "company_name": company.data.name,
            "cnpj": company.cnpj.formatted(),
            "kind": facts.kind_label_pt(),
            "seated_capacity": facts.seated_capacity.to_string(),
            "performed_on": format::date(vistoria.performed_on),
            "valid_until": format::date(vistoria_valid_until(vistoria.performed_on, basis)),
            "service_life_until": format::date(
                crate::domain::charter::service_life_until(facts.first_registration_date, basis)
            ),
        }),
    )
}

/// FRET-ART8: grants (or renews) the Termo and issues its signed PDF, all or nothing.
pub async fn issue_termo(
    state: &AppState,
    company: &Company,
    decision: &TermoDecision,
    actor: &str,
) -> Result<(Termo, Document), UseCaseError> {
    let now = state.clock.now();
    let id = Uuid::new_v4();
    let data = TermoData {
        modality: company.data.modality,
        issued_on: local_date(now),
        valid_from: decision.valid_from,
        valid_until: decision.valid_until,
        renews: decision.renews.clone(),
        legal_basis_version: decision.legal_basis_version.clone(),
        protocolled_on: Some(decision.protocolled_on),
    };
    let data_json = serde_json::to_value(&data).map_err(|_| UseCaseError::Encoding)?;
    let spec = DocSpec {
        legal_basis_version: state.charter_basis().version.clone(),
        kind: DocumentKind::CharterTermo,
        subject_type: "termo",
        subject_id: id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(TERMO_SERIES),
        subject_key: Some(company.cnpj.as_str().to_owned()),
        valid_until: data.valid_until,
        template: "charter_termo.typ",
        reason: "Termo de Autorização de fretamento",
        qr_mm: A4_QR_MM,
        facts: None,
    };
    let letterhead = state.letterhead.as_ref();
    let basis = &state.charter_basis();
    let termo = |number: &str| Termo {
        id,
        number: number.to_owned(),
        data: data.clone(),
    };
    let doc = issue_document(
        state,
        spec,
        actor,
        |number, code, qr| termo_inputs(company, &termo(number), letterhead, basis, code, qr, now),
        |number| {
            Ok(Some((
                CharterTable::Termos,
                CharterRow {
                    id,
                    company_id: Some(company.id),
                    key: number.to_owned(),
                    alt_key: None,
                    data: data_json.clone(),
                    created_at: now,
                    created_by: actor.to_owned(),
                },
            )))
        },
        |number| {
            let granted = CharterAct::TermoGranted.as_str();
            let summary = json!({
                "termo_id": id,
                "number": number,
                "valid_from": data.valid_from,
                "valid_until": data.valid_until,
            });
            vec![
                Act::new(
                    CharterTable::Termos.entity_type(),
                    id,
                    granted,
                    data_json.clone(),
                ),
                Act::new(
                    CharterTable::Companies.entity_type(),
                    company.id,
                    granted,
                    summary,
                ),
            ]
        },
    )
    .await?;
    Ok((termo(&doc.number), doc))
}

/// FRET-ART13: records an approved vistoria and issues the selo in one transaction.
pub async fn issue_selo(
    state: &AppState,
    company: &Company,
    vehicle: &CharterVehicle,
    vistoria: &Vistoria,
    actor: &str,
    rectifies: Option<&crate::issuance::rectification::Rectifies>,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let basis = &state.charter_basis();
    let letterhead = state.letterhead.as_ref();
    let data = serde_json::to_value(vistoria).map_err(|_| UseCaseError::Encoding)?;
    let act = (
        CharterTable::Vehicles.entity_type(),
        vehicle.id,
        CharterAct::VistoriaRecorded.as_str(),
    );
    // A rectified approved vistoria issues the selo of the right one.
    let target = match rectifies {
        Some(r) => Some((rectification::target(state, act, r).await?, r)),
        None => None,
    };
    let spec = DocSpec {
        legal_basis_version: state.charter_basis().version.clone(),
        kind: DocumentKind::CharterSelo,
        subject_type: "vehicle",
        subject_id: vehicle.id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(SELO_SERIES),
        subject_key: Some(vehicle.plate.as_str().to_owned()),
        valid_until: vistoria_valid_until(vistoria.performed_on, basis),
        template: "charter_selo.typ",
        reason: "Selo de vistoria de veículo de fretamento",
        qr_mm: SELO_QR_MM,
        facts: None,
    };
    issue_document(
        state,
        spec,
        actor,
        |number, code, qr| {
            selo_inputs(
                company, vehicle, vistoria, number, letterhead, basis, code, qr, now,
            )
        },
        |_| Ok(None),
        |_| {
            vec![match &target {
                Some((t, r)) => Act {
                    kind: ACT_RECTIFIED,
                    reason: Some(&r.reason),
                    ..Act::new(
                        act.0,
                        act.1,
                        act.2,
                        rectification::rectification_data(&data, t, r),
                    )
                },
                None => Act::new(act.0, act.1, act.2, data),
            }]
        },
    )
    .await
}

// ---------------------------------------------------------------------------------------
// Certidões (FRET-ART25) and autos
// ---------------------------------------------------------------------------------------

/// What a certidão prints besides its number and marks.
pub struct CertidaoPrint<'a> {
    pub subject: &'a CertidaoSubject,
    pub company: &'a Company,
    pub termos: &'a [Termo],
    pub facts: &'a CertifiedFacts,
    pub protocol: &'a str,
    pub valid_until: NaiveDate,
    /// The official who issues it, by name (the certidão's audit line).
    pub issued_by: &'a str,
}

/// The identifying fields of the subject, as printed (CPF masked).
fn subject_fields(
    subject: &CertidaoSubject,
    basis: &CharterLegalBasis,
) -> (&'static str, Vec<[String; 2]>) {
    let pair = |k: &str, v: String| [k.to_owned(), v];
    let yes_no = |b: bool| if b { "sim" } else { "não" };
    match subject {
        CertidaoSubject::Vehicle(v) => {
            let f = &v.record.facts;
            let life = crate::domain::charter::service_life_until(f.first_registration_date, basis);
            (
                "Veículo",
                vec![
                    pair("Placa", v.plate.formatted()),
                    pair("RENAVAM", v.renavam.clone()),
                    pair("Tipo", f.kind_label_pt().to_owned()),
                    pair("Marca/modelo", format!("{} {}", v.make, v.model)),
                    pair("Ano-modelo", f.model_year.to_string()),
                    pair("Lugares sentados", f.seated_capacity.to_string()),
                    pair(
                        "Primeiro emplacamento",
                        format::date(f.first_registration_date),
                    ),
                    pair("Vida útil até", format::date(life)),
                    pair(
                        "Portas / catraca",
                        format!("{} / {}", f.doors, yes_no(f.has_turnstile)),
                    ),
                ],
            )
        }
        CertidaoSubject::Driver(d) => {
            let cpf = crate::domain::ids::Cpf::parse(&d.cpf)
                .map_or_else(|_| "—".to_owned(), |c| c.masked());
            let f = &d.data.facts;
            (
                "Condutor",
                vec![
                    pair("Nome", d.data.name.clone()),
                    pair("CPF", cpf),
                    pair("CNH nº de registro", d.data.cnh_number.clone()),
                    pair(
                        "Categoria / EAR",
                        format!("{} / {}", f.cnh_category, yes_no(f.cnh_ear)),
                    ),
                    pair("Validade da CNH", format::date(f.cnh_expires_on)),
                    pair(
                        "Desligamento",
                        d.deregistered_on
                            .map_or_else(|| "—".to_owned(), format::date),
                    ),
                ],
            )
        }
    }
}

fn sanctions_note(company: &Company) -> String {
    if company.sanctions.is_empty() {
        return "Não constam sanções aplicadas à empresa.".to_owned();
    }
    let list: Vec<String> = company
        .sanctions
        .iter()
        .map(|x| format!("{} desde {}", x.article, format::date(x.effective_from)))
        .collect();
    format!("Sanções registradas da empresa: {}.", list.join("; "))
}

/// Inputs of `templates/certidao.typ` (FRET-ART25).
pub fn certidao_inputs(
    p: &CertidaoPrint<'_>,
    number: &str,
    letterhead: &Letterhead,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let (title, fields) = subject_fields(p.subject, basis);
    let termo = current_termo(p.termos, local_date(now)).map_or_else(
        || "—".to_owned(),
        |t| format!("{} (até {})", t.number, format::date(t.data.valid_until)),
    );
    let items = certified_rows(&p.facts.items);
    merge(
        charter_common(letterhead, basis, |c| &c.certidao, code, qr_width_mm, now),
        json!({
            "number": number,
            "secretariat": letterhead.profile.secretariat(&basis.issuing_secretariat).map_or(SIS, |s| s.name.as_str()),
            "protocol": p.protocol,
            "status": p.facts.status.label_pt(),
            "subject_title": title,
            "subject_fields": fields,
            "grounds": crate::documents::grounded_on(provision(basis, |c| &c.certidao), &law_of(letterhead, basis)),
            "link_title": "Empresa e autorização",
            "link_fields": [
                ["Empresa", p.company.data.name.as_str()],
                ["CNPJ", p.company.cnpj.formatted().as_str()],
                ["Termo de Autorização", termo.as_str()],
            ],
            "items": items,
            "notes": sanctions_note(p.company),
            "valid_until": format::date(p.valid_until),
            "validity_days": basis.certidao_validity_days.to_string(),
            "signer": basis.issuing_secretariat,
            "issued_by": p.issued_by,
        }),
    )
}

/// FRET-ART25: issues the certidão de situação cadastral of a vehicle or a driver.
pub async fn issue_certidao(
    state: &AppState,
    subject: &CertidaoSubject,
    company: &Company,
    protocol: &str,
    actor: &str,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis();
    let termos = termos_of(&state.store, company.id).await?;
    let facts =
        crate::standing::charter::certidao_facts_now(state, subject, company, &termos, today)
            .await?;
    let issued_by = crate::issuance::officials::name_of(&state.store, actor).await?;
    let (subject_type, table, key) = match subject {
        CertidaoSubject::Vehicle(v) => (
            "vehicle",
            CharterTable::Vehicles,
            Some(v.plate.as_str().to_owned()),
        ),
        // Never a CPF in the public token.
        CertidaoSubject::Driver(_) => ("driver", CharterTable::Drivers, None),
    };
    let print = CertidaoPrint {
        subject,
        company,
        termos: &termos,
        facts: &facts,
        protocol,
        valid_until: today + chrono::Duration::days(i64::from(basis.certidao_validity_days)),
        issued_by: &issued_by,
    };
    let spec = DocSpec {
        legal_basis_version: state.charter_basis().version.clone(),
        kind: DocumentKind::CharterCertidao,
        subject_type,
        subject_id: subject.id(),
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(CERTIDAO_SERIES),
        subject_key: key,
        valid_until: print.valid_until,
        template: "certidao.typ",
        reason: "Certidão de situação cadastral",
        qr_mm: A4_QR_MM,
        facts: Some(serde_json::to_value(&facts).map_err(|_| UseCaseError::Encoding)?),
    };
    let letterhead = state.letterhead.as_ref();
    issue_document(
        state,
        spec,
        actor,
        |number, code, qr| certidao_inputs(&print, number, letterhead, basis, code, qr, now),
        |_| Ok(None),
        |number| {
            vec![Act::new(
                table.entity_type(),
                subject.id(),
                CharterAct::CertidaoIssued.as_str(),
                json!({ "number": number, "status": facts.status, "protocol": protocol }),
            )]
        },
    )
    .await
}

fn rule_failure(
    rule: &'static str,
    article: &'static str,
    field: &'static str,
    message: &str,
) -> UseCaseError {
    UseCaseError::Rules(vec![crate::domain::rule::RuleFailure {
        rule: rule.into(),
        article: article.into(),
        field,
        message: message.to_owned(),
    }])
}

/// Inputs of `templates/auto_infracao.typ` for a charter auto; `None` until the notification
/// is recorded or when the auto was annulled.
#[expect(
    clippy::too_many_arguments,
    reason = "every fact the document prints, each its own value"
)]
pub fn auto_notice_inputs(
    company: &Company,
    view: &AutoView,
    upf: Option<UpfOfYear>,
    letterhead: &Letterhead,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> Option<serde_json::Value> {
    use crate::domain::charter::sanctions::NoticeMethod;
    let p = &view.procedure;
    let (notified_on, defence, payment, fine) = (
        p.notified_on?,
        p.defence_due.as_ref()?,
        p.payment_due.as_ref()?,
        view.fine.as_ref()?,
    );
    let infraction = basis.infraction(&view.data.infraction)?;
    let law = letterhead.profile.law(&view.data.legal_basis_version);
    let penalty = law.map_or("art. 19", |l| l.penalty_article.as_str());
    let mut notes = Vec::new();
    if let Some(prior) = &fine.repeats {
        let pending = if fine.doubling_confirmed {
            ""
        } else {
            " (a confirmar quando a penalidade anterior for definitiva)"
        };
        notes.push(format!(
            "Reincidência (art. 19, parágrafo único): repete, em menos de 12 meses, a infração do auto nº {prior}; multa em dobro{pending}."
        ));
    }
    if fine.cassacao_ground {
        notes.push(
            "A reincidência no art. 19, VI, é causa de cassação do registro (art. 20, IV)."
                .to_owned(),
        );
    }
    let notice = AutoNotice {
        number: &view.number,
        title: "AUTO DE INFRAÇÃO E NOTIFICAÇÃO",
        secretariat: &basis.issuing_secretariat,
        infractor_name: &company.data.name,
        infractor_doc_label: "CNPJ",
        infractor_doc: &company.cnpj.formatted(),
        committed_on: view.data.committed_on,
        committed_at: view.data.committed_at,
        place: &view.data.place,
        plate: view
            .data
            .vehicle_plate
            .as_deref()
            .and_then(|p| Plate::parse(p).ok())
            .map(|p| p.formatted()),
        article: &infraction.article,
        class: None,
        description: &infraction.description,
        facts: &view.data.facts,
        // FRET-ART19: the fine is in the caput; FRET-ART19-PU doubles it on a repeat.
        penalty_article: if fine.repeats.is_some() {
            format!("{penalty}, caput e parágrafo único")
        } else {
            format!("{penalty}, caput")
        },
        unit: "UPFBG",
        fine_upf: u64::from(fine.upf),
        upf,
        notes,
        notified_on,
        notice_method: match p.notice_method {
            Some(NoticeMethod::Contrafe) => "contrafé (cópia entregue ao autuado)",
            Some(NoticeMethod::CertidaoFiscal) => "certidão do agente",
            None => "—",
        },
        juntada_on: None,
        defence_due: defence.due,
        defence_period: format!(
            "{} dias contados da notificação (art. 22, caput); sem defesa no prazo, os fatos presumem-se verdadeiros (art. 22, §1º)",
            basis.defence_days
        ),
        reconsideration: format!(
            "Da decisão do(a) Secretário(a) cabe pedido de reconsideração ao Prefeito Municipal em {} dias da ciência da decisão (art. 22, §3º).",
            basis.reconsideration_days
        ),
        payment_due: payment.due,
        payment_consequence:
            "Não paga no prazo, a multa vence e é inscrita em dívida ativa do Município (art. 23)."
                .to_owned(),
        deadline_explanation: &defence.explanation,
        inspector: &view.data.inspector,
        drawn_up_at: view.data.drawn_up_at,
    };
    Some(merge(
        charter_common(letterhead, basis, |c| &c.notice, code, qr_width_mm, now),
        notice.inputs(law, &basis.citation),
    ))
}

/// FRET-ART19–23, APP-ART19: the Auto de Infração e Notificação of a charter auto, two copies,
/// with every deadline dated. Requires the notification to be recorded (the start event).
pub async fn issue_auto_notice(
    state: &AppState,
    company: &Company,
    view: &AutoView,
    upf: Option<UpfOfYear>,
    actor: &str,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    // The catalogue and the periods of the basis the auto was drawn up under.
    let basis = &state.charter_basis_of(&view.data.legal_basis_version);
    let p = &view.procedure;
    let Some(payment) = p.payment_due.as_ref().filter(|_| p.notified_on.is_some()) else {
        return Err(rule_failure(
            "FRET-ART22-P1",
            "art. 22, §1º",
            "notification",
            "Registre a notificação (contrafé ou certidão do fiscal) antes de emitir o auto: os prazos contam dela.",
        ));
    };
    let Some(fine) = view.fine.as_ref() else {
        return Err(rule_failure(
            "FRET-ART19-PU",
            "art. 19",
            "auto",
            "O auto foi anulado: não há penalidade a notificar.",
        ));
    };
    let letterhead = state.letterhead.as_ref();
    // Fail before taking any number if the inputs cannot be built.
    auto_notice_inputs(company, view, upf.clone(), letterhead, basis, "", 0.0, now)
        .ok_or(UseCaseError::NotFound("Registro não encontrado(a)."))?;
    let spec = DocSpec {
        legal_basis_version: state.charter_basis().version.clone(),
        kind: DocumentKind::CharterAuto,
        subject_type: "auto",
        subject_id: view.id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Fixed(view.number.clone()),
        subject_key: Some(company.cnpj.as_str().to_owned()),
        valid_until: payment.due,
        template: "auto_infracao.typ",
        reason: "Auto de Infração e Notificação",
        qr_mm: A4_QR_MM,
        facts: None,
    };
    let centavos = upf.as_ref().map(|v| v.centavos * i64::from(fine.upf));
    issue_document(
        state,
        spec,
        actor,
        |_, code, qr| {
            auto_notice_inputs(company, view, upf.clone(), letterhead, basis, code, qr, now)
                .unwrap_or_default()
        },
        |_| Ok(None),
        |number| {
            vec![Act::new(
                CharterTable::Autos.entity_type(),
                view.id,
                CharterAct::NoticeIssued.as_str(),
                json!({ "number": number, "fine_upf": fine.upf, "fine_centavos": centavos }),
            )]
        },
    )
    .await
}

/// An auto de infração as the inspector draws it up (FRET-ART19, FRET-ART21).
#[derive(Debug, Clone)]
pub struct NewAuto {
    /// `FRET-ART19-I` … `FRET-ART19-VI`.
    pub infraction: String,
    pub committed_on: NaiveDate,
    /// The time of the infraction, when known.
    pub committed_at: Option<DateTime<Utc>>,
    /// When the inspector drew it up, if before it was entered; `None`: now.
    pub drawn_up_at: Option<DateTime<Utc>>,
    pub place: String,
    pub facts: String,
    pub inspector: String,
    pub vehicle_plate: Option<Plate>,
}

/// "Lavrado em": the instant the inspector drew the auto up, which may come before it is
/// entered here, never after, and never before the infraction.
fn drawn_up_at(auto: &NewAuto, now: DateTime<Utc>) -> Result<DateTime<Utc>, UseCaseError> {
    let drawn_up_at = auto.drawn_up_at.unwrap_or(now);
    if drawn_up_at > now {
        return Err(UseCaseError::Inconsistent {
            field: "drawn_up_at",
            message: "O auto não pode ter sido lavrado no futuro.",
        });
    }
    if auto.committed_at.is_some_and(|t| t > drawn_up_at)
        || auto.committed_on > local_date(drawn_up_at)
    {
        return Err(UseCaseError::Inconsistent {
            field: "committed_at",
            message: "A infração não pode ser posterior à lavratura do auto.",
        });
    }
    Ok(drawn_up_at)
}

/// FRET-ART19, FRET-ART19-PU, FRET-ART20-IV: the fine the auto would carry if drawn up now
/// against `company_id`, recidivism counted among the company's autos; writes nothing.
pub async fn assess_auto(
    state: &AppState,
    company_id: Uuid,
    auto: &NewAuto,
) -> Result<crate::domain::charter::sanctions::FineAssessment, UseCaseError> {
    use crate::domain::charter::sanctions::{AutoFacts, assess_fines_by};
    let now = state.clock.now();
    drawn_up_at(auto, now)?;
    let views =
        crate::standing::charter::company_autos_now(state, company_id, local_date(now)).await?;
    let mut facts: Vec<AutoFacts> = views
        .iter()
        .map(|v| AutoFacts {
            number: v.number.clone(),
            infraction: v.data.infraction.clone(),
            committed_on: v.data.committed_on,
            annulled: v.procedure.annulled,
            final_: v.procedure.final_,
        })
        .collect();
    let mut bases: Vec<_> = views
        .iter()
        .map(|v| state.charter_basis_of(&v.data.legal_basis_version))
        .collect();
    facts.push(AutoFacts {
        number: String::new(),
        infraction: auto.infraction.clone(),
        committed_on: auto.committed_on,
        annulled: false,
        final_: false,
    });
    bases.push(state.charter_basis());
    assess_fines_by(&facts, |i| bases[i].as_ref())
        .pop()
        .flatten()
        .ok_or(UseCaseError::Internal("an auto without its fine"))
}

/// FRET-ART19, FRET-ART21: records an auto de infração against `company_id` with its own
/// number (series AIF), drawn up now by `actor`; the number is voided if the auto cannot be
/// stored. Returns the auto's id.
pub async fn draw_up_auto(
    state: &AppState,
    company_id: Uuid,
    auto: NewAuto,
    actor: &str,
) -> Result<Uuid, UseCaseError> {
    let now = state.clock.now();
    let drawn_up_at = drawn_up_at(&auto, now)?;
    let data = AutoData {
        infraction: auto.infraction.clone(),
        committed_on: auto.committed_on,
        committed_at: auto.committed_at,
        place: auto.place,
        facts: auto.facts,
        inspector: auto.inspector,
        drawn_up_at,
        vehicle_plate: auto.vehicle_plate.map(|p| p.as_str().to_owned()),
        legal_basis_version: state.charter_basis().version.clone(),
    };
    let number = state
        .store
        .reserve_number(AUTO_SERIES, local_date(now).year(), now, actor)
        .await?
        .number;
    let aid = Uuid::new_v4();
    let event = |table: CharterTable, id: Uuid, kind, data| {
        NewEvent::act(
            table.entity_type(),
            id,
            kind,
            actor,
            &state.charter_basis().version,
            now,
            data,
        )
    };
    let commit = CharterCommit {
        row: Some((
            CharterTable::Autos,
            CharterRow {
                id: aid,
                company_id: Some(company_id),
                key: number.clone(),
                alt_key: None,
                data: serde_json::to_value(&data).map_err(|_| UseCaseError::Encoding)?,
                created_at: now,
                created_by: actor.to_owned(),
            },
        )),
        issue_number: Some(&number),
        events: vec![
            event(
                CharterTable::Autos,
                aid,
                CharterAct::Registered.as_str(),
                json!({ "number": number, "infraction": auto.infraction, "company_id": company_id }),
            ),
            event(
                CharterTable::Companies,
                company_id,
                CharterAct::AutoDrawnUp.as_str(),
                json!({ "auto_id": aid, "number": number, "infraction": auto.infraction }),
            ),
        ],
        ..CharterCommit::default()
    };
    if let Err(e) = state.store.charter_commit(commit).await {
        let e = UseCaseError::from(e);
        void(state, &number, &e).await;
        return Err(e);
    }
    Ok(aid)
}
