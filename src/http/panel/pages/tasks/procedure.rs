//! The procedure of an auto de infração as one task, for both laws (Lei 4.937/2025, arts.
//! 22–23; draft consolidated law, arts. 22–23): the auto by its number, where it stands and
//! its deadlines, and the act that comes next — notification, defence, decision,
//! reconsideration, the Mayor's decision, payment, inscription in dívida ativa — with only
//! that act's fields. "Conferir" judges the act against the procedure and shows the stage and
//! deadlines it would leave, writing nothing.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::domain::charter::sanctions::acts_that_may_follow;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, PanelError,
    Section, Signed, StatusCode, answered_day, call, check_passes, conferred, day, forms, posted,
    redirect, refused_outcome, task_page, typed, urlencode, web,
};

const INTRO: &str = "Registra o próximo ato do auto, na ordem da lei: notificação, defesa, decisão, reconsideração, pagamento ou inscrição em dívida ativa. “Conferir” mostra, sem gravar, se o ato cabe e como ficam a fase e os prazos.";
const BUTTONS: [(&str, &str); 2] = [
    ("conferir", "Conferir, sem gravar"),
    ("registrar", "Registrar o ato"),
];

const RIDE_HAILING: Meta = Meta {
    title: "Procedimento do auto de infração (aplicativo)",
    intro: INTRO,
    action: "/painel/tarefa/procedimento",
    buttons: BUTTONS,
    fallback: &["autos.notify", "autos.act", "autos.rectify_notification"],
};

const CHARTER: Meta = Meta {
    title: "Procedimento do auto de infração (fretamento)",
    intro: INTRO,
    action: "/painel/tarefa/procedimento-fretamento",
    buttons: BUTTONS,
    fallback: &["charter.procedure_act", "charter.issue_notice"],
};

/// Which law's autos a page is about.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::http::panel) enum Law {
    RideHailing,
    Charter,
}

impl Law {
    fn meta(self) -> &'static Meta {
        match self {
            Self::RideHailing => &RIDE_HAILING,
            Self::Charter => &CHARTER,
        }
    }
    fn competence(self) -> Competence {
        match self {
            Self::RideHailing => Competence::IssueRideHailing,
            Self::Charter => Competence::IssueCharter,
        }
    }
    /// The autos' collection in the API.
    fn api(self) -> &'static str {
        match self {
            Self::RideHailing => "/api/v1/app-infraction-autos",
            Self::Charter => "/api/v1/charter/autos",
        }
    }
    fn record(self) -> &'static str {
        match self {
            Self::RideHailing => "/painel/ver/app-infraction-autos",
            Self::Charter => "/painel/ver/charter/autos",
        }
    }
    fn search_kind(self) -> &'static str {
        match self {
            Self::RideHailing => "app_auto",
            Self::Charter => "charter_auto",
        }
    }
}

fn act_label(act: &str) -> &'static str {
    match act {
        "notificacao" => "Notificação do autuado",
        "defesa" => "Defesa",
        "decisao" => "Decisão",
        "reconsideracao" => "Pedido de reconsideração",
        "decisao_prefeito" => "Decisão do Prefeito",
        "pagamento" => "Pagamento da multa",
        "inscricao_divida_ativa" => "Inscrição em dívida ativa",
        _ => "Ato",
    }
}

fn stage_label(stage: &str) -> &'static str {
    match stage {
        "lavrado" => "lavrado, aguardando a notificação",
        "notificado" => "notificado, no prazo de defesa",
        "defesa_apresentada" => "defesa apresentada, aguardando a decisão",
        "decidido" => "decidido, no prazo de reconsideração",
        "reconsideracao" => "reconsideração no Gabinete do Prefeito",
        "decidido_prefeito" => "decidido pelo Prefeito",
        "definitivo" => "definitivo (não cabe mais recurso)",
        "anulado" => "anulado",
        _ => "—",
    }
}

fn outcomes() -> Vec<(String, String)> {
    vec![
        (
            "mantido".to_owned(),
            "Mantido: a penalidade subsiste".to_owned(),
        ),
        ("anulado".to_owned(), "Anulado".to_owned()),
    ]
}

