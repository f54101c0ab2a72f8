//! Verification on the road: what a passenger can match (car, driver's first name and
//! photo), the printed code's check symbol, and each failure of the pages saying its reason.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{TestApp, spawn_app, token_of};

/// A photo as a phone takes it: a JPEG with EXIF (orientation 6: rotate 90°) and a comment.
fn phone_jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([
            u8::try_from(x % 251).unwrap(),
            u8::try_from(y % 241).unwrap(),
            90,
        ])
    });
    let mut plain = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut plain, 90)
        .encode_image(&img)
        .unwrap();
    // TIFF, little endian, one IFD entry: Orientation (0x0112) SHORT = 6.
    let tiff: &[u8] = &[
        b'I', b'I', 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0,
    ];
    let mut exif = b"Exif\0\0".to_vec();
    exif.extend_from_slice(tiff);
    let comment = b"GPS -15.8900 -52.2567 casa da motorista";
    let mut out = plain[..2].to_vec(); // SOI
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&u16::try_from(exif.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(&exif);
    out.extend_from_slice(&[0xFF, 0xFE]);
    out.extend_from_slice(&u16::try_from(comment.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(comment);
    out.extend_from_slice(&plain[2..]);
    out
}

async fn put_photo(
    app: &TestApp,
    token: Option<&str>,
    driver: &str,
    body: Vec<u8>,
    ct: &str,
) -> reqwest::Response {
    let mut req = app
        .client
        .put(app.url(&format!("/api/v1/drivers/{driver}/photo")))
        .header("content-type", ct)
        .body(body);
    req = req.bearer_auth(token.unwrap_or(crate::helpers::ADMIN_TOKEN));
    let res = req.send().await.unwrap();
    crate::contract::checked("put", &format!("/api/v1/drivers/{driver}/photo"), res).await
}

fn windows(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test]
async fn a_passenger_matches_the_car_and_the_driver_and_sees_the_photo_only_while_valid() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "valid");
    let doc = &body["document"];
    assert_eq!(doc["vehicle"]["make"], "Chevrolet");
    assert_eq!(doc["vehicle"]["model"], "Onix Plus");
    assert_eq!(doc["vehicle"]["color"], "Prata");
    assert_eq!(doc["driver"]["first_name"], "Maria");
    assert!(doc["driver"].get("photo_url").is_none(), "{doc}");
    let text = body.to_string();
    assert!(!text.contains("Souza") && !text.contains("529"), "{text}");

    // The photo: a 1200 × 1600 phone JPEG with EXIF turned sideways.
    let driver = grant["driver_id"].as_str().unwrap();
    let res = put_photo(&app, None, driver, phone_jpeg(1600, 1200), "image/jpeg").await;
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "{}",
        res.text().await.unwrap()
    );
    let stored: Value = res.json().await.unwrap();
    // Orientation 6 turned the 1600 × 1200 landscape upright: 480 × 640.
    assert_eq!(
        (stored["width"].as_u64(), stored["height"].as_u64()),
        (Some(480), Some(640))
    );

    let (_, body) = app.verify(&token).await;
    let url = body["document"]["driver"]["photo_url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(url, format!("/api/v1/verify/{token}/photo"));
    let res = app.get(&url).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/jpeg");
    assert_eq!(res.headers()["cache-control"], "no-store");
    let jpeg = res.bytes().await.unwrap();
    assert!(
        !windows(&jpeg, b"Exif") && !windows(&jpeg, b"GPS"),
        "metadata kept"
    );
    let decoded = image::load_from_memory(&jpeg).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (480, 640));

    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(page.contains(&format!("src=\"{url}\"")), "{page}");
    assert!(page.contains("Maria") && page.contains("Onix Plus") && page.contains("Prata"));
    assert!(page.contains("LGPD"), "the page says why the data is shown");
    assert!(!page.contains("Souza"));

    // A forged token never reaches a photo.
    let mut forged = token.clone().into_bytes();
    let last = forged.len() - 3;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let res = app.get(&format!("/api/v1/verify/{forged}/photo")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // Once revoked, no name and no photo.
    crate::verification::revoke(&app, &grant).await;
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "revoked");
    assert!(body["document"].get("driver").is_none(), "{body}");
    assert_eq!(body["document"]["vehicle"]["model"], "Onix Plus");
    assert_eq!(app.get(&url).await.status(), StatusCode::NOT_FOUND);
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(!page.contains("Maria") && !page.contains("/photo"));
    assert!(
        page.contains("Não embarque") && page.contains("href=\"tel:+55"),
        "{page}"
    );
}

