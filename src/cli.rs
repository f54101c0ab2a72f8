//! The command line beside the service: key management and sample documents. `main` parses
//! the arguments and calls these; the service itself starts in `startup`.

pub mod samples;

use std::path::Path;

use crate::settings::Settings;

/// `selo keys generate [DIR]`: a new Ed25519 signing key, made the active one.
pub fn keys_generate(dir: &Path) -> anyhow::Result<()> {
    let kid = crate::signing::keys::generate(dir)?;
    println!(
        "created signing key {kid} in {} (now the active key)",
        dir.display()
    );
    Ok(())
}

/// `selo keys retire KID REASON [DIR]`: documents signed by `kid` verify as no longer trusted.
/// The service reads the keys at start: restart it (every node) to apply.
pub fn keys_retire(dir: &Path, kid: &str, reason: &str) -> anyhow::Result<()> {
    let today = chrono::Utc::now().date_naive().to_string();
    crate::signing::keys::retire(dir, kid, &today, reason)?;
    println!(
        "retired key {kid} in {} on {today}; restart selo to apply",
        dir.display()
    );
    Ok(())
}

/// `selo profile check [FILE]`: what the profile (FILE, or `SELO_PROFILE`, or the embedded
/// default) still lacks. Exits 1 while anything is missing or wrong.
pub fn profile_check(settings: &Settings, file: Option<&Path>) -> anyhow::Result<()> {
    let path = file.or(settings.profile.as_deref());
    let shown = path.map_or_else(
        || {
            format!(
                "{} (embutido)",
                crate::documents::profile::DEFAULT_PROFILE_PATH
            )
        },
        |p| p.display().to_string(),
    );
    let profile = match crate::documents::profile::Profile::load(path) {
        Ok(p) => p,
        Err(e) => {
            println!("perfil {shown}: inválido\n  {e}");
            std::process::exit(1);
        }
    };
    let missing = profile.placeholders();
    if missing.is_empty() {
        println!("perfil {shown}, versão {}: completo", profile.version);
        return Ok(());
    }
    println!(
        "perfil {shown}, versão {}: {} fato(s) a definir",
        profile.version,
        missing.len()
    );
    for (key, text) in &missing {
        println!("  {key}: {text}");
    }
    std::process::exit(1);
}

fn policy_line(p: &crate::signing::policy::SignaturePolicy) -> String {
    format!(
        "ICP-Brasil: signatures carry the policy {} ({}, signPolicyHash {})",
        p.name,
        p.oid,
        crate::signing::hex(&p.hash)
    )
}

/// `selo keys policy`: the signature policy ICP-Brasil signatures carry, as `SELO_ICP_POLICY`
/// names it.
pub fn keys_policy(settings: &Settings) -> anyhow::Result<()> {
    let p = crate::startup::icp_policy(settings)?;
    match crate::startup::timestamper(settings)? {
        None => println!("{}\n  URI {}", policy_line(&p), p.uri),
        Some(tsa) => {
            let p = p.timestamped();
            println!(
                "{}\n  URI {}\n  with a signature timestamp from {}",
                policy_line(&p),
                p.uri,
                crate::settings::redact_url(&tsa.settings.url)
            );
        }
    }
    Ok(())
}

/// `selo keys import-pkcs12 FILE [DIR]`: the city's A1 certificate (password on standard
/// input) becomes the PDF signer. The service reads the keys at start: restart it.
pub fn keys_import_pkcs12(settings: &Settings, dir: &Path, file: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    let policy = crate::startup::icp_policy(settings)?;
    let pfx = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let password = officials::read_password()?;
    let signer = crate::signing::imported::import(dir, &pfx, &password)?;
    let leaf = signer.leaf().tbs_certificate();
    println!(
        "imported {} ({}; chain of {} certificate(s); valid until {}; fingerprint {}) into {}",
        signer.subject(),
        if signer.icp_brasil {
            policy_line(&policy)
        } else {
            "not ICP-Brasil".to_owned()
        },
        signer.chain.len(),
        leaf.validity().not_after,
        crate::signing::imported::fingerprint(signer.leaf()),
        dir.display()
    );
    println!("it now signs every PDF; QR tokens stay Ed25519. Restart selo (every node) to apply.");
    Ok(())
}

