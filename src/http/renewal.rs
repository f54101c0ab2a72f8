//! `POST /api/v1/app-authorizations/{id}/renewal`: the yearly renewal of a ride-hailing
//! authorization (APP-ART3-PU, reading AMB-66).

use actix_web::{HttpResponse, web};
use chrono::NaiveDate;
use serde::Deserialize;
use uuid::Uuid;

use super::auth::Official;
use super::authorizations::{filed_answer, parse_id};
use super::fields::{Fields, parsed};
use super::problem::ApiError;
use crate::issuance;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RenewalDto {
    /// Dia do pagamento das taxas do novo ano (a partir de 60 dias antes do fim da validade).
    #[schema(format = Date)]
    fee_paid_on: String,
    /// Data do protocolo do pedido de renovação; padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    protocolled_on: Option<String>,
    /// O veículo do novo ano, se o condutor trocou de carro; padrão: o que a autorização
    /// vincula agora.
    #[serde(default)]
    vehicle_id: Option<String>,
}

struct RenewalRequest {
    fee_paid_on: NaiveDate,
    protocolled_on: Option<NaiveDate>,
    vehicle_id: Option<Uuid>,
}

impl TryFrom<RenewalDto> for RenewalRequest {
    type Error = ApiError;
    fn try_from(dto: RenewalDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let fee_paid_on = f.date("fee_paid_on", &dto.fee_paid_on);
        let protocolled_on = dto
            .protocolled_on
            .as_deref()
            .filter(|d| !d.trim().is_empty())
            .map(|d| f.date("protocolled_on", d));
        let vehicle_id = dto
            .vehicle_id
            .as_deref()
            .filter(|v| !v.trim().is_empty())
            .map(|v| f.uuid("vehicle_id", v));
        let (fee_paid_on,) = f.done(parsed!(fee_paid_on))?;
        Ok(Self {
            fee_paid_on,
            protocolled_on: protocolled_on.flatten(),
            vehicle_id: vehicle_id.flatten(),
        })
    }
}

/// Renews the authorization for the next year: a new authorization with its own number,
/// authorization PDF and sticker, judged on every requirement of a grant; paid before the
/// current year ends, it starts the day after it (no gap, no overlap).
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/renewal", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização a renovar")),
    responses(
        (status = 201, description = "Autorização renovada: a nova, com os documentos emitidos", body = super::authorizations::AuthorizationView),
        (status = 202, description = "Pedido em análise: depende da decisão de um servidor; nada foi emitido", body = super::reviews::ReviewView)))]
pub async fn renew(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RenewalDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let RenewalRequest {
        fee_paid_on,
        protocolled_on,
        vehicle_id,
    } = body.into_inner().try_into()?;
    let renewed = issuance::ride_hailing::grant::renew_app_authorization(
        &state,
        id,
        fee_paid_on,
        protocolled_on,
        vehicle_id,
        &official.actor,
    )
    .await?;
    Ok(filed_answer(&state, &renewed))
}
