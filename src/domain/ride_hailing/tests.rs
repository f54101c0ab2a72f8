use super::*;

#[test]
fn every_ride_hailing_act_reads_back_from_its_stored_kind() {
    for act in RideHailingAct::ALL {
        assert_eq!(RideHailingAct::parse(act.as_str()), Some(*act));
    }
    let kinds: std::collections::BTreeSet<_> =
        RideHailingAct::ALL.iter().map(|a| a.as_str()).collect();
    assert_eq!(
        kinds.len(),
        RideHailingAct::ALL.len(),
        "each act has its own kind"
    );
    assert_eq!(RideHailingAct::parse("termo_granted"), None);
}

pub(super) fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn clean_record() -> crate::domain::ride_hailing::driver_record::DriverRecord {
    use crate::domain::ride_hailing::driver_record::{Court, CriminalCertificate, DriverRecord};
    DriverRecord {
        criminal_certificates: Court::ALL
            .iter()
            .map(|&court| CriminalCertificate {
                court,
                issued_on: d(2023, 1, 1),
                valid_until: Some(d(2030, 1, 1)),
                clear: true,
            })
            .collect(),
        ..DriverRecord::default()
    }
}

fn eligible() -> GrantFacts {
    GrantFacts {
        driver: DriverFacts {
            cpf: "52998224725".to_owned(),
            cnh_category: CnhCategory::B,
            ear: true,
            first_license_date: d(2015, 3, 10),
            cnh_expires_on: d(2030, 1, 1),
            record: clean_record(),
        },
        vehicle: VehicleFacts {
            model_year: 2020,
            manufacture_year: Some(2019),
            doors: 4,
            air_conditioning: true,
            capacity_including_driver: 5,
            registration_municipality: IbgeCode::from_const(5_101_803),
            in_service_since: None,
            owner: Some(VehicleOwner {
                kind: OwnerType::Proprietario,
                document: "52998224725".to_owned(),
            }),
        },
        fee_paid_on: d(2026, 11, 20),
        today: d(2026, 11, 30),
        protocolled_on: d(2026, 11, 30),
        driver_has_active_authorization: false,
        vehicle_has_active_authorization: false,
        driver_deregistered_since: None,
        vehicle_deregistered_since: None,
    }
}

/// A compliant grant's facts on `today`, the fee paid and the application protocolled that day.
pub(super) fn compliant_grant_facts(today: NaiveDate) -> GrantFacts {
    GrantFacts {
        fee_paid_on: today,
        today,
        protocolled_on: today,
        ..eligible()
    }
}

fn rules_failed(f: &GrantFacts) -> Vec<(&'static str, &'static str)> {
    match decide_grant(f, &RideHailingLegalBasis::draft_2023()) {
        Ok(_) => vec![],
        Err(v) => v.iter().map(|x| (x.rule_id(), x.field)).collect(),
    }
}

#[test]
fn app_art3_pu_valid_until_is_fee_date_plus_twelve_months() {
    let dec = decide_grant(&eligible(), &RideHailingLegalBasis::draft_2023()).unwrap();
    assert_eq!(dec.valid_from, d(2026, 11, 20));
    assert_eq!(dec.valid_until, d(2027, 11, 20));
    assert_eq!(dec.legal_basis_version, "APP-MINUTA-2023-11-23/v1");
    // DL-6 overflow: 29/02/2024 + 12 months = 28/02/2025.
    assert_eq!(
        validity_until(d(2024, 2, 29), &RideHailingLegalBasis::draft_2023()),
        d(2025, 2, 28)
    );
}

#[test]
fn app_art3_pu_fee_in_future_or_stale_is_rejected() {
    let mut f = eligible();
    f.fee_paid_on = d(2026, 12, 1);
    assert_eq!(rules_failed(&f), vec![("APP-ART3-PU", "fee_paid_on")]);
    f.fee_paid_on = d(2025, 11, 29);
    assert_eq!(rules_failed(&f), vec![("APP-ART3-PU", "fee_paid_on")]);
    // Paid 30/11/2025 → valid through 30/11/2026, today: still grantable.
    f.fee_paid_on = d(2025, 11, 30);
    assert!(rules_failed(&f).is_empty());
}