/// The fields of `act`, named as the API names them.
fn act_fields(law: Law, act: &str) -> Vec<Field> {
    match act {
        // Lei 4.937/2025, art. 22, §1º: the copy signed for, or the inspector's certificate.
        "notificacao" if law == Law::Charter => vec![
            Field::select(
                "method",
                "Meio",
                vec![
                    (
                        "contrafe".into(),
                        "Contrafé (cópia entregue e assinada)".into(),
                    ),
                    (
                        "certidao_fiscal".into(),
                        "Certidão do fiscal (recusa em assinar)".into(),
                    ),
                ],
            )
            .required()
            .preset("contrafe"),
            Field::date("notified_on", "Notificada em").required(),
        ],
        "notificacao" => vec![
            Field::select(
                "method",
                "Meio",
                vec![
                    ("post".into(), "Correio, com aviso de recebimento".into()),
                    ("electronic".into(), "Meio eletrônico".into()),
                    ("edital".into(), "Edital".into()),
                ],
            )
            .required()
            .preset("post"),
            Field::date("notified_on", "Recebida pelo autuado em").required(),
            Field::date("juntada_on", "Juntada ao processo em")
                .required()
                .hint("O prazo de defesa conta da juntada."),
        ],
        "defesa" | "reconsideracao" => vec![
            Field::text("protocol", "Número do protocolo").required(),
            Field::date("filed_on", "Protocolada em").required(),
        ],
        "decisao" => vec![
            Field::select("outcome", "Resultado", outcomes()).required(),
            Field::date("decided_on", "Decidida em").required(),
            Field::date("notified_on", "Notificada ao autuado em").required(),
        ],
        "decisao_prefeito" => vec![
            Field::select("outcome", "Resultado", outcomes()).required(),
            Field::date("decided_on", "Decidida em").required(),
        ],
        "pagamento" => vec![
            Field::text("guia", "Guia (DAM)").required(),
            Field::date("paid_on", "Paga em").required(),
            Field::text("amount_centavos", "Valor pago (R$)")
                .required()
                .hint("Como na guia: 1.150,00."),
        ],
        "inscricao_divida_ativa" => vec![
            Field::text("number", "Número da inscrição").required(),
            Field::date("inscribed_on", "Inscrita em").required(),
            Field::select(
                "_confirmo",
                "Confirmação",
                vec![(
                    "sim".into(),
                    "Confirmo a inscrição do saldo em dívida ativa".into(),
                )],
            )
            .required(),
        ],
        _ => Vec::new(),
    }
}

fn sections(law: Law, act: Option<&str>) -> Vec<Section> {
    let mut sections = vec![Section::new(
        "Auto de infração",
        None,
        vec![Field::text("auto", "Número do auto").required()],
    )];
    if let Some(act) = act {
        let mut fields = act_fields(law, act);
        fields.push(Field::hidden("ato", act));
        sections.push(Section::new(act_label(act), None, fields).columns(3));
    }
    sections
}

/// The auto, where its procedure stands (the API's answer) and what to show beside it.
struct Case {
    id: uuid::Uuid,
    number: String,
    stage: String,
    shown: String,
}