#[tokio::test]
async fn a_photo_upload_refuses_what_is_not_a_usable_photo() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let res = put_photo(&app, None, driver, b"hello".to_vec(), "image/jpeg").await;
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let p: Value = res.json().await.unwrap();
    assert!(p["detail"].as_str().unwrap().contains("JPEG ou PNG"), "{p}");
    let res = put_photo(&app, None, driver, phone_jpeg(100, 100), "image/jpeg").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = put_photo(
        &app,
        None,
        driver,
        vec![0xFF; 2 * 1024 * 1024 + 1],
        "image/jpeg",
    )
    .await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let unknown = "00000000-0000-4000-8000-000000000000";
    let res = put_photo(&app, None, unknown, phone_jpeg(300, 400), "image/jpeg").await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    // Only the ride-hailing issuers set photos.
    let inspector = app.official("fiscal.ana", "Ana Fiscal", "inspector").await;
    let res = put_photo(
        &app,
        Some(&inspector),
        driver,
        phone_jpeg(300, 400),
        "image/jpeg",
    )
    .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    // Nothing was stored by any of them.
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let (_, body) = app.verify(&token).await;
    assert!(body["document"]["driver"].get("photo_url").is_none());
    // The upload is in the driver's history.
    let ok = put_photo(&app, None, driver, phone_jpeg(300, 400), "image/jpeg").await;
    assert_eq!(ok.status(), StatusCode::OK);
    let kinds = app
        .event_kinds(&format!("/api/v1/drivers/{driver}/history"))
        .await;
    assert_eq!(
        kinds.iter().filter(|k| *k == "photo_set").count(),
        1,
        "{kinds:?}"
    );
}

/// A code with one symbol changed to another of the alphabet.
fn typo_of(code: &str) -> String {
    let mut chars: Vec<char> = code.chars().collect();
    chars[1] = if chars[1] == '7' { '8' } else { '7' };
    chars.into_iter().collect()
}

#[tokio::test]
async fn a_typo_in_the_printed_code_is_told_apart_from_an_unknown_code() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    assert_eq!(code.len(), 11, "{code}");
    assert_eq!(code.matches('-').count(), 2, "{code}");

    let res = app
        .get(&format!("/api/v1/verify/code/{}", typo_of(code)))
        .await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "malformed");
    assert!(
        body["reason"]
            .as_str()
            .unwrap()
            .contains("digitado incorretamente"),
        "{body}"
    );

    let typed = typo_of(code).to_lowercase();
    let res = app.get(&format!("/v?codigo={typed}")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let page = res.text().await.unwrap();
    assert!(page.contains("CÓDIGO DIGITADO INCORRETAMENTE"), "{page}");
    assert!(!page.contains("NÃO ENCONTRADO") && !page.contains("não confie"));
    // Shown back and kept in the box.
    assert!(page.contains(&format!("value=\"{typed}\"")), "{page}");
    assert!(page.contains(&format!("<span class=\"typed\">{typed}</span>")));
    for attr in [
        "inputmode=\"text\"",
        "autocapitalize=\"characters\"",
        "autocomplete=\"off\"",
        "spellcheck=\"false\"",
    ] {
        assert!(page.contains(attr), "{attr}");
    }

    // A well-formed code with a good check symbol that no document has: not found.
    let unknown = app.get("/v?codigo=000-000-000").await;
    assert_eq!(unknown.status(), StatusCode::OK);
    let page = unknown.text().await.unwrap();
    assert!(page.contains("NÃO ENCONTRADO"), "{page}");
    // Codes printed before the check symbol (eight symbols) are still looked up.
    assert_eq!(
        app.get("/api/v1/verify/code/ZZZZ-ZZZZ").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_code_printed_before_the_check_symbol_keeps_verifying() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    // As a document issued before the check symbol: eight symbols (the register is
    // append-only, so its guard is lifted for this one change).
    let update = format!(
        "UPDATE documents SET verification_code = 'K7Q2-9XHM' WHERE verification_code = '{code}'"
    );
    if app.backend == "postgres" {
        app.exec_sql(&[
            "ALTER TABLE documents DISABLE TRIGGER documents_append_only",
            &update,
        ])
        .await;
    } else {
        app.exec_sql(&["DROP TRIGGER documents_append_only_u", &update])
            .await;
    }
    let res = app.get("/api/v1/verify/code/k7q2 9xhm").await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "valid");
}

