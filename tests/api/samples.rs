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
    let profile = std::sync::Arc::new(selo::documents::profile::Profile::embedded().unwrap());
    let letterhead =
        selo::documents::Letterhead::new(profile, "https://selo.barradogarcas.mt.gov.br");
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
        // Two faces: read from outside, through the glass, and from inside.
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

/// The text of a PDF, non-breaking spaces read as spaces.
fn text_of(pdf: &[u8]) -> String {
    pdf_text(pdf).replace('\u{a0}', " ")
}

fn profile(path: Option<&Path>) -> std::sync::Arc<selo::documents::profile::Profile> {
    std::sync::Arc::new(selo::documents::profile::Profile::load(path).unwrap())
}

fn complete_profile_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profile/complete.toml")
}

/// Renders the samples under `profile` (optionally the widest ones); returns each kind's
/// bytes, every signature checked.
fn render_all(
    profile: std::sync::Arc<selo::documents::profile::Profile>,
    widest: bool,
) -> Vec<(String, Vec<u8>)> {
    let keys_dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(keys_dir.path()).unwrap();
    let keys = selo::signing::keys::load(keys_dir.path(), true).unwrap();
    let letterhead =
        selo::documents::Letterhead::new(profile, "https://selo.barradogarcas.mt.gov.br");
    let write = if widest {
        selo::cli::samples::write_widest_samples
    } else {
        selo::cli::samples::write_samples
    };
    let written = write(
        out.path(),
        &keys,
        keys_dir.path(),
        &letterhead,
        crate::helpers::t0(),
    )
    .unwrap();
    written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .map(|p| {
            let pdf = std::fs::read(p).unwrap();
            selo::signing::pades::verify_pdf(&pdf, &keys.chain.root, &keys.public).unwrap();
            let kind = p.file_stem().unwrap().to_string_lossy().into_owned();
            (kind, pdf)
        })
        .collect()
}

/// With a complete profile every document states who signs, under which
/// act, with the Prefeitura's CNPJ and address, and nothing is left "A DEFINIR".
#[test]
fn a_complete_profile_names_the_signatory_the_act_and_the_prefeitura_on_every_kind() {
    let docs = render_all(profile(Some(&complete_profile_path())), false);
    assert_eq!(docs.len(), 8);
    for (kind, pdf) in &docs {
        let text = text_of(pdf);
        assert!(!text.contains("A DEFINIR"), "{kind}: {text}");
        assert!(
            text.contains("perfil: TESTE-PERFIL-COMPLETO/1") || !text.contains("perfil:"),
            "{kind}: {text}"
        );
        if kind == "app_sticker" || kind == "charter_selo" {
            continue;
        }
        let (secretary, act) = if kind.starts_with("app_") {
            ("Carlos Exemplo Ferreira", "Portaria nº 0002/2026-TESTE")
        } else {
            ("Joana Teste de Almeida", "Portaria nº 0001/2026-TESTE")
        };
        for fact in [
            secretary,
            act,
            "11.222.333/0001-81",
            "Rua Exemplo de Teste, 100",
            "perfil: TESTE-PERFIL-COMPLETO/1",
        ] {
            assert!(text.contains(fact), "{kind} lacks {fact}: {text}");
        }
        assert!(
            !text.contains("BRASÃO"),
            "{kind}: the brasão is drawn, not its frame"
        );
    }
    // The autos: every fact a defence needs.
    for kind in ["charter_auto", "app_auto"] {
        let text = text_of(&docs.iter().find(|(k, _)| k == kind).unwrap().1);
        for fact in [
            "Dispositivo infringido",
            "Dispositivo da penalidade",
            "R$ 119,72 por UPF",
            "Decreto Municipal nº 0000/2026",
            "por extenso",
            "Defesa até",
            "protocolo@teste.invalid",
            "segunda a sexta-feira, das 7h às 13h",
            "Documento de Arrecadação Municipal (DAM)",
            "dívida ativa",
            "Lavrado em",
            "Autoridade competente",
        ] {
            assert!(
                text.to_lowercase().contains(&fact.to_lowercase()),
                "{kind} lacks {fact}: {text}"
            );
        }
        assert!(!text.contains(") ("), "{kind}: doubled parentheses: {text}");
        assert!(!text.contains("))"), "{kind}: nested parentheses: {text}");
        assert!(
            !text.contains("analogia"),
            "{kind}: an internal note: {text}"
        );
    }
    let charter = text_of(&docs.iter().find(|(k, _)| k == "charter_auto").unwrap().1);
    assert!(charter.contains("27/11/2026, às 09h40"), "{charter}");
    assert!(
        charter.contains("Lavrado em 27/11/2026 às 09:55"),
        "{charter}"
    );
    assert!(
        charter.contains("art. 19, III da Lei Municipal nº 4.937, de 26 de fevereiro de 2025"),
        "{charter}"
    );
    assert!(
        charter.contains("art. 19, caput da Lei 4.937/2025"),
        "{charter}"
    );
    let app = text_of(&docs.iter().find(|(k, _)| k == "app_auto").unwrap().1);
    assert!(app.contains("art. 26, IV (grave)"), "{app}");
    assert!(app.contains("art. 25, III"), "{app}");
    // The CNH is masked like the CPF.
    let authorization = text_of(
        &docs
            .iter()
            .find(|(k, _)| k == "app_authorization")
            .unwrap()
            .1,
    );
    assert!(authorization.contains("***167945**"), "{authorization}");
    assert!(!authorization.contains("58316794534"), "{authorization}");
    assert!(!authorization.contains("Observação EAR"), "{authorization}");
}

