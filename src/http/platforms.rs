//! `/api/v1/platforms`: technology platforms registered with the SMF (arts. 3º, 5º X, 6º).

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::auth::Official;
use super::fields::Fields;
use super::problem::{ApiError, ProblemItem};
use crate::documents::format;
use crate::domain::dates::local_date;
use crate::domain::ids::Cnpj;
use crate::domain::platform::{PlatformFacts, decide_platform, platform_status};
use crate::state::AppState;
use crate::storage::{PlatformRecord, Repository, StorageError};

#[derive(Deserialize)]
pub struct InsuranceDto {
    policy: String,
    insurer: String,
    cover_centavos: i64,
    valid_until: String,
}

#[derive(Deserialize)]
pub struct NewPlatformDto {
    name: String,
    cnpj: String,
    app_insurance: InsuranceDto,
    fee_paid_on: String,
}

fn platform_json(state: &AppState, p: &PlatformRecord) -> serde_json::Value {
    let cnpj = Cnpj::parse(&p.cnpj).map_or_else(|_| p.cnpj.clone(), |c| c.formatted());
    json!({
        "id": p.id,
        "name": p.name,
        "cnpj": cnpj,
        "app_insurance": {
            "policy": p.insurance_policy,
            "insurer": p.insurer,
            "cover_centavos": p.insurance_cover_centavos,
            "cover": format::money(p.insurance_cover_centavos),
            "valid_until": p.insurance_valid_until,
        },
        "fee_paid_on": p.fee_paid_on,
        "valid_until": p.valid_until,
        "status": platform_status(p.valid_until, p.insurance_valid_until, state.clock.now()),
        "legal_basis_version": p.legal_basis_version,
    })
}

pub async fn create(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewPlatformDto>,
) -> Result<HttpResponse, ApiError> {
    let dto = body.into_inner();
    let mut f = Fields::default();
    let name = f.text("name", &dto.name, 200);
    let cnpj = f.take(
        "cnpj",
        Cnpj::parse(&dto.cnpj),
        "CNPJ inválido: confira os dígitos verificadores.",
    );
    let policy = f.text("app_insurance.policy", &dto.app_insurance.policy, 100);
    let insurer = f.text("app_insurance.insurer", &dto.app_insurance.insurer, 200);
    let insurance_until = f.date("app_insurance.valid_until", &dto.app_insurance.valid_until);
    let fee_paid_on = f.date("fee_paid_on", &dto.fee_paid_on);
    f.finish()?;
    let (
        Some(name),
        Some(cnpj),
        Some(policy),
        Some(insurer),
        Some(insurance_valid_until),
        Some(fee_paid_on),
    ) = (name, cnpj, policy, insurer, insurance_until, fee_paid_on)
    else {
        return Err(ApiError::Internal);
    };
    let now = state.clock.now();
    let facts = PlatformFacts {
        insurance_cover_centavos: dto.app_insurance.cover_centavos,
        insurance_valid_until,
        fee_paid_on,
        today: local_date(now),
    };
    let valid_until = decide_platform(&facts, &state.app_basis)
        .map_err(|v| ApiError::Requirements(v.into_iter().map(ProblemItem::from).collect()))?;
    let record = PlatformRecord {
        id: Uuid::new_v4().to_string(),
        cnpj: cnpj.as_str().to_owned(),
        name,
        insurance_policy: policy,
        insurer,
        insurance_cover_centavos: dto.app_insurance.cover_centavos,
        insurance_valid_until,
        fee_paid_on,
        valid_until,
        legal_basis_version: state.app_basis.version.to_owned(),
        created_at: now,
    };
    match state.store.insert_platform(&record, &official.actor).await {
        Ok(()) => Ok(HttpResponse::Created().json(platform_json(&state, &record))),
        Err(StorageError::Conflict("cnpj")) => Err(ApiError::Conflict(
            "Já existe uma plataforma com este CNPJ.".into(),
            vec![ProblemItem::field("cnpj", "CNPJ já cadastrado.")],
        )),
        Err(e) => Err(e.into()),
    }
}

pub async fn get(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = state
        .store
        .get_platform(&id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Plataforma não encontrada.".into()))?;
    Ok(HttpResponse::Ok().json(platform_json(&state, &p)))
}