pub(crate) async fn upload_page(app: &TestApp, bytes: Option<Vec<u8>>) -> (StatusCode, String) {
    let mut form = reqwest::multipart::Form::new();
    form = match bytes {
        Some(b) => form.part(
            "pdf",
            reqwest::multipart::Part::bytes(b)
                .file_name("documento.pdf")
                .mime_str("application/pdf")
                .unwrap(),
        ),
        None => form.text("pdf", ""),
    };
    let res = app
        .client
        .post(app.url("/v/pdf"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    (res.status(), res.text().await.unwrap())
}

#[tokio::test]
async fn every_pdf_upload_failure_says_its_own_reason() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;

    let (status, page) = upload_page(&app, Some(b"just some text".to_vec())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("não é um PDF"), "{page}");
    assert!(
        !page.contains("QR code inteiro"),
        "no talk of QR codes for a file"
    );

    let unsigned =
        b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n".to_vec();
    let (status, page) = upload_page(&app, Some(unsigned)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("não tem assinatura digital"), "{page}");

    let mut altered = pdf.clone();
    altered[1000] ^= 0x01;
    let (_, page) = upload_page(&app, Some(altered)).await;
    assert!(
        page.contains("FALSO OU ALTERADO") && page.contains("foi alterado"),
        "{page}"
    );

    let (status, page) = upload_page(&app, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("Nenhum arquivo foi enviado"), "{page}");

    let (status, page) = upload_page(&app, Some(vec![b'%'; 6 * 1024 * 1024])).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(page.contains("mais de 5 MB"), "{page}");

    let (status, page) = upload_page(&app, Some(pdf)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("AUTORIZADO") && page.contains("Assinatura íntegra"));
}

#[tokio::test]
async fn the_form_page_has_a_heading_and_the_ouvidoria_dials() {
    let app = spawn_app().await;
    let page = app.get("/v").await.text().await.unwrap();
    assert!(page.contains("<h1>Verificar documento</h1>"), "{page}");
    assert!(page.contains("QR code"));
    assert!(page.contains("Sugestões e denúncias"));
    assert!(page.contains("href=\"tel:"));
    assert!(page.contains("prefers-color-scheme:dark"));
}

/// An auto drawn up against the driver of `grant` (APP-ART26-IV).
async fn draw_up_auto(app: &TestApp, grant: &Value) -> Value {
    let res = app
        .post(
            "/api/v1/app-infraction-autos",
            &serde_json::json!({"infraction_id": "APP-ART26-IV", "driver_id": grant["driver_id"],
                "authorization_id": grant["id"], "committed_at": "2026-11-30T09:00:00-04:00",
                "place": "Av. Ministro João Alberto", "facts": "Embarque fora da plataforma.",
                "inspector": "Fiscal de Posturas"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json().await.unwrap()
}

#[tokio::test]
async fn an_inspector_sees_the_full_record_where_a_passenger_sees_the_verdict() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let auto = draw_up_auto(&app, &grant).await;
    let suspended = app
        .post(
            &format!(
                "/api/v1/app-authorizations/{}/sanctions",
                grant["id"].as_str().unwrap()
            ),
            &serde_json::json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 5,
                "reason": "Infração grave reiterada", "legal_basis": "art. 26, §1º"}),
        )
        .await;
    assert_eq!(suspended.status(), StatusCode::CREATED);

    let inspector = app.official("fiscal.ana", "Ana Fiscal", "inspector").await;
    let path = format!("/api/v1/verify/{token}");
    let res = app.send_as(Some(&inspector), "get", &path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "suspended");
    let r = &body["record"];
    assert_eq!(r["law"], "ride_hailing");
    assert_eq!(r["holder"]["name"], "Maria da Silva Souza");
    assert_eq!(r["holder"]["cpf"], "***.982.247-**");
    assert_eq!(r["holder"]["cnh_category"], "B");
    assert_eq!(r["holder"]["cnh_expires_on"], "2030-01-01");
    assert_eq!(r["vehicle"]["plate"], "BRA2E19");
    assert_eq!(r["vehicle"]["model_year"], 2022);
    assert_eq!(r["authorization"]["number"], "APP-2026/000001");
    assert!(r["inspection"]["last_vistoria_on"].is_null());
    assert_eq!(r["sanctions"][0]["kind"], "suspension");
    assert_eq!(r["sanctions"][0]["reason"], "Infração grave reiterada");
    assert_eq!(r["open_autos"][0]["number"], auto["number"]);
    assert_eq!(
        r["history_url"],
        format!(
            "/painel/ver/app-authorizations/{}",
            grant["id"].as_str().unwrap()
        )
    );
    assert!(
        r["new_auto_url"]
            .as_str()
            .unwrap()
            .starts_with("/painel/acao/autos.create?")
    );
    // The full CPF never, even for an inspector.
    assert!(!body.to_string().contains("529.982.247-25"));

    // The same scan without a token: the verdict, no record.
    let (_, public) = app.verify(&token).await;
    assert_eq!(public["verdict"], "suspended");
    assert!(public.get("record").is_none());
    // A token that is not valid is refused, never mistaken for the public answer.
    let res = app.send_as(Some("not-a-token"), "get", &path, None).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    // An official of the other law gets the verdict alone.
    let charter = app
        .official("sis.bruno", "Bruno SIS", "charter_issuer")
        .await;
    let res = app.send_as(Some(&charter), "get", &path, None).await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "suspended");
    assert!(body.get("record").is_none());
    // The printed code, with a token, has the record too.
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    let res = app
        .send_as(
            Some(&inspector),
            "get",
            &format!("/api/v1/verify/code/{code}"),
            None,
        )
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["record"]["holder"]["name"], "Maria da Silva Souza");
}

