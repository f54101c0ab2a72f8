//! One test per rule id of the charter law, for rules otherwise covered inside broader
//! tables, and the grounds of each sanction (FRET-ART18, FRET-ART20).

use super::*;

fn contract_failures(change: fn(&mut ContractFacts)) -> Vec<(&'static str, &'static str)> {
    let mut c = contract();
    change(&mut c);
    let mut out = Vec::new();
    contract_requirements(&c, &listed(20), &mut out);
    out.iter().map(|f| (f.rule_id(), f.field)).collect()
}

#[test]
fn fret_art1_pu_i_the_termo_states_the_modality() {
    assert_eq!(Modality::Continuo.label_pt(), "Fretamento contínuo");
    assert_eq!(Modality::Eventual.label_pt(), "Fretamento eventual");
}

#[test]
fn fret_art1_pu_iii_contract_has_a_validity_period() {
    let f = contract_failures(|c| c.end_date = c.start_date - chrono::Duration::days(1));
    assert_eq!(f, vec![("FRET-ART1-PU-III", "end_date")]);
}

#[test]
fn fret_art1_pu_vi_contract_names_the_passenger_group() {
    let f = contract_failures(|c| c.contractor_name = " ".into());
    assert_eq!(f, vec![("FRET-ART1-PU-VI", "contractor_name")]);
}

#[test]
fn fret_art1_pu_vii_origin_and_destination_in_the_municipality() {
    let f = contract_failures(|c| c.within_municipality = false);
    assert_eq!(f, vec![("FRET-ART1-PU-VII", "within_municipality")]);
}

#[test]
fn fret_art2_i_continuous_charter_needs_notary_timetable_and_nfse() {
    let f = contract_failures(|c| {
        c.notary_registration = None;
        c.timetable.clear();
        c.nfse_number = None;
    });
    assert_eq!(
        f,
        vec![
            ("FRET-ART2-I", "notary_registration"),
            ("FRET-ART2-I", "timetable"),
            ("FRET-ART2-I", "nfse_number"),
        ]
    );
}

#[test]
fn fret_art2_ii_occasional_charter_is_not_tourism() {
    let f = contract_failures(|c| {
        c.kind = ContractKind::Eventual;
        c.tourism = true;
    });
    assert_eq!(f, vec![("FRET-ART2-II", "tourism")]);
}

#[test]
fn fret_art4_own_account_transport_is_its_own_modality() {
    assert_eq!(
        Modality::TransporteProprio.label_pt(),
        "Transporte próprio (art. 4º)"
    );
}

#[test]
fn fret_art5_settlements_and_prefeituras_are_not_continuous_charter() {
    for t in [ContractorType::Assentamento, ContractorType::Prefeitura] {
        let mut c = contract();
        c.contractor_type = t;
        let mut out = Vec::new();
        contract_requirements(&c, &listed(20), &mut out);
        assert_eq!(rules_of(&out), vec![("FRET-ART5", "contractor_type")]);
        // As occasional charter the exclusion does not apply.
        c.kind = ContractKind::Eventual;
        let mut out = Vec::new();
        contract_requirements(&c, &listed(20), &mut out);
        assert!(out.is_empty(), "{out:?}");
    }
}

#[test]
fn fret_art13_p4_past_its_service_life_the_vehicle_cannot_operate() {
    let mut r = record();
    r.facts.first_registration_date = d(2010, 6, 1);
    let report = vehicle_status(&r, &cnpj(), d(2025, 6, 2), &basis());
    assert_eq!(report.status, CharterStatus::VidaUtilVencida);
    assert_eq!(report.service_life_until, d(2025, 6, 1));
}

#[test]
fn fret_art15_iii_folha_corrida_within_validity() {
    let mut f = driver();
    f.folha_corrida = proof(Some(d(2025, 5, 31)));
    assert_eq!(
        rules_of(&driver_requirements(&f, d(2025, 6, 1), &basis())),
        vec![("FRET-ART15-III", "folha_corrida")]
    );
}

#[test]
fn fret_art15_v_toxicological_exam_thirty_months() {
    let mut f = driver();
    f.toxicological_exam_on = Some(d(2022, 12, 1));
    assert!(driver_requirements(&f, d(2025, 6, 1), &basis()).is_empty());
    assert_eq!(
        rules_of(&driver_requirements(&f, d(2025, 6, 2), &basis())),
        vec![("FRET-ART15-V", "toxicological_exam_on")]
    );
}

