//! A platform sends its monthly report and answers data requests with its own credential; the
//! officials read what arrived, byte for byte, on the platform's record.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::platforms::{credential, registered_platform};

const CSV: &[u8] = b"placa;viagens;km\nQRS1A23;41;388\n";

/// The monthly report: a month already ended, the type checked by content, one per month (the
/// same bytes again are a retry), scoped to the credential's platform, read by officials.
#[tokio::test]
async fn a_platform_sends_its_monthly_report_with_its_credential() {
    let (app, pid) = registered_platform().await;
    let (_, token) = credential(&app, &pid).await;
    // The test clock stands on 30/11/2026: November has not ended.
    let put = |period: &str, ct: Option<&str>, body: &[u8]| {
        let (app, token) = (&app, token.clone());
        let (path, ct, body) = (
            format!("/api/v1/platform/monthly-reports/{period}"),
            ct.map(str::to_owned),
            body.to_vec(),
        );
        async move {
            let res = app
                .send_file(&token, "put", &path, ct.as_deref(), body)
                .await;
            let status = res.status();
            (status, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (status, p) = put("2026-11", Some("text/csv"), CSV).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(
        put("2026-13", Some("text/csv"), CSV).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A PDF declared as CSV, HTML declared as CSV, no type at all: refused, nothing kept.
    assert_eq!(
        put("2026-10", Some("text/csv"), b"%PDF-1.7\n%%EOF").await.0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        put("2026-10", Some("text/csv"), b"<html><body>x</body></html>")
            .await
            .0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        put("2026-10", None, CSV).await.0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        put("2026-10", Some("text/csv"), b"").await.0,
        StatusCode::BAD_REQUEST
    );

    let (status, first) = put("2026-10", Some("text/csv; charset=utf-8"), CSV).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(first["period"], "2026-10");
    assert_eq!(first["media_type"], "text/csv");
    assert_eq!(first["size_bytes"], CSV.len());
    // The same bytes again: a retry, the same record.
    let (status, again) = put("2026-10", Some("text/csv"), CSV).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["id"], first["id"]);
    // Other bytes for the same month: refused, the first stays.
    let (status, p) = put("2026-10", Some("application/json"), br#"{"viagens": 1}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    assert!(
        p["detail"].as_str().unwrap().contains("outubro de 2026"),
        "{p}"
    );
    // A minute later, September's (late) report.
    app.clock.advance(chrono::Duration::minutes(1));
    let (status, _) = put("2026-09", Some("application/json"), br#"{"viagens": 7}"#).await;
    assert_eq!(status, StatusCode::CREATED);

    // An official's token is not a platform's; no credential is 401.
    let official = app
        .send_file(
            crate::helpers::ADMIN_TOKEN,
            "put",
            "/api/v1/platform/monthly-reports/2026-08",
            Some("text/csv"),
            CSV.to_vec(),
        )
        .await;
    assert_eq!(official.status(), StatusCode::FORBIDDEN);

    // The officials read both, newest first, and download the first as it arrived.
    let files = app
        .get_json(&format!("/api/v1/platforms/{pid}/files"))
        .await;
    let periods: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["period"].as_str().unwrap())
        .collect();
    assert_eq!(periods, ["2026-09", "2026-10"], "{files}");
    let record = app.get_json(&format!("/api/v1/platforms/{pid}")).await;
    assert_eq!(
        record["received_files"].as_array().unwrap().len(),
        2,
        "{record}"
    );
    let res = app
        .get_authed(first["download_url"].as_str().unwrap())
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/csv");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("relatorio-mensal-2026-10.csv")
    );
    assert_eq!(res.bytes().await.unwrap().as_ref(), CSV);

    another_platform_files_its_own_month(&app, &pid).await;
}

/// A data request answered by the platform itself: it lists its requests, sends the file,
/// and the request is delivered at arrival with the file's SHA-256 and the credential as the
/// authenticating agent (art. 4º, §3º); another platform's request is not found.
#[tokio::test]
async fn app_art4_p3_a_platform_answers_a_data_request_with_its_credential() {
    let (app, pid) = registered_platform().await;
    let (_, token) = credential(&app, &pid).await;
    // Notified at 10:00 local time on 30/11/2026; the test clock reads 12:00.
    let body = json!({"justification": "Apuração de embarque irregular", "scope": "Viagens da placa BRA2E19 em 27/11/2026",
                      "notified_at": "2026-11-30T10:00:00-04:00"});
    let r: Value = app
        .post(&format!("/api/v1/platforms/{pid}/data-requests"), &body)
        .await
        .json()
        .await
        .unwrap();
    let rid = r["id"].as_str().unwrap();

    let res = app
        .send_as(Some(&token), "get", "/api/v1/platform/data-requests", None)
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["requests"][0]["id"], rid, "{list}");
    assert_eq!(list["requests"][0]["status"], "pending");

    let path = format!("/api/v1/platform/data-requests/{rid}/delivery");
    let data = br#"{"viagens": [{"inicio": "2026-11-27T08:00:00-04:00", "km": 12.4}]}"#.to_vec();
    let res = app
        .send_file(
            &token,
            "put",
            &path,
            Some("application/json"),
            b"{\"viagens\": [".to_vec(),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        app.get_json(&format!("/api/v1/data-requests/{rid}")).await["status"],
        "pending"
    );
    let res = app
        .send_file(&token, "put", &path, Some("application/json"), data.clone())
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let answer: Value = res.json().await.unwrap();
    let sha = answer["file"]["sha256"].as_str().unwrap().to_owned();
    assert_eq!(sha.len(), 64);
    let request = app.get_json(&format!("/api/v1/data-requests/{rid}")).await;
    assert_eq!(request["status"], "delivered_in_time", "{request}");
    assert_eq!(request["sha256"], sha.as_str());
    assert_eq!(
        request["signer"],
        "credencial da plataforma: Integração de cadastro"
    );
    // A retry is the same delivery; other bytes are refused.
    let res = app
        .send_file(&token, "put", &path, Some("application/json"), data.clone())
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .send_file(&token, "put", &path, Some("text/csv"), CSV.to_vec())
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let res = app
        .get_authed(answer["file"]["download_url"].as_str().unwrap())
        .await;
    assert_eq!(res.bytes().await.unwrap().as_ref(), data.as_slice());

    // Another platform cannot answer (nor see) this request.
    let t2 = other_platform_credential(&app).await;
    let res = app
        .send_file(&t2, "put", &path, Some("application/json"), data)
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .send_as(Some(&t2), "get", "/api/v1/platform/data-requests", None)
        .await;
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["requests"].as_array().unwrap().len(), 0);
}

/// Another platform's credential sees nothing of the first's files and files its own October.
async fn another_platform_files_its_own_month(app: &crate::helpers::TestApp, pid: &str) {
    let t2 = other_platform_credential(app).await;
    let res = app
        .send_file(
            &t2,
            "put",
            "/api/v1/platform/monthly-reports/2026-10",
            Some("text/csv"),
            b"placa\n".to_vec(),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let files = app
        .get_json(&format!("/api/v1/platforms/{pid}/files"))
        .await;
    assert_eq!(files["files"].as_array().unwrap().len(), 2);
}

/// A second platform, registered by an official, and a credential of its own.
async fn other_platform_credential(app: &crate::helpers::TestApp) -> String {
    let other: Value = app
        .post(
            "/api/v1/platforms",
            &json!({"name": "Outra Plataforma Ltda.", "cnpj": "11.444.777/0001-61", "fee_paid_on": "2026-11-02",
                    "app_insurance": {"policy": "APP-9", "insurer": "Seguradora Exemplo S.A.", "cover_centavos": 5_000_000, "valid_until": "2027-06-30"}}),
        )
        .await
        .json()
        .await
        .unwrap();
    credential(app, other["id"].as_str().unwrap()).await.1
}
