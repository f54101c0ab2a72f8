//! The officials who operate selo and what each may do: roles fixed by name, the
//! competence every operation needs, logins and the password rule. Each secretariat acts only
//! within its own law: the Secretaria Municipal de Finanças grants under the ride-hailing law,
//! the Secretaria de Infraestrutura e Serviços under Lei 4.937/2025 (art. 3).

use std::fmt;

/// A role an official holds. The names are fixed (they appear in tokens' answers, the CLI and
/// the 403 problems); the labels are what a person reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Manages accounts and reads everything; issues nothing.
    Admin,
    /// Every act of the ride-hailing law (Secretaria Municipal de Finanças).
    RideHailingIssuer,
    /// Every act of the charter law (Secretaria de Infraestrutura e Serviços).
    CharterIssuer,
    /// Road inspection of both laws: the full verification record, plate look-ups, drawing up
    /// autos de infração; not granting, revoking or deciding.
    Inspector,
    /// Read-only: registers, documents, histories.
    Auditor,
    /// The Ouvidoria Municipal: passengers' reports sent from the verification page.
    Ombudsman,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Admin,
        Role::RideHailingIssuer,
        Role::CharterIssuer,
        Role::Inspector,
        Role::Auditor,
        Role::Ombudsman,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::RideHailingIssuer => "ride_hailing_issuer",
            Role::CharterIssuer => "charter_issuer",
            Role::Inspector => "inspector",
            Role::Auditor => "auditor",
            Role::Ombudsman => "ombudsman",
        }
    }

    /// What a person reads (pt-BR).
    pub fn label_pt(self) -> &'static str {
        match self {
            Role::Admin => "Administrador(a) do sistema",
            Role::RideHailingIssuer => {
                "Emissor(a) — transporte por aplicativo (Secretaria de Finanças)"
            }
            Role::CharterIssuer => {
                "Emissor(a) — fretamento (Secretaria de Infraestrutura e Serviços)"
            }
            Role::Inspector => "Fiscal de trânsito e transporte",
            Role::Auditor => "Auditor(a) — somente leitura",
            Role::Ombudsman => "Ouvidoria Municipal — denúncias de passageiros",
        }
    }

    pub fn parse(s: &str) -> Result<Self, OfficialError> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s.trim())
            .ok_or_else(|| OfficialError::UnknownRole(s.trim().to_owned()))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The roles of one official: a non-empty set, kept sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Roles(Vec<Role>);

impl Roles {
    /// Every role: the development token's pseudo-official.
    pub fn all() -> Self {
        Roles(Role::ALL.to_vec())
    }

    pub fn new(roles: impl IntoIterator<Item = Role>) -> Result<Self, OfficialError> {
        let mut v: Vec<Role> = roles.into_iter().collect();
        v.sort();
        v.dedup();
        if v.is_empty() {
            return Err(OfficialError::NoRole);
        }
        Ok(Roles(v))
    }

    /// `admin,inspector`: the stored and command-line form.
    pub fn parse(s: &str) -> Result<Self, OfficialError> {
        Self::new(
            s.split(',')
                .filter(|p| !p.trim().is_empty())
                .map(Role::parse)
                .collect::<Result<Vec<_>, _>>()?,
        )
    }

    pub fn contains(&self, role: Role) -> bool {
        self.0.contains(&role)
    }

    pub fn iter(&self) -> impl Iterator<Item = Role> + '_ {
        self.0.iter().copied()
    }

    /// Whether these roles grant `competence`.
    pub fn allow(&self, competence: Competence) -> bool {
        competence.roles().iter().any(|r| self.contains(*r))
    }
}

impl fmt::Display for Roles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|r| r.as_str()).collect();
        f.write_str(&names.join(","))
    }
}

/// What an operation needs. Every route of the service names one (`http::ACCESS`), so the
/// role matrix is data, tested operation by operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Competence {
    /// Anyone, signed in or not: verification, the key set, health, the API document.
    Public,
    /// Any signed-in official: the calendar, deadlines and the infraction catalogues.
    SignedIn,
    /// Reading the ride-hailing register: its issuers, inspectors, auditors and admins.
    ReadRideHailing,
    /// Reading the charter register: its issuers, inspectors, auditors and admins.
    ReadCharter,
    /// Every act of the ride-hailing law (Secretaria Municipal de Finanças).
    IssueRideHailing,
    /// Every act of the charter law (Secretaria de Infraestrutura e Serviços).
    IssueCharter,
    /// Drawing up a ride-hailing auto de infração: its issuers and the inspectors.
    InspectRideHailing,
    /// Drawing up a charter auto de infração: its issuers and the inspectors.
    InspectCharter,
    /// Calendar acts (decreed closures) and UPF values: admins and both issuers.
    Calendar,
    /// Managing officials' accounts.
    ManageOfficials,
    /// Reading and answering passengers' reports: the Ouvidoria.
    HandleReports,
    /// A platform's own operations, with its credential: no official's role grants them.
    Platform,
}

