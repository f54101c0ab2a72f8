//! Art. 24, I, d and f (AMB-36): the non-punitive descadastramento of a ride-hailing driver
//! or car that lost a requirement, after notice, and its recadastramento.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    CNHS, CPFS, PLATES, RENAVAMS, driver_body, failures, spawn_app, token_of, vehicle_body,
};

pub(crate) fn sticker_token(grant: &Value) -> String {
    token_of(&crate::helpers::sticker_url(grant))
}

fn removal(ground: &str, notified_on: &str, effective_on: &str) -> Value {
    json!({"act": "descadastramento", "ground": ground, "notified_on": notified_on,
           "effective_on": effective_on, "reference": "Portaria SMF nº 7/2026"})
}

#[tokio::test]
async fn app_art24_i_f_a_car_removed_from_the_register_stops_its_sticker_until_replaced() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    app.vistoria(&grant, "2026-11-30", true).await;
    let id = grant["id"].as_str().unwrap();
    let car = grant["vehicle_id"].as_str().unwrap();
    let path = format!("/api/v1/vehicles/{car}/register-acts");

    // A driver's ground does not fit a car; the effect cannot precede the notice.
    let res = app
        .post(&path, &removal("cnh", "2026-11-25", "2026-11-30"))
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        failures(&res.json().await.unwrap()),
        [("APP-ART24-I".into(), "ground".into())]
    );
    let body: Value = app
        .post(&path, &removal("idade_veiculo", "2026-11-25", "2026-11-20"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        failures(&body),
        [("APP-ART24-I".into(), "effective_on".into())]
    );

    let res = app
        .post(&path, &removal("idade_veiculo", "2026-11-25", "2026-11-30"))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["deregistered_since"], "2026-11-30");
    // Not twice.
    let body: Value = app
        .post(&path, &removal("idade_veiculo", "2026-11-25", "2026-11-30"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(failures(&body), [("APP-ART24-I".into(), "act".into())]);

    let (_, v) = app.verify(&sticker_token(&grant)).await;
    assert_eq!(v["verdict"], "irregular", "{v}");
    assert_eq!(v["document"]["status"], "veiculo_descadastrado");
    let now: Value = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["status"], "veiculo_descadastrado");

    // The cure is another car (art. 8 §2º); the removed one cannot come back in.
    let other_car = app
        .create_vehicle(&vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/vehicle-substitutions"),
            &json!({"new_vehicle_id": other_car, "cause": "venda",
                    "vistoria": {"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SMF"}}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let after: Value = res.json().await.unwrap();
    assert_eq!(after["status"], "active");
    let (_, v) = app.verify(&sticker_token(&after)).await;
    assert_eq!(v["verdict"], "valid", "{v}");
    let driver = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let body: Value = app
        .grant(&driver, car, "2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        failures(&body),
        [("APP-ART24-I".into(), "vehicle_id".into())]
    );
}

#[tokio::test]
async fn app_art24_i_d_a_driver_removed_from_the_register_and_restored() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    app.vistoria(&grant, "2026-11-30", true).await;
    let driver = grant["driver_id"].as_str().unwrap();
    let path = format!("/api/v1/drivers/{driver}/register-acts");
    let res = app
        .post(&path, &removal("cnh", "2026-11-10", "2026-11-26"))
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let (_, v) = app.verify(&sticker_token(&grant)).await;
    assert_eq!(v["verdict"], "revoked", "{v}");
    assert_eq!(v["document"]["status"], "descadastrada");
    let history = app
        .event_kinds(&format!("/api/v1/drivers/{driver}/history"))
        .await;
    assert!(history.contains(&"register_act".to_owned()), "{history:?}");

    // A recadastramento cannot precede the removal, and lifts it from its day.
    let back = |on: &str| json!({"act": "recadastramento", "effective_on": on, "reference": "Despacho SMF"});
    let body: Value = app
        .post(&path, &back("2026-11-01"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        failures(&body),
        [("APP-ART24-I".into(), "effective_on".into())]
    );
    let res = app.post(&path, &back("2026-11-30")).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        res.json::<Value>().await.unwrap()["deregistered_since"],
        Value::Null
    );
    let (_, v) = app.verify(&sticker_token(&grant)).await;
    assert_eq!(v["verdict"], "valid", "{v}");

    // Unknown entries are 404.
    let res = app
        .post(
            "/api/v1/drivers/00000000-0000-0000-0000-000000000000/register-acts",
            &removal("cnh", "2026-11-10", "2026-11-26"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
