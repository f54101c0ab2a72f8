//! Charter contracts and trips (Lei 4.937/2025, arts. 1–6, 28): filing, ending, trips.

use super::{
    ApiError, AppState, ContractFacts, ContractKind, Deadline, Deserialize, Fields, HttpResponse,
    NaiveDate, Official, Passenger, Plate, ProblemItem, Reply, Serialize, TripRequest, Uuid,
    parsed, path_id, register, rules, web,
};

/// `POST /api/v1/charter/companies/{id}/contracts` (FRET-ART1-PU, FRET-ART2, FRET-ART3,
/// FRET-ART5, FRET-ART8-P3, FRET-ART10-PU, FRET-ART28).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/contracts", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Contrato registrado", body = ContractView)))]
pub async fn create_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractFacts>,
) -> Reply {
    let company_id = path_id(&id, "Empresa")?;
    let contract = body.into_inner();
    let registered =
        register::register_contract(&state, &official.actor, company_id, &contract).await?;
    Ok(HttpResponse::Created().json(ContractView {
        id: registered.id,
        company_id,
        kind: contract.kind,
        notice_due: registered.notice_due,
        warnings: registered.late.into_iter().map(ProblemItem::from).collect(),
        manual_review: registered.manual_review,
        legal_basis_version: state.charter_basis().version.clone(),
    }))
}

/// What registering a contract would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContractCheckView {
    /// `true` quando o contrato seria registrado como está.
    passes: bool,
    /// O prazo para comunicar o contrato à Secretaria (art. 3º).
    notice_due: Deadline,
    /// A comunicação fora do prazo, que o registro aponta.
    warnings: Vec<ProblemItem>,
    /// O que a Secretaria precisaria conferir à mão.
    manual_review: Vec<String>,
    /// Cada requisito não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/charter/companies/{id}/contract-checks` (FRET-ART2, FRET-ART3,
/// FRET-ART8-P3): judges a contract as it would be registered now; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/contract-checks", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "O que o registro decidiria, com cada requisito não atendido", body = ContractCheckView)))]
pub async fn check_contract(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<ContractFacts>,
) -> Reply {
    let company_id = path_id(&id, "Empresa")?;
    let judged = register::check_contract(&state, company_id, &body.into_inner()).await?;
    Ok(HttpResponse::Ok().json(ContractCheckView {
        passes: judged.failures.is_empty(),
        notice_due: judged.notice_due,
        warnings: judged.late.into_iter().map(ProblemItem::from).collect(),
        manual_review: judged.manual_review,
        errors: judged.failures.into_iter().map(ProblemItem::from).collect(),
    }))
}

/// A charter contract just registered, with its notice deadline (art. 3º).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContractView {
    id: Uuid,
    company_id: Uuid,
    kind: ContractKind,
    /// O prazo para comunicar o contrato à Secretaria (art. 3º).
    notice_due: Deadline,
    warnings: Vec<ProblemItem>,
    /// O que a Secretaria precisa conferir à mão.
    manual_review: Vec<String>,
    legal_basis_version: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ContractEndDto {
    ended_on: String,
    communicated_on: String,
}

/// `POST /api/v1/charter/contracts/{id}/end` (FRET-ART3: notice within 15 days of the end).
#[utoipa::path(post, path = "/api/v1/charter/contracts/{id}/end", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O contrato")),
    responses((status = 200, description = "Encerramento registrado", body = ContractEndView)))]
pub async fn end_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractEndDto>,
) -> Reply {
    let contract_id = register::contract_id(&state, path_id(&id, "Contrato")?).await?;
    let end = ContractEnd::try_from(body.into_inner())?;
    let (due, late) = register::end_contract(
        &state,
        &official.actor,
        contract_id,
        end.ended_on,
        end.communicated_on,
    )
    .await?;
    Ok(HttpResponse::Ok().json(ContractEndView {
        id: contract_id,
        ended_on: end.ended_on,
        notice_due: due,
        warnings: late.into_iter().map(ProblemItem::from).collect(),
    }))
}

/// The end of a contract and when it was communicated, parsed.
pub struct ContractEnd {
    ended_on: NaiveDate,
    communicated_on: NaiveDate,
}

impl TryFrom<ContractEndDto> for ContractEnd {
    type Error = ApiError;

    fn try_from(dto: ContractEndDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let ended = f.date("ended_on", &dto.ended_on);
        let communicated = f.date("communicated_on", &dto.communicated_on);
        let (ended_on, communicated_on) = f.done(parsed!(ended, communicated))?;
        Ok(Self {
            ended_on,
            communicated_on,
        })
    }
}

/// The end of a contract, with the deadline to communicate it (art. 3º).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContractEndView {
    id: Uuid,
    ended_on: NaiveDate,
    notice_due: Deadline,
    warnings: Vec<ProblemItem>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct TripDto {
    date: String,
    vehicle_plate: String,
    passengers: Vec<Passenger>,
    /// `ida` (default) or `volta`: the return of the group that went (art. 2º, III).
    #[serde(default)]
    leg: Option<rules::TripLeg>,
}

/// `POST /api/v1/charter/contracts/{id}/trips` (FRET-ART1-PU-III, FRET-ART2, FRET-ART10-PU):
/// the passenger list of one trip, in one registered, regular vehicle of the contract; a
/// return (`"leg":"volta"`) carries the group that went in the vehicle that took it (FRET-ART2-III).
#[utoipa::path(post, path = "/api/v1/charter/contracts/{id}/trips", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O contrato")),
    responses((status = 201, description = "Lista de passageiros registrada", body = register::FiledTripList)))]
pub async fn file_trip(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<TripDto>,
) -> Reply {
    let contract_id = register::contract_id(&state, path_id(&id, "Contrato")?).await?;
    let trip = TripRequest::try_from(body.into_inner())?;
    let filed = register::file_trip(&state, &official.actor, contract_id, trip).await?;
    Ok(HttpResponse::Created().json(filed))
}

impl TryFrom<TripDto> for TripRequest {
    type Error = ApiError;

    fn try_from(dto: TripDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let date = f.date("date", &dto.date);
        let plate = f.take(
            "vehicle_plate",
            Plate::parse(&dto.vehicle_plate),
            "Placa inválida.",
        );
        let (date, vehicle_plate) = f.done(parsed!(date, plate))?;
        Ok(Self {
            date,
            vehicle_plate,
            passengers: dto.passengers,
            leg: dto.leg.unwrap_or(rules::TripLeg::Ida),
        })
    }
}
