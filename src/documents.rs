//! What each document says and how it is rendered: presentation-ready inputs for the Typst
//! templates in `templates/`, the QR code, and the short human verification code.

pub mod auto_notice;
pub mod format;
pub mod print;
pub mod printable;
pub mod profile;
pub mod qr;
pub mod render;

pub use qr::Qr;

use crate::domain::verification_code;
use chrono::{DateTime, Utc};
use serde_json::json;

use crate::domain::legal_basis::{
    RideHailingDocumentCitations, RideHailingLegalBasis, with_provision,
};
use crate::domain::ride_hailing::registry::{Driver, RideHailingAuthorization, Vehicle};

/// Width of the QR code's modules area on the sticker (APP-ART14 sticker; readable on the
/// road needs at least 40 mm with modules of at least 0.6 mm at error correction Q). The quiet zone of
/// 4 modules is added around it.
pub const STICKER_QR_MM: f64 = 50.0;
/// Same, on the charter selo de vistoria (A6).
pub const SELO_QR_MM: f64 = 46.0;
/// Same, on A4 documents.
pub const A4_QR_MM: f64 = 38.0;

/// Who issues ride-hailing documents (APP-ART3, APP-ART17).
pub const RIDE_HAILING_ISSUER: &str = "BDG-SMF";

pub use crate::domain::verification_code::{CodeError, normalise_verification_code};

/// A random verification code of 8 symbols (40 bits) and a check symbol, printed
/// `XXX-XXX-XXX`: a typo is told apart from a code the register never issued.
pub fn new_verification_code() -> Option<String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).ok()?;
    let mut symbols: Vec<u8> = bytes
        .iter()
        .map(|b| verification_code::CODE_ALPHABET[usize::from(b % 32)])
        .collect();
    symbols.push(verification_code::check_symbol(&symbols)?);
    Some(verification_code::group_code(&symbols))
}

/// What the windshield sticker prints (APP-ART14).
pub struct StickerFace<'a> {
    pub number: &'a str,
    pub plate: &'a crate::domain::ids::Plate,
    pub valid_until: chrono::NaiveDate,
    pub code: &'a str,
    pub qr: &'a Qr,
    pub citation: &'a str,
    pub legal_basis_version: &'a str,
    pub letterhead: &'a Letterhead,
}

/// Inputs of `templates/app_sticker.typ`.
pub fn sticker_inputs(f: &StickerFace<'_>) -> serde_json::Value {
    use chrono::Datelike as _;
    json!({
        "number": f.number,
        "plate": f.plate.formatted(),
        "valid_until": format::date(f.valid_until),
        "valid_month_year": format!("{:02}/{}", f.valid_until.month(), f.valid_until.year()),
        "band_color": sticker_band_color(f.valid_until.year()),
        "ouvidoria_phone": f.letterhead.ouvidoria_phone,
        "code": f.code,
        "verify_address": format!("{}/v", f.letterhead.public_url),
        "qr_width_mm": f.qr.printed_width_mm(STICKER_QR_MM),
        "citation": f.citation,
        "legal_basis_version": f.legal_basis_version,
    })
}

/// The colour of the sticker's validity band by its year of expiry, six in turn so that an
/// inspector tells this year's sticker from last year's at a glance. None is red (red means
/// "not authorized" on the verification page); each carries white text at ≥ 5:1.
pub fn sticker_band_color(year: i32) -> &'static str {
    const BANDS: [&str; 6] = [
        "#1a6e2e", // green
        "#6a1b9a", // purple
        "#8a5a00", // ochre
        "#00695c", // teal
        "#37474f", // slate
        "#ad1457", // magenta
    ];
    BANDS[usize::try_from(year.rem_euclid(6)).unwrap_or(0)]
}

/// Settings printed on documents.
#[derive(Debug, Clone)]
pub struct Letterhead {
    /// The profile's, or `SELO_OUVIDORIA_PHONE` when set.
    pub ouvidoria_phone: String,
    /// Base of printed verification addresses, e.g. `https://selo.barradogarcas.mt.gov.br`.
    pub public_url: String,
    /// The municipality profile.
    pub profile: std::sync::Arc<profile::Profile>,
}

impl Letterhead {
    /// The letterhead of `profile` (whose Ouvidoria phone is already the one to print).
    pub fn new(profile: std::sync::Arc<profile::Profile>, public_url: &str) -> Self {
        Self {
            ouvidoria_phone: profile.ouvidoria.phone.clone(),
            public_url: public_url.to_owned(),
            profile,
        }
    }
}

