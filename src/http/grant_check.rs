//! `POST /api/v1/app-authorization-checks`: judges a ride-hailing grant without writing
//! anything, for the driver and the car registered or typed from their papers.

use actix_web::{HttpResponse, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::Fields;
use super::problem::{ApiError, ProblemItem};
use super::registry::{NewDriverDto, NewVehicleDto, RecordDto};
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::issuance::ride_hailing::check::{CheckRequest, GrantCheck, Party, check_grant};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct GrantCheckDto {
    /// Para conferir a renovação anual: a autorização renovada. O condutor é o dela e,
    /// sem `vehicle_id`, também o veículo.
    #[serde(default)]
    renewal_of: Option<String>,
    /// O condutor já cadastrado; ou `driver`, os dados de um novo.
    #[serde(default)]
    driver_id: Option<String>,
    /// Um condutor ainda não cadastrado, como no cadastro.
    #[serde(default)]
    driver: Option<NewDriverDto>,
    /// Certidões e registros a juntar com o pedido (para o condutor já cadastrado).
    #[serde(default)]
    driver_record: Option<RecordDto>,
    /// O veículo já cadastrado; ou `vehicle`, os dados de um novo.
    #[serde(default)]
    vehicle_id: Option<String>,
    /// Um veículo ainda não cadastrado, como no cadastro.
    #[serde(default)]
    vehicle: Option<NewVehicleDto>,
    #[schema(format = Date)]
    fee_paid_on: String,
    /// Data do protocolo do requerimento; padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    protocolled_on: Option<String>,
}

/// What a grant would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GrantCheckView {
    /// `true` quando a autorização seria concedida como está.
    passes: bool,
    /// Validade que a autorização teria (quando seria concedida).
    valid_from: Option<NaiveDate>,
    valid_until: Option<NaiveDate>,
    legal_basis_version: Option<String>,
    driver: CheckedDriver,
    vehicle: CheckedVehicle,
    /// Cada requisito não atendido, com o artigo e o campo; e os dados que o cadastro já
    /// tem para outra pessoa ou outro veículo.
    errors: Vec<ProblemItem>,
    /// Sem requisito falho, o que ainda depende da análise de um servidor: o pedido seria
    /// protocolado `em_analise` (202), sem documento emitido até a decisão; `passes` é
    /// `false`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    review: Vec<crate::domain::requirements::ReviewReason>,
    /// Os dispositivos suspensos por decisão judicial no dia, que a decisão não aplicaria.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suspended_provisions: Vec<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct CheckedDriver {
    /// Se o condutor já está no cadastro (então `id` o identifica).
    registered: bool,
    id: Option<Uuid>,
    name: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct CheckedVehicle {
    registered: bool,
    id: Option<Uuid>,
    plate: String,
    model: String,
}

/// Either a registered party's id or a new one's data, parsed into `errors` under `prefix`.
fn party<D, N>(
    field: &str,
    id: Option<&str>,
    new: Option<D>,
    prefix: &str,
    errors: &mut Vec<ProblemItem>,
) -> Option<Party<N>>
where
    N: TryFrom<D, Error = ApiError>,
{
    match (id.map(str::trim).filter(|i| !i.is_empty()), new) {
        (Some(id), _) => {
            let mut f = Fields::default();
            let id = f.uuid(field, id);
            if let Err(ApiError::Invalid(items)) = f.finish() {
                errors.extend(items);
            }
            id.map(Party::Registered)
        }
        (None, Some(new)) => match N::try_from(new) {
            Ok(n) => Some(Party::New(n)),
            Err(ApiError::Invalid(items)) => {
                errors.extend(items.into_iter().map(|mut i| {
                    i.field = format!("{prefix}{}", i.field);
                    i
                }));
                None
            }
            Err(_) => None,
        },
        (None, None) => {
            errors.push(ProblemItem::field(
                field,
                "Informe o registro cadastrado ou os dados de um novo.",
            ));
            None
        }
    }
}

/// Whether a party is named at all (a renewal may leave both out).
fn named(id: Option<&String>, new: bool) -> bool {
    new || id.is_some_and(|i| !i.trim().is_empty())
}

/// Judges a grant (or a yearly renewal) as it would be decided now — the same requirements, the same articles —
/// and writes nothing: no number reserved, no document issued, nobody registered.
#[utoipa::path(post, path = "/api/v1/app-authorization-checks", tag = "ride-hailing authorizations", security(("bearer" = [])),
    responses((status = 200, description = "O que a concessão decidiria, com cada requisito não atendido", body = GrantCheckView)))]
