//! Enrolments of the charter register as tasks: a bus or minibus from its CRLV and papers
//! (Lei 4.937/2025, arts. 10–13) and a driver from the CNH and certificates (art. 15), each
//! under the company by its CNPJ; conferred with the law, then enrolled.

use serde_json::Value;

use super::filed::{self, FILING};
use crate::domain::filings::FilingKind;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, check_passes, conferred, id_of, posted, redirect, refused_outcome,
    task_page, web,
};

/// One enrolment: its page, the API's operations and where the new record opens.
struct Enrolment {
    meta: Meta,
    sections: fn() -> Vec<Section>,
    /// Under `/api/v1/charter/companies/{id}/`: the act and its check.
    create: &'static str,
    check: &'static str,
    /// The new record's page, under `/painel/ver/charter/`.
    record: &'static str,
    op: &'static str,
    /// What the conferred act would do.
    what: &'static str,
    field: fn(&str) -> String,
    /// The filing sent online this task decides, where applicants file it.
    filing: Option<FilingKind>,
}

const BUS: Enrolment = Enrolment {
    meta: Meta {
        title: "Cadastro de ônibus ou micro-ônibus de fretamento",
        intro: "Os campos seguem o CRLV e os documentos do veículo. “Conferir” aplica os requisitos da lei (idade, lotação, portas, propriedade, licenciamento, ITV e seguro) sem gravar nada. Depois do cadastro, a vistoria emite o selo.",
        action: "/painel/tarefa/onibus",
        buttons: [
            ("conferir", "Conferir, sem gravar"),
            ("cadastrar", "Cadastrar o veículo"),
        ],
        fallback: &["charter.create_vehicle"],
    },
    sections: bus_sections,
    create: "vehicles",
    check: "vehicle-checks",
    record: "vehicles",
    op: "charter.create_vehicle",
    what: "O veículo será cadastrado na empresa.",
    field: bus_field,
    filing: Some(FilingKind::CharterBusEnrolment),
};

fn bus_sections() -> Vec<Section> {
    vec![
        Section::new(
            "Empresa",
            None,
            vec![Field::text("cnpj", "CNPJ da empresa de fretamento").required()],
        ),
        Section::new(
            "CRLV (art. 10 a 12)",
            None,
            vec![
                Field::text("plate", "Placa").required(),
                Field::text("renavam", "RENAVAM").required(),
                Field::select(
                    "kind",
                    "Espécie/tipo",
                    vec![
                        ("onibus".into(), "Ônibus".into()),
                        ("micro_onibus".into(), "Micro-ônibus".into()),
                    ],
                )
                .required(),
                Field::text("make", "Marca").required(),
                Field::text("model", "Modelo").required(),
                Field::number("model_year", "Ano do modelo").required(),
                Field::date("first_registration_date", "Primeiro licenciamento em").required(),
                Field::number("crlv_year", "Ano do licenciamento (CRLV)").required(),
                Field::number("seated_capacity", "Lugares sentados, sem o motorista").required(),
                Field::number("doors", "Portas").required(),
                Field::select("has_turnstile", "Tem catraca", super::yes_no())
                    .required()
                    .preset("false"),
                Field::select("zero_km", "Zero-quilômetro", super::yes_no()).preset("false"),
            ],
        )
        .columns(3),
        Section::new(
            "Propriedade (art. 12, I)",
            None,
            vec![
                Field::text("owner_cnpj", "CNPJ do proprietário")
                    .required()
                    .hint("O do CRV, ou o do comprador no contrato registrado."),
                Field::select(
                    "ownership_proof",
                    "Comprovante",
                    vec![
                        ("crv".into(), "CRV".into()),
                        ("crv_e".into(), "CRV-e".into()),
                        ("atpv_e".into(), "ATPV-e".into()),
                        (
                            "contrato_rtd".into(),
                            "Contrato registrado em títulos e documentos".into(),
                        ),
                        ("extrato_detran".into(), "Extrato do DETRAN".into()),
                    ],
                )
                .required(),
            ],
        )
        .columns(2),
        Section::new(
            "Laudo de ITV e seguro (art. 12, III e IV)",
            None,
            vec![
                Field::date("itv_report_date", "Laudo de ITV emitido em"),
                Field::text("itv_provider", "Organismo da ITV"),
                Field::text("insurance.insurer", "Seguradora"),
                Field::text("insurance.policy", "Apólice"),
                Field::date("insurance.valid_from", "Seguro válido de"),
                Field::date("insurance.valid_to", "Seguro válido até"),
            ],
        )
        .columns(2),
        Section::new(
            "Pedido",
            None,
            vec![
                Field::date("enrolled_on", "Data do protocolo do pedido de cadastro")
                    .hint("Em branco: hoje."),
                // Opened from a filing sent online: the decision is recorded on it.
                Field::hidden(FILING, ""),
            ],
        ),
    ]
}

fn bus_field(field: &str) -> String {
    match field {
        "company" | "id" => "cnpj".into(),
        "insurance" => "insurance.policy".into(),
        "first_registration_year_only" => "first_registration_date".into(),
        other => other.to_owned(),
    }
}

const DRIVER: Enrolment = Enrolment {
    meta: Meta {
        title: "Cadastro de motorista de fretamento",
        intro: "Os campos seguem a CNH e os documentos do art. 15. “Conferir” aplica os requisitos da lei sem gravar nada.",
        action: "/painel/tarefa/motorista",
        buttons: [
            ("conferir", "Conferir, sem gravar"),
            ("cadastrar", "Cadastrar o motorista"),
        ],
        fallback: &["charter.create_driver"],
    },
    sections: driver_sections,
    create: "drivers",
    check: "driver-checks",
    record: "drivers",
    op: "charter.create_driver",
    what: "O motorista será cadastrado na empresa.",
    field: driver_field,
    filing: None,
};

