//! Charter vehicles (Lei 4.937/2025, arts. 10–14): enrolment, ITV, documents,
//! vistorias and the selo, baixa and substitution.

use super::{
    ApiError, AppState, Baixa, CharterStatus, CharterVehicle, CharterVehicleFacts, Company,
    Deserialize, DocumentView, Fields, HttpResponse, ItvReport, NaiveDate, NewVehicle, Official,
    Plate, ProblemItem, Renavam, Reply, Serialize, SubstitutionReason, SubstitutionRequest, Uuid,
    VehicleDocuments, Vistoria, check_crlv_year, check_vehicle_facts, document_view, local_date,
    not_found, parsed, path_id, rectification, reg, register, rules, vehicle_or_404, web,
};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterNewVehicleDto {
    plate: String,
    renavam: String,
    make: String,
    model: String,
    #[serde(flatten)]
    facts: CharterVehicleFacts,
    #[serde(default)]
    itv_report_date: Option<String>,
    #[serde(default)]
    itv_provider: Option<String>,
    /// Data do protocolo do pedido de cadastro na SIS (art. 26, §1º); padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    enrolled_on: Option<String>,
}

/// The company of the path and the vehicle of the body, parsed (FRET-ART10–13's facts
/// checked for their form).
async fn enrolment(
    state: &AppState,
    id: &str,
    body: CharterNewVehicleDto,
) -> Result<(Uuid, NewVehicle), ApiError> {
    let company_id = register::company(state, path_id(id, "Empresa")?).await?.id;
    let mut f = Fields::default();
    check_vehicle_facts(&mut f, &body.facts, local_date(state.clock.now()));
    f.finish()?;
    Ok((company_id, NewVehicle::try_from(body)?))
}

/// `POST /api/v1/charter/companies/{id}/vehicles` (FRET-ART10–13, FRET-ART24): enrols a
/// bus or minibus; every requirement of arts. 10–13 must hold on the filing day.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/vehicles", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Veículo cadastrado", body = CharterVehicleView)))]
pub async fn create_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewVehicleDto>,
) -> Reply {
    let (company_id, new) = enrolment(&state, &id, body.into_inner()).await?;
    let (vid, warning) = register::enrol_vehicle(&state, &official.actor, company_id, new).await?;
    let c = register::company(&state, company_id).await?;
    let v = register::vehicle(&state, vid).await?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body.warnings = Some(warning.into_iter().map(ProblemItem::from).collect());
    Ok(HttpResponse::Created().json(body))
}

/// What an enrolment would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct EnrolmentCheckView {
    /// `true` quando o cadastro seria feito como está.
    passes: bool,
    /// Cada requisito não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

impl EnrolmentCheckView {
    pub(super) fn of(failures: Vec<crate::domain::rule::RuleFailure>) -> Self {
        Self {
            passes: failures.is_empty(),
            errors: failures.into_iter().map(ProblemItem::from).collect(),
        }
    }
}

/// `POST /api/v1/charter/companies/{id}/vehicle-checks` (FRET-ART10–13): judges the
/// enrolment of a bus or minibus as it would be decided now; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/vehicle-checks", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "O que o cadastro decidiria, com cada requisito não atendido", body = EnrolmentCheckView)))]
pub async fn check_vehicle(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewVehicleDto>,
) -> Reply {
    let (company_id, new) = enrolment(&state, &id, body.into_inner()).await?;
    let failures = register::check_vehicle(&state, company_id, &new).await?;
    Ok(HttpResponse::Ok().json(EnrolmentCheckView::of(failures)))
}

impl TryFrom<CharterNewVehicleDto> for NewVehicle {
    type Error = ApiError;

    fn try_from(dto: CharterNewVehicleDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let plate = f.take("plate", Plate::parse(&dto.plate), "Placa inválida.");
        let renavam = f.take("renavam", Renavam::parse(&dto.renavam), "RENAVAM inválido.");
        let make = f.text("make", &dto.make, 60);
        let model = f.text("model", &dto.model, 60);
        let itv = dto
            .itv_report_date
            .as_deref()
            .map(|d| f.date("itv_report_date", d));
        let enrolled_on = dto.enrolled_on.as_deref().map(|d| f.date("enrolled_on", d));
        let (plate, renavam, make, model) = f.done(parsed!(plate, renavam, make, model))?;
        Ok(Self {
            plate,
            renavam,
            make,
            model,
            facts: dto.facts,
            itv: itv.flatten().map(|report_date| ItvReport {
                report_date,
                provider: dto.itv_provider.unwrap_or_default(),
            }),
            enrolled_on: enrolled_on.flatten(),
        })
    }
}