#[test]
fn fret_art26_p1_vehicles_sixty_days_from_publication() {
    let t = transition_deadlines(&basis(), &cal(), &DeadlineRules::default());
    assert_eq!(t.vehicle_enrolment.days, 60);
    assert_eq!(t.vehicle_enrolment.due, d(2025, 4, 28));
    let w = late_transition_warning(
        true,
        d(2025, 4, 29),
        &t.vehicle_enrolment,
        "FRET-ART26-P1",
        "art. 26, §1º",
        "Cadastro",
    );
    assert_eq!(w.as_ref().map(|f| f.rule.as_ref()), Some("FRET-ART26-P1"));
}

#[test]
fn fret_art29_in_force_on_publication() {
    assert_eq!(basis().publication_date, d(2025, 2, 26));
    assert_eq!(basis().version, "LEI-4937-2025/v1");
}

// FRET-ART18 / FRET-ART20: the grounds of each sanction.

#[test]
fn fret_art20_i_to_iv_are_the_grounds_of_cassacao() {
    for a in ["art. 20, I", "art. 20, II", "art. 20, III", "art. 20, IV"] {
        assert!(sanction_grounded(CompanySanctionKind::Cassacao, a), "{a}");
    }
    assert!(!sanction_grounded(
        CompanySanctionKind::Cassacao,
        "art. 19, VI"
    ));
}

#[test]
fn fret_art20_ii_transfer_without_consent_is_a_cassacao_ground() {
    assert!(sanction_grounded(
        CompanySanctionKind::Cassacao,
        "art. 20, II"
    ));
}

#[test]
fn fret_art20_iii_vehicle_without_the_legal_characteristics_is_a_cassacao_ground() {
    assert!(sanction_grounded(
        CompanySanctionKind::Cassacao,
        "art. 20, III"
    ));
}

#[test]
fn fret_art18_each_sanction_has_its_inciso() {
    assert!(sanction_grounded(
        CompanySanctionKind::Advertencia,
        "art. 18, I"
    ));
    assert!(sanction_grounded(
        CompanySanctionKind::Suspensao,
        "art. 18, III"
    ));
    assert!(sanction_grounded(
        CompanySanctionKind::Apreensao,
        "art. 18, IV"
    ));
    assert!(!sanction_grounded(
        CompanySanctionKind::Suspensao,
        "art. 18, I"
    ));
}

#[test]
fn fret_art8_art13_vehicle_status_with_its_company() {
    use CharterStatus::{
        Ativo, Baixado, Cassado, Irregular, PendenteAutorizacao, PendenteVistoria, Suspenso,
        Vencido, VidaUtilVencida,
    };
    let cases = [
        ((Ativo, Ativo), Ativo),
        ((PendenteVistoria, Ativo), PendenteVistoria),
        // Final statuses of the vehicle win over anything the company has.
        ((Baixado, Cassado), Baixado),
        ((VidaUtilVencida, Suspenso), VidaUtilVencida),
        // A cassada or suspended company stops every vehicle.
        ((Ativo, Cassado), Cassado),
        ((Vencido, Suspenso), Suspenso),
        // No Termo in force: irregular, whatever the vehicle's own standing.
        ((Ativo, Vencido), Irregular),
        ((PendenteVistoria, PendenteAutorizacao), Irregular),
    ];
    for ((vehicle, company), want) in cases {
        assert_eq!(
            vehicle_with_company(vehicle, company),
            want,
            "{vehicle:?} + {company:?}"
        );
    }
}

#[test]
fn fret_art2_iii_closed_circuit_same_vehicle_same_group() {
    let p = |name: &str, cpf: Option<&str>| Passenger {
        name: name.into(),
        cpf: cpf.map(Into::into),
        other_document: None,
    };
    let going = [
        p("Ana", Some("529.982.247-25")),
        p("Bruno", Some("111.444.777-35")),
        p("Caio", None),
    ];
    // Order and CPF punctuation do not matter; the names of passengers with CPF do not either.
    let back = [
        p("Caio", None),
        p("Bruno Souza", Some("11144477735")),
        p("Ana", Some("52998224725")),
    ];
    let someone_else = [
        p("Ana", Some("529.982.247-25")),
        p("Bruno", Some("111.444.777-35")),
        p("Davi", None),
    ];
    let g = passenger_group(&going);
    assert_eq!(g, passenger_group(&back));
    assert_ne!(g, passenger_group(&someone_else));
    assert!(!g.contains("529"), "no personal data in the fingerprint");
    let fields = |outbound: Option<(&str, &str)>, plate: &str, group: &str| {
        let mut out = Vec::new();
        fret_art2_iii_closed_circuit(outbound, plate, group, &mut out);
        out.iter().map(|f| f.field).collect::<Vec<_>>()
    };
    let other = passenger_group(&someone_else);
    assert!(fields(Some(("BRA2E19", &g)), "BRA2E19", &g).is_empty());
    assert_eq!(
        fields(Some(("BRA2E19", &g)), "ABC1234", &g),
        ["vehicle_plate"]
    );
    assert_eq!(
        fields(Some(("BRA2E19", &g)), "BRA2E19", &other),
        ["passengers"]
    );
    assert_eq!(fields(None, "BRA2E19", &g), ["leg"]);
}