impl Competence {
    /// The roles that grant it (empty for `Public` and `SignedIn`, which need none).
    pub fn roles(self) -> &'static [Role] {
        use Role::{Admin, Auditor, CharterIssuer, Inspector, Ombudsman, RideHailingIssuer};
        match self {
            Competence::Public | Competence::SignedIn | Competence::Platform => &[],
            Competence::ReadRideHailing => &[Admin, Auditor, RideHailingIssuer, Inspector],
            Competence::ReadCharter => &[Admin, Auditor, CharterIssuer, Inspector],
            Competence::IssueRideHailing => &[RideHailingIssuer],
            Competence::IssueCharter => &[CharterIssuer],
            Competence::InspectRideHailing => &[RideHailingIssuer, Inspector],
            Competence::InspectCharter => &[CharterIssuer, Inspector],
            Competence::Calendar => &[Admin, RideHailingIssuer, CharterIssuer],
            Competence::ManageOfficials => &[Admin],
            Competence::HandleReports => &[Ombudsman],
        }
    }

    /// Whether `roles` may exercise it; `None`: no one signed in.
    pub fn allows(self, roles: Option<&Roles>) -> bool {
        match (self, roles) {
            (Competence::Public, _) | (Competence::SignedIn, Some(_)) => true,
            (Competence::Platform, _) | (_, None) => false,
            (c, Some(r)) => r.allow(c),
        }
    }

    /// The pt-BR sentence of a refusal: which role the operation needs, by its code (what API
    /// clients match) and its name.
    pub fn refusal_pt(self) -> String {
        if self == Competence::Platform {
            return "Esta operação é das plataformas: apresente a credencial da plataforma \
                    (Authorization: Bearer selo_plat_…), não a de um(a) servidor(a)."
                .to_owned();
        }
        refusal_naming(self.roles(), |r| {
            format!("{} ({})", r.as_str(), r.label_pt())
        })
    }

    /// The same refusal for a page an official reads: the roles by their Portuguese names.
    pub fn refusal_page_pt(self) -> String {
        refusal_of_roles_pt(self.roles())
    }
}

/// Why an operation is refused, naming `roles` (any one of which it needs) in Portuguese.
pub fn refusal_of_roles_pt(roles: &[Role]) -> String {
    refusal_naming(roles, |r| r.label_pt().to_owned())
}