/// The auto the number typed in `auto` names (or `id`), read through the API.
async fn case_of(
    law: Law,
    s: &Signed,
    state: &AppState,
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Result<Option<Case>, PanelError> {
    let id = match values
        .get("id")
        .and_then(|i| uuid::Uuid::parse_str(i.trim()).ok())
    {
        Some(id) => Some(id),
        None => {
            super::named_record(
                state,
                values,
                "auto",
                law.search_kind(),
                "Nenhum auto de infração com o número",
                errors,
            )
            .await?
        }
    };
    let Some(id) = id else { return Ok(None) };
    let answer = call(s, Method::GET, &format!("{}/{id}", law.api()), None).await?;
    if answer.status == StatusCode::FORBIDDEN {
        return Err(s.forbidden_by(&answer.json().unwrap_or_default()));
    }
    let Some(auto) = answer.json().filter(|_| answer.status.is_success()) else {
        errors.push(("auto".into(), "Auto de infração não encontrado.".into()));
        return Ok(None);
    };
    let party = match law {
        Law::RideHailing => match uuid_at(&auto, "driver_id") {
            Some(d) => state.store.get_driver(d).await?.map(|d| d.name),
            None => None,
        },
        Law::Charter => match uuid_at(&auto, "company_id") {
            Some(c) => crate::issuance::charter::register::company(state, c)
                .await
                .ok()
                .map(|c| c.data.name),
            None => None,
        },
    };
    let (article, description) = match law {
        Law::RideHailing => (
            &auto["infraction"]["article"],
            &auto["infraction"]["description"],
        ),
        Law::Charter => (&auto["article"], &auto["description"]),
    };
    let stage_now = auto["procedure"]["stage"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut shown = format!(
        "{} — {}; autuado(a): {}; fase: {}",
        article.as_str().unwrap_or_default(),
        description
            .as_str()
            .unwrap_or_default()
            .trim_end_matches('.'),
        party.unwrap_or_default(),
        stage_label(&stage_now),
    );
    shown.push_str(&deadlines(&auto["procedure"]));
    Ok(Some(Case {
        id,
        number: auto["number"].as_str().unwrap_or_default().to_owned(),
        stage: stage_now,
        shown,
    }))
}

fn uuid_at(json: &Value, key: &str) -> Option<uuid::Uuid> {
    json[key]
        .as_str()
        .and_then(|d| uuid::Uuid::parse_str(d).ok())
}

/// The deadlines a procedure's state names, as a sentence's tail.
fn deadlines(p: &Value) -> String {
    let mut out = String::new();
    for (key, what) in [
        ("defence_due", "defesa até"),
        ("reconsideration_due", "reconsideração até"),
        ("payment_due", "pagamento até"),
    ] {
        let day = answered_day(&p[key], "due");
        if !day.is_empty() {
            let _ = write!(out, "; {what} {day}");
        }
    }
    out
}

/// The links to the other acts that may come next, the one shown marked.
fn choices(law: Law, case: &Case, act: Option<&str>) -> Vec<(String, String, bool)> {
    acts_that_may_follow(&case.stage)
        .iter()
        .map(|a| {
            (
                format!("{}?id={}&ato={a}", law.meta().action, case.id),
                act_label(a).to_owned(),
                Some(*a) == act,
            )
        })
        .collect()
}

fn page(law: Law, s: &Signed, act: Option<&str>, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, law.meta(), sections(law, act), outcome, status)
}

pub(in crate::http::panel) async fn procedure_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    task(Law::RideHailing, &state, &req, query.into_inner()).await
}

pub(in crate::http::panel) async fn charter_procedure_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    task(Law::Charter, &state, &req, query.into_inner()).await
}

pub(in crate::http::panel) async fn procedure_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    submit(Law::RideHailing, &state, &req, form.into_inner()).await
}

pub(in crate::http::panel) async fn charter_procedure_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    submit(Law::Charter, &state, &req, form.into_inner()).await
}

async fn task(
    law: Law,
    state: &AppState,
    req: &HttpRequest,
    query: HashMap<String, String>,
) -> Page {
    let s = Signed::of(req, state).await?;
    s.require(law.competence())?;
    if !query.contains_key("id") {
        return page(law, &s, None, Outcome::default(), StatusCode::OK);
    }
    let mut errors = Vec::new();
    let Some(case) = case_of(law, &s, state, &query, &mut errors).await? else {
        return Err(PanelError::NotFound);
    };
    let allowed = acts_that_may_follow(&case.stage);
    let act = query
        .get("ato")
        .map(String::as_str)
        .filter(|a| allowed.contains(a))
        .or_else(|| allowed.first().copied());
    let mut values = HashMap::new();
    values.insert("auto".to_owned(), case.number.clone());
    let mut outcome = Outcome {
        values,
        found: vec![("auto".to_owned(), case.shown.clone())],
        choices: choices(law, &case, act),
        ..Outcome::default()
    };
    if act.is_none() {
        outcome
            .general
            .push("Nenhum ato a registrar nesta fase do procedimento.".into());
        outcome.headline = "Procedimento encerrado.".into();
    }
    page(law, &s, act, outcome, StatusCode::OK)
}

