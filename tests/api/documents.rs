use reqwest::StatusCode;

use crate::helpers::{OUVIDORIA, pdf_info, pdf_text, spawn_app};

#[tokio::test]
async fn sticker_pages_are_exactly_100_by_140_mm_one_per_face() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let info = pdf_info(&app.document_bytes(&grant, "app_sticker").await);
    // 100 mm = 283.465 pt, 140 mm = 396.85 pt.
    assert!(
        info.contains("Page size:       283.465 x 396.85 pts"),
        "{info}"
    );
    // The face read from outside and the face read from inside.
    assert!(info.contains("Pages:           2"), "{info}");
}

#[tokio::test]
async fn sticker_text_has_number_plate_validity_and_ouvidoria() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let text = pdf_text(&app.document_bytes(&grant, "app_sticker").await);
    assert!(text.contains("APP-2026/000001"), "{text}");
    assert!(text.contains("BRA2E19"), "{text}");
    assert!(text.contains("VÁLIDO ATÉ"), "{text}");
    assert!(text.contains("último dia: 20/11/2027"), "{text}");
    assert!(text.contains(OUVIDORIA), "{text}");
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    // Letter-spaced codes may come out of pdftotext with spaces between glyphs.
    assert!(text.replace(' ', "").contains(code), "{text}");
}

#[tokio::test]
async fn a_printed_code_already_taken_is_drawn_again() {
    use selo::issuance::pipeline::{CODE_DRAWS, fresh_verification_code};
    let app = spawn_app().await;
    let grant = app.granted().await;
    let taken = grant["documents"][1]["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();
    let store = app.store().await;
    assert!(store.verification_code_taken(&taken).await.unwrap());
    let fresh = selo::documents::new_verification_code().unwrap();
    assert!(!store.verification_code_taken(&fresh).await.unwrap());
    let mut draws = vec![taken.clone(), taken.clone(), fresh.clone()].into_iter();
    let code = fresh_verification_code(&store, || draws.next())
        .await
        .unwrap();
    assert_eq!(code, fresh);
    // A random source that draws only taken codes is refused after a bounded number of draws.
    let mut attempts = 0;
    let refused = fresh_verification_code(&store, || {
        attempts += 1;
        Some(taken.clone())
    })
    .await;
    assert!(refused.is_err());
    assert_eq!(attempts, CODE_DRAWS);
}

#[tokio::test]
async fn authorization_is_a4_with_driver_vehicle_validity_and_masked_cpf() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_authorization").await;
    let info = pdf_info(&pdf);
    assert!(info.contains("(A4)"), "{info}");
    let text = pdf_text(&pdf);
    for needle in [
        "APP-2026/000001",
        "Maria da Silva Souza",
        "***.982.247-**",
        "BRA2E19",
        "13824652268",
        "20 de novembro de 2027",
        "Secretaria Municipal de Finanças",
        "Barra do Garças-MT",
        "APP-MINUTA-2023-11-23/v1",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    assert!(
        !text.contains("529.982.247-25"),
        "the full CPF is not printed"
    );
}

#[tokio::test]
async fn stored_pdf_matches_its_sha256() {
    use sha2::{Digest, Sha256};
    let app = spawn_app().await;
    let grant = app.granted().await;
    for doc in grant["documents"].as_array().unwrap() {
        let res = app.get_authed(doc["url"].as_str().unwrap()).await;
        assert_eq!(res.status(), StatusCode::OK);
        let bytes = res.bytes().await.unwrap();
        let hex = hex_of(&Sha256::digest(&bytes));
        assert_eq!(hex, doc["sha256"].as_str().unwrap());
    }
}

fn hex_of(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The signed PDFs live in their own table: a document's row, which every verification, status
/// list and search reads, carries no bytes of it, and the PDF served is the one stored there.
#[tokio::test]
async fn a_documents_pdf_is_kept_apart_from_the_row_verification_reads() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["documents"][1]["id"].as_str().unwrap().to_owned();
    let served = app.document_bytes(&grant, "app_sticker").await;
    assert!(served.starts_with(b"%PDF-"));
    assert_eq!(app.count("SELECT COUNT(*) FROM pdf_contents").await, 2);
    let stored = app
        .count(&format!(
            "SELECT COUNT(*) FROM pdf_contents WHERE sha256 = \
             (SELECT sha256 FROM documents WHERE id = '{id}') AND {} = {}",
            if app.backend == "postgres" {
                "length(pdf)"
            } else {
                "LENGTH(pdf)"
            },
            served.len()
        ))
        .await;
    assert_eq!(stored, 1, "the PDF served is the one stored apart");
    // What a status read touches: the row, small (the token is its largest part).
    let row = app
        .count(&format!(
            "SELECT CAST(LENGTH(id) + LENGTH(kind) + LENGTH(subject_type) + LENGTH(subject_id) \
             + LENGTH(number) + LENGTH(verification_code) + LENGTH(token) + LENGTH(key_id) \
             + LENGTH(sha256) + LENGTH(subject_key) + LENGTH(legal_basis_version) \
             + COALESCE(LENGTH(facts), 0) AS BIGINT) FROM documents WHERE id = '{id}'"
        ))
        .await;
    assert!(row < 2048, "a document's row is {row} bytes");
    let columns = app
        .count(if app.backend == "postgres" {
            "SELECT COUNT(*) FROM information_schema.columns \
             WHERE table_name = 'documents' AND column_name = 'pdf'"
        } else {
            "SELECT COUNT(*) FROM pragma_table_info('documents') WHERE name = 'pdf'"
        })
        .await;
    assert_eq!(columns, 0, "documents still has a pdf column");
}
