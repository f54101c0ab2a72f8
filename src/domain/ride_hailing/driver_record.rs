//! The ride-hailing driver's record beyond the CNH (draft consolidated law, art. 12, III, IV
//! and §1º; AMB-23…25): criminal-record certificates, traffic infractions and the
//! CTB art. 306 bar. Facts come from documents the applicant files; the rules are pure.

use chrono::{Duration, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::domain::calendar::within_lookback;
use crate::domain::dates::add_months;
use crate::domain::legal_basis::{Ctb306BarStart, RideHailingLegalBasis};
use crate::domain::rule::{RuleFailure, fail};

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

/// Everything filed about the driver's record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DriverRecord {
    #[serde(default)]
    pub criminal_certificates: Vec<CriminalCertificate>,
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

/// APP-ART12-III: the four certificates, clear and within their validity on `today`.
pub fn app_art12_iii_certificates(
    r: &DriverRecord,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Vec<RuleFailure>,
) {
    let days = i64::from(basis.certificate_default_validity_days);
    let until_of =
        |c: &CriminalCertificate| c.valid_until.unwrap_or(c.issued_on + Duration::days(days));
    for court in Court::ALL {
        let of_court = || r.criminal_certificates.iter().filter(|c| c.court == court);
        if of_court().any(|c| c.clear && c.issued_on <= today && today <= until_of(c)) {
            continue;
        }
        // Say what is wrong with the latest one filed, and what would satisfy the law.
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
        fail(out, "APP-ART12-III", "art. 12, III", court.field(), msg);
    }
}

/// APP-ART12-IV: no gravíssima in the 12 months before the protocol date (DL-10, inclusive).
pub fn app_art12_iv_no_gravissima(
    r: &DriverRecord,
    protocol: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Vec<RuleFailure>,
) {
    let blocking = r.traffic_infractions.iter().filter(|i| {
        !i.cancelled
            && i.class == "gravissima"
            && within_lookback(i.committed_on, protocol, 12, basis.month_overflow)
    });
    if let Some(latest) = blocking.map(|i| i.committed_on).max() {
        let msg = format!(
            "Infração de trânsito gravíssima em {}, nos 12 meses anteriores ao pedido; pedido possível a partir de {}.",
            latest.format("%d/%m/%Y"),
            (add_months(latest, 12, basis.month_overflow) + Duration::days(1)).format("%d/%m/%Y")
        );
        fail(
            out,
            "APP-ART12-IV",
            "art. 12, IV",
            "traffic_infractions",
            msg,
        );
    }
}

/// APP-ART12-P1: the CTB art. 306 crime bars until 5 years have passed. AMB-25, as the basis
/// reads it: only a final conviction bars (`ctb306_requires_final_conviction`), and the years
/// run from the sentence's extinction (or from the final conviction,
/// `ctb306_bar_counted_from`); eligible from that date + 5 years + 1 day.
pub fn app_art12_p1_ctb306(
    r: &DriverRecord,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Vec<RuleFailure>,
) {
    let Some(rec) = &r.ctb306 else { return };
    let years = basis.ctb306_bar_years;
    let message = match (rec.final_conviction_on, basis.ctb306_bar_counted_from) {
        (None, _) if basis.ctb306_requires_final_conviction => return,
        (None, _) => "Registro do crime do art. 306 do CTB com processo em curso: a base legal em vigor impede a autorização até a decisão.".to_owned(),
        (Some(_), Ctb306BarStart::SentenceExtinguished) if rec.sentence_extinguished_on.is_none() => {
            "Condenação definitiva pelo crime do art. 306 do CTB com pena ainda não cumprida ou extinta.".to_owned()
        }
        (Some(conviction), start) => {
            let (from, what) = match (start, rec.sentence_extinguished_on) {
                (Ctb306BarStart::SentenceExtinguished, Some(ext)) => (ext, "da extinção da pena"),
                _ => (conviction, "do trânsito em julgado"),
            };
            let eligible_from =
                add_months(from, years * 12, basis.month_overflow) + Duration::days(1);
            if today >= eligible_from {
                return;
            }
            format!(
                "Condenação pelo crime do art. 306 do CTB: impedimento por {years} anos a contar {what} ({}); pedido possível a partir de {}.",
                from.format("%d/%m/%Y"),
                eligible_from.format("%d/%m/%Y")
            )
        }
    };
    fail(out, "APP-ART12-P1", "art. 12, §1º", "ctb306", message);
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn certs(issued: NaiveDate, until: Option<NaiveDate>) -> Vec<CriminalCertificate> {
        Court::ALL
            .iter()
            .map(|&court| CriminalCertificate {
                court,
                issued_on: issued,
                valid_until: until,
                clear: true,
            })
            .collect()
    }

    fn failures(r: &DriverRecord, today: NaiveDate) -> Vec<(&'static str, &'static str)> {
        let b = RideHailingLegalBasis::draft_2023();
        let mut out = Vec::new();
        app_art12_iii_certificates(r, today, &b, &mut out);
        app_art12_iv_no_gravissima(r, today, &b, &mut out);
        app_art12_p1_ctb306(r, today, &b, &mut out);
        out.iter().map(|f| (f.rule, f.field)).collect()
    }

    #[test]
    fn app_art12_iii_four_clear_certificates_within_validity() {
        let today = d(2026, 11, 30);
        assert!(
            failures(
                &DriverRecord {
                    criminal_certificates: certs(d(2026, 11, 1), None),
                    ..Default::default()
                },
                today
            )
            .is_empty()
        );
        // AMB-23: 90 days from issue when no validity is printed: 01/09 + 90 = 30/11 still valid, 31/08 not.
        assert!(
            failures(
                &DriverRecord {
                    criminal_certificates: certs(d(2026, 9, 1), None),
                    ..Default::default()
                },
                today
            )
            .is_empty()
        );
        assert_eq!(
            failures(
                &DriverRecord {
                    criminal_certificates: certs(d(2026, 8, 31), None),
                    ..Default::default()
                },
                today
            )
            .len(),
            4
        );
        // A printed validity prevails.
        let printed = certs(d(2026, 1, 1), Some(d(2026, 12, 31)));
        assert!(
            failures(
                &DriverRecord {
                    criminal_certificates: printed,
                    ..Default::default()
                },
                today
            )
            .is_empty()
        );
        // One missing court, one positive certificate.
        let mut c = certs(d(2026, 11, 1), None);
        c.remove(3);
        c[0].clear = false;
        assert_eq!(
            failures(
                &DriverRecord {
                    criminal_certificates: c,
                    ..Default::default()
                },
                today
            ),
            vec![
                ("APP-ART12-III", "criminal_certificates.estadual_1"),
                ("APP-ART12-III", "criminal_certificates.federal_2")
            ]
        );
    }

    // DL-10: a gravíssima on E blocks a protocol on P iff E ≤ P ≤ E + 12 months.
    #[test]
    fn app_art12_iv_gravissima_in_the_last_twelve_months() {
        let base = DriverRecord {
            criminal_certificates: certs(d(2026, 11, 1), None),
            ..Default::default()
        };
        let with = |class: &str, on, cancelled| DriverRecord {
            traffic_infractions: vec![TrafficInfraction {
                committed_on: on,
                class: class.into(),
                cancelled,
            }],
            ..base.clone()
        };
        assert_eq!(
            failures(&with("gravissima", d(2025, 11, 30), false), d(2026, 11, 30)),
            vec![("APP-ART12-IV", "traffic_infractions")]
        );
        assert!(failures(&with("gravissima", d(2025, 11, 29), false), d(2026, 11, 30)).is_empty());
        assert!(failures(&with("grave", d(2026, 6, 1), false), d(2026, 11, 30)).is_empty());
        assert!(failures(&with("gravissima", d(2026, 6, 1), true), d(2026, 11, 30)).is_empty());
    }

    // AMB-25: barred until extinction + 5 years; eligible from the day after.
    #[test]
    fn app_art12_p1_ctb306_five_years_after_extinction() {
        let base = DriverRecord {
            criminal_certificates: certs(d(2026, 11, 1), None),
            ..Default::default()
        };
        let rec = |ext| DriverRecord {
            ctb306: Some(Ctb306Record {
                final_conviction_on: Some(d(2019, 5, 1)),
                sentence_extinguished_on: ext,
            }),
            ..base.clone()
        };
        assert_eq!(
            failures(&rec(None), d(2026, 11, 30)),
            vec![("APP-ART12-P1", "ctb306")]
        );
        assert_eq!(
            failures(&rec(Some(d(2021, 11, 30))), d(2026, 11, 30)),
            vec![("APP-ART12-P1", "ctb306")]
        );
        assert!(failures(&rec(Some(d(2021, 11, 29))), d(2026, 11, 30)).is_empty());
    }

    // AMB-25's two switches are parameters of the basis, not of the build.
    #[test]
    fn app_art12_p1_ctb306_reads_the_switches_of_the_basis() {
        let base = DriverRecord {
            criminal_certificates: certs(d(2026, 11, 1), None),
            ..Default::default()
        };
        let pending = DriverRecord {
            ctb306: Some(Ctb306Record {
                final_conviction_on: None,
                sentence_extinguished_on: None,
            }),
            ..base.clone()
        };
        let mut b = RideHailingLegalBasis::draft_2023();
        let run = |r: &DriverRecord, b: &RideHailingLegalBasis| {
            let mut out = Vec::new();
            app_art12_p1_ctb306(r, d(2026, 11, 30), b, &mut out);
            out.len()
        };
        assert_eq!(
            run(&pending, &b),
            0,
            "a prosecution does not bar by default"
        );
        b.ctb306_requires_final_conviction = false;
        assert_eq!(
            run(&pending, &b),
            1,
            "it bars when the basis says a record bars"
        );
        // Final on 01/05/2019, extinguished 30/11/2024: barred counting from the extinction,
        // free counting from the conviction (eligible from 02/05/2024).
        let served = DriverRecord {
            ctb306: Some(Ctb306Record {
                final_conviction_on: Some(d(2019, 5, 1)),
                sentence_extinguished_on: Some(d(2024, 11, 30)),
            }),
            ..base
        };
        assert_eq!(run(&served, &b), 1);
        b.ctb306_bar_counted_from = Ctb306BarStart::FinalConviction;
        assert_eq!(run(&served, &b), 0);
    }
}