/// The default profile prints each fact still to be supplied as such; the
/// ride-hailing documents say "minuta" while the draft is the basis, and cite the enacted law
/// once the profile gives its number.
#[test]
fn placeholders_print_as_such_and_the_enacted_law_replaces_the_minuta() {
    let docs = render_all(profile(None), false);
    for (kind, pdf) in &docs {
        let text = text_of(pdf);
        if kind == "charter_selo" {
            continue;
        }
        assert!(text.contains("A DEFINIR"), "{kind}: {text}");
        if kind.starts_with("app_") {
            assert!(text.contains("minuta de lei municipal"), "{kind}: {text}");
        }
    }
    let enacted = selo::documents::profile::DEFAULT_PROFILE.replace(
        "[laws.\"APP-MINUTA-2023-11-23/v1\"]\nnumber = \"\"\ndate = \"2023-11-23\"",
        "[laws.\"APP-MINUTA-2023-11-23/v1\"]\nnumber = \"4.976\"\ndate = \"2025-05-16\"",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("enacted.toml");
    std::fs::write(&path, enacted).unwrap();
    for (kind, pdf) in render_all(profile(Some(&path)), false) {
        if !kind.starts_with("app_") {
            continue;
        }
        let text = text_of(&pdf);
        assert!(!text.contains("minuta"), "{kind}: {text}");
        assert!(
            text.contains("Lei Municipal nº 4.976, de 16 de maio de 2025"),
            "{kind}: {text}"
        );
    }
}

/// Every kind renders with every printed text at the widest the API
/// accepts, nothing cut; the sticker and the selo, printed on fixed stock, keep their pages
/// (A4 documents may run onto another page).
#[test]
fn every_kind_renders_with_the_widest_accepted_values() {
    for p in [profile(None), profile(Some(&complete_profile_path()))] {
        let docs = render_all(p, true);
        assert_eq!(docs.len(), 8);
        for (kind, pdf) in &docs {
            let info = pdf_info(pdf);
            let pages = match kind.as_str() {
                "app_sticker" => Some(2),
                "charter_selo" => Some(1),
                _ => None,
            };
            if let Some(pages) = pages {
                assert!(
                    info.contains(&format!("Pages:           {pages}")),
                    "{kind}: {info}"
                );
            }
            // Every word of the widest values is on the page (the sticker prints none).
            let text = text_of(pdf);
            if kind != "app_sticker" {
                let words = text.matches("WÇÃMŠÐΩЩЖŴǄŒЮФ").count();
                assert!(words >= 4, "{kind}: {words} words in {text}");
            }
        }
    }
}