#[tokio::test]
async fn a_signed_in_inspector_sees_the_record_on_the_verification_page() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    app.official("fiscal.ana", "Ana Fiscal", "inspector").await;
    let mut b = crate::panel::Browser::new(&app);
    let (status, _, _) = b
        .sign_in("fiscal.ana", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (status, page, _) = b.get(&format!("/v/{token}")).await;
    assert_eq!(status, StatusCode::OK);
    for needle in [
        "Conectado(a) como Ana Fiscal",
        "Registro completo",
        "Maria da Silva Souza",
        "***.982.247-**",
        "categoria B",
        "Lavrar auto de infração",
        "/painel/acao/autos.create?",
        "Ver histórico",
    ] {
        assert!(page.contains(needle), "{needle} missing:\n{page}");
    }
    // The passenger's page, same address, no session: no record.
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(!page.contains("Registro completo") && !page.contains("Souza"));
    // The link to draw up an auto opens the form for this driver.
    let (_, page, _) = b.get(&format!("/v/{token}")).await;
    let start = page.find("/painel/acao/autos.create?").unwrap();
    let link = page[start..]
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&")
        .replace("&#38;", "&");
    let (status, form, _) = b.get(&link).await;
    assert_eq!(status, StatusCode::OK, "{form}");
    // Prefilled as the papers read: the driver's CPF, the authorization's number, and the
    // inspector who is signed in — no id on the page.
    let field = |name: &str| {
        let marker = format!("name=\"{name}\" type=\"text\" value=\"");
        form.find(&marker)
            .and_then(|at| form[at + marker.len()..].split('"').next())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(field("driver_id"), "529.982.247-25", "{form}");
    assert_eq!(field("authorization_id"), "APP-2026/000001", "{form}");
    assert_eq!(field("inspector"), "Ana Fiscal", "{form}");
    let text = crate::pages::visible(&form);
    assert!(
        !text.contains(grant["driver_id"].as_str().unwrap()),
        "{text}"
    );
    // Sent as shown, the auto is drawn up against that driver and authorization.
    let csrf = crate::panel::field(&form, "_csrf").unwrap();
    let (status, page, location) = b
        .post(
            &link,
            &[
                ("_csrf", csrf.as_str()),
                ("infraction_id", "APP-ART26-I"),
                ("driver_id", &field("driver_id")),
                ("authorization_id", &field("authorization_id")),
                ("committed_at", "30/11/2026 10:00"),
                ("place", "Av. Ministro João Alberto, 100"),
                (
                    "facts",
                    "Transportava passageiro sem o adesivo no para-brisa.",
                ),
                ("inspector", &field("inspector")),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (_, page, _) = b.get(&location.unwrap()).await;
    let text = crate::pages::visible(&page);
    assert!(text.contains("Maria da Silva Souza"), "{text}");
    assert!(text.contains("Ana Fiscal"), "{text}");
}

#[tokio::test]
async fn an_inspector_looks_up_a_ride_hailing_car_by_plate() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let inspector = app.official("fiscal.ana", "Ana Fiscal", "inspector").await;
    for typed in ["BRA2E19", "bra-2e19"] {
        let res = app
            .send_as(
                Some(&inspector),
                "get",
                &format!("/api/v1/vehicles/by-plate/{typed}"),
                None,
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["verdict"], "valid");
        assert_eq!(body["document"]["kind"], "app_sticker");
        assert_eq!(body["record"]["authorization"]["number"], grant["number"]);
    }
    let res = app
        .send_as(
            Some(&inspector),
            "get",
            "/api/v1/vehicles/by-plate/ABC1D23",
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .send_as(
            Some(&inspector),
            "get",
            "/api/v1/vehicles/by-plate/12345",
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .send_as(None, "get", "/api/v1/vehicles/by-plate/BRA2E19", None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    // Revoked: the look-up says so, with the reason.
    crate::verification::revoke(&app, &grant).await;
    let res = app
        .send_as(
            Some(&inspector),
            "get",
            "/api/v1/vehicles/by-plate/BRA2E19",
            None,
        )
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "revoked");
    assert!(body["record"]["authorization"]["revocation_reason"].is_string());
}

#[tokio::test]
async fn an_inspector_scanning_a_selo_sees_the_company_the_bus_and_its_inspections() {
    use crate::charter::{bus_body, company, created, noon, termo};
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-10"));
    let c = company(&app, "2026-12-31").await;
    let t = created(termo(&app, &c).await).await;
    let mut body = bus_body(
        "QBA1C23",
        crate::helpers::RENAVAMS[0],
        "onibus",
        "2020-03-15",
    );
    body["itv_report_date"] = serde_json::json!("2025-03-01");
    let v = created(
        app.post(&format!("/api/v1/charter/companies/{c}/vehicles"), &body)
            .await,
    )
    .await;
    let vid = v["id"].as_str().unwrap();
    let selo = created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &serde_json::json!({"performed_on": "2025-03-10", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    let token = token_of(selo["selo"]["verification_url"].as_str().unwrap());
    // The passenger: company and bus, no record.
    let (_, public) = app.verify(&token).await;
    assert_eq!(public["verdict"], "valid");
    assert_eq!(public["document"]["vehicle"]["body"], "Ônibus");
    assert!(public.get("record").is_none());
    // The inspector: the record.
    let inspector = app.official("fiscal.ana", "Ana Fiscal", "inspector").await;
    let res = app
        .send_as(
            Some(&inspector),
            "get",
            &format!("/api/v1/verify/{token}"),
            None,
        )
        .await;
    let body: Value = res.json().await.unwrap();
    let r = &body["record"];
    assert_eq!(r["law"], "charter");
    assert_eq!(r["holder"]["name"], public["document"]["company"]);
    assert!(r["holder"]["cnpj"].is_string());
    assert_eq!(r["vehicle"]["plate"], "QBA1C23");
    assert_eq!(r["inspection"]["last_vistoria_on"], "2025-03-10");
    assert_eq!(r["inspection"]["last_vistoria_approved"], true);
    assert!(r["inspection"]["itv_valid_until"].is_string(), "{r}");
    assert_eq!(r["authorization"]["number"], t["number"]);
    assert_eq!(
        r["new_auto_url"],
        format!("/painel/acao/charter.create_auto?id={c}&vehicle_plate=QBA1C23")
    );
    // A ride-hailing issuer has no competence over charter records.
    let rh = app
        .official("smf.carla", "Carla SMF", "ride_hailing_issuer")
        .await;
    let res = app
        .send_as(Some(&rh), "get", &format!("/api/v1/verify/{token}"), None)
        .await;
    let body: Value = res.json().await.unwrap();
    assert!(body.get("record").is_none());
}

/// `grey` (w × h) rotated by `degrees` about its centre, on white (bilinear).
fn rotate(w: usize, h: usize, grey: &[u8], degrees: f64) -> Vec<u8> {
    let (sin, cos) = degrees.to_radians().sin_cos();
    #[expect(
        clippy::cast_precision_loss,
        reason = "image sizes of a few thousand pixels, exact in f64"
    )]
    let (cx, cy) = (w as f64 / 2.0, h as f64 / 2.0);
    let at = |x: i64, y: i64| -> f64 {
        match (usize::try_from(x), usize::try_from(y)) {
            (Ok(x), Ok(y)) if x < w && y < h => f64::from(grey[y * w + x]),
            _ => 255.0,
        }
    };
    let mut out = vec![255u8; w * h];
    for y in 0..h {
        for x in 0..w {
            #[expect(
                clippy::cast_precision_loss,
                reason = "image sizes of a few thousand pixels, exact in f64"
            )]
            let (dx, dy) = (x as f64 - cx, y as f64 - cy);
            let (sx, sy) = (cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy);
            let (x0, y0) = (sx.floor(), sy.floor());
            let (fx, fy) = (sx - x0, sy - y0);
            #[expect(
                clippy::cast_possible_truncation,
                reason = "pixel coordinates and values, bounded and clamped"
            )]
            let (x0, y0) = (x0 as i64, y0 as i64);
            let v = at(x0, y0) * (1.0 - fx) * (1.0 - fy)
                + at(x0 + 1, y0) * fx * (1.0 - fy)
                + at(x0, y0 + 1) * (1.0 - fx) * fy
                + at(x0 + 1, y0 + 1) * fx * fy;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "pixel coordinates and values, bounded and clamped"
            )]
            {
                out[y * w + x] = v.round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    out
}

/// `grey` through a JPEG at `quality`, as a cheap phone camera would keep it.
fn jpeg_roundtrip(w: usize, h: usize, grey: &[u8], quality: u8) -> Vec<u8> {
    let img = image::GrayImage::from_raw(
        u32::try_from(w).unwrap(),
        u32::try_from(h).unwrap(),
        grey.to_vec(),
    )
    .unwrap();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, quality)
        .encode_image(&img)
        .unwrap();
    image::load_from_memory(&jpeg)
        .unwrap()
        .to_luma8()
        .into_raw()
}