pub async fn check(
    state: web::Data<AppState>,
    _official: Official,
    body: web::Json<GrantCheckDto>,
) -> Result<HttpResponse, ApiError> {
    let checked = check_grant(&state, request_of(body.into_inner())?).await?;
    Ok(HttpResponse::Ok().json(view(checked)))
}

/// The request a check's body names: the parties (registered or new), what is filed with
/// them, the fee's and the protocol's days; every problem of form at once.
fn request_of(dto: GrantCheckDto) -> Result<CheckRequest, ApiError> {
    let mut errors = Vec::new();
    let renewal_of = match dto.renewal_of.as_deref().filter(|r| !r.trim().is_empty()) {
        Some(r) => Some(super::authorizations::parse_id(r)?),
        None => None,
    };
    let renewal = renewal_of.is_some();
    // A renewal names the driver of the authorization it renews, and by default its car.
    let driver = if renewal && !named(dto.driver_id.as_ref(), dto.driver.is_some()) {
        None
    } else {
        party(
            "driver_id",
            dto.driver_id.as_deref(),
            dto.driver,
            "",
            &mut errors,
        )
    };
    let vehicle = if renewal && !named(dto.vehicle_id.as_ref(), dto.vehicle.is_some()) {
        None
    } else {
        party(
            "vehicle_id",
            dto.vehicle_id.as_deref(),
            dto.vehicle,
            "vehicle.",
            &mut errors,
        )
    };
    let filed = match dto.driver_record.map(DriverRecord::try_from).transpose() {
        Ok(f) => f,
        Err(ApiError::Invalid(items)) => {
            errors.extend(items);
            None
        }
        Err(e) => return Err(e),
    };
    let mut f = Fields::default();
    let fee_paid_on = f.date("fee_paid_on", &dto.fee_paid_on);
    let protocolled_on = dto
        .protocolled_on
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .and_then(|d| f.date("protocolled_on", d));
    if let Err(ApiError::Invalid(items)) = f.finish() {
        errors.extend(items);
    }
    let (Some(fee_paid_on), true) = (fee_paid_on, errors.is_empty()) else {
        return Err(ApiError::Invalid(errors));
    };
    Ok(CheckRequest {
        driver,
        filed,
        vehicle,
        renewal_of,
        fee_paid_on,
        protocolled_on,
    })
}

/// What a first authorization would find today on the driver and the car an applicant stated
/// online (`stated`: the desk task's field names), writing nothing: the requirements failed,
/// or the answers out of form beside their fields (`Err`). A driver or a car the register
/// already holds (by the CPF, by the plate) is judged as registered.
pub(crate) async fn judge_stated(
    state: &AppState,
    stated: &std::collections::BTreeMap<String, String>,
) -> Result<
    Result<Vec<crate::domain::rule::RuleFailure>, Vec<(String, String)>>,
    crate::storage::StorageError,