#[test]
fn fret_art2_iii_a_return_closes_the_latest_outbound_trip_up_to_its_day() {
    let trip = |date, leg, plate: &str| FiledTrip {
        date,
        leg,
        vehicle_plate: plate.into(),
        group: Some("g".into()),
    };
    let earlier = [
        trip(d(2025, 6, 5), TripLeg::Ida, "AAA1A11"),
        trip(d(2025, 6, 3), TripLeg::Ida, "BBB2B22"),
        trip(d(2025, 6, 3), TripLeg::Ida, "CCC3C33"),
        trip(d(2025, 6, 4), TripLeg::Volta, "DDD4D44"),
    ];
    // Filed out of date order: the latest date up to the day wins, then the last filed.
    assert_eq!(
        outbound_of(&earlier, d(2025, 6, 4)).map(|t| t.vehicle_plate.as_str()),
        Some("CCC3C33")
    );
    assert_eq!(
        outbound_of(&earlier, d(2025, 6, 6)).map(|t| t.vehicle_plate.as_str()),
        Some("AAA1A11")
    );
    assert_eq!(outbound_of(&earlier, d(2025, 6, 2)), None);
    // A trip filed before returns existed reads as outbound.
    let old: FiledTrip =
        serde_json::from_str(r#"{"date":"2025-06-01","vehicle_plate":"AAA1A11","passengers":3}"#)
            .unwrap();
    assert_eq!((old.leg, old.group), (TripLeg::Ida, None));
}

#[test]
fn fret_art18_iii_a_suspension_needs_an_end_after_its_start() {
    use CompanySanctionKind::{Advertencia, Suspensao};
    let (from, later) = (d(2026, 3, 1), d(2026, 4, 1));
    assert_eq!(
        fret_art18_iii_suspension_end(Suspensao, Some(from), Some(later)),
        None
    );
    assert!(fret_art18_iii_suspension_end(Suspensao, Some(later), Some(from)).is_some());
    assert!(fret_art18_iii_suspension_end(Suspensao, Some(from), Some(from)).is_some());
    assert!(
        fret_art18_iii_suspension_end(Suspensao, Some(from), None)
            .is_some_and(|m| m.contains("art. 18, III"))
    );
    // A warning has no end to set.
    assert_eq!(
        fret_art18_iii_suspension_end(Advertencia, Some(from), None),
        None
    );
}

#[test]
fn fret_art13_p5_a_vehicle_after_baixa_is_not_inspected() {
    assert_eq!(fret_art13_p5_no_vistoria_after_baixa(false), None);
    let f = fret_art13_p5_no_vistoria_after_baixa(true).unwrap();
    assert_eq!((f.rule.as_ref(), f.field), ("FRET-ART13-P5", "vehicle"));
}

#[test]
fn fret_art2_i_only_a_company_with_a_termo_in_force_contracts() {
    assert_eq!(fret_art2_i_authorized_company(CharterStatus::Ativo), None);
    for s in [
        CharterStatus::Suspenso,
        CharterStatus::Cassado,
        CharterStatus::Vencido,
        CharterStatus::PendenteAutorizacao,
    ] {
        let f = fret_art2_i_authorized_company(s).unwrap();
        assert_eq!(
            (f.rule.as_ref(), f.field),
            ("FRET-ART2-I", "company"),
            "{s:?}"
        );
    }
}

#[test]
fn every_charter_act_reads_back_from_its_stored_kind() {
    for act in CharterAct::ALL {
        assert_eq!(CharterAct::parse(act.as_str()), Some(*act));
    }
    let kinds: std::collections::BTreeSet<_> = CharterAct::ALL.iter().map(|a| a.as_str()).collect();
    assert_eq!(
        kinds.len(),
        CharterAct::ALL.len(),
        "each act has its own kind"
    );
    assert_eq!(CharterAct::parse("vehicle_substituted"), None);
}
