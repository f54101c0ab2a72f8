//! `POST /api/v1/drivers`, `POST /api/v1/vehicles`: the ride-hailing register.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::calendar::Deadline;
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use crate::domain::ride_hailing::deregistration::{RegisterAct, Subject};
use crate::domain::ride_hailing::driver_record::{
    CertificateInForce, CriminalCertificate, Ctb306Record, DriverRecord, FiledDocument,
    TrafficInfraction, certificate_standings,
};
use crate::domain::ride_hailing::registry::{Cnh, Driver, Vehicle};
use crate::domain::ride_hailing::{OwnerType, VehicleOwner};
use crate::issuance::ride_hailing::register::{self, DataChange, NewDriver, NewVehicle};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CnhDto {
    number: String,
    category: String,
    first_license_date: String,
    ear: bool,
    expires_on: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewDriverDto {
    name: String,
    cpf: String,
    cnh: CnhDto,
    /// Art. 12, III, IV and §1º: optional at registration, required to be granted.
    #[serde(flatten)]
    record: RecordDto,
}

/// The driver's record as filed (all parts optional; a filing adds to the record in force).
#[derive(Deserialize, Default, utoipa::ToSchema)]
pub struct RecordDto {
    #[serde(default)]
    criminal_certificates: Vec<CriminalCertificate>,
    #[serde(default)]
    traffic_infractions: Vec<TrafficInfraction>,
    #[serde(default)]
    ctb306: Option<Ctb306Record>,
    /// Documents the legal basis in force asks for beyond the certificates (INSS enrolment,
    /// alvará…), by the name the basis gives them (`GET /api/v1/legal-bases`).
    #[serde(default)]
    documents: Vec<FiledDocument>,
}

impl RecordDto {
    /// The filing as a record, its impossible parts reported in `f`.
    fn parse(self, f: &mut Fields) -> DriverRecord {
        let filed = DriverRecord {
            criminal_certificates: self.criminal_certificates,
            traffic_infractions: self.traffic_infractions,
            ctb306: self.ctb306,
            documents: self.documents,
        };
        for (field, message) in filed.filing_errors() {
            f.take::<(), ()>(field, Err(()), message);
        }
        filed
    }
}

impl TryFrom<RecordDto> for DriverRecord {
    type Error = ApiError;

    fn try_from(dto: RecordDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let filed = dto.parse(&mut f);
        f.finish()?;
        Ok(filed)
    }
}

impl TryFrom<NewDriverDto> for NewDriver {
    type Error = ApiError;

    fn try_from(dto: NewDriverDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let name = f.text("name", &dto.name, 200);
        let cpf = f.take(
            "cpf",
            Cpf::parse(&dto.cpf),
            "CPF inválido: confira os dígitos verificadores.",
        );
        let number = f.take(
            "cnh.number",
            CnhNumber::parse(&dto.cnh.number),
            "Número de registro da CNH inválido.",
        );
        let category = f.take(
            "cnh.category",
            CnhCategory::parse(&dto.cnh.category),
            "Categoria de CNH desconhecida.",
        );
        let first = f.date("cnh.first_license_date", &dto.cnh.first_license_date);
        let expires = f.date("cnh.expires_on", &dto.cnh.expires_on);
        let record = dto.record.parse(&mut f);
        let (name, cpf, number, category, first_license_date, expires_on) =
            f.done(parsed!(name, cpf, number, category, first, expires))?;
        Ok(Self {
            name,
            cpf,
            cnh: Cnh {
                number,
                category,
                first_license_date,
                ear: dto.cnh.ear,
                expires_on,
            },
            record,
        })
    }
}

/// A driver of the ride-hailing register.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DriverView {
    id: Uuid,
    name: String,
    /// CPF formatado (000.000.000-00).
    cpf: String,
    cnh: CnhView,
    record: DriverRecord,
    /// As certidões criminais filed, court by court, with their standing today: the one in
    /// force, the ones it replaced, the lapsed and the positive ones (art. 12, III).
    certificates: Vec<CertificateInForce>,
    created_at: DateTime<Utc>,
}

/// The driver's CNH as registered.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CnhView {
    number: String,
    category: String,
    first_license_date: NaiveDate,
    /// Exerce atividade remunerada (EAR).
    ear: bool,
    expires_on: NaiveDate,
}

