//! What platforms are told by webhook: each platform sets its address with its own
//! credential; the relay reads the audit chain after where it stopped, looks again at the
//! platform's drivers that an act touched (and at all of them once a day, for what the
//! calendar alone changes: expiry, the end of a suspension, a vistoria's deadline), compares
//! each driver's standing with what the platform was last told, and queues an event for each
//! change — suspended, revoked, expired, renewed, reinstated — and for each notice an official
//! sends a platform to suspend a vehicle. The queue and its move along the chain commit
//! together, so an event is queued once however many nodes run the relay.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::domain::dates::local_date;
use crate::domain::ids::Plate;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::sanctions::authorization_status;
use crate::issuance::UseCaseError;
use crate::settings::Environment;
use crate::standing;
use crate::state::AppState;
use crate::storage::ride_hailing::platform_access::PlatformDriverRow;
use crate::storage::ride_hailing::webhooks::{NewDelivery, RelayWrites};

use super::platform_access::PlatformCaller;

/// The audit chain's kind of a notice to a platform to suspend a vehicle.
pub const NOTICE_KIND: &str = "vehicle_suspension_notice";

/// A driver's standing as a platform reads it: the latest authorization, its status now and
/// the car it binds. What the list of drivers answers and what events compare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DriverStanding {
    pub authorization_number: String,
    pub status: AuthorizationStatus,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub suspended_until: Option<NaiveDate>,
    /// A placa do carro que a autorização vincula agora.
    pub plate: String,
}

/// The standing of authorization `id` at `now`.
pub async fn driver_standing(
    state: &AppState,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<DriverStanding, UseCaseError> {
    let a = state
        .store
        .get_authorization(id)
        .await?
        .ok_or(UseCaseError::NotFound("Autorização não encontrada."))?;
    let sanctions = state.store.sanctions_of(id).await?;
    let (barred, _) = standing::ride_hailing::ride_hailing_standing(
        state,
        a.id,
        a.driver_id,
        a.vehicle_id,
        a.granted_at,
        now,
    )
    .await?;
    let (status, suspended_until) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|r| r.revoked_at),
        &sanctions,
        barred,
        now,
    );
    let plate = state
        .store
        .get_vehicle(a.vehicle_id)
        .await?
        .map(|v| v.plate.as_str().to_owned())
        .unwrap_or_default();
    Ok(DriverStanding {
        authorization_number: a.number,
        status,
        valid_from: a.valid_from,
        valid_until: a.valid_until,
        suspended_until,
        plate,
    })
}

/// The standing of a platform's driver row now, if the driver holds any authorization.
pub async fn row_standing(
    state: &AppState,
    row: &PlatformDriverRow,
) -> Result<Option<DriverStanding>, UseCaseError> {
    let Some(a) = row.authorization_id.as_deref() else {
        return Ok(None);
    };
    let id = crate::storage::parse_uuid(a)?;
    Ok(Some(driver_standing(state, id, state.clock.now()).await?))
}

/// The event that tells a platform its driver went from `old` to `new`, if anything changed:
/// a new number is a renewal; otherwise the new status names it; a change of car, validity or
/// suspension period alone is an update.
pub fn event_between(old: &DriverStanding, new: &DriverStanding) -> Option<&'static str> {
    use AuthorizationStatus as S;
    if old == new {
        return None;
    }
    if old.authorization_number != new.authorization_number {
        return Some("authorization.renewed");
    }
    if old.status == new.status {
        return Some("authorization.updated");
    }
    Some(match new.status {
        S::Suspensa => "authorization.suspended",
        S::Revogada | S::Cassada => "authorization.revoked",
        S::Vencida => "authorization.expired",
        S::Ativa => "authorization.reinstated",
        S::Caducada
        | S::Impedida
        | S::VistoriaVencida
        | S::Descadastrada
        | S::VeiculoDescadastrado => "authorization.barred",
    })
}

/// Every event type a platform may receive.
pub const EVENT_TYPES: [&str; 8] = [
    "authorization.suspended",
    "authorization.revoked",
    "authorization.expired",
    "authorization.renewed",
    "authorization.reinstated",
    "authorization.barred",
    "authorization.updated",
    "vehicle.suspension_notice",
];