#[tokio::test]
async fn the_sticker_has_two_faces_and_its_qr_survives_dirt_blur_and_a_tilt() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let info = crate::pdf::pdf_info(&pdf);
    // 10 × 14 cm, two pages: read from outside through the glass, and from inside.
    assert!(info.contains("Pages:           2"), "{info}");
    assert!(info.contains("283.465 x 396.85 pts"), "{info}");
    let text = crate::pdf::pdf_text(&pdf);
    let url = grant["verification_url"].as_str().unwrap();
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    assert_eq!(
        text.lines().filter(|l| l.trim() == "11/2027").count(),
        2,
        "{text}"
    );
    for needle in [
        "último dia: 20/11/2027",
        "APP-2026/000001",
        code,
        "sugestões e denúncias",
        "Art. 14",
    ] {
        assert_eq!(
            text.matches(needle).count(),
            2,
            "{needle} on both faces:\n{text}"
        );
    }
    for page in [0, 1] {
        let (w, h, grey) = crate::pdf::render_grey(&pdf, page, 300.0);
        assert_eq!(crate::pdf::decode_qr(w, h, &grey), vec![url.to_owned()]);
    }

    // Page 1 as a dirty sticker photographed askew: 15 % of the code covered by a smear,
    // turned 15°, kept as a JPEG of quality 30.
    let (w, h, mut grey) = crate::pdf::render_grey(&pdf, 0, 300.0);
    // The QR code's box, as the decoder found it.
    let (left, top, side) = {
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| grey[y * w + x]);
        let grids = img.detect_grids();
        let b = grids[0].bounds;
        let xs = b.iter().map(|p| usize::try_from(p.x).unwrap());
        let ys = b.iter().map(|p| usize::try_from(p.y).unwrap());
        let (left, right) = (xs.clone().min().unwrap(), xs.max().unwrap());
        let (top, bottom) = (ys.clone().min().unwrap(), ys.max().unwrap());
        (left, top, (right - left).min(bottom - top))
    };
    assert!(
        side > 500,
        "the QR code is about 50 mm wide: {side} px at 300 dpi"
    );
    // A smear over 15 % of the code's area, off-centre, clear of the finder patterns.
    let smear = side * 387 / 1000; // √0.15
    let (x0, y0) = (left + side * 45 / 100, top + side * 30 / 100);
    for y in y0..y0 + smear {
        for x in x0..x0 + smear {
            grey[y * w + x] = 150;
        }
    }
    let tilted = rotate(w, h, &grey, 15.0);
    let photo = jpeg_roundtrip(w, h, &tilted, 30);
    // (At error correction M, the level the sticker once used, this photo does not decode.)
    assert_eq!(crate::pdf::decode_qr(w, h, &photo), vec![url.to_owned()]);
}

