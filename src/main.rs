//! `selo` command line: `selo [serve]`, `selo keys generate [DIR]`.

use std::path::PathBuf;
use std::sync::Arc;

use selo::clock::SystemClock;
use selo::settings::Settings;
use selo::startup::Application;

const USAGE: &str = "selo — documentos assinados do transporte de passageiros de Barra do Garças-MT

usage:
  selo [serve]               run the service (configuration: environment variables, see docs/operations.md)
  selo keys generate [DIR]   create a new Ed25519 signing key (default DIR: $SELO_KEYS_DIR or keys/)
  selo keys rotate [DIR]     the same: a new active key; the old ones stay published, so the
                             documents they signed keep verifying
  selo keys retire KID REASON [DIR]
                             retire a key that is not the active one: documents it signed
                             verify as no longer trusted, with REASON; it leaves the JWK Set
  selo profile check [FILE]  list what the municipality profile (FILE, $SELO_PROFILE or the
                             embedded default) still lacks; exit 1 while anything does
  selo keys import-pkcs12 FILE [DIR]
                             make the city's A1 certificate (PKCS#12, RSA or ECDSA P-256; the
                             password on standard input) the signer of every PDF
  selo keys policy           the signature policy ICP-Brasil signatures carry ($SELO_ICP_POLICY:
                             AD-RB-1.1 by default, AD-RB-1.2, AD-RB-1.3 or a policy file)
  selo samples DIR           render and sign one example of every document kind into DIR
  selo backup DEST [--encrypt]
                             a consistent copy of the register while selo runs (SQLite: online
                             snapshot; PostgreSQL: pg_dump), the keys (encrypted with the
                             passphrase on standard input with --encrypt), profile and manifest
  selo restore SRC           the backup into an empty DATABASE_URL and an empty SELO_KEYS_DIR
  selo verify-restore SRC    check the restored register against the backup's manifest: audit
                             chain, counts, number series, every token and PDF signature
  selo officials …           officials' accounts and tokens (selo officials help)
  selo audit verify [--checkpoints FILE]
                             walk the audit log's hash chain against its signed checkpoints
                             (and those in FILE, kept elsewhere); exit 1 at the first broken link
  selo audit checkpoint      sign the audit chain's head now (selo also does it daily)
  selo documents ltv [--within DAYS]
                             archive (PAdES B-LTA) the documents whose certificates expire
                             within DAYS (default 60): validation data and a timestamp from
                             SELO_TSA_URL over the whole file; --file IN OUT for one file
  selo help                  this text";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    selo::telemetry::init(!matches!(args.as_slice(), [] | ["serve"]));
    let settings = Settings::from_env();
    match args.as_slice() {
        [] | ["serve"] => serve(settings),
        ["keys", "generate" | "rotate"] => selo::cli::keys_generate(&settings.keys_dir),
        ["keys", "generate" | "rotate", dir] if !dir.starts_with('-') => {
            selo::cli::keys_generate(&PathBuf::from(dir))
        }
        ["keys", "retire", kid, reason] => selo::cli::keys_retire(&settings.keys_dir, kid, reason),
        ["keys", "retire", kid, reason, dir] => {
            selo::cli::keys_retire(&PathBuf::from(dir), kid, reason)
        }
        ["keys", "import-pkcs12", file] => {
            selo::cli::keys_import_pkcs12(&settings, &settings.keys_dir, std::path::Path::new(file))
        }
        ["keys", "import-pkcs12", file, dir] => selo::cli::keys_import_pkcs12(
            &settings,
            std::path::Path::new(dir),
            std::path::Path::new(file),
        ),
        ["keys", "policy"] => selo::cli::keys_policy(&settings),
        ["backup", dest] => selo::cli::backup(&settings, std::path::Path::new(dest), false),
        ["backup", dest, "--encrypt"] | ["backup", "--encrypt", dest] => {
            selo::cli::backup(&settings, std::path::Path::new(dest), true)
        }
        ["restore", src] => selo::cli::restore(&settings, std::path::Path::new(src)),
        ["verify-restore", src] => selo::cli::verify_restore(&settings, std::path::Path::new(src)),
        ["officials", rest @ ..] => selo::cli::officials::dispatch(&settings, rest),
        ["audit", rest @ ..] => selo::cli::audit::dispatch(&settings, rest),
        ["documents", rest @ ..] => selo::cli::documents::dispatch(&settings, rest),
        ["profile", "check"] => selo::cli::profile_check(&settings, None),
        ["profile", "check", file] => {
            selo::cli::profile_check(&settings, Some(std::path::Path::new(file)))
        }
        ["samples", dir] => selo::cli::samples(&settings, &PathBuf::from(dir)),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}

fn serve(settings: Settings) -> anyhow::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(settings, Arc::new(SystemClock)).await?;
        app.run_until_stopped().await?;
        Ok(())
    })
}