#[test]
fn app_art12_i_cnh_requirements_table() {
    type Change = Box<dyn Fn(&mut GrantFacts)>;
    let cases: Vec<(&str, Change, Option<&str>)> = vec![
        (
            "category A",
            Box::new(|f| f.driver.cnh_category = CnhCategory::A),
            Some("cnh.category"),
        ),
        (
            "category ACC",
            Box::new(|f| f.driver.cnh_category = CnhCategory::Acc),
            Some("cnh.category"),
        ),
        (
            "category AE ok",
            Box::new(|f| f.driver.cnh_category = CnhCategory::Ae),
            None,
        ),
        (
            "no EAR",
            Box::new(|f| f.driver.ear = false),
            Some("cnh.ear"),
        ),
        // DL-9: met on the anniversary day.
        (
            "2 years on the day",
            Box::new(|f| f.driver.first_license_date = d(2024, 11, 30)),
            None,
        ),
        (
            "one day short",
            Box::new(|f| f.driver.first_license_date = d(2024, 12, 1)),
            Some("cnh.first_license_date"),
        ),
        (
            "expired yesterday",
            Box::new(|f| f.driver.cnh_expires_on = d(2026, 11, 29)),
            Some("cnh.expires_on"),
        ),
        (
            "expires today ok",
            Box::new(|f| f.driver.cnh_expires_on = d(2026, 11, 30)),
            None,
        ),
    ];
    for (name, change, expected) in cases {
        let mut f = eligible();
        change(&mut f);
        let got = rules_failed(&f);
        match expected {
            None => assert!(got.is_empty(), "{name}: {got:?}"),
            Some(field) => assert_eq!(got, vec![("APP-ART12-I", field)], "{name}"),
        }
    }
}

#[test]
fn app_art2_p2_age_counts_by_model_year_in_cuiaba() {
    let mut f = eligible();
    f.vehicle.model_year = 2014; // 2026 − 2014 = 12: eligible through 31/12/2026
    assert!(rules_failed(&f).is_empty());
    f.vehicle.model_year = 2013;
    assert_eq!(
        rules_failed(&f),
        vec![("APP-ART2-P2", "vehicle.model_year")]
    );
    let mut f = eligible();
    f.vehicle.model_year = 2014;
    f.today = d(2027, 1, 1);
    f.fee_paid_on = d(2027, 1, 1);
    assert_eq!(
        rules_failed(&f),
        vec![("APP-ART2-P2", "vehicle.model_year")]
    );
}

/// APP-ART12-IV (DL-10) and AMB-63: the driver's history is judged at the protocol, the
/// documents at the grant; the switch of the legal basis judges both at the grant.
#[test]
fn app_art12_iv_history_is_judged_at_the_protocol_and_documents_at_the_grant() {
    let mut f = eligible();
    f.driver.first_license_date = d(2024, 11, 25); // two years on 25/11/2026
    f.protocolled_on = d(2026, 11, 20);
    assert_eq!(
        rules_failed(&f),
        vec![("APP-ART12-I", "cnh.first_license_date")]
    );
    f.protocolled_on = d(2026, 11, 25);
    assert!(rules_failed(&f).is_empty());
    // A CNH that expired after the protocol fails at the grant.
    f.driver.cnh_expires_on = d(2026, 11, 28);
    assert_eq!(rules_failed(&f), vec![("APP-ART12-I", "cnh.expires_on")]);
    let mut basis = RideHailingLegalBasis::draft_2023();
    basis.history_judged_at_protocol = false;
    let mut f = eligible();
    f.driver.first_license_date = d(2024, 11, 25);
    f.protocolled_on = d(2026, 11, 20);
    assert!(decide_grant(&f, &basis).is_ok());
}

