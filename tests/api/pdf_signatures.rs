use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

pub(crate) async fn upload_raw(app: &TestApp, pdf: Vec<u8>) -> (StatusCode, Value) {
    let res = app
        .client
        .post(app.url("/api/v1/verify/pdf"))
        .header("content-type", "application/pdf")
        .body(pdf)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

#[tokio::test]
async fn an_issued_pdf_uploaded_verifies_with_its_live_status() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    for kind in ["app_sticker", "app_authorization"] {
        let pdf = app.document_bytes(&grant, kind).await;
        let (status, body) = upload_raw(&app, pdf).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["verdict"], "valid");
        assert_eq!(body["signature"]["intact"], true);
        assert_eq!(body["signature"]["trusted"], true);
        assert_eq!(body["document"]["kind"], kind);
        assert_eq!(body["document"]["number"], "APP-2026/000001");
    }
    // The published key that signed it.
    let jwks: Value = app.jwks().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let (_, body) = upload_raw(&app, pdf.clone()).await;
    assert_eq!(body["signature"]["kid"], jwks["keys"][0]["kid"]);

    // Revocation shows on the next upload of the same file.
    let path = format!(
        "/api/v1/app-authorizations/{}/revocation",
        grant["id"].as_str().unwrap()
    );
    app.post(&path, &json!({"reason": "Teste"})).await;
    let (_, body) = upload_raw(&app, pdf).await;
    assert_eq!(body["verdict"], "revoked");
}

#[tokio::test]
async fn an_altered_or_extended_pdf_is_an_invalid_signature() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let mut altered = pdf.clone();
    altered[1000] ^= 0x01;
    let (status, body) = upload_raw(&app, altered).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "invalid_signature");
    assert_eq!(body["signature"]["intact"], false);
    assert!(body.get("document").is_none());

    let mut extended = pdf;
    extended.extend_from_slice(b"\n1 0 obj\n(forged)\nendobj\n");
    let (_, body) = upload_raw(&app, extended).await;
    assert_eq!(body["verdict"], "invalid_signature");
}

#[tokio::test]
async fn files_that_are_not_signed_pdfs_are_malformed_and_big_ones_refused() {
    let app = spawn_app().await;
    let (status, body) = upload_raw(&app, b"%PDF-1.7\nnot really".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["verdict"], "malformed");
    let (status, body) = upload_raw(&app, vec![b'x'; 6 * 1024 * 1024]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["status"], 413);
}

#[tokio::test]
async fn the_page_form_accepts_a_multipart_upload() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let (status, html) = crate::road::upload_page(&app, Some(pdf.clone())).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("AUTORIZADO"), "{html}");
    assert!(html.contains("Assinatura íntegra"));
    // The API takes multipart too.
    let form = Form::new().part("pdf", Part::bytes(pdf).file_name("a.pdf"));
    let res = app
        .client
        .post(app.url("/api/v1/verify/pdf"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "valid");
    // The page offers the form.
    assert!(
        app.get("/v")
            .await
            .text()
            .await
            .unwrap()
            .contains("Verificar um PDF")
    );
}

/// A bit flipped in the unsigned padding of a genuine signature leaves the signature
/// intact but the file is no issued document; the answer says both, not just "intact".
#[tokio::test]
async fn a_genuine_signature_over_bytes_never_issued_says_the_document_is_not_registered() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let mut pdf = app.document_bytes(&grant, "app_sticker").await;
    // The last `/Contents <hex>` (not a `/Contents <<` dictionary) is the signature's.
    let open = (0..pdf.len())
        .rev()
        .filter(|&i| pdf[i..].starts_with(b"/Contents"))
        .find_map(|i| {
            let j = i + b"/Contents".len();
            let j = j + pdf[j..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            (pdf[j] == b'<' && pdf[j + 1] != b'<').then_some(j)
        })
        .unwrap();
    let close = open + pdf[open..].iter().position(|&b| b == b'>').unwrap();
    assert_eq!(pdf[close - 1], b'0', "the signature ends in padding");
    pdf[close - 1] = b'1';
    let (status, body) = upload_raw(&app, pdf).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "unknown_document");
    assert_eq!(body["signature"]["intact"], true);
    let detail = body["signature"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("não consta do registro"),
        "the answer must say the file is not a registered document: {detail}"
    );
}