pub(super) async fn vehicle_json(
    state: &AppState,
    v: &CharterVehicle,
    c: &Company,
) -> Result<CharterVehicleView, ApiError> {
    vehicle_json_at(state, v, c, local_date(state.clock.now())).await
}

/// The bus as it stood on `today` (a past day for `as_of`): its documents, vistoria and
/// service life, and its company's Termo, from the acts recorded with their dates.
async fn vehicle_json_at(
    state: &AppState,
    v: &CharterVehicle,
    c: &Company,
    today: NaiveDate,
) -> Result<CharterVehicleView, ApiError> {
    let termos = reg::termos_of(&state.store, c.id).await?;
    let (report, company_status) =
        reg::vehicle_live_status(v, c, &termos, today, &state.charter_basis());
    let docs = state.store.documents_of_subject(v.id).await?;
    let may_operate =
        report.status == CharterStatus::Ativo && company_status == CharterStatus::Ativo;
    let transition = if c.data.operating_before_law {
        let cal = state.calendar().await?;
        let due = rules::transition_deadlines(&state.charter_basis(), &cal, &state.deadline_rules)
            .vehicle_enrolment
            .due;
        Some(VehicleTransition {
            rule: "FRET-ART26-P1",
            due,
            enrolled_on: v.enrolled_on,
            within_deadline: v.enrolled_on <= due,
        })
    } else {
        None
    };
    Ok(CharterVehicleView {
        id: v.id,
        company_id: c.id,
        company: c.data.name.clone(),
        company_status,
        plate: v.plate.formatted(),
        renavam: v.renavam.clone(),
        make: v.make.clone(),
        model: v.model.clone(),
        facts: v.record.facts.clone(),
        enrolled_on: v.enrolled_on,
        transition,
        status: report.status,
        status_label: report.status.label_pt(),
        may_operate,
        service_life_until: report.service_life_until,
        vistoria_valid_until: report.vistoria_valid_until,
        itv_valid_until: report.itv_valid_until,
        insurance_valid_to: report.insurance_valid_to,
        irregularities: report
            .irregularities
            .into_iter()
            .map(ProblemItem::from)
            .collect(),
        vistorias: v.record.vistorias.clone(),
        baixa: v.record.baixa.clone(),
        selos: docs.iter().map(|d| document_view(state, d)).collect(),
        warnings: None,
        selo: None,
    })
}

/// Art. 26, §1º for one vehicle of a company that operated before the law.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VehicleTransition {
    rule: &'static str,
    due: NaiveDate,
    enrolled_on: NaiveDate,
    within_deadline: bool,
}

/// A charter bus or minibus: its facts, status now and selos de vistoria.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterVehicleView {
    id: Uuid,
    company_id: Uuid,
    company: String,
    company_status: CharterStatus,
    plate: String,
    renavam: String,
    make: String,
    model: String,
    facts: CharterVehicleFacts,
    /// Data do protocolo do cadastro na SIS.
    enrolled_on: NaiveDate,
    /// Empresa que já operava antes da lei: o prazo de transição do art. 26, §1º, e se o
    /// cadastro deste veículo o cumpriu.
    #[serde(skip_serializing_if = "Option::is_none")]
    transition: Option<VehicleTransition>,
    status: CharterStatus,
    status_label: &'static str,
    /// Se pode circular agora: veículo e empresa ativos.
    may_operate: bool,
    service_life_until: NaiveDate,
    vistoria_valid_until: Option<NaiveDate>,
    itv_valid_until: Option<NaiveDate>,
    insurance_valid_to: Option<NaiveDate>,
    irregularities: Vec<ProblemItem>,
    vistorias: Vec<Vistoria>,
    baixa: Option<Baixa>,
    /// Os documentos emitidos para o veículo (selos e certidões).
    selos: Vec<DocumentView>,
    /// Avisos do cadastro (prazo de transição, art. 26, §1º); só na resposta do cadastro.
    #[serde(skip_serializing_if = "Option::is_none")]
    warnings: Option<Vec<ProblemItem>>,
    /// O selo emitido pela vistoria (nulo se reprovada); só na resposta da vistoria.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[expect(
        clippy::option_option,
        reason = "absent outside a vistoria's answer; null when failed"
    )]
    selo: Option<Option<DocumentView>>,
}

pub(super) async fn vehicle_reply(state: &AppState, v: &CharterVehicle) -> Reply {
    let c = reg::load_company(&state.store, v.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(vehicle_json(state, v, &c).await?))
}