/// Whether `url` may receive deliveries: an absolute `https://` address without user or
/// fragment; outside production also `http://` to this machine (development and tests).
fn check_url(url: &str, environment: Environment) -> Result<(), &'static str> {
    use crate::domain::urls::{Outbound, outbound};
    let bad = "Informe um endereço https:// completo, sem usuário, senha ou fragmento (#).";
    match outbound(url).ok_or(bad)? {
        Outbound::Https => Ok(()),
        Outbound::LoopbackHttp if environment != Environment::Production => Ok(()),
        Outbound::LoopbackHttp | Outbound::Http => {
            Err("O endereço deve ser https://: os eventos falam de motoristas.")
        }
    }
}

/// Sets the caller's webhook (`None`: it wants none); answers the address as stored.
pub async fn set_webhook(
    state: &AppState,
    caller: &PlatformCaller,
    url: Option<&str>,
) -> Result<Option<String>, UseCaseError> {
    let url = url.map(str::trim).filter(|u| !u.is_empty());
    if let Some(u) = url {
        check_url(u, state.settings.environment).map_err(|message| UseCaseError::Inconsistent {
            field: "url",
            message,
        })?;
    }
    state
        .store
        .set_platform_webhook(&caller.platform_id, url, &caller.actor(), state.clock.now())
        .await?;
    Ok(url.map(str::to_owned))
}

/// A notice to a platform to suspend a vehicle, as recorded.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct VehicleNotice {
    pub id: Uuid,
    pub platform_id: String,
    pub plate: String,
    pub auto_id: Uuid,
    pub auto_number: String,
    /// O dispositivo que manda avisar a plataforma, como a base legal do auto o cita.
    pub article: String,
    pub issued_at: DateTime<Utc>,
    /// `false`: a plataforma não cadastrou webhook — o aviso consta do registro e deve seguir
    /// por ofício.
    pub webhook: bool,
}

/// Records the notice to platform `platform_id` to suspend the vehicle `plate` until it is
/// regularized, on the decision of auto `auto_id` — the repeat of clandestine service, whose
/// auto proposes it (minuta, art. 27, parágrafo único; the article is the auto's own basis's).
pub async fn notify_vehicle_suspension(
    state: &AppState,
    actor: &str,
    platform_id: &str,
    auto_id: &str,
    plate: &str,
) -> Result<VehicleNotice, UseCaseError> {
    let platform_id = super::platforms::platform_id(state, platform_id).await?;
    let no_auto = || UseCaseError::UnknownReference {
        field: "auto_id",
        message: "Auto de infração não encontrado.",
    };
    let auto_uuid = Uuid::parse_str(auto_id.trim()).map_err(|_| no_auto())?;
    let auto = state.store.get_auto(auto_uuid).await?.ok_or_else(no_auto)?;
    let article = auto
        .consequences
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["kind"] == "platform_notice")
        .and_then(|c| c["article"].as_str())
        .map(str::to_owned)
        .ok_or(UseCaseError::Inconsistent {
            field: "auto_id",
            message: "Este auto não propõe aviso à plataforma para suspender o veículo.",
        })?;
    let plate = Plate::parse(plate).map_err(|_| UseCaseError::Inconsistent {
        field: "plate",
        message: "Placa inválida: use o formato AAA9999 ou Mercosul AAA9A99.",
    })?;
    let now = state.clock.now();
    let notice = VehicleNotice {
        id: Uuid::new_v4(),
        platform_id: platform_id.clone(),
        plate: plate.as_str().to_owned(),
        auto_id: auto.id,
        auto_number: auto.number,
        article,
        issued_at: now,
        webhook: state
            .store
            .platform_webhook(&platform_id)
            .await?
            .is_some_and(|w| w.url.is_some()),
    };
    let data = serde_json::json!({
        "notice_id": notice.id, "plate": notice.plate, "auto_id": notice.auto_id,
        "auto_number": notice.auto_number, "article": notice.article,
    });
    state
        .store
        .record_platform_notice(&platform_id, NOTICE_KIND, &data, actor, now)
        .await?;
    tracing::info!(platform = %platform_id, notice = %notice.id, "vehicle suspension notice recorded");
    Ok(notice)
}

fn payload(
    id: Uuid,
    event_type: &str,
    platform_id: &str,
    at: DateTime<Utc>,
    data: &serde_json::Value,
) -> String {
    serde_json::json!({
        "id": id,
        "type": event_type,
        "created_at": at,
        "platform_id": platform_id,
        "data": data,
    })
    .to_string()
}

