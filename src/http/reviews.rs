//! `/api/v1/app-grant-reviews`: ride-hailing grants and renewals that a requirement of the
//! legal basis sends to an official's review (a prosecution under way, in the reading the
//! basis names): the list of those waiting and each filing (the decision is
//! `authorizations::decide_review`, which answers as a grant does).

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::auth::Official;
use super::problem::ApiError;
use crate::domain::requirements::ReviewReason;
use crate::domain::ride_hailing::review::{GrantReview, ReviewStatus};
use crate::state::AppState;

/// A request filed for an official's review: nothing is issued before the decision.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ReviewView {
    id: Uuid,
    /// `em_analise`, `deferido` ou `indeferido`.
    status: ReviewStatus,
    driver_id: Uuid,
    vehicle_id: Uuid,
    /// A autorização que o pedido renova (ausente num pedido de concessão).
    #[serde(skip_serializing_if = "Option::is_none")]
    renewal_of: Option<Uuid>,
    fee_paid_on: NaiveDate,
    protocolled_on: NaiveDate,
    /// Por que o pedido depende da análise de um servidor, como a base legal o cita.
    reasons: Vec<ReviewReason>,
    legal_basis_version: String,
    filed_at: DateTime<Utc>,
    /// A decisão, quando houver.
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<ReviewDecisionView>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ReviewDecisionView {
    status: ReviewStatus,
    /// Os fundamentos da decisão.
    grounds: String,
    decided_at: DateTime<Utc>,
    /// A autorização concedida pela decisão (deferido).
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization_id: Option<Uuid>,
}

impl From<&GrantReview> for ReviewView {
    fn from(r: &GrantReview) -> Self {
        Self {
            id: r.id,
            status: r.status(),
            driver_id: r.driver_id,
            vehicle_id: r.vehicle_id,
            renewal_of: r.renewal_of,
            fee_paid_on: r.fee_paid_on,
            protocolled_on: r.protocolled_on,
            reasons: r.reasons.clone(),
            legal_basis_version: r.legal_basis_version.clone(),
            filed_at: r.filed_at,
            decision: r.decision.as_ref().map(|d| ReviewDecisionView {
                status: d.outcome.status(),
                grounds: d.grounds.clone(),
                decided_at: d.decided_at,
                authorization_id: d.authorization_id,
            }),
        }
    }
}

/// The filings waiting for a decision, oldest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PendingReviews {
    app_grant_reviews: Vec<ReviewView>,
}

/// 202 with the filing a grant or a renewal became.
pub(super) fn accepted(review: &GrantReview) -> HttpResponse {
    HttpResponse::Accepted()
        .insert_header((
            "Location",
            format!("/api/v1/app-grant-reviews/{}", review.id),
        ))
        .json(ReviewView::from(review))
}

pub(super) fn parse_review_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound("Pedido em análise não encontrado.".into()))
}

/// The filings waiting for an official's decision, oldest first.
#[utoipa::path(get, path = "/api/v1/app-grant-reviews", tag = "ride-hailing authorizations", security(("bearer" = [])),
    responses((status = 200, description = "Os pedidos em análise", body = PendingReviews)))]
pub async fn pending(
    state: web::Data<AppState>,
    _official: Official,
) -> Result<HttpResponse, ApiError> {
    let reviews = state.store.pending_reviews().await?;
    Ok(HttpResponse::Ok().json(PendingReviews {
        app_grant_reviews: reviews.iter().map(ReviewView::from).collect(),
    }))
}

/// A filing, with its reasons and, once decided, the decision.
#[utoipa::path(get, path = "/api/v1/app-grant-reviews/{id}", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O pedido em análise")),
    responses((status = 200, description = "O pedido", body = ReviewView)))]
pub async fn get(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_review_id(&id)?;
    let review = state
        .store
        .get_review(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Pedido em análise não encontrado.".into()))?;
    Ok(HttpResponse::Ok().json(ReviewView::from(&review)))
}