#[utoipa::path(get, path = "/api/v1/charter/vehicles/{id}", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo"), crate::http::authorizations::AsOfQuery),
    responses((status = 200, description = "O veículo, com a situação hoje ou ao fim do dia `as_of`", body = CharterVehicleView)))]
pub async fn get_vehicle(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
    q: web::Query<crate::http::authorizations::AsOfQuery>,
) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    let Some(day) = q.day(&state)? else {
        return vehicle_reply(&state, &v).await;
    };
    if day < v.enrolled_on {
        return Err(crate::http::authorizations::AsOfQuery::before_record(
            "O veículo",
        ));
    }
    let c = reg::load_company(&state.store, v.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(vehicle_json_at(&state, &v, &c, day).await?))
}

/// `GET /api/v1/charter/vehicles/by-plate/{plate}` (FRET-ART19-III): what an inspector
/// needs on the road: registration, vistoria and service-life status by plate.
#[utoipa::path(get, path = "/api/v1/charter/vehicles/by-plate/{plate}", tag = "charter vehicles", security(("bearer" = [])), params(("plate" = String, Path, description = "A placa (ABC1234, ABC-1234 ou Mercosul)")),
    responses((status = 200, description = "O veículo", body = CharterVehicleView)))]
pub async fn vehicle_by_plate(
    state: web::Data<AppState>,
    _o: Official,
    plate: web::Path<String>,
) -> Reply {
    let plate = Plate::parse(&plate).map_err(|_| not_found("Veículo"))?;
    let v = reg::vehicle_by_plate(&state.store, &plate)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(
                "Veículo não cadastrado na Secretaria de Infraestrutura e Serviços (art. 19, III)."
                    .into(),
            )
        })?;
    vehicle_reply(&state, &v).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ItvDto {
    report_date: String,
    provider: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/vehicles/{id}/itv` (FRET-ART12-IV): a new ITV report.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/itv", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Laudo registrado", body = CharterVehicleView)))]
pub async fn file_itv(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ItvDto>,
) -> Reply {
    let vid = register::vehicle(&state, path_id(&id, "Veículo")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let report = ItvReport::try_from((body.into_inner(), today))?;
    register::file_itv(&state, &official.actor, vid, &report, rectifies.as_ref()).await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

impl TryFrom<(ItvDto, NaiveDate)> for ItvReport {
    type Error = ApiError;

    /// `today`: a report cannot be future.
    fn try_from((dto, today): (ItvDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let day = f.date("report_date", &dto.report_date);
        let provider = f.text("provider", &dto.provider, 200);
        if day.is_some_and(|d| d > today) {
            f.take::<(), ()>("report_date", Err(()), "O laudo não pode ter data futura.");
        }
        let (report_date, provider) = f.done(parsed!(day, provider))?;
        Ok(Self {
            report_date,
            provider,
        })
    }
}

/// `POST /api/v1/charter/vehicles/{id}/documents` (FRET-ART12-II/III): a new CRLV year or
/// insurance policy.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/documents", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Documentos registrados", body = CharterVehicleView)))]
pub async fn file_vehicle_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VehicleDocumentsDto>,
) -> Reply {
    let vid = path_id(&id, "Veículo")?;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    check_crlv_year(&mut f, body.documents.crlv_year, today);
    let rectifies = rectification::parse(&mut f, body.rectifies.as_ref(), today);
    let rectifies = f.done(rectifies)?;
    register::file_vehicle_documents(
        &state,
        &official.actor,
        vid,
        &body.documents,
        rectifies.as_ref(),
    )
    .await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

/// A vehicle's baixa, or the rectification of one entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct BaixaDto {
    #[serde(flatten)]
    baixa: Baixa,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// A CRLV year or insurance policy, or the rectification of one filed wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct VehicleDocumentsDto {
    #[serde(flatten)]
    documents: VehicleDocuments,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterVistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/vehicles/{id}/vistorias` (FRET-ART13, §1º): records a municipal
/// vistoria; an approved one issues the selo de vistoria, in the same transaction.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/vistorias", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 201, description = "Vistoria registrada; `selo` traz o selo emitido (nulo se reprovada)", body = CharterVehicleView)))]
pub async fn record_vistoria(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterVistoriaDto>,
) -> Reply {
    let vid = register::vehicle(&state, path_id(&id, "Veículo")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let vistoria = Vistoria::try_from((body.into_inner(), today))?;
    let selo =
        register::record_vistoria(&state, &official.actor, vid, &vistoria, rectifies.as_ref())
            .await?;
    let v = register::vehicle(&state, vid).await?;
    let c = register::company(&state, v.company_id).await?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body.selo = Some(selo.map(|doc| document_view(&state, &doc)));
    Ok(HttpResponse::Created().json(body))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct VistoriaCheckDto {
    /// O dia da vistoria; padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    performed_on: Option<String>,
}

/// What an approving vistoria would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VistoriaCheckView {
    /// `true` quando a vistoria aprovada emitiria o selo.
    passes: bool,
    plate: String,
    company: String,
    /// Cada requisito do veículo não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/charter/vehicles/{id}/vistoria-checks` (FRET-ART10…13): judges an approving
/// vistoria — whether the selo would be issued — and writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/vistoria-checks", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Se a vistoria aprovada emitiria o selo, com cada requisito não atendido", body = VistoriaCheckView)))]
pub async fn check_vistoria(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<VistoriaCheckDto>,
) -> Reply {
    let v = register::vehicle(&state, path_id(&id, "Veículo")?).await?;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    let performed_on = body
        .performed_on
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .and_then(|d| f.date("performed_on", d))
        .unwrap_or(today);
    f.finish()?;
    if performed_on > today {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "performed_on",
            "A vistoria não pode ter data futura.",
        )]));
    }
    let failures = register::check_vistoria(&state, v.id, performed_on).await?;
    let c = register::company(&state, v.company_id).await?;
    Ok(HttpResponse::Ok().json(VistoriaCheckView {
        passes: failures.is_empty(),
        plate: v.plate.as_str().to_owned(),
        company: c.data.name.clone(),
        errors: failures.into_iter().map(ProblemItem::from).collect(),
    }))
}