/// The inputs every document template shares: verification code and address, QR width,
/// issue instant and date, and the legal basis with its version.
pub fn common_inputs(
    public_url: &str,
    citation: &str,
    version: &str,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let today = crate::domain::dates::local_date(now);
    json!({
        "code": code,
        "qr_width_mm": qr_width_mm,
        "verify_address": format!("{public_url}/v"),
        "issued_at": format::datetime_local(now),
        "issued_on": format::date(today),
        "issued_on_long": format::date_long(today),
        "legal_basis": citation,
        "legal_basis_version": version,
    })
}

/// `a` with the fields of `b` added (and replacing those it names).
pub fn merge(mut a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
    if let (Some(a), serde_json::Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

/// Everything a ride-hailing document shows.
pub struct RideHailingDocumentContext<'a> {
    pub authorization: &'a RideHailingAuthorization,
    pub driver: &'a Driver,
    pub vehicle: &'a Vehicle,
    pub basis: &'a RideHailingLegalBasis,
    pub letterhead: &'a Letterhead,
    pub issued_at: DateTime<Utc>,
}

impl RideHailingDocumentContext<'_> {
    fn municipality_label(&self) -> String {
        self.basis
            .municipality(self.vehicle.registration_municipality)
            .map_or_else(
                || format!("IBGE {}", self.vehicle.registration_municipality.code()),
                |m| format!("{}-{}", m.name, m.uf),
            )
    }

    /// How the law of this authorization's legal basis cites the provision `pick` takes from
    /// its document citations, first: the law alone when the basis lists none.
    fn cite(&self, pick: fn(&RideHailingDocumentCitations) -> &str) -> String {
        cite_provision(
            &self.letterhead.profile,
            &self.authorization.legal_basis_version,
            self.provision(pick),
            &self.basis.citation,
        )
    }

    /// The provision `pick` takes from the basis's document citations, if it lists them.
    fn provision(&self, pick: fn(&RideHailingDocumentCitations) -> &str) -> Option<&str> {
        self.basis.document_citations.as_ref().map(pick)
    }

    /// Inputs of `templates/app_sticker.typ` (APP-ART14).
    pub fn sticker_inputs(&self, code: &str, qr: &Qr) -> serde_json::Value {
        let a = self.authorization;
        let citation = sticker_citation(&self.letterhead.profile, self.basis);
        sticker_inputs(&StickerFace {
            number: &a.number,
            plate: &self.vehicle.plate,
            valid_until: a.valid_until,
            code,
            qr,
            citation: &citation,
            legal_basis_version: &a.legal_basis_version,
            letterhead: self.letterhead,
        })
    }

    /// Inputs of `templates/app_authorization.typ` (APP-ART3, APP-ART8, APP-ART13-I).
    pub fn authorization_inputs(&self, code: &str, qr: &Qr) -> serde_json::Value {
        let a = self.authorization;
        let d = self.driver;
        let v = self.vehicle;
        let law = self
            .letterhead
            .profile
            .law(&a.legal_basis_version)
            .map_or_else(|| self.basis.citation.clone(), profile::LawCitation::law);
        json!({
            "number": a.number,
            "driver_name": d.name,
            "driver_cpf": d.cpf.masked(),
            // The CNH masked like the CPF beside it.
            "cnh_number": d.cnh.number.masked(),
            "cnh_category": d.cnh.category.as_str(),
            "cnh_ear": if d.cnh.ear {
                "EAR (exerce atividade remunerada)"
            } else {
                "sem a observação EAR"
            },
            "plate": v.plate.formatted(),
            "renavam": v.renavam.as_str(),
            "make_model": format!("{} {}", v.make, v.model),
            "color": v.color,
            "model_year": v.model_year.to_string(),
            "doors": v.doors.to_string(),
            "capacity": v.capacity_including_driver.to_string(),
            "municipality": self.municipality_label(),
            // APP-ART8-P2: a copy issued for a replacement car says so.
            "substitution": if a.substitutions > 0 {
                format!(
                    "{} em {}: as vias anteriores perderam a validade.",
                    with_provision(
                        &format!("{}ª substituição do veículo", a.substitutions),
                        self.provision(|c| &c.substitution)
                    ),
                    format::date(crate::domain::dates::local_date(self.issued_at))
                )
            } else {
                String::new()
            },
            "fee_paid_on": format::date(a.fee_paid_on),
            "valid_from": format::date(a.valid_from),
            "valid_until": format::date(a.valid_until),
            "valid_until_long": format::date_long(a.valid_until),
            "issued_at": format::datetime_local(self.issued_at),
            "issued_on_long": format::date_long(crate::domain::dates::local_date(self.issued_at)),
            // The grant's grounds and its validity, each with the provision the basis cites.
            "grounded_on": grounded_on(self.provision(|c| &c.authorization), &law),
            "validity_months": with_provision(
                &format!("{} meses contados do pagamento das taxas em {}", self.basis.authorization_validity_months, format::date(a.fee_paid_on)),
                self.provision(|c| &c.validity),
            ),
            "obligations": [
                with_provision("Portar esta autorização durante a prestação do serviço", self.provision(|c| &c.carry)),
                with_provision("Manter o adesivo padrão de 10 × 14 cm no canto superior direito do para-brisa, pelo lado de dentro", self.provision(|c| &c.sticker)),
                format!(
                    "{} e comunicar qualquer alteração de dados cadastrais em até {} dias{}",
                    with_provision("Utilizar somente o veículo autorizado", self.provision(|c| &c.vehicle_only)),
                    self.basis.data_change_report_days,
                    self.provision(|c| &c.data_change).map_or_else(String::new, |p| format!(" ({p})")),
                ),
            ],
            "vistoria_provision": self.provision(|c| &c.vistoria).map_or_else(String::new, |p| format!(" ({p})")),
            "law": law,
            "legal_basis": self.cite(|c| &c.grounds),
            "legal_basis_version": a.legal_basis_version,
            // The provisions a court had suspended on the day, which the decision did not
            // apply, as the basis names them.
            "suspended": self.basis.suspended,
            // Keys of the profile's secretariats: who issues and signs, who inspects.
            "issuer_key": self.basis.issuing_secretariat,
            "inspector_key": self.basis.inspecting_secretariat,
            "ouvidoria_phone": self.letterhead.ouvidoria_phone,
            "code": code,
            "verify_address": format!("{}/v", self.letterhead.public_url),
            "qr_width_mm": qr.printed_width_mm(A4_QR_MM),
        })
    }
}