/// One pass of the relay; answers how many deliveries it queued.
pub async fn relay_pass(state: &AppState) -> Result<usize, UseCaseError> {
    let p = state.store.relay_position().await?;
    let now = state.clock.now();
    let today = local_date(now);
    let links = state.store.links_to_check(p, today).await?;
    let notices = state.store.notices_to_relay(p, NOTICE_KIND).await?;
    if links.is_empty() && notices.is_empty() && p.head == p.last_event_id {
        return Ok(0);
    }
    let mut writes = RelayWrites::default();
    for link in links {
        let Some(a) = link.authorization_id.as_deref() else {
            continue;
        };
        let new = driver_standing(state, crate::storage::parse_uuid(a)?, now).await?;
        let old = link
            .notified_state
            .as_deref()
            .and_then(|s| serde_json::from_str::<DriverStanding>(s).ok());
        if let Some(kind) = old.as_ref().and_then(|old| event_between(old, &new)) {
            let id = Uuid::new_v4();
            writes.deliveries.push(NewDelivery {
                id,
                platform_id: link.platform_id.clone(),
                event_type: kind,
                dedupe_key: format!("state:{}:{}", link.id, p.pass),
                payload: payload(
                    id,
                    kind,
                    &link.platform_id,
                    now,
                    &serde_json::json!({ "previous": old, "current": new }),
                ),
            });
        }
        let told = serde_json::to_string(&new).map_err(|_| UseCaseError::Encoding)?;
        writes.links.push((link.id, told, today.succ_opt()));
    }
    for n in notices {
        let id = Uuid::new_v4();
        let data: serde_json::Value = serde_json::from_str(&n.data).unwrap_or_default();
        let kind = "vehicle.suspension_notice";
        writes.deliveries.push(NewDelivery {
            id,
            platform_id: n.entity_id.clone(),
            event_type: kind,
            dedupe_key: format!("notice:{}", n.id),
            payload: payload(id, kind, &n.entity_id, n.occurred_at, &data),
        });
    }
    let queued = writes.deliveries.len();
    if state.store.commit_relay_pass(p, &writes, now).await? {
        Ok(queued)
    } else {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(number: &str, status: AuthorizationStatus) -> DriverStanding {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        DriverStanding {
            authorization_number: number.into(),
            status,
            valid_from: d(1, 10),
            valid_until: d(12, 31),
            suspended_until: None,
            plate: "QBA1D23".into(),
        }
    }

    #[test]
    fn each_change_of_standing_names_its_event() {
        use AuthorizationStatus as S;
        let active = standing("APP-2026/000001", S::Ativa);
        assert_eq!(event_between(&active, &active), None);
        let mut suspended = standing("APP-2026/000001", S::Suspensa);
        suspended.suspended_until = NaiveDate::from_ymd_opt(2026, 7, 1);
        assert_eq!(
            event_between(&active, &suspended),
            Some("authorization.suspended")
        );
        assert_eq!(
            event_between(&suspended, &active),
            Some("authorization.reinstated")
        );
        for (status, kind) in [
            (S::Cassada, "authorization.revoked"),
            (S::Revogada, "authorization.revoked"),
            (S::Vencida, "authorization.expired"),
            (S::VistoriaVencida, "authorization.barred"),
        ] {
            assert_eq!(
                event_between(&active, &standing("APP-2026/000001", status)),
                Some(kind)
            );
        }
        let renewed = standing("APP-2027/000009", S::Ativa);
        assert_eq!(
            event_between(&active, &renewed),
            Some("authorization.renewed")
        );
        let mut other_car = active.clone();
        other_car.plate = "RST2E34".into();
        assert_eq!(
            event_between(&active, &other_car),
            Some("authorization.updated")
        );
        for kind in ["authorization.suspended", "authorization.updated"] {
            assert!(EVENT_TYPES.contains(&kind));
        }
    }

    #[test]
    fn only_https_addresses_receive_events_in_production() {
        let (dev, prod) = (Environment::Development, Environment::Production);
        assert!(check_url("https://api.plataforma.example/selo", prod).is_ok());
        assert!(check_url("http://127.0.0.1:9000/hook", dev).is_ok());
        assert!(check_url("http://[::1]:9000/hook", dev).is_ok());
        assert!(check_url("http://127.0.0.1:9000/hook", prod).is_err());
        assert!(check_url("http://api.plataforma.example/selo", dev).is_err());
        assert!(check_url("https://user:pw@api.plataforma.example/", prod).is_err());
        assert!(check_url("https://api.plataforma.example/#x", prod).is_err());
        assert!(check_url("ftp://api.plataforma.example/", dev).is_err());
        assert!(check_url("api.plataforma.example", dev).is_err());
    }
}
