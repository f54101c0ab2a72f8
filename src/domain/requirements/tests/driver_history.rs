//! The draft's driver-history requirements (art. 12, III, IV and §1º) on filed records.

use chrono::NaiveDate;

use crate::domain::legal_basis::{Ctb306BarStart, RideHailingLegalBasis};
use crate::domain::requirements::{DriverInput, PendingProsecution, RequirementKind};
use crate::domain::ride_hailing::driver_record::{
    Court, CriminalCertificate, Ctb306Record, DriverRecord, TrafficInfraction,
};

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

/// The draft's driver requirements that fail on `today` (history judged the same day).
fn failures(r: &DriverRecord, today: NaiveDate) -> Vec<(&'static str, &'static str)> {
    const RULES: [&str; 4] = [
        "APP-ART12-I",
        "APP-ART12-III",
        "APP-ART12-IV",
        "APP-ART12-P1",
    ];
    let b = RideHailingLegalBasis::draft_2023();
    let (mut out, mut review) = (Vec::new(), Vec::new());
    for req in &b.requirements {
        req.check_driver(
            &input(r),
            today,
            today,
            b.month_overflow,
            &mut out,
            &mut review,
        );
    }
    out.iter()
        .map(|f| {
            (
                RULES.into_iter().find(|x| f.rule == *x).unwrap_or("?"),
                f.field,
            )
        })
        .collect()
}

fn input(r: &DriverRecord) -> DriverInput<'_> {
    DriverInput {
        cnh_category: crate::domain::ids::CnhCategory::B,
        ear: true,
        first_license_date: d(2000, 1, 1),
        record: r,
    }
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
        let (mut out, mut review) = (Vec::new(), Vec::new());
        let on = d(2026, 11, 30);
        for req in &b.requirements {
            req.check_driver(&input(r), on, on, b.month_overflow, &mut out, &mut review);
        }
        out.len()
    };
    assert_eq!(
        run(&pending, &b),
        0,
        "a prosecution does not bar by default"
    );
    *ctb306(&mut b).1 = PendingProsecution::Bar;
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
    *ctb306(&mut b).0 = Ctb306BarStart::FinalConviction;
    assert_eq!(run(&served, &b), 0);
}

fn ctb306(b: &mut RideHailingLegalBasis) -> (&mut Ctb306BarStart, &mut PendingProsecution) {
    b.requirements
        .iter_mut()
        .find_map(|r| match &mut r.kind {
            RequirementKind::Ctb306 {
                counted_from,
                pending_prosecution,
                ..
            } => Some((counted_from, pending_prosecution)),
            _ => None,
        })
        .unwrap()
}