> {
    use serde_json::{Value, json};
    let text = |k: &str| stated.get(k).cloned().unwrap_or_default();
    let whole = |k: &str| {
        stated
            .get(k)
            .and_then(|v| v.parse::<i64>().ok())
            .map_or(Value::Null, Value::from)
    };
    let cpf = text("cpf");
    let mut body =
        json!({ "fee_paid_on": crate::domain::dates::local_date(state.clock.now()).to_string() });
    let registered_driver = match crate::domain::ids::Cpf::parse(&cpf) {
        Ok(c) => state
            .store
            .driver_id_by_cpf_or_cnh(c.as_str(), "")
            .await?
            .filter(|(_, by_cpf)| *by_cpf),
        Err(_) => None,
    };
    match registered_driver {
        Some((id, _)) => body["driver_id"] = json!(id),
        None => {
            body["driver"] = json!({
                "name": text("name"), "cpf": cpf,
                "cnh": {
                    "number": text("cnh.number"), "category": text("cnh.category"),
                    "ear": text("cnh.ear") == "true",
                    "first_license_date": text("cnh.first_license_date"),
                    "expires_on": text("cnh.expires_on"),
                },
            });
        }
    }
    let registered_car = match crate::domain::ids::Plate::parse(&text("vehicle.plate")) {
        Ok(p) => state
            .store
            .vehicle_id_by_plate_or_renavam(&p.mercosul_form(), "")
            .await?
            .filter(|(_, by_plate)| *by_plate),
        Err(_) => None,
    };
    if let Some((id, _)) = registered_car {
        body["vehicle_id"] = json!(id);
    } else {
        body["vehicle"] = json!({
            "plate": text("vehicle.plate"), "renavam": text("vehicle.renavam"),
            "make": text("vehicle.make"), "model": text("vehicle.model"), "color": text("vehicle.color"),
            "model_year": whole("vehicle.model_year"), "manufacture_year": whole("vehicle.manufacture_year"),
            "doors": whole("vehicle.doors"), "air_conditioning": text("vehicle.air_conditioning") == "true",
            "capacity_including_driver": whole("vehicle.capacity_including_driver"),
            "registration_municipality_ibge": text("vehicle.registration_municipality_ibge"),
            "owner_type": text("vehicle.owner_type"),
            "owner_document": stated.get("vehicle.owner_document").cloned().unwrap_or_else(|| cpf.clone()),
        });
    }
    let problems = |items: Vec<ProblemItem>| {
        items
            .into_iter()
            .map(|i| (i.field, i.message))
            .collect::<Vec<_>>()
    };
    let request = match serde_json::from_value::<GrantCheckDto>(body) {
        Ok(dto) => request_of(dto),
        Err(_) => return Ok(Err(Vec::new())),
    };
    let request = match request {
        Ok(r) => r,
        Err(ApiError::Invalid(items)) => return Ok(Err(problems(items))),
        Err(_) => return Ok(Err(Vec::new())),
    };
    match check_grant(state, request).await {
        Ok(c) => {
            let mut taken: Vec<(String, String)> = c
                .taken
                .iter()
                .map(|(f, m)| ((*f).to_owned(), (*m).to_owned()))
                .collect();
            if taken.is_empty() {
                Ok(Ok(c.failures))
            } else {
                taken.retain(|(f, _)| !f.is_empty());
                Ok(Err(taken))
            }
        }
        Err(crate::issuance::UseCaseError::Storage(e)) => Err(e),
        Err(e) => {
            tracing::warn!(error = %e, "a first authorization's preview could not be judged");
            Ok(Err(Vec::new()))
        }
    }
}

fn view(c: GrantCheck) -> GrantCheckView {
    let passes = c.passes();
    let mut errors: Vec<ProblemItem> = c
        .taken
        .iter()
        .map(|(field, message)| ProblemItem::field(field, *message))
        .collect();
    errors.extend(c.failures.into_iter().map(ProblemItem::from));
    // AMB-25: what an official must review before any grant.
    let review = c
        .decision
        .as_ref()
        .map(|d| d.review.clone())
        .unwrap_or_default();
    let suspended_provisions = c
        .decision
        .as_ref()
        .map(|d| d.suspended.clone())
        .unwrap_or_default();
    GrantCheckView {
        review,
        suspended_provisions,
        passes,
        valid_from: c.decision.as_ref().map(|d| d.valid_from),
        valid_until: c.decision.as_ref().map(|d| d.valid_until),
        legal_basis_version: c.decision.map(|d| d.legal_basis_version),
        driver: CheckedDriver {
            registered: c.driver_registered,
            id: c.driver_registered.then_some(c.driver.id),
            name: c.driver.name,
        },
        vehicle: CheckedVehicle {
            registered: c.vehicle_registered,
            id: c.vehicle_registered.then_some(c.vehicle.id),
            plate: c.vehicle.plate.as_str().to_owned(),
            model: format!("{} {}", c.vehicle.make, c.vehicle.model),
        },
        errors,
    }
}