/// The register named by `DATABASE_URL`, for the commands that act on it.
async fn store(settings: &Settings) -> anyhow::Result<crate::storage::Store> {
    use anyhow::Context;
    crate::storage::Store::connect(&settings.database_url)
        .await
        .with_context(|| {
            format!(
                "opening the database {}",
                crate::settings::redact_url(&settings.database_url)
            )
        })
}

/// `selo backup DEST [--encrypt]`: a consistent copy of the register while the service runs,
/// with the keys (encrypted with a passphrase read from standard input with `--encrypt`), the
/// profile and a manifest.
pub fn backup(settings: &Settings, dest: &Path, encrypt: bool) -> anyhow::Result<()> {
    let passphrase = if encrypt {
        let p = officials::read_password()?;
        if p.chars().count() < 12 {
            anyhow::bail!("the passphrase must have at least 12 characters");
        }
        Some(p)
    } else {
        None
    };
    let keys = crate::signing::keys::load(&settings.keys_dir, false)?;
    actix_web::rt::System::new().block_on(async {
        let store = store(settings).await?;
        let made = crate::issuance::backup::backup(
            &store,
            &settings.keys_dir,
            &keys,
            &settings.database_url,
            settings.profile.as_deref(),
            dest,
            passphrase.as_deref(),
        )
        .await?;
        let m = &made.manifest;
        println!(
            "backup in {}: {} register, schema {}, {} documents, {} audit rows (head {}), {} files{}",
            made.dest.display(),
            m.backend,
            m.schema_version,
            m.counts.get("documents").copied().unwrap_or_default(),
            m.counts.get("events").copied().unwrap_or_default(),
            m.audit_head.as_ref().map_or("none".to_owned(), |(id, _)| id.to_string()),
            m.files.len() + 1,
            if m.keys_encrypted { "; private keys encrypted" } else { "; private keys in the clear (mode 0600): keep the backup as safe as the keys folder" },
        );
        Ok(())
    })
}

/// `selo restore SRC`: the backup into the empty database of `DATABASE_URL` and the empty
/// keys folder (the passphrase on standard input when its keys are encrypted).
pub fn restore(settings: &Settings, src: &Path) -> anyhow::Result<()> {
    let manifest = crate::issuance::backup::manifest_of(src)?;
    let passphrase = manifest
        .keys_encrypted
        .then(officials::read_password)
        .transpose()?;
    actix_web::rt::System::new().block_on(async {
        crate::issuance::backup::restore(
            src,
            &settings.database_url,
            &settings.keys_dir,
            passphrase.as_deref(),
        )
        .await
    })?;
    println!(
        "restored the backup of {} into {} and {}; now run `selo verify-restore {}`",
        manifest.created_at,
        crate::settings::redact_url(&settings.database_url),
        settings.keys_dir.display(),
        src.display()
    );
    Ok(())
}

/// `selo verify-restore SRC`: checks the restored register against the backup's manifest;
/// exits 1 on any problem.
pub fn verify_restore(settings: &Settings, src: &Path) -> anyhow::Result<()> {
    let manifest = crate::issuance::backup::manifest_of(src)?;
    let keys = crate::signing::keys::load(&settings.keys_dir, false)?;
    let report = actix_web::rt::System::new().block_on(async {
        let store = store(settings).await?;
        crate::issuance::backup::verify_restore(&store, &keys, &manifest).await
    })?;
    println!(
        "restauração: {} documentos conferidos (token e assinatura do PDF), {} séries de números, {} linhas da cadeia de auditoria",
        report.documents, report.series, report.chained
    );
    if report.problems.is_empty() {
        println!(
            "íntegra: confere com o manifesto de {}",
            manifest.created_at
        );
        return Ok(());
    }
    for p in &report.problems {
        println!("PROBLEMA: {p}");
    }
    std::process::exit(1);
}