#[tokio::test]
async fn the_print_shop_file_has_bleed_crop_marks_and_trim_box() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let sticker = grant["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_sticker")
        .unwrap();
    let id = sticker["id"].as_str().unwrap();
    let res = app
        .get_authed(&format!("/api/v1/documents/{id}/print"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let pdf = res.bytes().await.unwrap().to_vec();
    // 100 × 140 mm plus a 10 mm slug on each side: 120 × 160 mm; two faces.
    let info = crate::pdf::pdf_info(&pdf);
    assert!(info.contains("340.157 x 453.543 pts"), "{info}");
    assert!(info.contains("Pages:           2"), "{info}");
    // The cut (TrimBox) at the slug, the bleed 3 mm beyond it, on both pages.
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let boxes: Vec<(Vec<f32>, Vec<f32>)> = doc
        .get_pages()
        .values()
        .map(|id| {
            let page = doc.get_dictionary(*id).unwrap();
            let nums = |key: &[u8]| -> Vec<f32> {
                page.get(key)
                    .unwrap()
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o.as_float().unwrap())
                    .collect()
            };
            (nums(b"TrimBox"), nums(b"BleedBox"))
        })
        .collect();
    assert_eq!(boxes.len(), 2);
    let mm = |v: f32| (v * 25.4 / 72.0 * 10.0).round() / 10.0;
    for (trim, bleed) in boxes {
        assert_eq!(
            trim.into_iter().map(mm).collect::<Vec<_>>(),
            [10.0, 10.0, 110.0, 150.0]
        );
        assert_eq!(
            bleed.into_iter().map(mm).collect::<Vec<_>>(),
            [7.0, 7.0, 113.0, 153.0]
        );
    }
    // The same sticker: number, code and QR; signed by the city.
    let text = crate::pdf::pdf_text(&pdf);
    assert!(text.contains("APP-2026/000001"));
    assert!(text.contains(sticker["verification_code"].as_str().unwrap()));
    assert_eq!(
        crate::pdf::qr_codes(&pdf),
        vec![grant["verification_url"].as_str().unwrap().to_owned()]
    );
    let (status, body) = crate::pdf_signatures::upload_raw(&app, pdf).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["signature"]["trusted"], true);
    // The authorization's own document is not a sticker.
    let authorization = grant["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_authorization")
        .unwrap();
    let res = app
        .get_authed(&format!(
            "/api/v1/documents/{}/print",
            authorization["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
