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

/// `selo samples DIR`: one signed example of every document kind, for looking at.
pub fn samples(settings: &Settings, dir: &Path) -> anyhow::Result<()> {
    let keys = crate::startup::load_or_create_keys(settings)?;
    let letterhead = crate::documents::Letterhead {
        ouvidoria_phone: settings.ouvidoria_phone().to_owned(),
        public_url: settings.public_url.clone(),
    };
    let now = chrono::Utc::now();
    for path in samples::write_samples(dir, &keys, &settings.keys_dir, &letterhead, now)? {
        println!("{}", path.display());
    }
    Ok(())
}
