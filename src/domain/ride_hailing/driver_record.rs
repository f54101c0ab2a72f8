//! The ride-hailing driver's record beyond the CNH (draft consolidated law, art. 12, III, IV
//! and §1º; AMB-23…25): criminal-record certificates, traffic infractions and the
//! CTB art. 306 bar. Facts come from documents the applicant files; the rules are pure.

use chrono::{Duration, NaiveDate};
use serde::{Deserialize, Serialize};

/// Which court issued a criminal-record certificate (AMB-23: state and federal, first and
/// second instance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Court {
    #[serde(rename = "estadual_1")]
    Estadual1,
    #[serde(rename = "estadual_2")]
    Estadual2,
    #[serde(rename = "federal_1")]
    Federal1,
    #[serde(rename = "federal_2")]
    Federal2,
}

impl Court {
    pub const ALL: [Court; 4] = [
        Court::Estadual1,
        Court::Estadual2,
        Court::Federal1,
        Court::Federal2,
    ];

    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Estadual1 => "Justiça Estadual, 1ª instância",
            Self::Estadual2 => "Justiça Estadual, 2ª instância",
            Self::Federal1 => "Justiça Federal, 1ª instância",
            Self::Federal2 => "Justiça Federal, 2ª instância",
        }
    }

    pub fn field(self) -> &'static str {
        match self {
            Self::Estadual1 => "criminal_certificates.estadual_1",
            Self::Estadual2 => "criminal_certificates.estadual_2",
            Self::Federal1 => "criminal_certificates.federal_1",
            Self::Federal2 => "criminal_certificates.federal_2",
        }
    }
}

/// A criminal-record certificate as filed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CriminalCertificate {
    pub court: Court,
    pub issued_on: NaiveDate,
    /// The validity printed on it, if any (AMB-23: otherwise 90 days from issue).
    pub valid_until: Option<NaiveDate>,
    /// `true` for "nada consta".
    pub clear: bool,
}

/// A traffic infraction from the DETRAN/SENATRAN extract (AMB-24).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TrafficInfraction {
    pub committed_on: NaiveDate,
    /// `leve`, `media`, `grave` or `gravissima`.
    pub class: String,
    /// Cancelled penalties do not count (AMB-24).
    #[serde(default)]
    pub cancelled: bool,
}

/// A record of the CTB art. 306 crime: a final conviction, or a prosecution under way (no
/// `final_conviction_on`), which bars only where the basis says so (AMB-25).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Ctb306Record {
    /// The day the conviction became final (trânsito em julgado); absent while the
    /// prosecution is under way.
    #[serde(default)]
    pub final_conviction_on: Option<NaiveDate>,
    /// The day the sentence was served or extinguished, when it was.
    pub sentence_extinguished_on: Option<NaiveDate>,
}

/// A document the legal basis in force asks the driver for (INSS enrolment, alvará, a debt
/// certificate…), by the name the basis gives it (`requirements::RequirementKind::Document`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FiledDocument {
    /// The basis's name of the document (`inss`, `alvara`…).
    pub document: String,
    pub issued_on: NaiveDate,
    /// The validity printed on it, if any (otherwise the basis's maximum age counts).
    #[serde(default)]
    pub valid_until: Option<NaiveDate>,
}

/// Everything filed about the driver's record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DriverRecord {
    #[serde(default)]
    pub criminal_certificates: Vec<CriminalCertificate>,
    /// Documents the basis in force requires beyond the certificates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<FiledDocument>,
    #[serde(default)]
    pub traffic_infractions: Vec<TrafficInfraction>,
    #[serde(default)]
    pub ctb306: Option<Ctb306Record>,
}

impl DriverRecord {
    /// The record in force after a filing: certificates and infractions add to those filed
    /// before; a CTB 306 record replaces the earlier one (append-only snapshots).
    #[must_use]
    pub fn with_filing(&self, filed: DriverRecord) -> DriverRecord {
        let mut record = self.clone();
        record
            .criminal_certificates
            .extend(filed.criminal_certificates);
        record.traffic_infractions.extend(filed.traffic_infractions);
        record.documents.extend(filed.documents);
        if filed.ctb306.is_some() {
            record.ctb306 = filed.ctb306;
        }
        record
    }