/// The refusal's sentence, each role written by `name`.
fn refusal_naming(roles: &[Role], name: impl Fn(Role) -> String) -> String {
    match roles {
        [] => "É preciso entrar com uma conta de servidor(a).".to_owned(),
        [one] => format!("Esta operação exige o papel {}.", name(*one)),
        many => format!(
            "Esta operação exige um destes papéis: {}.",
            many.iter().map(|r| name(*r)).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// A login: 3 to 32 characters, lower-case letters, digits, `.`, `_` and `-`, starting with a
/// letter. Stored as typed (lower-cased).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Login(String);

impl Login {
    pub fn parse(s: &str) -> Result<Self, OfficialError> {
        let s = s.trim().to_lowercase();
        let ok = (3..=32).contains(&s.len())
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c));
        if ok {
            Ok(Login(s))
        } else {
            Err(OfficialError::BadLogin)
        }
    }

    /// The development token's pseudo-official's login (migration 0015).
    pub fn development() -> Self {
        Login("token-dev".to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// A password good enough to be hashed and stored: at least [`MIN_PASSWORD_CHARS`]
/// characters, not all the same character.
pub struct NewPassword(String);

impl NewPassword {
    pub fn parse(s: &str) -> Result<Self, OfficialError> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() < MIN_PASSWORD_CHARS {
            return Err(OfficialError::WeakPassword);
        }
        if chars.iter().all(|c| *c == chars[0]) {
            return Err(OfficialError::WeakPassword);
        }
        Ok(NewPassword(s.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NewPassword(…)")
    }
}

/// An official's full name as printed in histories: 3 to 120 characters, no control
/// characters.
pub fn parse_name(s: &str) -> Result<String, OfficialError> {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if (3..=120).contains(&s.chars().count()) && !s.chars().any(char::is_control) {
        Ok(s)
    } else {
        Err(OfficialError::BadName)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OfficialError {
    #[error(
        "papel desconhecido: {0} (papéis: admin, ride_hailing_issuer, charter_issuer, inspector, auditor)"
    )]
    UnknownRole(String),
    #[error("informe ao menos um papel")]
    NoRole,
    #[error(
        "login inválido: de 3 a 32 caracteres, letras minúsculas, dígitos, '.', '_' ou '-', começando por letra"
    )]
    BadLogin,
    #[error("senha fraca: use ao menos 12 caracteres, não todos iguais")]
    WeakPassword,
    #[error("nome inválido: de 3 a 120 caracteres")]
    BadName,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_parse_sorted_and_deduplicated() {
        let r = Roles::parse("inspector, admin,inspector").unwrap();
        assert_eq!(r.to_string(), "admin,inspector");
        assert!(matches!(
            Roles::parse("admin,mayor"),
            Err(OfficialError::UnknownRole(r)) if r == "mayor"
        ));
        assert_eq!(Roles::parse(" , "), Err(OfficialError::NoRole));
    }

    #[test]
    fn each_secretariat_acts_only_within_its_own_law() {
        let rh = Roles::parse("ride_hailing_issuer").unwrap();
        let ch = Roles::parse("charter_issuer").unwrap();
        let admin = Roles::parse("admin").unwrap();
        let inspector = Roles::parse("inspector").unwrap();
        let auditor = Roles::parse("auditor").unwrap();
        let table = [
            (&rh, Competence::IssueRideHailing, true),
            (&rh, Competence::IssueCharter, false),
            (&ch, Competence::IssueCharter, true),
            (&ch, Competence::IssueRideHailing, false),
            (&ch, Competence::ReadRideHailing, false),
            // The admin manages and reads; it issues nothing.
            (&admin, Competence::IssueRideHailing, false),
            (&admin, Competence::ReadCharter, true),
            (&admin, Competence::Calendar, true),
            (&admin, Competence::ManageOfficials, true),
            (&inspector, Competence::InspectCharter, true),
            (&inspector, Competence::InspectRideHailing, true),
            (&inspector, Competence::IssueRideHailing, false),
            (&inspector, Competence::Calendar, false),
            (&auditor, Competence::ReadRideHailing, true),
            (&auditor, Competence::InspectRideHailing, false),
            (&auditor, Competence::ManageOfficials, false),
        ];
        for (roles, c, allowed) in table {
            assert_eq!(roles.allow(c), allowed, "{roles} × {c:?}");
        }
        assert!(Competence::Public.allows(None));
        assert!(!Competence::SignedIn.allows(None));
        assert!(Competence::SignedIn.allows(Some(&auditor)));
    }

    #[test]
    fn a_refusal_names_the_role_needed() {
        let s = Competence::IssueCharter.refusal_pt();
        assert!(s.contains("charter_issuer"), "{s}");
        let s = Competence::InspectRideHailing.refusal_pt();
        assert!(
            s.contains("ride_hailing_issuer") && s.contains("inspector"),
            "{s}"
        );
    }

    #[test]
    fn logins_and_passwords() {
        assert_eq!(
            Login::parse(" Maria.Silva ").unwrap().as_str(),
            "maria.silva"
        );
        assert_eq!(Login::parse("token-dev"), Ok(Login::development()));
        for bad in ["ab", "1abc", "maria silva", "maria@x", &"a".repeat(33)] {
            assert_eq!(Login::parse(bad), Err(OfficialError::BadLogin), "{bad}");
        }
        assert!(NewPassword::parse("curta").is_err());
        assert!(NewPassword::parse("aaaaaaaaaaaaaaaa").is_err());
        assert!(NewPassword::parse("cavalo-bateria-grampo").is_ok());
        // Twelve characters, not bytes.
        assert!(NewPassword::parse("ççççççççççç1").is_ok());
        assert_eq!(
            parse_name("  Maria   da  Silva "),
            Ok("Maria da Silva".into())
        );
        assert!(parse_name("M\u{7}").is_err());
    }
}
