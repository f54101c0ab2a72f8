//! ITI's QR protocol: VALIDAR calls a document's QR address with
//! `_format=application/validador-iti+json` and the code printed on the document, and downloads
//! the signed PDF the answer names; a wrong code is 401, a QR of no selo document 404.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{PUBLIC_URL, spawn_app, token_of};

/// The document of `kind` a grant's answer lists.
fn document_of(grant: &Value, kind: &str) -> Value {
    grant["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == kind)
        .unwrap()
        .clone()
}

const ITI: &str = "_format=application/validador-iti%2Bjson";

#[tokio::test]
async fn itis_validator_gets_the_signed_pdf_with_the_printed_code_only() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let sticker = document_of(&grant, "app_sticker");
    let token = token_of(sticker["verification_url"].as_str().unwrap());
    let code = sticker["verification_code"].as_str().unwrap().to_owned();

    // The code as printed, typed in lower case: the answer names the PDF.
    let res = app
        .get(&format!(
            "/v/{token}?{ITI}&_secretCode={}",
            code.to_lowercase()
        ))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["version"], "1.0.0");
    let files = answer["prescription"]["signatureFiles"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    let url = files[0]["url"].as_str().unwrap();
    let path = url.strip_prefix(PUBLIC_URL).unwrap();
    assert!(
        path.starts_with(&format!("/v/{token}/documento.pdf?_secretCode=")),
        "{url}"
    );

    // The file is the signed PDF the city issued, byte for byte.
    let res = app.get(path).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let served = res.bytes().await.unwrap().to_vec();
    assert_eq!(served, app.document_bytes(&grant, "app_sticker").await);
    let keys = selo::signing::keys::load(app.keys_dir.path(), false).unwrap();
    assert!(selo::signing::pades::verify_pdf(&served, &keys.chain.root, &keys.public).is_ok());

    // Another document's code, none, or a forged token.
    let authorization_code = document_of(&grant, "app_authorization")["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();
    for query in [
        format!("{ITI}&_secretCode={authorization_code}"),
        ITI.to_owned(),
    ] {
        let res = app.get(&format!("/v/{token}?{query}")).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{query}");
        let res = app.get(&format!("/v/{token}/documento.pdf?{query}")).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{query}");
    }
    let mut forged = token.clone().into_bytes();
    let last = forged.len() - 5;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let res = app
        .get(&format!("/v/{forged}?{ITI}&_secretCode={code}"))
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .get(&format!("/v/{forged}/documento.pdf?_secretCode={code}"))
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Without the format, the page as always.
    let res = app.get(&format!("/v/{token}?_secretCode={code}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
}
