//! The municipality profile: the facts a document states about the city — the
//! Prefeitura's name, CNPJ, address and brasão, each secretariat with its secretary and
//! appointment act, the Ouvidoria, where and how a defence is filed, how a fine is paid, and
//! how each law is cited. Loaded from TOML (`SELO_PROFILE`, or the Barra do Garças default
//! embedded from `templates/profile/`) and validated at start.
//!
//! A value that begins with `A DEFINIR` is a fact nobody has supplied yet: in development it
//! prints, highlighted, as what it is; production refuses to start while any is left.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// How a placeholder begins.
pub const PLACEHOLDER: &str = "A DEFINIR";

/// The default profile, Barra do Garças, with its unknown facts as placeholders.
pub const DEFAULT_PROFILE: &str = include_str!("../../templates/profile/barra-do-garcas.toml");
pub const DEFAULT_PROFILE_PATH: &str = "templates/profile/barra-do-garcas.toml";

/// The largest brasão accepted (it is embedded in every PDF).
const MAX_BRASAO_BYTES: usize = 512 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Recorded on every document issued under this profile.
    pub version: String,
    pub prefeitura: Prefeitura,
    pub ouvidoria: Ouvidoria,
    /// By key: `sis` (charter, Lei 4.937/2025 art. 2º) and `smf` (ride-hailing, art. 17).
    pub secretariats: BTreeMap<String, Secretariat>,
    pub defence: Defence,
    pub payment: Payment,
    /// How each law is cited, by legal-basis version.
    pub laws: BTreeMap<String, LawCitation>,
    /// The legal bases in force from the start, files relative to the profile; absent: the
    /// ones selo ships (Barra do Garças's).
    #[serde(default, skip_serializing_if = "BasisFiles::is_empty")]
    pub legal_bases: BasisFiles,
    /// The sources of those files, read at load.
    #[serde(skip)]
    pub initial_bases: crate::domain::legal_basis::InitialBases,
    /// The brasão's bytes, read from the file `prefeitura.brasao` names.
    #[serde(skip)]
    pub brasao: Option<Brasao>,
    /// When holders are reminded before an expiry.
    #[serde(default)]
    pub reminders: Reminders,
    /// How applicants sign in at `/servicos`.
    #[serde(default)]
    pub sign_in: SignIn,
    /// The municipality's own closed days (its holidays, the pontos facultativos that close
    /// the office), on top of the national ones.
    pub calendar: crate::domain::calendar::CalendarSettings,
}

/// What an applicant's sign-in through the city's OpenID Connect provider (gov.br) requires.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    /// The lowest gov.br trust level accepted: `bronze`, `prata` (default) or `ouro`.
    pub min_trust_level: crate::domain::trust::TrustLevel,
}

impl Default for SignIn {
    fn default() -> Self {
        Self {
            min_trust_level: crate::domain::trust::TrustLevel::Prata,
        }
    }
}

/// The reminders written to a holder who follows the record at `/servicos` before an
/// authorization, a Termo, an insurance policy or an ITV report expires.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reminders {
    /// Days before the last day of validity (`[]`: no reminders).
    pub days_before: Vec<u32>,
}

impl Default for Reminders {
    fn default() -> Self {
        Self {
            days_before: crate::domain::reminders::DEFAULT_DAYS_BEFORE.to_vec(),
        }
    }
}

/// A municipality's own legal-basis files (TOML, as `POST /api/v1/legal-bases/…` takes them).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasisFiles {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ride_hailing: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charter: Option<String>,
}