    /// What in a filing cannot be so, by field: an infraction class the CTB does not have
    /// (art. 12, IV), a certificate valid until before it was issued (art. 12, III).
    pub fn filing_errors(&self) -> Vec<(&'static str, &'static str)> {
        const CLASSES: [&str; 4] = ["leve", "media", "grave", "gravissima"];
        let mut out = Vec::new();
        if self
            .traffic_infractions
            .iter()
            .any(|i| !CLASSES.contains(&i.class.as_str()))
        {
            out.push((
                "traffic_infractions",
                "Classe de infração inválida: use leve, media, grave ou gravissima.",
            ));
        }
        if self
            .documents
            .iter()
            .any(|d| d.valid_until.is_some_and(|u| u < d.issued_on))
        {
            out.push((
                "documents",
                "A validade de um documento é anterior à sua emissão.",
            ));
        }
        if self
            .criminal_certificates
            .iter()
            .any(|c| c.valid_until.is_some_and(|u| u < c.issued_on))
        {
            out.push((
                "criminal_certificates",
                "A validade de uma certidão é anterior à sua emissão.",
            ));
        }
        out
    }
}

/// Where a filed criminal-record certificate stands on a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CertificateStanding {
    /// The court's clear certificate in force: the one the law reads.
    EmVigor,
    /// An earlier certificate of the same court, replaced by a later one.
    Substituida,
    /// Its validity is over and no later one of the court was filed.
    Vencida,
    /// It records proceedings ("consta"): it does not satisfy the law.
    Positiva,
    /// Issued after the day asked.
    EmissaoFutura,
}

/// A filed certificate with its validity as the law reads it and its standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct CertificateInForce {
    pub court: Court,
    pub issued_on: NaiveDate,
    /// The validity printed on it, else `days` from issue (AMB-23).
    pub valid_until: NaiveDate,
    pub clear: bool,
    pub standing: CertificateStanding,
}

/// APP-ART12-III (AMB-23): every filed certificate, court by court and newest first, with its
/// standing on `today` — the court's clear certificate in force (the latest such), the ones it
/// replaced, the lapsed and the positive ones; a certificate printing no validity lasts `days`.
pub fn certificate_standings(
    r: &DriverRecord,
    today: NaiveDate,
    days: u32,
) -> Vec<CertificateInForce> {
    let days = i64::from(days);
    let until_of =
        |c: &CriminalCertificate| c.valid_until.unwrap_or(c.issued_on + Duration::days(days));
    let mut out = Vec::new();
    for court in Court::ALL {
        let mut of_court: Vec<&CriminalCertificate> = r
            .criminal_certificates
            .iter()
            .filter(|c| c.court == court)
            .collect();
        of_court.sort_by_key(|c| std::cmp::Reverse(c.issued_on));
        let in_force = of_court
            .iter()
            .position(|c| c.clear && c.issued_on <= today && today <= until_of(c));
        for (i, c) in of_court.iter().enumerate() {
            let standing = if Some(i) == in_force {
                CertificateStanding::EmVigor
            } else if c.issued_on > today {
                CertificateStanding::EmissaoFutura
            } else if !c.clear {
                CertificateStanding::Positiva
            } else if i > 0 {
                CertificateStanding::Substituida
            } else {
                CertificateStanding::Vencida
            };
            out.push(CertificateInForce {
                court,
                issued_on: c.issued_on,
                valid_until: until_of(c),
                clear: c.clear,
                standing,
            });
        }
    }
    out
}

