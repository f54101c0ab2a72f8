//! What `selo serve` refuses to start with, and what it creates on a fresh machine.

use std::sync::Arc;

use selo::clock::SystemClock;
use selo::settings::{Environment, Settings};
use selo::startup::Application;

fn complete_profile() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profile/complete.toml")
}

fn settings(keys: &std::path::Path, data: &std::path::Path, env: Environment) -> Settings {
    Settings {
        listen: "127.0.0.1:0".into(),
        public_url: "http://127.0.0.1".into(),
        database_url: format!("sqlite://{}/deep/er/selo.db", data.display()),
        keys_dir: keys.to_path_buf(),
        environment: env,
        admin_token: None,
        ouvidoria_phone: None,
        // Production refuses the default profile's placeholders: the complete test profile.
        profile: (env == Environment::Production).then(complete_profile),
        render_threads: 1,
        workers: 1,
        limits: selo::settings::Limits::default(),
        mail: selo::settings::Mail::default(),
        webhooks: selo::settings::Webhooks::default(),
        oidc: None,
        icp_policy: None,
        metrics_token: None,
        tsa: Ok(None),
        crl_timeout: std::time::Duration::from_secs(5),
    }
}

async fn build_error(s: Settings) -> String {
    match Application::build(s, Arc::new(SystemClock)).await {
        Ok(_) => panic!("expected start-up to be refused"),
        Err(e) => format!("{e:#}"),
    }
}

#[tokio::test]
async fn production_refuses_to_start_without_a_key_or_with_a_readable_one() {
    let keys = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let err = build_error(settings(keys.path(), data.path(), Environment::Production)).await;
    assert!(err.contains("selo keys generate"), "{err}");
    assert!(
        !keys.path().join("active").exists(),
        "production must not create keys"
    );

    let kid = selo::signing::keys::generate(keys.path()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let key = keys.path().join(format!("ed25519-{kid}.key"));
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = build_error(settings(keys.path(), data.path(), Environment::Production)).await;
        assert!(err.contains("chmod 600"), "{err}");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    // The shared token is for development only.
    let mut s = settings(keys.path(), data.path(), Environment::Production);
    s.admin_token = Some("um-token-compartilhado".into());
    let err = build_error(s).await;
    assert!(err.contains("SELO_ADMIN_TOKEN"), "{err}");
    // The default profile's facts still to be supplied keep production from
    // starting, each named; SELO_OUVIDORIA_PHONE replaces the profile's phone but not the rest.
    let mut s = settings(keys.path(), data.path(), Environment::Production);
    s.profile = None;
    s.ouvidoria_phone = Some("(66) 3401-9999".into());
    let err = build_error(s).await;
    for fact in [
        "prefeitura.cnpj",
        "prefeitura.brasao",
        "secretariats.smf.secretary",
    ] {
        assert!(err.contains(fact), "{err}");
    }
    assert!(!err.contains("ouvidoria.phone"), "{err}");
    // A profile that cannot be read is named.
    let mut s = settings(keys.path(), data.path(), Environment::Production);
    s.profile = Some(keys.path().join("nenhum.toml"));
    let err = build_error(s).await;
    assert!(err.contains("nenhum.toml"), "{err}");
    assert!(
        Application::build(
            settings(keys.path(), data.path(), Environment::Production),
            Arc::new(SystemClock)
        )
        .await
        .is_ok()
    );
}

#[tokio::test]
async fn development_creates_a_private_key_certificates_and_the_database_folder() {
    let keys = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = Application::build(
        settings(keys.path(), data.path(), Environment::Development),
        Arc::new(SystemClock),
    )
    .await
    .unwrap();
    assert!(app.port() > 0);
    assert!(data.path().join("deep/er/selo.db").exists());
    let names: Vec<String> = std::fs::read_dir(keys.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("ed25519-") && n.ends_with(".key")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "root-ca.pem"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("doc-signing-")),
        "{names:?}"
    );
    #[cfg(unix)]
    for n in names.iter().filter(|n| n.ends_with(".key")) {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(keys.path().join(n))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "{n}");
    }
}

/// `selo profile check [FILE]` lists what the profile still lacks and exits 1 until
/// nothing does.
#[test]
fn selo_profile_check_lists_the_facts_still_to_be_supplied() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_selo"))
            .args(args)
            .env_remove("SELO_PROFILE")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(&["profile", "check"]);
    assert_eq!(code, Some(1), "{out}");
    for fact in [
        "prefeitura.cnpj: A DEFINIR",
        "secretariats.sis.appointment_act",
        "defence.email",
    ] {
        assert!(out.contains(fact), "{out}");
    }
    let complete = complete_profile();
    let (code, out) = run(&["profile", "check", complete.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("completo"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        std::fs::read_to_string(&complete)
            .unwrap()
            .replace("11.222.333/0001-81", "11.222.333/0001-00"),
    )
    .unwrap();
    let (code, out) = run(&["profile", "check", bad.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("prefeitura.cnpj: CNPJ inválido"), "{out}");
}

#[tokio::test]
async fn an_openid_provider_without_its_client_or_without_https_in_production_is_refused() {
    let keys = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let oidc = selo::settings::Oidc {
        issuer: "https://sso.staging.acesso.gov.br".into(),
        client_id: String::new(),
        client_secret: String::new(),
        name: "gov.br".into(),
        scopes: "openid".into(),
        levels_url: None,
        level_claim: "nivel".into(),
    };
    let mut s = settings(keys.path(), data.path(), Environment::Development);
    s.oidc = Some(oidc.clone());
    let err = build_error(s).await;
    assert!(err.contains("SELO_OIDC_CLIENT_ID"), "{err}");
    assert!(!err.contains("segredo"), "{err}");

    selo::signing::keys::generate(keys.path()).unwrap();
    let mut s = settings(keys.path(), data.path(), Environment::Production);
    s.oidc = Some(selo::settings::Oidc {
        issuer: "http://sso.example".into(),
        client_id: "selo".into(),
        client_secret: "segredo".into(),
        ..oidc
    });
    let err = build_error(s).await;
    assert!(err.contains("without https://"), "{err}");
}
