//! Charter drivers (Lei 4.937/2025, art. 15): enrolment, documents and baixa.

use super::{
    ApiError, AppState, CharterDriverFacts, CharterStatus, CnhNumber, Cpf, Deserialize,
    DriverBaixa, Fields, HttpResponse, NaiveDate, NewDriver, Official, ProblemItem, Reply,
    Serialize, Uuid, check_driver_facts, local_date, not_found, parsed, path_id, rectification,
    reg, register, rules, web,
};

/// A driver's baixa, or the rectification of one entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DriverBaixaDto {
    #[serde(flatten)]
    baixa: DriverBaixa,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterNewDriverDto {
    name: String,
    cpf: String,
    cnh_number: String,
    #[serde(flatten)]
    facts: CharterDriverFacts,
}

/// The company of the path and the driver of the body, parsed (art. 15's facts checked for
/// their form).
async fn enrolment(
    state: &AppState,
    id: &str,
    body: CharterNewDriverDto,
) -> Result<(Uuid, NewDriver), ApiError> {
    let company_id = register::company(state, path_id(id, "Empresa")?).await?.id;
    let mut f = Fields::default();
    check_driver_facts(&mut f, &body.facts, local_date(state.clock.now()));
    f.finish()?;
    Ok((company_id, NewDriver::try_from(body)?))
}

/// `POST /api/v1/charter/companies/{id}/drivers` (FRET-ART15, FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/drivers", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Condutor cadastrado", body = CharterDriverView)))]
pub async fn create_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewDriverDto>,
) -> Reply {
    let (company_id, new) = enrolment(&state, &id, body.into_inner()).await?;
    let did = register::enrol_driver(&state, &official.actor, company_id, new).await?;
    driver_reply(&state, did, StatusCodeKind::Created).await
}

/// `POST /api/v1/charter/companies/{id}/driver-checks` (FRET-ART15): judges the enrolment
/// of a driver as it would be decided now; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/driver-checks", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "O que o cadastro decidiria, com cada requisito não atendido", body = super::EnrolmentCheckView)))]
pub async fn check_driver(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewDriverDto>,
) -> Reply {
    let (company_id, new) = enrolment(&state, &id, body.into_inner()).await?;
    let failures = register::check_driver(&state, company_id, &new).await?;
    Ok(HttpResponse::Ok().json(super::EnrolmentCheckView::of(failures)))
}

impl TryFrom<CharterNewDriverDto> for NewDriver {
    type Error = ApiError;

    fn try_from(dto: CharterNewDriverDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let name = f.text("name", &dto.name, 200);
        let cpf = f.take("cpf", Cpf::parse(&dto.cpf), "CPF inválido.");
        let cnh = f.take(
            "cnh_number",
            CnhNumber::parse(&dto.cnh_number),
            "Número de registro da CNH inválido.",
        );
        let (name, cpf, cnh_number) = f.done(parsed!(name, cpf, cnh))?;
        Ok(Self {
            name,
            cpf,
            cnh_number,
            facts: dto.facts,
        })
    }
}

pub(super) enum StatusCodeKind {
    Ok,
    Created,
}

pub(super) async fn driver_reply(state: &AppState, id: Uuid, code: StatusCodeKind) -> Reply {
    driver_reply_as_of(state, id, code, None).await
}

/// The driver as of the end of `day` (`None`: now): the documents filed by then, judged by
/// the basis in force that day; a 422 on `as_of` before the enrolment.
async fn driver_reply_as_of(
    state: &AppState,
    id: Uuid,
    code: StatusCodeKind,
    day: Option<NaiveDate>,
) -> Reply {
    let until = day.map(crate::domain::dates::end_of_local_day);
    let d = reg::load_driver_at(&state.store, id, until)
        .await?
        .ok_or_else(|| not_found("Condutor"))?;
    let today = day.unwrap_or_else(|| local_date(state.clock.now()));
    if today < local_date(d.enrolled_at) {
        return Err(crate::http::authorizations::AsOfQuery::before_record(
            "O condutor",
        ));
    }
    let (status, failures) = rules::driver_status(
        &d.data.facts,
        d.deregistered_on,
        today,
        &state.legal_bases.current().charter_on(today),
    );
    let cpf = Cpf::parse(&d.cpf).map_err(|_| ApiError::Internal)?;
    let body = CharterDriverView {
        id: d.id,
        company_id: d.company_id,
        name: d.data.name.clone(),
        cpf: cpf.formatted(),
        cnh_number: d.data.cnh_number.clone(),
        facts: d.data.facts.clone(),
        status,
        status_label: status.label_pt(),
        deregistered_on: d.deregistered_on,
        irregularities: failures.into_iter().map(ProblemItem::from).collect(),
    };
    Ok(match code {
        StatusCodeKind::Ok => HttpResponse::Ok().json(body),
        StatusCodeKind::Created => HttpResponse::Created().json(body),
    })
}

/// A driver of a charter company, with the requirements of art. 15 checked today.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterDriverView {
    id: Uuid,
    company_id: Uuid,
    name: String,
    /// CPF formatado.
    cpf: String,
    cnh_number: String,
    facts: CharterDriverFacts,
    status: CharterStatus,
    status_label: &'static str,
    deregistered_on: Option<NaiveDate>,
    irregularities: Vec<ProblemItem>,
}

#[utoipa::path(get, path = "/api/v1/charter/drivers/{id}", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor"), crate::http::authorizations::AsOfQuery),
    responses((status = 200, description = "O condutor, com a situação hoje ou ao fim do dia `as_of`", body = CharterDriverView)))]
pub async fn get_driver(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
    q: web::Query<crate::http::authorizations::AsOfQuery>,
) -> Reply {
    let day = q.day(&state)?;
    driver_reply_as_of(&state, path_id(&id, "Condutor")?, StatusCodeKind::Ok, day).await
}

/// A driver's documents, or the rectification of a filing entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DriverDocumentsDto {
    #[serde(flatten)]
    facts: CharterDriverFacts,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/drivers/{id}/documents` (FRET-ART9, FRET-ART15): updated documents.
#[utoipa::path(post, path = "/api/v1/charter/drivers/{id}/documents", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "Documentos registrados", body = CharterDriverView)))]
pub async fn file_driver_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DriverDocumentsDto>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    check_driver_facts(&mut f, &body.facts, today);
    let rectifies = rectification::parse(&mut f, body.rectifies.as_ref(), today);
    let rectifies = f.done(rectifies)?;
    register::file_driver_documents(
        &state,
        &official.actor,
        did,
        &body.facts,
        rectifies.as_ref(),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}

/// `POST /api/v1/charter/drivers/{id}/baixa` (FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/drivers/{id}/baixa", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "Baixa registrada", body = CharterDriverView)))]
pub async fn baixa_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DriverBaixaDto>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    register::baixa_driver(
        &state,
        &official.actor,
        did,
        &body.baixa,
        rectifies.as_ref(),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}
