//! `selo samples`: every document kind, snapshot of its text and its page size.

use std::path::Path;

use crate::helpers::{pdf_info, pdf_text};

const UPDATE: &str = "UPDATE_SNAPSHOTS";

fn check_snapshot(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    // Trailing spaces of the layout mode are noise.
    let normalized: String = text
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    if std::env::var(UPDATE).is_ok() {
        std::fs::write(&path, &normalized).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {} (run with {UPDATE}=1 to create it)",
            path.display()
        )
    });
    assert_eq!(
        normalized, expected,
        "text of {name} changed (run with {UPDATE}=1 if intended)"
    );
}

#[test]
fn samples_of_every_kind_have_their_text_and_page_size() {
    let keys_dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(keys_dir.path()).unwrap();
    let keys = selo::signing::keys::load(keys_dir.path(), true).unwrap();
    let letterhead = selo::documents::Letterhead {
        ouvidoria_phone: "(66) 3401-9999".into(),
        public_url: "https://selo.barradogarcas.mt.gov.br".into(),
    };
    let now = crate::helpers::t0();
    let written =
        selo::cli::samples::write_samples(out.path(), &keys, keys_dir.path(), &letterhead, now)
            .unwrap();
    let pdfs: Vec<_> = written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    assert_eq!(pdfs.len(), 8, "one sample per document kind");
    for (kind, size, pages) in [
        // Two faces: read from outside, through the glass, and from inside (issue 11).
        ("app_sticker", "283.465 x 396.85 pts", 2),
        ("app_authorization", "595.276 x 841.89 pts (A4)", 1),
        ("charter_termo", "595.276 x 841.89 pts (A4)", 1),
        // A6: 105 × 148 mm.
        ("charter_selo", "297.638 x 419.528 pts", 1),
        // Two copies: the case file's and the infractor's (APP-ART19).
        ("charter_auto", "595.276 x 841.89 pts (A4)", 2),
        ("charter_certidao", "595.276 x 841.89 pts (A4)", 1),
        ("app_auto", "595.276 x 841.89 pts (A4)", 2),
        ("app_certidao", "595.276 x 841.89 pts (A4)", 1),
    ] {
        let pdf = std::fs::read(out.path().join(format!("{kind}.pdf"))).unwrap();
        let info = pdf_info(&pdf);
        assert!(
            info.contains(&format!("Page size:       {size}")),
            "{kind}: {info}"
        );
        assert!(
            info.contains(&format!("Pages:           {pages}")),
            "{kind}: {info}"
        );
        check_snapshot(kind, &pdf_text(&pdf));
        // Signed, and the signature verifies against the root written beside the samples.
        let root = std::fs::read_to_string(out.path().join("root-ca.pem")).unwrap();
        let root = <x509_cert::Certificate as der::DecodePem>::from_pem(root.as_bytes()).unwrap();
        selo::signing::pades::verify_pdf(&pdf, &root, &keys.public).unwrap();
    }
}
