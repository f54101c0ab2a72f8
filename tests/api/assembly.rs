//! One application assembly: the back office's `/painel/ver/…` reaches every GET operation of
//! the JSON API in process and answers as the API does — the same status, the same file for a
//! file, the API's own explanation for a refusal, the record for a record.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{OFFICIAL_PASSWORD, spawn_app, token_of};
use crate::panel::Browser;

/// The path of `pattern` with its parameters filled from the register built by the test; an
/// unknown id where nothing fits, so both ways answer 404 alike.
fn filled(pattern: &str, ids: &[(&str, String)]) -> String {
    let unknown = "00000000-0000-4000-8000-000000000000".to_owned();
    let mut out = String::new();
    let segments: Vec<&str> = pattern.split('/').collect();
    for (i, seg) in segments.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) else {
            out.push_str(seg);
            continue;
        };
        let before = segments[..i].join("/");
        let value = match name {
            "token" => ids
                .iter()
                .find(|(k, _)| *k == "token")
                .map(|(_, v)| v.clone()),
            "code" => ids
                .iter()
                .find(|(k, _)| *k == "code")
                .map(|(_, v)| v.clone()),
            "plate" => Some("BRA2E19".to_owned()),
            "year" => Some("2026".to_owned()),
            "entity" => Some("companies".to_owned()),
            _ => ids
                .iter()
                .find(|(k, _)| before.ends_with(k))
                .map(|(_, v)| v.clone()),
        };
        out.push_str(&value.unwrap_or_else(|| unknown.clone()));
    }
    out
}

/// The status, content type and body of an answer.
async fn answer(req: reqwest::RequestBuilder) -> (StatusCode, String, Vec<u8>) {
    let res = req.send().await.unwrap();
    let status = res.status();
    let content_type = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, content_type, res.bytes().await.unwrap().to_vec())
}

fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

#[tokio::test]
async fn every_get_operation_answers_the_same_through_the_back_office_as_through_the_api() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = app
        .official(
            "ana.smf",
            "Ana Finanças",
            "admin,ride_hailing_issuer,charter_issuer,inspector",
        )
        .await;
    let sticker = grant["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_sticker")
        .unwrap();
    let ids = vec![
        (
            "token",
            token_of(sticker["verification_url"].as_str().unwrap()),
        ),
        (
            "code",
            sticker["verification_code"].as_str().unwrap().to_owned(),
        ),
        (
            "/app-authorizations",
            grant["id"].as_str().unwrap().to_owned(),
        ),
        ("/drivers", grant["driver_id"].as_str().unwrap().to_owned()),
        (
            "/vehicles",
            grant["vehicle_id"].as_str().unwrap().to_owned(),
        ),
        ("/documents", sticker["id"].as_str().unwrap().to_owned()),
    ];
    let mut browser = Browser::new(&app);
    let (status, _, _) = browser.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let mut compared = 0;
    let mut records = 0;
    let mut refusals = 0;
    for (method, pattern) in selo::http::ROUTES {
        if *method != "get" || !pattern.starts_with("/api/v1/") {
            continue;
        }
        let path = filled(pattern, &ids);
        let tail = path.trim_start_matches("/api/v1/");
        let (api_status, api_type, api_body) =
            answer(app.client.get(app.url(&path)).bearer_auth(&token)).await;
        let (panel_status, panel_type, panel_body) = answer(
            browser
                .client
                .get(app.url(&format!("/painel/ver/{tail}")))
                .header(reqwest::header::COOKIE, browser.cookie_header()),
        )
        .await;
        assert_eq!(
            panel_status, api_status,
            "{pattern} ({path}): the back office answered {panel_status}, the API {api_status}"
        );
        assert_ne!(panel_status, StatusCode::INTERNAL_SERVER_ERROR, "{pattern}");
        compared += 1;
        let json: Option<Value> = serde_json::from_slice(&api_body).ok();
        if !api_status.is_success() {
            // The API's explanation reaches the official.
            let detail = json
                .as_ref()
                .and_then(|p| p["detail"].as_str())
                .unwrap_or_default();
            let page = String::from_utf8_lossy(&panel_body);
            if api_status != StatusCode::NOT_FOUND && api_status != StatusCode::FORBIDDEN {
                assert!(
                    page.contains(&escaped(detail)),
                    "{pattern}: the page lacks the API's detail {detail:?}"
                );
                refusals += 1;
            }
        } else if api_type.starts_with("application/json") {
            assert!(
                panel_type.starts_with("text/html"),
                "{pattern}: {panel_type}"
            );
            let page = String::from_utf8_lossy(&panel_body);
            for key in ["number", "name", "plate"] {
                if let Some(v) = json.as_ref().and_then(|j| j[key].as_str()) {
                    assert!(
                        page.contains(&escaped(v)),
                        "{pattern}: the record page lacks its {key} {v:?}"
                    );
                }
            }
            records += 1;
        } else {
            assert_eq!(panel_type, api_type, "{pattern}");
            assert_eq!(panel_body, api_body, "{pattern}: not the API's file");
        }
    }
    // The table has dozens of GET operations; the register built above makes records,
    // refusals and files among them.
    assert!(compared >= 30, "only {compared} operations compared");
    assert!(records >= 5, "only {records} records compared");
    assert!(refusals >= 1, "no refusal compared");
}