impl BasisFiles {
    pub fn is_empty(&self) -> bool {
        self.ride_hailing.is_none() && self.charter.is_none()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefeitura {
    pub name: String,
    pub state: String,
    pub cnpj: String,
    pub address: String,
    pub city: String,
    /// A file (SVG or PNG) relative to the profile, or a placeholder.
    pub brasao: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ouvidoria {
    pub phone: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secretariat {
    pub name: String,
    pub secretary: String,
    pub title: String,
    pub appointment_act: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defence {
    pub place: String,
    pub address: String,
    pub hours: String,
    pub email: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payment {
    pub instrument: String,
    #[serde(rename = "where")]
    pub where_: String,
}

/// How one legal basis is cited. An empty `number` is a draft: documents say "minuta".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LawCitation {
    pub number: String,
    pub date: NaiveDate,
    pub subject: String,
    pub penalty_article: String,
    pub defence_article: String,
    pub payment_article: String,
}

impl LawCitation {
    pub fn is_draft(&self) -> bool {
        self.number.trim().is_empty()
    }

    /// "Lei Municipal nº 4.937, de 26 de fevereiro de 2025" or, for a draft, "minuta de lei
    /// municipal de 23 de novembro de 2023, sobre …".
    pub fn law(&self) -> String {
        let date = super::format::date_long(self.date);
        if self.is_draft() {
            format!(
                "minuta de lei municipal de {date}, sobre o {}",
                self.subject
            )
        } else {
            format!("Lei Municipal nº {}, de {date}", self.number)
        }
    }

    /// "Lei 4.937/2025" or "minuta de 23/11/2023".
    pub fn short(&self) -> String {
        use chrono::Datelike as _;
        if self.is_draft() {
            format!(
                "minuta de lei municipal de {}",
                super::format::date(self.date)
            )
        } else {
            format!("Lei {}/{}", self.number, self.date.year())
        }
    }

    /// `articles` of this law: "arts. 2º, 3º e 14 da Lei Municipal nº …".
    pub fn cite(&self, articles: &str) -> String {
        format!("{articles} da {}", self.law())
    }
}

/// The brasão image embedded in every document.
#[derive(Clone)]
pub struct Brasao {
    pub bytes: Vec<u8>,
    /// `svg` or `png`, for Typst's `image(format:)`.
    pub format: &'static str,
}

impl std::fmt::Debug for Brasao {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Brasao({}, {} bytes)", self.format, self.bytes.len())
    }
}

/// Why a profile cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("{path}: {}", .problems.join("; "))]
    Invalid {
        path: PathBuf,
        problems: Vec<String>,
    },
}

pub fn is_placeholder(value: &str) -> bool {
    value.trim_start().starts_with(PLACEHOLDER)
}

impl Profile {
    /// The profile embedded in the binary (Barra do Garças, placeholders included).
    pub fn embedded() -> Result<Self, ProfileError> {
        Self::parse(DEFAULT_PROFILE, Path::new(DEFAULT_PROFILE_PATH), None)
    }

    /// `path`, or the embedded default when `None`.
    pub fn load(path: Option<&Path>) -> Result<Self, ProfileError> {
        let Some(path) = path else {
            return Self::embedded();
        };
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path, path.parent())
    }

    /// Parses and validates `text`; `dir` is where a brasão file is looked for.
    pub fn parse(text: &str, path: &Path, dir: Option<&Path>) -> Result<Self, ProfileError> {
        let mut profile: Self = toml::from_str(text).map_err(|e| ProfileError::Syntax {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let dir_or_here = dir.unwrap_or_else(|| Path::new("."));
        let mut problems = Vec::new();
        profile.read_bases(dir_or_here, &mut problems);
        problems.extend(profile.problems());
        if !is_placeholder(&profile.prefeitura.brasao) {
            let file = dir
                .unwrap_or_else(|| Path::new("."))
                .join(&profile.prefeitura.brasao);
            match read_brasao(&file) {
                Ok(b) => profile.brasao = Some(b),
                Err(p) => problems.push(p),
            }
        }
        if problems.is_empty() {
            Ok(profile)
        } else {
            Err(ProfileError::Invalid {
                path: path.to_path_buf(),
                problems,
            })
        }
    }

    /// Reads and checks the legal-basis files the profile names (relative to `dir`).
    fn read_bases(&mut self, dir: &Path, problems: &mut Vec<String>) {
        use crate::domain::legal_basis::{
            BasisFile as _, CharterLegalBasis, RideHailingLegalBasis,
        };
        let read = |key: &str, file: &str, problems: &mut Vec<String>| {
            let path = dir.join(file);
            match std::fs::read_to_string(&path) {
                Ok(text) => Some(text),
                Err(e) => {
                    problems.push(format!(
                        "legal_bases.{key}: {} não pôde ser lido ({e})",
                        path.display()
                    ));
                    None
                }
            }
        };
        if let Some(file) = self.legal_bases.ride_hailing.clone()
            && let Some(text) = read("ride_hailing", &file, problems)
        {
            match RideHailingLegalBasis::from_toml(&text) {
                Ok(_) => self.initial_bases.ride_hailing = Some(text),
                Err(e) => problems.push(format!("legal_bases.ride_hailing: {e}")),
            }
        }
        if let Some(file) = self.legal_bases.charter.clone()
            && let Some(text) = read("charter", &file, problems)
        {
            match CharterLegalBasis::from_toml(&text) {
                Ok(_) => self.initial_bases.charter = Some(text),
                Err(e) => problems.push(format!("legal_bases.charter: {e}")),
            }
        }
    }

    /// The versions in force from the start (the profile's own files, or the ones selo
    /// ships), and the secretariats they name.
    fn initial_versions(&self) -> Vec<String> {
        self.initial_bases_read().0
    }

    fn initial_bases_read(&self) -> (Vec<String>, Vec<String>) {
        use crate::domain::legal_basis::{
            BasisFile as _, CharterLegalBasis, RideHailingLegalBasis,
        };
        let charter = self
            .initial_bases
            .charter
            .as_deref()
            .and_then(|t| CharterLegalBasis::from_toml(t).ok())
            .unwrap_or_else(CharterLegalBasis::lei_4937_2025);
        let ride_hailing = self
            .initial_bases
            .ride_hailing
            .as_deref()
            .and_then(|t| RideHailingLegalBasis::from_toml(t).ok())
            .unwrap_or_else(RideHailingLegalBasis::draft_2023);
        let secretariats = vec![
            charter.issuing_secretariat.clone(),
            charter.inspecting_secretariat.clone(),
            ride_hailing.issuing_secretariat.clone(),
            ride_hailing.inspecting_secretariat.clone(),
        ];
        (vec![charter.version, ride_hailing.version], secretariats)
    }

    /// What is wrong with the facts themselves (placeholders are not wrong, only missing).
    fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.version.trim().is_empty() {
            p.push("version: vazio".to_owned());
        }
        if let Err(e) = crate::domain::reminders::check_days_before(&self.reminders.days_before) {
            p.push(e);
        }
        p.extend(self.calendar.problems());
        let c = &self.prefeitura.cnpj;
        if !is_placeholder(c) && crate::domain::ids::Cnpj::parse(c).is_err() {
            p.push(format!("prefeitura.cnpj: CNPJ inválido ({c})"));
        }
        // The secretariats the legal bases in force name as issuing and inspecting.
        let mut keys = self.initial_bases_read().1;
        keys.sort();
        keys.dedup();
        for key in keys {
            if !self.secretariats.contains_key(&key) {
                p.push(format!("secretariats.{key}: ausente"));
            }
        }
        for key in &self.initial_versions() {
            if !self.laws.contains_key(key) {
                p.push(format!("laws.\"{key}\": ausente"));
            }
        }
        let phone = &self.ouvidoria.phone;
        if !is_placeholder(phone) && phone.chars().filter(char::is_ascii_digit).count() < 8 {
            p.push(format!("ouvidoria.phone: telefone inválido ({phone})"));
        }
        for (path, value) in self.strings() {
            if value.trim().is_empty() && !path.ends_with(".number") {
                p.push(format!("{path}: vazio"));
            }
        }
        p
    }

    /// Every text fact with its dotted path.
    fn strings(&self) -> Vec<(String, String)> {
        fn walk(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
            match v {
                serde_json::Value::String(s) => out.push((prefix.to_owned(), s.clone())),
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        let key = if k.contains(['.', '/', '-']) {
                            format!("\"{k}\"")
                        } else {
                            k.clone()
                        };
                        let path = if prefix.is_empty() {
                            key
                        } else {
                            format!("{prefix}.{key}")
                        };
                        walk(&path, v, out);
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        if let Ok(v) = serde_json::to_value(self) {
            walk("", &v, &mut out);
        }
        out
    }

    /// The facts still to be supplied: (dotted path, what the placeholder says).
    pub fn placeholders(&self) -> Vec<(String, String)> {
        self.strings()
            .into_iter()
            .filter(|(_, v)| is_placeholder(v))
            .collect()
    }

    pub fn secretariat(&self, key: &str) -> Option<&Secretariat> {
        self.secretariats.get(key)
    }

    /// How the law of legal basis `version` is cited; `None` for a version the profile does
    /// not know (validation makes sure the ones in force are there).
    pub fn law(&self, version: &str) -> Option<&LawCitation> {
        self.laws.get(version)
    }

    /// What every template receives as `profile` (the brasão goes as bytes, `brasao`).
    pub fn template_inputs(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert(
                "brasao_format".into(),
                self.brasao
                    .as_ref()
                    .map_or(serde_json::Value::Null, |b| b.format.into()),
            );
        }
        v
    }
}

fn read_brasao(file: &Path) -> Result<Brasao, String> {
    let bytes = std::fs::read(file).map_err(|e| {
        format!(
            "prefeitura.brasao: {} não pôde ser lido ({e})",
            file.display()
        )
    })?;
    if bytes.len() > MAX_BRASAO_BYTES {
        return Err(format!(
            "prefeitura.brasao: {} tem {} KB; o máximo é {} KB",
            file.display(),
            bytes.len() / 1024,
            MAX_BRASAO_BYTES / 1024
        ));
    }
    let format = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "png"
    } else if std::str::from_utf8(&bytes).is_ok_and(|s| s.contains("<svg")) {
        "svg"
    } else {
        return Err(format!(
            "prefeitura.brasao: {} não é SVG nem PNG",
            file.display()
        ));
    };
    Ok(Brasao { bytes, format })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_profile_loads_and_lists_what_is_missing() {
        let p = Profile::embedded().unwrap();
        let missing: Vec<String> = p.placeholders().into_iter().map(|(k, _)| k).collect();
        for key in [
            "prefeitura.cnpj",
            "prefeitura.address",
            "prefeitura.brasao",
            "ouvidoria.phone",
            "secretariats.smf.secretary",
            "secretariats.sis.appointment_act",
            "defence.email",
            "payment.where",
        ] {
            assert!(missing.iter().any(|m| m == key), "{key} not in {missing:?}");
        }
        assert!(
            !missing.iter().any(|m| m.starts_with("laws")),
            "{missing:?}"
        );
        let charter = p.law("LEI-4937-2025/v1").unwrap();
        assert_eq!(charter.short(), "Lei 4.937/2025");
        assert_eq!(
            charter.law(),
            "Lei Municipal nº 4.937, de 26 de fevereiro de 2025"
        );
        let app = p.law("APP-MINUTA-2023-11-23/v1").unwrap();
        assert!(app.is_draft());
        assert!(
            app.law()
                .starts_with("minuta de lei municipal de 23 de novembro de 2023")
        );
    }

    #[test]
    fn wrong_facts_are_refused_with_their_path() {
        let bad = DEFAULT_PROFILE
            .replace(
                "cnpj = \"A DEFINIR: CNPJ da Prefeitura\"",
                "cnpj = \"11.222.333/0001-00\"",
            )
            .replace("[secretariats.smf]", "[secretariats.fazenda]");
        let err = Profile::parse(&bad, Path::new("p.toml"), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("prefeitura.cnpj: CNPJ inválido"), "{err}");
        assert!(err.contains("secretariats.smf: ausente"), "{err}");
        let unknown = format!("{DEFAULT_PROFILE}\nsurprise = 1\n");
        assert!(matches!(
            Profile::parse(&unknown, Path::new("p.toml"), None),
            Err(ProfileError::Syntax { .. })
        ));
    }

    #[test]
    fn a_brasao_must_be_an_svg_or_png_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("b.svg"),
            "<svg xmlns='http://www.w3.org/2000/svg'/>",
        )
        .unwrap();
        std::fs::write(dir.path().join("b.txt"), "not an image").unwrap();
        let with = |file: &str| {
            DEFAULT_PROFILE.replace(
                "brasao = \"A DEFINIR: brasão oficial do município (arquivo SVG ou PNG)\"",
                &format!("brasao = \"{file}\""),
            )
        };
        let ok = Profile::parse(&with("b.svg"), Path::new("p.toml"), Some(dir.path())).unwrap();
        assert_eq!(ok.brasao.unwrap().format, "svg");
        let err = Profile::parse(&with("b.txt"), Path::new("p.toml"), Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("não é SVG nem PNG"), "{err}");
        let err = Profile::parse(&with("none.png"), Path::new("p.toml"), Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("não pôde ser lido"), "{err}");
    }
}