// S02 — APP-ART2-P3 with a hypothetical EIF of 2025-07-01.
#[test]
fn s02_app_art2_p3_transitional_rule() {
    let mut basis = RideHailingLegalBasis::draft_2023();
    basis.entry_into_force = Some(d(2025, 7, 1));
    let check = |model_year, on: NaiveDate, basis: &RideHailingLegalBasis| {
        let mut f = eligible();
        f.vehicle.model_year = model_year;
        f.vehicle.in_service_since = Some(d(2024, 1, 10));
        f.today = on;
        f.fee_paid_on = on;
        decide_grant(&f, basis).is_ok()
    };
    assert!(check(2013, d(2026, 3, 15), &basis));
    assert!(check(2013, d(2026, 7, 1), &basis));
    assert!(!check(2013, d(2026, 7, 2), &basis));
    // Model 2012 was 13 at EIF: not protected, unless every car in service is.
    assert!(!check(2012, d(2026, 3, 15), &basis));
    basis.transition_grandfather_all = true;
    assert!(check(2012, d(2026, 3, 15), &basis));
    assert!(!check(2012, d(2026, 7, 2), &basis));
    // Without a known EIF (the default, W2) nothing is grandfathered.
    assert!(!check(
        2013,
        d(2026, 3, 15),
        &RideHailingLegalBasis::draft_2023()
    ));
    // A car that entered service after EIF is not protected.
    let mut f = eligible();
    f.vehicle.model_year = 2013;
    f.vehicle.in_service_since = Some(d(2025, 8, 1));
    f.today = d(2026, 3, 15);
    f.fee_paid_on = f.today;
    basis.transition_grandfather_all = false;
    assert!(decide_grant(&f, &basis).is_err());
}

#[test]
fn app_art2_vehicle_requirements_table() {
    type Change = Box<dyn Fn(&mut GrantFacts)>;
    let cases: Vec<(Change, &str, &str)> = vec![
        (
            Box::new(|f| f.vehicle.doors = 2),
            "APP-ART2-P1",
            "vehicle.doors",
        ),
        (
            Box::new(|f| f.vehicle.air_conditioning = false),
            "APP-ART2-P1",
            "vehicle.air_conditioning",
        ),
        (
            Box::new(|f| f.vehicle.capacity_including_driver = 8),
            "APP-ART2",
            "vehicle.capacity_including_driver",
        ),
        (
            Box::new(|f| f.vehicle.registration_municipality = IbgeCode::from_const(5_103_403)),
            "APP-ART8-P1-I",
            "vehicle.registration_municipality_ibge",
        ),
        (
            Box::new(|f| f.driver_has_active_authorization = true),
            "APP-ART8",
            "driver_id",
        ),
        (
            Box::new(|f| f.vehicle_has_active_authorization = true),
            "APP-ART8",
            "vehicle_id",
        ),
    ];
    for (change, rule, field) in cases {
        let mut f = eligible();
        change(&mut f);
        assert_eq!(rules_failed(&f), vec![(rule, field)]);
    }
    let mut f = eligible();
    f.vehicle.capacity_including_driver = 7;
    f.vehicle.registration_municipality = IbgeCode::from_const(5_201_702);
    assert!(rules_failed(&f).is_empty());
    f.vehicle.registration_municipality = IbgeCode::from_const(5_106_653);
    assert!(rules_failed(&f).is_empty());
}

#[test]
fn every_failure_is_reported_at_once() {
    let mut f = eligible();
    f.driver.ear = false;
    f.vehicle.doors = 2;
    f.vehicle.air_conditioning = false;
    assert_eq!(rules_failed(&f).len(), 3);
}