/// How `provision` of the law of legal-basis `version` is cited ("art. 14 da Lei …"), or the
/// law alone when the basis cites no provision for it; `fallback` as in [`cite`].
pub fn cite_provision(
    profile: &profile::Profile,
    version: &str,
    provision: Option<&str>,
    fallback: &str,
) -> String {
    match provision.filter(|p| !p.trim().is_empty()) {
        Some(p) => cite(profile, version, p, fallback),
        None => profile
            .law(version)
            .map_or_else(|| fallback.to_owned(), profile::LawCitation::law),
    }
}

/// APP-ART14: the provision the sticker prints, as the profile cites the law of `basis`
/// ("Art. 14 da …"), else the basis's own sticker line.
pub fn sticker_citation(profile: &profile::Profile, basis: &RideHailingLegalBasis) -> String {
    capitalized(&cite_provision(
        profile,
        &basis.version,
        basis
            .document_citations
            .as_ref()
            .map(|c| c.sticker.as_str()),
        &basis.sticker_citation,
    ))
}

/// "com fundamento no art. 3º da {law}" ("nos arts. …" for several), or "com fundamento na
/// {law}" when the basis cites no provision.
pub fn grounded_on(provision: Option<&str>, law: &str) -> String {
    match provision.map(str::trim).filter(|p| !p.is_empty()) {
        None => format!("com fundamento na {law}"),
        Some(p) if p.starts_with("arts.") => format!("com fundamento nos {p} da {law}"),
        Some(p) if p.starts_with("art.") => format!("com fundamento no {p} da {law}"),
        Some(p) => format!("com fundamento em {p} da {law}"),
    }
}