impl DriverView {
    /// The driver with each certificate's standing on the register's today, under the basis in
    /// force.
    fn of(d: &Driver, state: &AppState) -> Self {
        let days = state
            .ride_hailing_basis()
            .certificate_default_validity_days()
            .unwrap_or(0);
        Self {
            id: d.id,
            name: d.name.clone(),
            cpf: d.cpf.formatted(),
            cnh: CnhView {
                number: d.cnh.number.as_str().to_owned(),
                category: d.cnh.category.as_str().to_owned(),
                first_license_date: d.cnh.first_license_date,
                ear: d.cnh.ear,
                expires_on: d.cnh.expires_on,
            },
            record: d.record.clone(),
            certificates: certificate_standings(&d.record, state.today(), days),
            created_at: d.created_at,
        }
    }
}

/// A path id parsed before it reaches the database: not an id, not found.
fn path_id(raw: &str, missing: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::NotFound(missing.to_owned()))
}

/// Registers a driver (art. 12): CPF, CNH and, optionally, the record the grant will ask.
#[utoipa::path(post, path = "/api/v1/drivers", tag = "ride-hailing register", security(("bearer" = [])),
    responses((status = 201, description = "Condutor cadastrado", body = DriverView)))]
pub async fn create_driver(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewDriverDto>,
) -> Result<HttpResponse, ApiError> {
    let new = NewDriver::try_from(body.into_inner())?;
    let driver = register::register_driver(&state, &official.actor, new).await?;
    Ok(HttpResponse::Created().json(DriverView::of(&driver, &state)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewVehicleDto {
    plate: String,
    renavam: String,
    make: String,
    model: String,
    color: String,
    model_year: i32,
    /// Optional: the year of manufacture printed on the CRLV (a legal basis may count the
    /// car's age from it).
    #[serde(default)]
    manufacture_year: Option<i32>,
    doors: i32,
    air_conditioning: bool,
    capacity_including_driver: i32,
    /// A number or a string of 7 digits.
    registration_municipality_ibge: serde_json::Value,
    /// Optional: since when the car serves ride-hailing here (art. 2 §3).
    in_service_since: Option<String>,
    /// How the driver holds the car (art. 15): `proprietario`, `fiduciante`,
    /// `arrendatario`, `locadora_pj` or `autorizacao_expressa`.
    #[serde(default)]
    owner_type: Option<String>,
    /// CPF or CNPJ of the CRLV holder (the rental company's CNPJ; for an express
    /// authorization, the holder who gave it).
    #[serde(default)]
    owner_document: Option<String>,
}

impl TryFrom<NewVehicleDto> for NewVehicle {
    type Error = ApiError;

    fn try_from(dto: NewVehicleDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let plate = f.take(
            "plate",
            Plate::parse(&dto.plate),
            "Placa inválida: use o padrão antigo (ABC-1234) ou Mercosul (BRA2E19).",
        );
        let renavam = f.take(
            "renavam",
            Renavam::parse(&dto.renavam),
            "RENAVAM inválido: confira o dígito verificador.",
        );
        let make = f.text("make", &dto.make, 60);
        let model = f.text("model", &dto.model, 80);
        let color = f.text("color", &dto.color, 40);
        let model_year = f.range("model_year", dto.model_year, 1900, 2200);
        if let Some(y) = dto.manufacture_year
            && !(1900..=dto.model_year).contains(&y)
        {
            f.take::<(), ()>(
                "manufacture_year",
                Err(()),
                "O ano de fabricação vai de 1900 ao ano do modelo.",
            );
        }
        let doors = f.range("doors", dto.doors, 1, 9);
        let capacity = f.range(
            "capacity_including_driver",
            dto.capacity_including_driver,
            1,
            99,
        );
        let ibge_text = match &dto.registration_municipality_ibge {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(s) => s.clone(),
            _ => String::new(),
        };
        let in_service_since = match &dto.in_service_since {
            Some(d) => f.date("in_service_since", d),
            None => None,
        };
        let ibge = f.take(
            "registration_municipality_ibge",
            IbgeCode::parse(&ibge_text),
            "Código IBGE do município inválido (7 dígitos).",
        );
        let owner = parse_owner(
            &mut f,
            dto.owner_type.as_deref(),
            dto.owner_document.as_deref(),
        );
        let (plate, renavam, make, model, color, model_year, doors, capacity, ibge, owner) = f
            .done(parsed!(
                plate, renavam, make, model, color, model_year, doors, capacity, ibge, owner
            ))?;
        Ok(Self {
            plate,
            renavam,
            make,
            model,
            color,
            model_year,
            manufacture_year: dto.manufacture_year,
            doors,
            air_conditioning: dto.air_conditioning,
            capacity_including_driver: capacity,
            registration_municipality: ibge,
            in_service_since,
            owner,
        })
    }
}

/// APP-ART15 (art. 15, caput): how the driver holds the car, with the CRLV holder's
/// document: a CPF when in the driver's own name, the CNPJ of a rental company, either for
/// an express authorization.
fn parse_owner(
    f: &mut Fields,
    owner_type: Option<&str>,
    owner_document: Option<&str>,
) -> Option<crate::domain::ride_hailing::VehicleOwner> {
    use crate::domain::ids::{Cnpj, Cpf};
    use crate::domain::ride_hailing::{OwnerType, VehicleOwner};
    let kind = f.take(
        "owner_type",
        owner_type.and_then(OwnerType::parse).ok_or(()),
        "Informe o vínculo do condutor com o veículo (art. 15): proprietario, fiduciante, arrendatario, locadora_pj ou autorizacao_expressa.",
    )?;
    let raw = owner_document.unwrap_or_default();
    let document = match kind {
        OwnerType::LocadoraPj => f.take(
            "owner_document",
            Cnpj::parse(raw).map(|c| c.as_str().to_owned()),
            "Informe o CNPJ válido da locadora em cujo nome está o veículo.",
        ),
        OwnerType::AutorizacaoExpressa => f.take(
            "owner_document",
            Cpf::parse(raw)
                .map(|c| c.as_str().to_owned())
                .or_else(|_| Cnpj::parse(raw).map(|c| c.as_str().to_owned())),
            "Informe o CPF ou CNPJ válido do titular que autorizou o uso do veículo.",
        ),
        _ => f.take(
            "owner_document",
            Cpf::parse(raw).map(|c| c.as_str().to_owned()),
            "Informe o CPF válido do titular do CRLV (o próprio condutor).",
        ),
    }?;
    Some(VehicleOwner { kind, document })
}

/// A car of the ride-hailing register.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VehicleView {
    id: Uuid,
    /// Placa formatada (ABC-1234 ou BRA2E19).
    plate: String,
    renavam: String,
    make: String,
    model: String,
    color: String,
    model_year: i32,
    manufacture_year: Option<i32>,
    doors: i32,
    air_conditioning: bool,
    capacity_including_driver: i32,
    registration_municipality_ibge: u32,
    in_service_since: Option<NaiveDate>,
    owner_type: Option<OwnerType>,
    created_at: DateTime<Utc>,
}

impl From<&Vehicle> for VehicleView {
    fn from(v: &Vehicle) -> Self {
        Self {
            id: v.id,
            plate: v.plate.formatted(),
            renavam: v.renavam.as_str().to_owned(),
            make: v.make.clone(),
            model: v.model.clone(),
            color: v.color.clone(),
            model_year: v.model_year,
            manufacture_year: v.manufacture_year,
            doors: v.doors,
            air_conditioning: v.air_conditioning,
            capacity_including_driver: v.capacity_including_driver,
            registration_municipality_ibge: v.registration_municipality.code(),
            in_service_since: v.in_service_since,
            owner_type: v.owner.as_ref().map(|o| o.kind),
            created_at: v.created_at,
        }
    }
}

/// Registers a car (arts. 2º and 15).
#[utoipa::path(post, path = "/api/v1/vehicles", tag = "ride-hailing register", security(("bearer" = [])),
    responses((status = 201, description = "Veículo cadastrado", body = VehicleView)))]