impl TryFrom<(CharterVistoriaDto, NaiveDate)> for Vistoria {
    type Error = ApiError;

    /// `today`: a vistoria cannot be future.
    fn try_from((dto, today): (CharterVistoriaDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let performed_on = f.date("performed_on", &dto.performed_on);
        let inspector = f.text("inspector", &dto.inspector, 200);
        if performed_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "performed_on",
                Err(()),
                "A vistoria não pode ter data futura.",
            );
        }
        let (performed_on, inspector) = f.done(parsed!(performed_on, inspector))?;
        Ok(Self {
            performed_on,
            approved: dto.approved,
            inspector,
            notes: dto.notes,
        })
    }
}

/// `POST /api/v1/charter/vehicles/{id}/baixa` (FRET-ART13-P5, FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/baixa", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Baixa registrada", body = CharterVehicleView)))]
pub async fn baixa_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<BaixaDto>,
) -> Reply {
    let vid = path_id(&id, "Veículo")?;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    register::baixa_vehicle(
        &state,
        &official.actor,
        vid,
        &body.baixa,
        rectifies.as_ref(),
    )
    .await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterSubstitutionDto {
    replaced_vehicle_id: String,
    substitute_vehicle_id: String,
    reason: SubstitutionReason,
    authorized_from: String,
    authorized_to: String,
    decision: String,
}

/// `POST /api/v1/charter/companies/{id}/substitutions` (FRET-ART14, AMB-48): a temporary,
/// revocable replacement of a vehicle made unusable by accident, theft or damage.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/substitutions", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Substituição autorizada", body = register::AuthorizedSubstitution)))]
pub async fn authorize_substitution(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterSubstitutionDto>,
) -> Reply {
    let company_id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let req = SubstitutionRequest::try_from(body.into_inner())?;
    let authorized =
        register::authorize_substitution(&state, &official.actor, company_id, req).await?;
    Ok(HttpResponse::Created().json(authorized))
}

impl TryFrom<CharterSubstitutionDto> for SubstitutionRequest {
    type Error = ApiError;

    fn try_from(dto: CharterSubstitutionDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let replaced = f.uuid("replaced_vehicle_id", &dto.replaced_vehicle_id);
        let substitute = f.uuid("substitute_vehicle_id", &dto.substitute_vehicle_id);
        let from = f.date("authorized_from", &dto.authorized_from);
        let to = f.date("authorized_to", &dto.authorized_to);
        let decision = f.text("decision", &dto.decision, 200);
        let (replaced_vehicle_id, substitute_vehicle_id, authorized_from, authorized_to, decision) =
            f.done(parsed!(replaced, substitute, from, to, decision))?;
        Ok(Self {
            replaced_vehicle_id,
            substitute_vehicle_id,
            reason: dto.reason,
            authorized_from,
            authorized_to,
            decision,
        })
    }
}