/// `selo samples DIR`: one signed example of every document kind, for looking at.
pub fn samples(settings: &Settings, dir: &Path) -> anyhow::Result<()> {
    let keys = crate::startup::load_or_create_keys(settings)?;
    let profile = crate::startup::load_profile(settings)?;
    let letterhead = crate::documents::Letterhead::new(profile, &settings.public_url);
    let now = chrono::Utc::now();
    let written = match crate::startup::timestamper(settings)? {
        None => samples::write_samples(dir, &keys, &settings.keys_dir, &letterhead, now)?,
        Some(tsa) => samples::write_timestamped_samples(
            dir,
            &keys,
            &settings.keys_dir,
            &letterhead,
            now,
            &tsa,
        )?,
    };
    for path in written {
        println!("{}", path.display());
    }
    Ok(())
}

/// `selo officials …`: accounts from the server's command line. Acts are recorded
/// as made by the pseudo-official "linha de comando do servidor".
pub mod officials {
    use std::io::BufRead;

    use anyhow::Context;

    use crate::issuance::officials as accounts;
    use crate::settings::Settings;
    use crate::storage::officials::CLI_OFFICIAL;

    /// One line of standard input, without its line ending: the password.
    pub(crate) fn read_password() -> anyhow::Result<String> {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password from standard input")?;
        Ok(line.trim_end_matches(['\n', '\r']).to_owned())
    }

    fn run<T>(f: impl std::future::Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
        actix_web::rt::System::new().block_on(f)
    }

    /// What `selo officials …` understands; `Err` with the usage on anything else.
    pub fn dispatch(settings: &Settings, args: &[&str]) -> anyhow::Result<()> {
        let actor = CLI_OFFICIAL.to_string();
        let now = chrono::Utc::now();
        match args {
            ["add", login, rest @ ..] => {
                let (mut name, mut roles) = (None, None);
                let mut it = rest.iter();
                while let Some(flag) = it.next() {
                    match (*flag, it.next()) {
                        ("--name", Some(v)) => name = Some(*v),
                        ("--role" | "--roles", Some(v)) => roles = Some(*v),
                        _ => anyhow::bail!(
                            "usage: selo officials add LOGIN --name \"FULL NAME\" --role ROLE[,ROLE…]"
                        ),
                    }
                }
                let (Some(name), Some(roles)) = (name, roles) else {
                    anyhow::bail!(
                        "usage: selo officials add LOGIN --name \"FULL NAME\" --role ROLE[,ROLE…]"
                    );
                };
                eprintln!("senha (uma linha, ao menos 12 caracteres):");
                let password = read_password()?;
                run(async {
                    let store = super::store(settings).await?;
                    let o =
                        accounts::add(&store, &actor, login, name, roles, &password, now).await?;
                    println!("criado(a): {} — {} ({})", o.login, o.name, o.roles);
                    Ok(())
                })
            }
            ["token", login] => run(async {
                let store = super::store(settings).await?;
                let token = accounts::issue_token(&store, login, &actor, now).await?;
                eprintln!(
                    "token pessoal de {login} (mostrado só agora; guarde-o em local seguro; \
                     envie como Authorization: Bearer …):"
                );
                println!("{token}");
                Ok(())
            }),
            ["revoke-tokens", login] => run(async {
                let store = super::store(settings).await?;
                accounts::revoke_tokens(&store, login, &actor, now).await?;
                println!("tokens de {login} revogados");
                Ok(())
            }),
            ["disable", login] => run(async {
                let store = super::store(settings).await?;
                accounts::disable(&store, login, &actor, now).await?;
                println!("{login} desativado(a): sessões encerradas, tokens recusados");
                Ok(())
            }),
            ["enable", login] => run(async {
                let store = super::store(settings).await?;
                accounts::enable(&store, login, &actor, now).await?;
                println!("{login} reativado(a)");
                Ok(())
            }),
            ["roles", login, roles] => run(async {
                let store = super::store(settings).await?;
                let o = accounts::set_roles(&store, login, roles, &actor, now).await?;
                println!("{}: {}", o.login, o.roles);
                Ok(())
            }),
            ["reset-password", login] => {
                eprintln!("nova senha (uma linha, ao menos 12 caracteres):");
                let password = read_password()?;
                run(async {
                    let store = super::store(settings).await?;
                    accounts::reset_password(&store, login, &password, &actor, now).await?;
                    println!("senha de {login} redefinida; as sessões dele(a) foram encerradas");
                    Ok(())
                })
            }
            ["list"] => run(async {
                let store = super::store(settings).await?;
                for o in store.officials().await? {
                    println!(
                        "{}\t{}\t{}\t{}",
                        o.login,
                        if o.active { "ativo" } else { "desativado" },
                        o.roles,
                        o.name
                    );
                }
                Ok(())
            }),
            _ => anyhow::bail!("{USAGE}"),
        }
    }