/// `text` with its first letter in upper case ("Art. 14 da Lei …").
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// How the law of legal-basis `version` is cited, `articles` first ("art. 14 da Lei Municipal
/// nº …" or "… da minuta de lei municipal de …"); `fallback` when the profile does not know
/// the version (a document of a basis no longer configured).
pub fn cite(profile: &profile::Profile, version: &str, articles: &str, fallback: &str) -> String {
    profile
        .law(version)
        .map_or_else(|| fallback.to_owned(), |l| l.cite(articles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grounds_take_the_preposition_of_their_provision() {
        let law = "Lei Municipal nº 4.976, de 16 de maio de 2025";
        assert_eq!(
            grounded_on(Some("arts. 3º e 17"), law),
            format!("com fundamento nos arts. 3º e 17 da {law}")
        );
        assert_eq!(
            grounded_on(Some("art. [a definir]"), law),
            format!("com fundamento no art. [a definir] da {law}")
        );
        assert_eq!(grounded_on(None, law), format!("com fundamento na {law}"));
        assert_eq!(capitalized("art. 14 da Lei"), "Art. 14 da Lei");
    }
    use crate::domain::verification_code::{CODE_ALPHABET, check_symbol};

    #[test]
    fn verification_codes_are_well_formed_and_normalise() {
        let code = new_verification_code().unwrap();
        assert_eq!(code.len(), 11);
        assert_eq!(code.matches('-').count(), 2);
        assert_eq!(
            normalise_verification_code(&code.to_lowercase().replace('-', " ")),
            Ok(code)
        );
        // Codes issued before the check symbol keep their form and are looked up as typed.
        assert_eq!(
            normalise_verification_code("k7q2-9xhm"),
            Ok("K7Q2-9XHM".into())
        );
        assert_eq!(
            normalise_verification_code("O0IL-9XHM"),
            Ok("0011-9XHM".into())
        );
        assert_eq!(
            normalise_verification_code("K7Q2-9XH"),
            Err(CodeError::Malformed)
        );
        assert_eq!(
            normalise_verification_code("K7Q2-9XHU"),
            Err(CodeError::Malformed)
        );
    }

    #[test]
    fn the_check_symbol_catches_every_single_typo_and_neighbour_swap() {
        for _ in 0..200 {
            let code = new_verification_code().unwrap();
            let symbols: Vec<u8> = code.bytes().filter(|b| *b != b'-').collect();
            for i in 0..symbols.len() {
                for &other in CODE_ALPHABET {
                    if other == symbols[i] {
                        continue;
                    }
                    let mut typo = symbols.clone();
                    typo[i] = other;
                    let typed = String::from_utf8(typo).unwrap();
                    assert_eq!(
                        normalise_verification_code(&typed),
                        Err(CodeError::Mistyped),
                        "{code} → {typed}"
                    );
                }
            }
            for i in 0..symbols.len() - 1 {
                let (a, b) = (symbols[i], symbols[i + 1]);
                let pos = |x| CODE_ALPHABET.iter().position(|c| *c == x).unwrap();
                if a == b || pos(a).abs_diff(pos(b)) == 31 {
                    continue;
                }
                let mut swapped = symbols.clone();
                swapped.swap(i, i + 1);
                let typed = String::from_utf8(swapped).unwrap();
                assert_eq!(
                    normalise_verification_code(&typed),
                    Err(CodeError::Mistyped),
                    "{code} → {typed}"
                );
            }
        }
        // A code read aloud wrongly: 8 heard as B.
        let code = "8Y6-X2K-Q7";
        let check = check_symbol(b"8Y6X2KQ7").unwrap() as char;
        let good = format!("{code}{check}");
        assert!(normalise_verification_code(&good).is_ok());
        assert_eq!(
            normalise_verification_code(&good.replacen('8', "B", 1)),
            Err(CodeError::Mistyped)
        );
    }

    /// The sticker's QR at level Q stays ≥ 40 mm with modules ≥ 0.6 mm for a token
    /// as long as the real ones (≈ 250 characters) behind the production address.
    #[test]
    fn the_sticker_qr_is_level_q_with_modules_of_at_least_0_6_mm() {
        let url = format!("https://selo.barradogarcas.mt.gov.br/v/{}", "A".repeat(260));
        let qr = Qr::sticker(&url).unwrap();
        #[expect(
            clippy::cast_precision_loss,
            reason = "a QR code has at most 177 modules, exact in f64"
        )]
        let module_mm = STICKER_QR_MM / qr.modules as f64;
        const { assert!(STICKER_QR_MM >= 40.0) };
        assert!(
            module_mm >= 0.6,
            "{} modules: {module_mm:.3} mm",
            qr.modules
        );
        // The printed code (with its quiet zone) fits the template's 56 mm row.
        assert!(qr.printed_width_mm(STICKER_QR_MM) <= 56.0);
    }

    #[test]
    fn qr_printed_width_keeps_modules_area() {
        let qr = Qr::new("http://127.0.0.1:8080/v/abc").unwrap();
        let w = qr.printed_width_mm(42.0);
        #[expect(
            clippy::cast_precision_loss,
            reason = "a QR code has at most 177 modules, exact in f64"
        )]
        let modules_mm = w * qr.modules as f64 / (qr.modules as f64 + 8.0);
        assert!((42.0..42.2).contains(&modules_mm), "{modules_mm}");
    }
}