pub async fn create_vehicle(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewVehicleDto>,
) -> Result<HttpResponse, ApiError> {
    let new = NewVehicle::try_from(body.into_inner())?;
    let vehicle = register::register_vehicle(&state, &official.actor, new).await?;
    Ok(HttpResponse::Created().json(VehicleView::from(&vehicle)))
}

/// `POST /api/v1/drivers/{id}/record`: files certificates, traffic infractions or the CTB 306
/// record; they add to the record in force (append-only snapshots).
#[utoipa::path(post, path = "/api/v1/drivers/{id}/record", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 201, description = "Ficha do condutor atualizada", body = DriverView)))]
pub async fn file_record(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RecordDto>,
) -> Result<HttpResponse, ApiError> {
    // The record is looked up before the body is parsed: a missing one is a 404 first.
    let id = register::driver_id(&state, path_id(&id, "Condutor não encontrado.")?).await?;
    let filed = DriverRecord::try_from(body.into_inner())?;
    let driver = register::file_driver_record(&state, &official.actor, id, filed).await?;
    Ok(HttpResponse::Created().json(DriverView::of(&driver, &state)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DataChangeDto {
    what: String,
    changed_on: String,
    reported_on: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    pub(crate) rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/drivers/{id}/data-changes` (APP-ART13-XIX): records a reported change of
/// registration data with its 7-day deadline; a late report carries the art. 26, III warning.
#[utoipa::path(post, path = "/api/v1/drivers/{id}/data-changes", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 201, description = "Alteração registrada, com o prazo e o aviso de atraso", body = DataChangeView)))]
pub async fn data_change(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DataChangeDto>,
) -> Result<HttpResponse, ApiError> {
    let id = register::driver_id(&state, path_id(&id, "Condutor não encontrado.")?).await?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let change = DataChange::try_from((body.into_inner(), today))?;
    let (due, late) =
        register::report_data_change(&state, &official.actor, id, &change, rectifies.as_ref())
            .await?;
    Ok(HttpResponse::Created().json(DataChangeView {
        driver_id: id,
        what: change.what,
        changed_on: change.changed_on,
        reported_on: change.reported_on,
        report_due: due,
        warnings: late.into_iter().map(ProblemItem::from).collect(),
    }))
}

impl TryFrom<(DataChangeDto, NaiveDate)> for DataChange {
    type Error = ApiError;

    /// `today`: a report cannot be future.
    fn try_from((dto, today): (DataChangeDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let what = f.text("what", &dto.what, 500);
        let changed_on = f.date("changed_on", &dto.changed_on);
        let reported_on = f.date("reported_on", &dto.reported_on);
        if let (Some(c), Some(r)) = (changed_on, reported_on)
            && (r < c || r > today)
        {
            f.take::<(), ()>(
                "reported_on",
                Err(()),
                "A comunicação não pode anteceder a alteração nem ser futura.",
            );
        }
        let (what, changed_on, reported_on) = f.done(parsed!(what, changed_on, reported_on))?;
        Ok(Self {
            what,
            changed_on,
            reported_on,
        })
    }
}

/// A reported change of registration data (APP-ART13-XIX).
#[derive(Serialize, utoipa::ToSchema)]
pub struct DataChangeView {
    driver_id: Uuid,
    what: String,
    changed_on: NaiveDate,
    reported_on: NaiveDate,
    /// O prazo de 7 dias para comunicar a alteração.
    report_due: Deadline,
    /// Comunicação fora do prazo (art. 26, III), quando for o caso.
    warnings: Vec<ProblemItem>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct OwnerDto {
    owner_type: Option<String>,
    owner_document: Option<String>,
}

/// `POST /api/v1/vehicles/{id}/owner` (APP-ART15): declares how the driver holds the car, for
/// a car registered before selo asked it or when the CRLV holder changes.
#[utoipa::path(post, path = "/api/v1/vehicles/{id}/owner", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Vínculo declarado", body = VehicleView)))]
pub async fn declare_owner(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<OwnerDto>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id, "Veículo não encontrado.")?;
    let owner = VehicleOwner::try_from(body.into_inner())?;
    let vehicle = register::declare_owner(&state, &official.actor, id, &owner).await?;
    Ok(HttpResponse::Ok().json(VehicleView::from(&vehicle)))
}

impl TryFrom<OwnerDto> for VehicleOwner {
    type Error = ApiError;

    fn try_from(dto: OwnerDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let owner = parse_owner(
            &mut f,
            dto.owner_type.as_deref(),
            dto.owner_document.as_deref(),
        );
        f.done(owner)
    }
}

/// A descadastramento or recadastramento, or the rectification of one entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct RegisterActDto {
    #[serde(flatten)]
    act: RegisterAct,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/drivers/{id}/register-acts` (art. 24, I, d; AMB-36): removes a driver who
/// lost a requirement from the register, after notice, or restores one.
#[utoipa::path(post, path = "/api/v1/drivers/{id}/register-acts", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 201, description = "Ato registrado", body = RegisterActsView)))]
pub async fn driver_register_act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RegisterActDto>,
) -> Result<HttpResponse, ApiError> {
    register_act(&state, &official, Subject::Driver, &id, body.into_inner()).await
}

/// `POST /api/v1/vehicles/{id}/register-acts` (art. 24, I, f; AMB-36): the same for a car.
#[utoipa::path(post, path = "/api/v1/vehicles/{id}/register-acts", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 201, description = "Ato registrado", body = RegisterActsView)))]
pub async fn vehicle_register_act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RegisterActDto>,
) -> Result<HttpResponse, ApiError> {
    register_act(&state, &official, Subject::Vehicle, &id, body.into_inner()).await
}

async fn register_act(
    state: &AppState,
    official: &Official,
    subject: Subject,
    raw_id: &str,
    dto: RegisterActDto,
) -> Result<HttpResponse, ApiError> {
    let missing = match subject {
        Subject::Driver => "Condutor não encontrado.",
        Subject::Vehicle => "Veículo não encontrado.",
    };
    let id = path_id(raw_id, missing)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_alone(dto.rectifies.as_ref(), today)?;
    let (deregistered_since, acts) = register::register_act(
        state,
        &official.actor,
        subject,
        id,
        dto.act,
        rectifies.as_ref(),
    )
    .await?;
    Ok(HttpResponse::Created().json(RegisterActsView {
        id,
        deregistered_since,
        acts,
    }))
}

/// A driver's or car's acts of removal from and return to the register (AMB-36).
#[derive(Serialize, utoipa::ToSchema)]
pub struct RegisterActsView {
    id: Uuid,
    /// Desde quando está descadastrado; ausente de valor se está no cadastro.
    deregistered_since: Option<NaiveDate>,
    acts: Vec<RegisterAct>,
}

/// A registered driver: CPF, CNH and the record in force (certificates, infractions, CTB 306).
#[utoipa::path(get, path = "/api/v1/drivers/{id}", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "O condutor e o registro em vigor", body = DriverView)))]
pub async fn get_driver(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id, "Condutor não encontrado.")?;
    let driver = state
        .store
        .get_driver(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Condutor não encontrado.".into()))?;
    Ok(HttpResponse::Ok().json(DriverView::of(&driver, &state)))
}

/// The photo stored for a driver.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DriverPhotoView {
    driver_id: Uuid,
    /// Largura e altura da foto guardada (JPEG sem metadados), em pixels.
    width: u32,
    height: u32,
    bytes: usize,
    sha256: String,
}

/// Sets or replaces a driver's photo, shown to passengers beside a valid sticker:
/// a JPEG or PNG up to 2 MB, as the raw body or the file of a multipart form, re-encoded as a
/// JPEG of at most 480 × 640 pixels without metadata.
#[utoipa::path(put, path = "/api/v1/drivers/{id}/photo", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O condutor")),
    request_body(description = "A foto (JPEG ou PNG, até 2 MB)", content((super::openapi::JpegFile = "image/jpeg"), (super::openapi::JpegFile = "image/png"))),
    responses((status = 200, description = "A foto guardada", body = DriverPhotoView),
        (status = 413, description = "Arquivo maior que 2 MB", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 415, description = "Não é uma imagem JPEG ou PNG utilizável", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn put_driver_photo(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    req: actix_web::HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    use crate::issuance::ride_hailing::photo::{self, PhotoError};
    let id = path_id(&id, "Condutor não encontrado.")?;
    let upload = super::verify::read_file(&req, payload, photo::MAX_UPLOAD_BYTES)
        .await?
        .ok_or_else(|| ApiError::BadRequest("Envie a foto (JPEG ou PNG) no corpo.".into()))?;
    let stored =
        photo::set_driver_photo(&state, &official.actor, id, &upload, state.clock.now()).await?;
    match stored {
        Ok(p) => Ok(HttpResponse::Ok().json(DriverPhotoView {
            driver_id: id,
            width: p.width,
            height: p.height,
            bytes: p.jpeg.len(),
            sha256: p.sha256,
        })),
        Err(e @ (PhotoError::NotAnImage | PhotoError::Unreadable)) => {
            Err(ApiError::UnsupportedMediaType(e.to_string()))
        }
        Err(e) => Err(ApiError::Invalid(vec![ProblemItem::field(
            "photo",
            e.to_string(),
        )])),
    }
}

/// A registered car, with how its driver holds it (art. 15).
#[utoipa::path(get, path = "/api/v1/vehicles/{id}", tag = "ride-hailing register", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "O veículo", body = VehicleView)))]
pub async fn get_vehicle(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id, "Veículo não encontrado.")?;
    let vehicle = state
        .store
        .get_vehicle(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Veículo não encontrado.".into()))?;
    Ok(HttpResponse::Ok().json(VehicleView::from(&vehicle)))
}