    pub const USAGE: &str = "usage:
  selo officials add LOGIN --name \"FULL NAME\" --role ROLE[,ROLE…]   (password on standard input)
  selo officials token LOGIN           print a new personal API token, once
  selo officials revoke-tokens LOGIN   revoke every token of LOGIN
  selo officials list
  selo officials disable LOGIN | enable LOGIN
  selo officials roles LOGIN ROLE[,ROLE…]
  selo officials reset-password LOGIN  (new password on standard input)
roles: admin, ride_hailing_issuer, charter_issuer, inspector, auditor";
}

/// `selo audit …`: the audit chain from the server's command line.
pub mod audit {
    use anyhow::Context;

    use crate::issuance::audit::{self, Checkpoint};
    use crate::settings::Settings;

    /// What `selo audit …` understands; `Err` with the usage on anything else. `verify`
    /// exits 1 when the chain is broken.
    pub fn dispatch(settings: &Settings, args: &[&str]) -> anyhow::Result<()> {
        match args {
            ["verify"] => verify(settings, None),
            ["verify", "--checkpoints", file] => verify(settings, Some(file)),
            ["checkpoint"] => actix_web::rt::System::new().block_on(async {
                let keys = crate::startup::load_or_create_keys(settings)?;
                let store = super::store(settings).await?;
                let c = audit::checkpoint_now(&store, &keys.active, chrono::Utc::now()).await?;
                println!("{}", serde_json::to_string_pretty(&c)?);
                Ok(())
            }),
            _ => anyhow::bail!("{USAGE}"),
        }
    }

    /// The checkpoints of a file: the JSON of `GET /api/v1/audit/checkpoints`, or a list of
    /// them.
    fn held(file: &str) -> anyhow::Result<Vec<Checkpoint>> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Held {
            Page { checkpoints: Vec<Checkpoint> },
            List(Vec<Checkpoint>),
        }
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        Ok(
            match serde_json::from_str(&text)
                .with_context(|| format!("{file}: not a list of checkpoints"))?
            {
                Held::Page { checkpoints } | Held::List(checkpoints) => checkpoints,
            },
        )
    }

    fn verify(settings: &Settings, file: Option<&str>) -> anyhow::Result<()> {
        let held = file.map(held).transpose()?.unwrap_or_default();
        let keys = crate::signing::keys::load(&settings.keys_dir, false)
            .with_context(|| format!("reading the keys in {}", settings.keys_dir.display()))?;
        let report = actix_web::rt::System::new().block_on(async {
            let store = super::store(settings).await?;
            anyhow::Ok(audit::verify_chain(&store, &keys.public, held).await?)
        })?;
        println!(
            "cadeia de auditoria: {} linhas encadeadas; {} linhas anteriores à cadeia (sem hash); {} pontos de controle conferidos",
            report.chained, report.unchained, report.checkpoints
        );
        if let Some((id, hash)) = &report.head {
            println!("última linha: {id}, hash {hash}");
        }
        if let Some(b) = report.broken {
            println!("ROMPIDA: {}", b.describe_pt());
            std::process::exit(1);
        }
        println!("íntegra");
        Ok(())
    }

    pub const USAGE: &str = "usage:
  selo audit verify [--checkpoints FILE]   walk the audit chain; FILE: checkpoints kept outside the
                                           database (the JSON of GET /api/v1/audit/checkpoints)
  selo audit checkpoint                    sign the chain's head now (selo also does it daily)";
}