fn driver_sections() -> Vec<Section> {
    let proof = |name: &str, label: &str| {
        vec![
            Field::text(&format!("{name}.reference"), label),
            Field::date(&format!("{name}.issued_on"), "Emitido em"),
            Field::date(&format!("{name}.valid_until"), "Válido até (se impresso)"),
        ]
    };
    let mut documents = proof(
        "course_certificate",
        "Curso de transporte coletivo de passageiros (número)",
    );
    documents.extend(proof("folha_corrida", "Alvará de Folha Corrida (número)"));
    documents.extend([
        Field::select(
            "employment_link.kind",
            "Vínculo com a empresa",
            vec![
                ("ctps".into(), "Carteira de trabalho".into()),
                ("ctps_digital".into(), "Carteira de trabalho digital".into()),
                ("esocial".into(), "Registro no eSocial".into()),
                ("socio".into(), "Sócio da empresa".into()),
            ],
        ),
        Field::text(
            "employment_link.reference",
            "Número ou referência do vínculo",
        ),
        Field::date("toxicological_exam_on", "Último exame toxicológico em"),
    ]);
    vec![
        Section::new(
            "Empresa",
            None,
            vec![Field::text("cnpj", "CNPJ da empresa de fretamento").required()],
        ),
        Section::new(
            "Motorista e CNH (art. 15, I)",
            None,
            vec![
                Field::text("name", "Nome completo").required(),
                Field::text("cpf", "CPF").required(),
                Field::date("birth_date", "Nascimento").required(),
                Field::text("cnh_number", "Número da CNH").required(),
                Field::text("cnh_category", "Categoria da CNH")
                    .required()
                    .hint("D ou E (AD e AE também)."),
                Field::select(
                    "cnh_ear",
                    "Exerce atividade remunerada (EAR)",
                    super::yes_no(),
                )
                .required()
                .preset("true"),
                Field::date("cnh_expires_on", "CNH válida até").required(),
            ],
        )
        .columns(3),
        Section::new("Documentos (art. 15, II a V)", None, documents).columns(3),
    ]
}

fn driver_field(field: &str) -> String {
    match field {
        "company" | "id" => "cnpj".into(),
        "course_certificate" | "folha_corrida" | "employment_link" => {
            format!("{field}.reference")
        }
        other => other.to_owned(),
    }
}

fn page(e: &Enrolment, s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &e.meta, (e.sections)(), outcome, status)
}

async fn task(
    e: &Enrolment,
    state: &AppState,
    req: &HttpRequest,
    query: &HashMap<String, String>,
) -> Page {
    let s = Signed::of(req, state).await?;
    s.require(Competence::IssueCharter)?;
    // From the company's page: `?id=` names it, shown by its CNPJ.
    let mut outcome = super::opened_on_company(state, query).await;
    if let Some(kind) = e.filing
        && let Some(v) =
            filed::prefill(state, query, kind, "enrolled_on", &[], &mut outcome).await?
    {
        outcome
            .values
            .insert("cnpj".into(), v.subject.number.clone());
    }
    page(e, &s, outcome, StatusCode::OK)
}

async fn submit(
    e: &Enrolment,
    state: &AppState,
    req: &HttpRequest,
    form: Vec<(String, String)>,
) -> Page {
    let s = Signed::of(req, state).await?;
    s.require(Competence::IssueCharter)?;
    let mut values = posted(&s, form)?;
    let act = values.get("acao").map(String::as_str) == Some("cadastrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let filing = match e.filing {
        Some(kind) => {
            let at = ("cnpj", &mut errors);
            filed::posted(state, &mut values, kind, "enrolled_on", at).await?
        }
        None => None,
    };
    let company = super::company_named(state, &values, "cnpj", &mut errors, &mut found).await?;
    let typed_record = company.as_ref().map(|c| c.id);
    filed::same_subject(filing.as_ref(), typed_record, ("cnpj", &mut errors));
    let pattern = format!("/api/v1/charter/companies/{{id}}/{}", e.create);
    let body: Option<Value> = super::api_body(&pattern, &values, &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let (Some(c), Some(body)) = (company, body.filter(|_| errors.is_empty())) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(e, &s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let path = format!("/api/v1/charter/companies/{}/{}", c.id, e.check);
    if let Err((o, status)) =
        check_passes(&s, &path, &body, refused(Vec::new(), ""), e.field).await?
    {
        return page(e, &s, o, status);
    }
    if !act {
        let what = format!("{} ({})", e.what, c.data.name);
        return page(e, &s, conferred(&values, found, &what), StatusCode::OK);
    }
    let path = format!("/api/v1/charter/companies/{}/{}", c.id, e.create);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), e.field)?;
        return page(e, &s, o, status);
    }
    filed::record_decision(state, &s, filing.as_ref(), &answer).await;
    Ok(redirect(&format!(
        "/painel/ver/charter/{}/{}?feito={}",
        e.record,
        id_of(&answer),
        e.op
    )))
}

pub(in crate::http::panel) async fn bus_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    task(&BUS, &state, &req, &query).await
}

pub(in crate::http::panel) async fn bus_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    submit(&BUS, &state, &req, form.into_inner()).await
}

pub(in crate::http::panel) async fn charter_driver_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    task(&DRIVER, &state, &req, &query).await
}

pub(in crate::http::panel) async fn charter_driver_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    submit(&DRIVER, &state, &req, form.into_inner()).await
}