/// The act typed, as the API takes it (`{"act": …}` or the notification), with what the
/// fields refuse.
fn act_json(
    law: Law,
    act: &str,
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Value {
    let mut body = json!({});
    for f in act_fields(law, act) {
        let name = f.name.as_str();
        if name == "_confirmo" {
            if typed(values, name) != Some("sim") {
                errors.push((name.to_owned(), "Confirme o ato.".into()));
            }
            continue;
        }
        let Some(raw) = typed(values, name) else {
            errors.push((name.to_owned(), "Campo obrigatório.".into()));
            continue;
        };
        body[name] = match (f.kind, name) {
            ("date", _) => match day(values, name, errors) {
                Some(d) => json!(d),
                None => continue,
            },
            (_, "amount_centavos") => {
                let Some(c) = forms::api_centavos(raw) else {
                    errors.push((
                        name.to_owned(),
                        "Valor inválido; use reais, como 1.150,00.".into(),
                    ));
                    continue;
                };
                json!(c)
            }
            _ => json!(raw),
        };
    }
    if act == "notificacao" && law == Law::RideHailing {
        json!({ "notification": body })
    } else {
        body["act"] = json!(act);
        json!({ "act": body })
    }
}

fn task_field(field: &str) -> String {
    match field {
        "id" => "auto".into(),
        // The act's order: on top of the page.
        "act" => "_ordem".into(),
        other => other.to_owned(),
    }
}

/// What the procedure would look like after the act, as the clerk reads it.
fn after_act(checked: &Value) -> String {
    let p = &checked["procedure"];
    let mut out = format!(
        "Depois do ato, a fase será: {}",
        stage_label(p["stage"].as_str().unwrap_or_default())
    );
    out.push_str(&deadlines(p));
    out.push('.');
    if p["defence_timely"] == json!(false) {
        out.push_str(
            " A defesa está fora do prazo: fica registrada, e os fatos são tidos por admitidos.",
        );
    }
    if p["reconsideration_timely"] == json!(false) {
        out.push_str(" O pedido de reconsideração está fora do prazo.");
    }
    out
}

async fn submit(
    law: Law,
    state: &AppState,
    req: &HttpRequest,
    form: Vec<(String, String)>,
) -> Page {
    let s = Signed::of(req, state).await?;
    s.require(law.competence())?;
    let values = posted(&s, form)?;
    let record = values.get("acao").map(String::as_str) == Some("registrar");
    let mut errors = Vec::new();
    let Some(case) = case_of(law, &s, state, &values, &mut errors).await? else {
        let o = Outcome::refused(&values, &[], errors, "Confira os campos; nada foi gravado.");
        return page(law, &s, None, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let allowed = acts_that_may_follow(&case.stage);
    // Only the auto was typed: its page, with the act that comes next.
    let Some(act) = typed(&values, "ato") else {
        return Ok(redirect(&format!("{}?id={}", law.meta().action, case.id)));
    };
    let act = allowed.iter().copied().find(|a| *a == act);
    let found = vec![("auto".to_owned(), case.shown.clone())];
    let Some(act) = act else {
        let mut o = Outcome::refused(&values, &found, Vec::new(), "Nada foi gravado.");
        o.general.push(format!(
            "Este ato não cabe na fase atual do auto ({}).",
            stage_label(&case.stage)
        ));
        o.choices = choices(law, &case, None);
        return page(law, &s, None, o, StatusCode::CONFLICT);
    };
    let body = act_json(law, act, &values, &mut errors);
    let refused = |errors, headline: &str| Outcome {
        choices: choices(law, &case, Some(act)),
        ..Outcome::refused(&values, &found, errors, headline)
    };
    if !errors.is_empty() {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(law, &s, Some(act), o, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let path = format!("{}/{}/act-checks", law.api(), case.id);
    let checked = match check_passes(&s, &path, &body, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(law, &s, Some(act), o, status),
    };
    if !record {
        let mut o = conferred(&values, found, &after_act(&checked));
        o.choices = choices(law, &case, Some(act));
        return page(law, &s, Some(act), o, StatusCode::OK);
    }
    let (path, inner, op) = match law {
        Law::RideHailing if act == "notificacao" => {
            ("notification", &body["notification"], "autos.notify")
        }
        Law::RideHailing => ("acts", &body["act"], "autos.act"),
        Law::Charter => ("acts", &body["act"], "charter.procedure_act"),
    };
    let path = format!("{}/{}/{path}", law.api(), case.id);
    let answer = call(&s, Method::POST, &path, Some(inner)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(law, &s, Some(act), o, status);
    }
    Ok(redirect(&format!(
        "{}/{}?feito={}",
        law.record(),
        case.id,
        urlencode(op)
    )))
}