/// `selo documents …`: the signed files of the register.
pub mod documents {
    use std::path::Path;

    use anyhow::Context;

    use crate::issuance::archive::Archiver;
    use crate::settings::Settings;
    use crate::storage::officials::CLI_OFFICIAL;

    pub const USAGE: &str = "usage:
  selo documents ltv [--within DAYS]   archive (PAdES B-LTA) every document whose certificates
                                       expire within DAYS (default 60): fresh validation data and
                                       a timestamp of SELO_TSA_URL over the whole file
  selo documents ltv --file IN OUT     the same for one signed file, written to OUT";

    /// What `selo documents …` understands; `Err` with the usage on anything else. A run
    /// that leaves any document unarchived exits 1.
    pub fn dispatch(settings: &Settings, args: &[&str]) -> anyhow::Result<()> {
        match args {
            ["ltv"] => ltv(settings, 60),
            ["ltv", "--within", days] => {
                let days: u16 = days
                    .parse()
                    .with_context(|| format!("--within takes a number of days, not {days:?}"))?;
                ltv(settings, days)
            }
            ["ltv", "--file", input, output] => {
                ltv_file(settings, Path::new(input), Path::new(output))
            }
            _ => anyhow::bail!("{USAGE}"),
        }
    }

    /// Runs `f` with an archiver made of the deployment's keys, authority and lists' client.
    fn with_archiver<T>(
        settings: &Settings,
        f: impl AsyncFnOnce(&Archiver<'_>) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let keys = crate::startup::load_or_create_keys(settings)?;
        let tsa = crate::startup::timestamper(settings)?
            .context("an archive timestamp needs a time-stamping authority: set SELO_TSA_URL")?;
        actix_web::rt::System::new().block_on(async {
            let revocation =
                crate::signing::revocation::RevocationFetcher::new(settings.crl_timeout)?;
            let archiver = Archiver {
                keys: &keys,
                tsa: &tsa,
                revocation: &revocation,
            };
            f(&archiver).await
        })
    }

    fn ltv(settings: &Settings, days: u16) -> anyhow::Result<()> {
        let run = with_archiver(settings, async |archiver| {
            let store = super::store(settings).await?;
            let now = chrono::Utc::now();
            Ok(archiver
                .archive_due(
                    &store,
                    chrono::Duration::days(i64::from(days)),
                    now,
                    &CLI_OFFICIAL.to_string(),
                )
                .await?)
        })?;
        for number in &run.archived {
            println!("arquivado: {number}");
        }
        for (number, why) in &run.failed {
            eprintln!("não arquivado: {number}: {why}");
        }
        println!(
            "{} documento(s) arquivado(s); {} com proteção além de {days} dia(s); {} falha(s)",
            run.archived.len(),
            run.not_due,
            run.failed.len()
        );
        if !run.failed.is_empty() {
            std::process::exit(1);
        }
        Ok(())
    }

    fn ltv_file(settings: &Settings, input: &Path, output: &Path) -> anyhow::Result<()> {
        let pdf = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
        let archived = with_archiver(settings, async |archiver| {
            Ok(archiver.archive(&pdf).await?)
        })?;
        std::fs::write(output, &archived.pdf)
            .with_context(|| format!("writing {}", output.display()))?;
        println!(
            "{}: carimbo do tempo de arquivo de {}, protegido até {}",
            output.display(),
            archived.time.to_rfc3339(),
            archived.protected_until.to_rfc3339()
        );
        Ok(())
    }
}