/// APP-ART12-III (AMB-23): the court whose clear certificate in force on `today` is missing,
/// with what is wrong with the latest one filed and what would satisfy the law; a certificate
/// that prints no validity lasts `days` from issue.
pub fn certificates_missing(
    r: &DriverRecord,
    today: NaiveDate,
    days: u32,
) -> Vec<(&'static str, String)> {
    let days = i64::from(days);
    let until_of =
        |c: &CriminalCertificate| c.valid_until.unwrap_or(c.issued_on + Duration::days(days));
    let mut out = Vec::new();
    for court in Court::ALL {
        let of_court = || r.criminal_certificates.iter().filter(|c| c.court == court);
        if of_court().any(|c| c.clear && c.issued_on <= today && today <= until_of(c)) {
            continue;
        }
        let d = |day: NaiveDate| day.format("%d/%m/%Y").to_string();
        let msg = match of_court().max_by_key(|c| c.issued_on) {
            None => format!("Falta a certidão negativa criminal ({}).", court.label_pt()),
            Some(c) if !c.clear => format!(
                "A certidão criminal ({}) de {} não é negativa (“nada consta”).",
                court.label_pt(),
                d(c.issued_on)
            ),
            Some(c) if c.issued_on > today => format!(
                "A certidão criminal ({}) tem data de emissão futura, {}.",
                court.label_pt(),
                d(c.issued_on)
            ),
            Some(c) if c.valid_until.is_some() => format!(
                "A certidão criminal ({}) emitida em {} valia até {}; junte uma em vigor.",
                court.label_pt(),
                d(c.issued_on),
                d(until_of(c))
            ),
            Some(c) => format!(
                "A certidão criminal ({}) foi emitida em {} e tem {} dias; sem validade impressa, vale {} dias da emissão. Junte uma emitida a partir de {}.",
                court.label_pt(),
                d(c.issued_on),
                (today - c.issued_on).num_days(),
                days,
                d(today - Duration::days(days))
            ),
        };
        out.push((court.field(), msg));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_court_has_one_certificate_in_force_and_the_earlier_are_replaced() {
        let d = |on: &str| NaiveDate::parse_from_str(on, "%Y-%m-%d").unwrap();
        let cert = |court: Court, on: &str, clear: bool| CriminalCertificate {
            court,
            issued_on: d(on),
            valid_until: None,
            clear,
        };
        let record = DriverRecord {
            criminal_certificates: vec![
                cert(Court::Federal1, "2026-01-05", true),
                cert(Court::Federal1, "2026-11-20", true),
                cert(Court::Estadual1, "2026-08-01", true),
                cert(Court::Estadual2, "2026-11-01", false),
                cert(Court::Federal2, "2026-12-20", true),
            ],
            ..DriverRecord::default()
        };
        let got: Vec<(Court, NaiveDate, CertificateStanding)> =
            certificate_standings(&record, d("2026-12-02"), 90)
                .into_iter()
                .map(|c| (c.court, c.issued_on, c.standing))
                .collect();
        assert_eq!(
            got,
            vec![
                (
                    Court::Estadual1,
                    d("2026-08-01"),
                    CertificateStanding::Vencida
                ),
                (
                    Court::Estadual2,
                    d("2026-11-01"),
                    CertificateStanding::Positiva
                ),
                (
                    Court::Federal1,
                    d("2026-11-20"),
                    CertificateStanding::EmVigor
                ),
                (
                    Court::Federal1,
                    d("2026-01-05"),
                    CertificateStanding::Substituida
                ),
                (
                    Court::Federal2,
                    d("2026-12-20"),
                    CertificateStanding::EmissaoFutura
                ),
            ]
        );
        // Without a printed validity, 90 days from issue.
        let first = &certificate_standings(&record, d("2026-12-02"), 90)[0];
        assert_eq!(first.valid_until, d("2026-10-30"));
    }

    #[test]
    fn a_filing_adds_certificates_and_infractions_and_replaces_the_ctb306_record() {
        let cert = |court: Court, on: &str| CriminalCertificate {
            court,
            issued_on: NaiveDate::parse_from_str(on, "%Y-%m-%d").unwrap(),
            valid_until: None,
            clear: true,
        };
        let before = DriverRecord {
            criminal_certificates: vec![cert(Court::Estadual1, "2026-01-10")],
            ..DriverRecord::default()
        };
        let filed = DriverRecord {
            criminal_certificates: vec![cert(Court::Federal1, "2026-02-10")],
            ..DriverRecord::default()
        };
        let after = before.with_filing(filed);
        assert_eq!(after.criminal_certificates.len(), 2);
        assert!(after.filing_errors().is_empty());
        let mut backwards = cert(Court::Federal2, "2026-03-10");
        backwards.valid_until = NaiveDate::from_ymd_opt(2026, 3, 1);
        let bad = DriverRecord {
            criminal_certificates: vec![backwards],
            ..DriverRecord::default()
        };
        assert_eq!(bad.filing_errors()[0].0, "criminal_certificates");
    }
}
