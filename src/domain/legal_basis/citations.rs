//! The provisions a law's documents print (`[document_citations]` of a basis file): the
//! articles an authorization, a sticker, a Termo, a selo or a certidão cite for what they
//! state, as the basis cites them. The law's name is added from the municipality profile.
//!
//! A file without the table prints no article number on those documents (only the law): a
//! basis whose articles are not known must not inherit another law's. When the table is
//! there, every entry must be filled in.

use serde::{Deserialize, Serialize};

/// The ride-hailing documents' provisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RideHailingDocumentCitations {
    /// The authorization's "Base legal" line (the draft: arts. 2º, 3º, 8º, 12 e 14).
    pub grounds: String,
    /// The provision the authorization is granted under (art. 3º).
    pub authorization: String,
    /// Its validity counted from the fee (art. 3º, parágrafo único).
    pub validity: String,
    /// Carrying the authorization in service (art. 13, I).
    pub carry: String,
    /// The windshield sticker (art. 14).
    pub sticker: String,
    /// Using only the authorized car (art. 13, XX).
    pub vehicle_only: String,
    /// Reporting a change of registration data (art. 13, XIX).
    pub data_change: String,
    /// The annual vistoria (art. 16).
    pub vistoria: String,
    /// A replacement car's copy (art. 8º, §2º).
    pub substitution: String,
    /// The certidão's grounds (arts. 3º e 17).
    pub certidao: String,
    /// The notice of penalty's grounds (arts. 22, 24 e 25).
    pub notice: String,
    /// The copy of the notice sent to the platform (art. 22).
    pub platform_copy: String,
}

impl RideHailingDocumentCitations {
    fn entries(&self) -> [(&'static str, &str); 12] {
        [
            ("grounds", &self.grounds),
            ("authorization", &self.authorization),
            ("validity", &self.validity),
            ("carry", &self.carry),
            ("sticker", &self.sticker),
            ("vehicle_only", &self.vehicle_only),
            ("data_change", &self.data_change),
            ("vistoria", &self.vistoria),
            ("substitution", &self.substitution),
            ("certidao", &self.certidao),
            ("notice", &self.notice),
            ("platform_copy", &self.platform_copy),
        ]
    }
}

/// The charter documents' provisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CharterDocumentCitations {
    /// The Termo's "Base legal" line (Lei 4.937/2025: arts. 7º e 8º).
    pub termo_grounds: String,
    /// The provision the Termo is granted under (art. 8º).
    pub termo: String,
    /// The company's registration it follows (art. 7º).
    pub registration: String,
    /// Its validity and renewal (art. 8º, §1º).
    pub termo_validity: String,
    /// Buses enrolled, inspected and within their service life (arts. 11 e 13).
    pub fleet: String,
    /// The drivers' qualifications (art. 15).
    pub drivers: String,
    /// Contracts reported to the secretariat (art. 3º).
    pub contracts: String,
    /// Enrolments and removals reported (art. 24).
    pub fleet_changes: String,
    /// What charter may not do (art. 1º, parágrafo único, II).
    pub prohibitions: String,
    /// Transferring the Termo (art. 20, II).
    pub transfer: String,
    /// The selo de vistoria (art. 13).
    pub selo: String,
    /// No standing passengers (art. 10).
    pub standing: String,
    /// The selo returned on the bus's removal (art. 13, §5º).
    pub selo_return: String,
    /// The certidão (art. 25).
    pub certidao: String,
    /// The auto de infração and notice's grounds (arts. 19 a 23).
    pub notice: String,
}

impl CharterDocumentCitations {
    fn entries(&self) -> [(&'static str, &str); 15] {
        [
            ("termo_grounds", &self.termo_grounds),
            ("termo", &self.termo),
            ("registration", &self.registration),
            ("termo_validity", &self.termo_validity),
            ("fleet", &self.fleet),
            ("drivers", &self.drivers),
            ("contracts", &self.contracts),
            ("fleet_changes", &self.fleet_changes),
            ("prohibitions", &self.prohibitions),
            ("transfer", &self.transfer),
            ("selo", &self.selo),
            ("standing", &self.standing),
            ("selo_return", &self.selo_return),
            ("certidao", &self.certidao),
            ("notice", &self.notice),
        ]
    }
}

/// A table of document citations whose entries can be checked.
pub trait DocumentCitations {
    /// Each entry's key and text.
    fn listed(&self) -> Vec<(&'static str, &str)>;
}

impl DocumentCitations for RideHailingDocumentCitations {
    fn listed(&self) -> Vec<(&'static str, &str)> {
        self.entries().to_vec()
    }
}

impl DocumentCitations for CharterDocumentCitations {
    fn listed(&self) -> Vec<(&'static str, &str)> {
        self.entries().to_vec()
    }
}

/// Pushes a problem for each entry left empty or too long.
pub fn citation_problems(table: Option<&impl DocumentCitations>, out: &mut Vec<String>) {
    for (key, text) in table.map(DocumentCitations::listed).unwrap_or_default() {
        if text.trim().is_empty() || text.len() > 200 {
            out.push(format!(
                "document_citations.{key}: de 1 a 200 caracteres (o dispositivo como o documento o imprime, ex.: \"art. 13, I\")."
            ));
        }
    }
}

/// `text` followed by its provision in parentheses, or alone when the basis cites none:
/// "Portar esta autorização (art. 13, I)".
pub fn with_provision(text: &str, provision: Option<&str>) -> String {
    match provision {
        Some(p) if !p.trim().is_empty() => format!("{text} ({p})"),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_left_empty_is_named() {
        let table = CharterDocumentCitations {
            termo_grounds: "arts. 7º e 8º".into(),
            termo: " ".into(),
            registration: "art. 7º".into(),
            termo_validity: "art. 8º, §1º".into(),
            fleet: "arts. 11 e 13".into(),
            drivers: "art. 15".into(),
            contracts: "art. 3º".into(),
            fleet_changes: "art. 24".into(),
            prohibitions: "art. 1º".into(),
            transfer: "art. 20, II".into(),
            selo: "art. 13".into(),
            standing: "art. 10".into(),
            selo_return: String::new(),
            certidao: "art. 25".into(),
            notice: "arts. 19 a 23".into(),
        };
        let mut out = Vec::new();
        citation_problems(Some(&table), &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("document_citations.termo:"), "{out:?}");
        assert!(
            out[1].starts_with("document_citations.selo_return:"),
            "{out:?}"
        );
        let mut none = Vec::new();
        citation_problems(None::<&CharterDocumentCitations>, &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn a_text_carries_its_provision_only_when_there_is_one() {
        assert_eq!(
            with_provision("Portar esta autorização", Some("art. 13, I")),
            "Portar esta autorização (art. 13, I)"
        );
        assert_eq!(
            with_provision("Portar esta autorização", None),
            "Portar esta autorização"
        );
    }
}