// DL-8 / DL-11: the status changes at 00:00 America/Cuiaba of the day after valid_until.
#[test]
fn app_art3_pu_status_changes_after_last_day_in_cuiaba() {
    let until = d(2027, 5, 23);
    let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
    assert_eq!(
        status_at(until, None, at("2027-05-24T03:59:59Z")),
        AuthorizationStatus::Ativa
    );
    assert_eq!(
        status_at(until, None, at("2027-05-24T04:00:00Z")),
        AuthorizationStatus::Vencida
    );
    let revoked = Some(at("2026-12-01T12:00:00Z"));
    assert_eq!(
        status_at(until, revoked, at("2026-12-01T11:59:59Z")),
        AuthorizationStatus::Ativa
    );
    assert_eq!(
        status_at(until, revoked, at("2026-12-01T12:00:00Z")),
        AuthorizationStatus::Revogada
    );
}

/// APP-ART10-PU: only a driver whose fees cover the current period may operate: the
/// authorization is active through the last day the payment covers, expired the day after.
#[test]
fn app_art10_pu_operates_only_within_the_paid_period() {
    let until = validity_until(d(2026, 11, 20), &RideHailingLegalBasis::draft_2023());
    let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
    // 20/11/2027 23:59 in Barra do Garças (UTC−4) is still paid; 21/11 00:00 is not.
    assert_eq!(
        status_at(until, None, at("2027-11-21T03:59:00Z")),
        AuthorizationStatus::Ativa
    );
    assert_eq!(
        status_at(until, None, at("2027-11-21T04:00:00Z")),
        AuthorizationStatus::Vencida
    );
}

/// APP-ART15-P1: the car's checklist (V air conditioning, VII fee, VIII plated here) is
/// enforced by the rules that carry each item; IV (DPVAT) has no premium to check (AMB-43).
#[test]
fn app_art15_p1_vehicle_checklist_items_are_enforced() {
    let mut no_ac = eligible();
    no_ac.vehicle.air_conditioning = false;
    assert_eq!(
        rules_failed(&no_ac),
        vec![("APP-ART2-P1", "vehicle.air_conditioning")]
    );
    let mut elsewhere = eligible();
    elsewhere.vehicle.registration_municipality = IbgeCode::from_const(5_103_403);
    assert_eq!(
        rules_failed(&elsewhere),
        vec![("APP-ART8-P1-I", "vehicle.registration_municipality_ibge")]
    );
    let mut unpaid = eligible();
    unpaid.fee_paid_on = d(2025, 1, 1);
    assert_eq!(rules_failed(&unpaid), vec![("APP-ART3-PU", "fee_paid_on")]);
}

#[test]
fn app_art15_owner_type_table() {
    let owner = |kind, document: &str| {
        Some(VehicleOwner {
            kind,
            document: document.to_owned(),
        })
    };
    let other_cpf = "11144477735";
    let rental_cnpj = "11222333000181";
    let cases = [
        (
            "own car",
            owner(OwnerType::Proprietario, "52998224725"),
            true,
        ),
        (
            "fiduciante",
            owner(OwnerType::Fiduciante, "52998224725"),
            true,
        ),
        (
            "lessee",
            owner(OwnerType::Arrendatario, "52998224725"),
            true,
        ),
        (
            "someone else's car as owner",
            owner(OwnerType::Proprietario, other_cpf),
            false,
        ),
        (
            "someone else's as fiduciante",
            owner(OwnerType::Fiduciante, other_cpf),
            false,
        ),
        (
            "rental company",
            owner(OwnerType::LocadoraPj, rental_cnpj),
            true,
        ),
        (
            "express authorization",
            owner(OwnerType::AutorizacaoExpressa, other_cpf),
            true,
        ),
        ("not declared", None, false),
    ];
    for (name, o, ok) in cases {
        let mut f = eligible();
        f.vehicle.owner = o;
        let failed = rules_failed(&f);
        if ok {
            assert!(failed.is_empty(), "{name}: {failed:?}");
        } else {
            assert_eq!(failed.len(), 1, "{name}: {failed:?}");
            assert_eq!(failed[0].0, "APP-ART15", "{name}");
        }
    }
}
