//! Table tests of the charter rules, one per rule id (ELIG, VALID, DEADLINE, TRANS), plus the
//! charter scenarios S03–S05 at the domain level.

use super::*;
use crate::domain::calendar::CalendarSettings;
use crate::domain::dates::MonthOverflow;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn basis() -> CharterLegalBasis {
    CharterLegalBasis::lei_4937_2025()
}

fn cnpj() -> Cnpj {
    Cnpj::parse("11.222.333/0001-81").unwrap()
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "reads as the checklist's `Option<Proof>` fields"
)]
fn proof(valid_until: Option<NaiveDate>) -> Option<Proof> {
    Some(Proof {
        reference: "doc".into(),
        issued_on: Some(d(2025, 1, 2)),
        valid_until,
    })
}

pub(crate) fn full_checklist(valid_until: NaiveDate) -> CompanyChecklist {
    CompanyChecklist {
        contrato_social: proof(None),
        registro_junta_comercial: proof(None),
        estatuto_alteracoes: proof(None),
        cartao_cnpj: proof(None),
        comprovante_endereco: proof(None),
        alvara_funcionamento: proof(None),
        garagem: proof(None),
        equipe_manutencao_limpeza: proof(None),
        escritorio_atendimento: proof(None),
        licencas_ambientais: proof(None),
        cnd_federal: proof(Some(valid_until)),
        cnd_estadual: proof(Some(valid_until)),
        cnd_municipal: proof(Some(valid_until)),
        crf_fgts: proof(Some(valid_until)),
        cndt: proof(Some(valid_until)),
    }
}

/// A table row: how to change the fixture, and the (rule, field) that must fail.
type Case<T> = (fn(&mut T), (&'static str, &'static str));

/// A named table row: name, change, the field that must fail.
type Named<T> = (&'static str, fn(&mut T), &'static str);

fn rules_of(f: &[RuleFailure]) -> Vec<(&str, &'static str)> {
    f.iter().map(|f| (f.rule.as_ref(), f.field)).collect()
}

#[test]
fn fret_art7_i_every_item_is_required() {
    let full = full_checklist(d(2025, 12, 31));
    let mut ok = Vec::new();
    fret_art7_checklist(&full, d(2025, 6, 1), &mut ok);
    assert!(ok.is_empty(), "{ok:?}");
    for i in 0..15 {
        let mut c = full.clone();
        let slot = [
            &mut c.contrato_social,
            &mut c.registro_junta_comercial,
            &mut c.estatuto_alteracoes,
            &mut c.cartao_cnpj,
            &mut c.comprovante_endereco,
            &mut c.alvara_funcionamento,
            &mut c.garagem,
            &mut c.equipe_manutencao_limpeza,
            &mut c.escritorio_atendimento,
            &mut c.licencas_ambientais,
            &mut c.cnd_federal,
            &mut c.cnd_estadual,
            &mut c.cnd_municipal,
            &mut c.crf_fgts,
            &mut c.cndt,
        ]
        .into_iter()
        .nth(i)
        .unwrap();
        *slot = None;
        let mut out = Vec::new();
        fret_art7_checklist(&c, d(2025, 6, 1), &mut out);
        assert_eq!(out.len(), 1, "item {i}");
        assert_eq!(
            out[0].rule,
            if i < 10 {
                "FRET-ART7-I"
            } else {
                "FRET-ART7-II"
            }
        );
    }
}

#[test]
fn fret_art7_ii_certificates_valid_through_their_last_day() {
    let c = full_checklist(d(2025, 6, 1));
    for (today, failures) in [(d(2025, 6, 1), 0), (d(2025, 6, 2), 5)] {
        let mut out = Vec::new();
        fret_art7_checklist(&c, today, &mut out);
        assert_eq!(out.len(), failures, "{today}");
        assert!(out.iter().all(|f| f.rule == "FRET-ART7-II"));
    }
    // A certificate without its printed validity cannot be checked.
    let mut c = full_checklist(d(2025, 12, 31));
    c.cndt = proof(None);
    let mut out = Vec::new();
    fret_art7_checklist(&c, d(2025, 6, 1), &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART7-II", "checklist.cndt")]);
}

#[test]
fn fret_art8_p1_s05_termo_two_years_not_extended_and_renewal_without_gap() {
    let b = basis();
    let c = full_checklist(d(2027, 12, 31));
    let first = decide_termo(&c, &[], None, (d(2025, 5, 23), d(2025, 5, 23)), &b).unwrap();
    assert_eq!(
        (first.valid_from, first.valid_until),
        (d(2025, 5, 23), d(2027, 5, 23))
    );
    // 23/05/2027 is a Sunday: still active that day, expired on Monday (DL-8).
    assert_eq!(
        termo_status(first.valid_from, first.valid_until, &[], d(2027, 5, 23)).0,
        CharterStatus::Ativo
    );
    assert_eq!(
        termo_status(first.valid_from, first.valid_until, &[], d(2027, 5, 24)).0,
        CharterStatus::Vencido
    );
    // AMB-55: renewed on 10/05/2027 → 24/05/2027 to 23/05/2029.
    let prior = PriorTermo {
        number: "FRET-2025/000001".into(),
        valid_from: first.valid_from,
        valid_until: first.valid_until,
    };
    let renewal =
        decide_termo(&c, &[], Some(&prior), (d(2027, 5, 10), d(2027, 5, 10)), &b).unwrap();
    assert_eq!(
        (renewal.valid_from, renewal.valid_until),
        (d(2027, 5, 24), d(2029, 5, 23))
    );
    assert_eq!(renewal.renews.as_deref(), Some("FRET-2025/000001"));
    // After expiry, the new term counts from the new issue date.
    let late = decide_termo(&c, &[], Some(&prior), (d(2027, 6, 10), d(2027, 6, 10)), &b).unwrap();
    assert_eq!(
        (late.valid_from, late.valid_until, late.renews),
        (d(2027, 6, 10), d(2029, 6, 10), None)
    );
    // A second renewal before the first one starts is refused.
    let renewed = PriorTermo {
        number: "FRET-2027/000001".into(),
        valid_from: renewal.valid_from,
        valid_until: renewal.valid_until,
    };
    let again = decide_termo(
        &c,
        &[],
        Some(&renewed),
        (d(2027, 5, 12), d(2027, 5, 12)),
        &b,
    )
    .unwrap_err();
    assert_eq!(rules_of(&again), vec![("FRET-ART8-P1", "company")]);
}

#[test]
fn fret_art8_p2_renewal_reruns_the_art7_checklist() {
    let c = full_checklist(d(2027, 5, 1));
    let prior = PriorTermo {
        number: "T".into(),
        valid_from: d(2025, 5, 23),
        valid_until: d(2027, 5, 23),
    };
    let err = decide_termo(
        &c,
        &[],
        Some(&prior),
        (d(2027, 5, 10), d(2027, 5, 10)),
        &basis(),
    )
    .unwrap_err();
    assert_eq!(err.len(), 5);
    assert!(err.iter().all(|f| f.rule == "FRET-ART7-II"));
}

#[test]
fn fret_art20_pu_s08_bar_lifts_the_day_after_twelve_months() {
    let c = full_checklist(d(2027, 12, 31));
    let cassations = [d(2025, 12, 15)];
    for (today, ok) in [(d(2026, 12, 15), false), (d(2026, 12, 16), true)] {
        let r = decide_termo(&c, &cassations, None, (today, today), &basis());
        assert_eq!(r.is_ok(), ok, "{today}");
        if let Err(f) = r {
            assert_eq!(rules_of(&f), vec![("FRET-ART20-PU", "company")]);
        }
    }
}

// AMB-64: the bar forbids the application, so an application protocolled within it is
// refused even if the bar has lifted by the grant; a cassação after the protocol bars too.
#[test]
fn fret_art20_pu_the_bar_is_judged_at_the_protocol_and_at_the_grant() {
    let c = full_checklist(d(2027, 12, 31));
    let cassations = [d(2025, 12, 15)];
    let within = decide_termo(
        &c,
        &cassations,
        None,
        (d(2026, 12, 10), d(2026, 12, 20)),
        &basis(),
    );
    assert_eq!(
        rules_of(&within.unwrap_err()),
        vec![("FRET-ART20-PU", "company")]
    );
    let after = decide_termo(
        &c,
        &cassations,
        None,
        (d(2026, 12, 16), d(2026, 12, 20)),
        &basis(),
    );
    assert_eq!(after.unwrap().protocolled_on, d(2026, 12, 16));
    let later_cassation = [d(2026, 12, 18)];
    let r = decide_termo(
        &c,
        &later_cassation,
        None,
        (d(2026, 12, 16), d(2026, 12, 20)),
        &basis(),
    );
    assert_eq!(
        rules_of(&r.unwrap_err()),
        vec![("FRET-ART20-PU", "company")]
    );
}

#[test]
fn fret_art20_cassacao_and_fret_art18_iii_suspension_status() {
    let cass = CompanySanction {
        kind: CompanySanctionKind::Cassacao,
        effective_from: d(2025, 12, 15),
        until: None,
        article: "art. 20, IV".into(),
        reason: "r".into(),
    };
    let (from, until) = (d(2025, 5, 23), d(2027, 5, 23));
    assert_eq!(
        termo_status(from, until, std::slice::from_ref(&cass), d(2025, 12, 14)).0,
        CharterStatus::Ativo
    );
    assert_eq!(
        termo_status(from, until, std::slice::from_ref(&cass), d(2025, 12, 15)).0,
        CharterStatus::Cassado
    );
    // A Termo granted after the bar is not touched by the old cassação.
    assert_eq!(
        termo_status(d(2026, 12, 16), d(2028, 12, 16), &[cass], d(2027, 1, 10)).0,
        CharterStatus::Ativo
    );
    let susp = CompanySanction {
        kind: CompanySanctionKind::Suspensao,
        effective_from: d(2025, 7, 1),
        until: Some(d(2025, 7, 31)),
        article: "art. 18, III".into(),
        reason: "r".into(),
    };
    assert_eq!(
        termo_status(from, until, std::slice::from_ref(&susp), d(2025, 7, 30)),
        (CharterStatus::Suspenso, Some(d(2025, 7, 31)))
    );
    assert_eq!(
        termo_status(from, until, &[susp], d(2025, 7, 31)).0,
        CharterStatus::Ativo
    );
}

fn bus() -> CharterVehicleFacts {
    CharterVehicleFacts {
        kind: "micro_onibus".into(),
        doors: 2,
        has_turnstile: false,
        seated_capacity: 20,
        model_year: 2020,
        first_registration_date: d(2020, 3, 10),
        first_registration_year_only: false,
        zero_km: false,
        owner_cnpj: "11222333000181".into(),
        ownership_proof: "crv_e".into(),
        crlv_year: 2025,
        insurance: Some(Insurance {
            policy: "AP-1".into(),
            insurer: "Seguradora".into(),
            valid_from: d(2025, 1, 1),
            valid_to: d(2025, 12, 31),
        }),
    }
}

#[test]
fn fret_art11_s04_type_doors_and_turnstile() {
    let today = d(2025, 6, 1);
    let itv = Some(d(2025, 3, 1));
    assert!(vehicle_requirements(&bus(), &cnpj(), itv, today, &basis()).is_empty());
    let cases: [Named<CharterVehicleFacts>; 4] = [
        ("turnstile", |v| v.has_turnstile = true, "has_turnstile"),
        ("van", |v| v.kind = "camioneta".into(), "kind"),
        ("three doors", |v| v.doors = 3, "doors"),
        ("no doors", |v| v.doors = 0, "doors"),
    ];
    for (name, change, field) in cases {
        let mut v = bus();
        v.kind = "onibus".into();
        change(&mut v);
        let f = vehicle_requirements(&v, &cnpj(), itv, today, &basis());
        assert_eq!(rules_of(&f), vec![("FRET-ART11", field)], "{name}");
    }
}

#[test]
fn fret_art10_pu_no_standing_passengers() {
    let mut out = Vec::new();
    fret_art10_pu_passengers(20, 20, "passengers", &mut out);
    assert!(out.is_empty());
    fret_art10_pu_passengers(21, 20, "passengers", &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART10-PU", "passengers")]);
    let mut v = bus();
    v.seated_capacity = 0;
    let mut out = Vec::new();
    fret_art10_pu_capacity(&v, &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART10-PU", "seated_capacity")]);
}

#[test]
fn fret_art12_i_owner_must_be_the_company() {
    let mut v = bus();
    v.owner_cnpj = "12.345.678/0001-95".into();
    let mut out = Vec::new();
    fret_art12_i_ownership(&v, &cnpj(), &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART12-I", "owner_cnpj")]);
    let mut v = bus();
    v.ownership_proof = "nota".into();
    let mut out = Vec::new();
    fret_art12_i_ownership(&v, &cnpj(), &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART12-I", "ownership_proof")]);
}

#[test]
fn fret_art12_ii_crlv_of_the_exercise() {
    let b = basis();
    for (year, today, ok) in [
        (2025, d(2025, 6, 1), true),
        (2024, d(2025, 6, 1), true),
        (2023, d(2025, 6, 1), false),
        (2026, d(2025, 6, 1), false),
    ] {
        let mut v = bus();
        v.crlv_year = year;
        let mut out = Vec::new();
        fret_art12_ii_crlv(&v, today, &b, &mut out);
        assert_eq!(out.is_empty(), ok, "{year}");
    }
}

#[test]
fn fret_art12_iii_insurance_in_force_inclusive() {
    for (today, ok) in [
        (d(2025, 1, 1), true),
        (d(2025, 12, 31), true),
        (d(2026, 1, 1), false),
        (d(2024, 12, 31), false),
    ] {
        let mut out = Vec::new();
        fret_art12_iii_insurance(&bus(), today, &mut out);
        assert_eq!(out.is_empty(), ok, "{today}");
    }
    let mut v = bus();
    v.insurance = None;
    let mut out = Vec::new();
    fret_art12_iii_insurance(&v, d(2025, 6, 1), &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART12-III", "insurance")]);
}

#[test]
fn fret_art12_iv_itv_six_months_and_the_zero_km_rule() {
    let b = basis();
    // A report on 31/08 is valid through 28/02 (DL-6, last day of the month).
    assert_eq!(
        itv_valid_until(&bus(), Some(d(2025, 8, 31)), &b),
        Some(d(2026, 2, 28))
    );
    let mut out = Vec::new();
    fret_art12_iv_itv(&bus(), Some(d(2025, 8, 31)), d(2026, 3, 1), &b, &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART12-IV", "itv_report_date")]);
    // No report at all: required, unless zero-km (AMB-14: first due 6 months after).
    let mut out = Vec::new();
    fret_art12_iv_itv(&bus(), None, d(2025, 6, 1), &b, &mut out);
    assert_eq!(out.len(), 1);
    let mut new = bus();
    new.zero_km = true;
    new.first_registration_date = d(2025, 5, 20);
    assert_eq!(itv_valid_until(&new, None, &b), Some(d(2025, 11, 20)));
    let mut out = Vec::new();
    fret_art12_iv_itv(&new, None, d(2025, 11, 20), &b, &mut out);
    assert!(out.is_empty());
    fret_art12_iv_itv(&new, None, d(2025, 11, 21), &b, &mut out);
    assert_eq!(out.len(), 1);
}

#[test]
fn fret_art13_p1_a_s03_service_life_exact_dates_and_leap_day() {
    let b = basis();
    let mut v = bus();
    v.first_registration_date = d(2010, 3, 15);
    for (today, ok) in [(d(2025, 3, 15), true), (d(2025, 3, 16), false)] {
        let mut out = Vec::new();
        fret_art13_p1_a_service_life(&v, today, &b, &mut out);
        assert_eq!(out.is_empty(), ok, "{today}");
    }
    assert_eq!(service_life_until(d(2012, 2, 29), &b), d(2027, 2, 28));
    let mut next_day = basis();
    next_day.month_overflow = MonthOverflow::NextDay;
    assert_eq!(service_life_until(d(2012, 2, 29), &next_day), d(2027, 3, 1));
}

#[test]
fn fret_art13_p1_b_vistoria_annual() {
    assert_eq!(vistoria_valid_until(d(2025, 6, 1), &basis()), d(2026, 6, 1));
}

fn record() -> VehicleRecord {
    VehicleRecord {
        facts: bus(),
        itv_reports: vec![d(2025, 3, 1)],
        vistorias: vec![Vistoria {
            performed_on: d(2025, 3, 2),
            approved: true,
            inspector: "Fiscal".into(),
            notes: String::new(),
        }],
        baixa: None,
    }
}

#[test]
fn fret_art13_vehicle_status_order() {
    let b = basis();
    let status = |r: &VehicleRecord, today| vehicle_status(r, &cnpj(), today, &b).status;
    assert_eq!(status(&record(), d(2025, 6, 1)), CharterStatus::Ativo);
    // ITV lapsed on 01/09/2025: irregular, with the reason.
    let r = vehicle_status(&record(), &cnpj(), d(2025, 9, 2), &b);
    assert_eq!(r.status, CharterStatus::Irregular);
    assert_eq!(
        rules_of(&r.irregularities),
        vec![("FRET-ART12-IV", "itv_report_date")]
    );
    // Without an approved vistoria: pending.
    let mut pending = record();
    pending.vistorias[0].approved = false;
    assert_eq!(
        status(&pending, d(2025, 6, 1)),
        CharterStatus::PendenteVistoria
    );
    // Vistoria lapsed (and insurance too): vencido prevails over irregular.
    let mut late = record();
    late.itv_reports.push(d(2026, 2, 1));
    late.facts.crlv_year = 2026;
    assert_eq!(status(&late, d(2026, 3, 3)), CharterStatus::Vencido);
    // Service life over.
    let mut old = record();
    old.facts.first_registration_date = d(2010, 3, 15);
    assert_eq!(status(&old, d(2025, 6, 1)), CharterStatus::VidaUtilVencida);
    // FRET-ART13-P5: baixa prevails.
    let mut gone = old;
    gone.baixa = Some(Baixa {
        requested_on: d(2025, 5, 1),
        selo_returned: true,
        incident_report: None,
        reason: "venda".into(),
    });
    assert_eq!(status(&gone, d(2025, 6, 1)), CharterStatus::Baixado);
}

#[test]
fn fret_art13_p5_baixa_needs_the_selo_or_an_incident_report() {
    let mut b = Baixa {
        requested_on: d(2025, 5, 1),
        selo_returned: false,
        incident_report: None,
        reason: "venda".into(),
    };
    let mut out = Vec::new();
    fret_art13_p5_baixa(&b, &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART13-P5", "selo_returned")]);
    b.incident_report = Some("BO 123/2025".into());
    let mut out = Vec::new();
    fret_art13_p5_baixa(&b, &mut out);
    assert!(out.is_empty());
}

#[test]
fn fret_art14_substitute_needs_an_end_and_must_meet_arts_11_to_13() {
    let mut out = Vec::new();
    fret_art14_substitution(d(2025, 6, 1), d(2025, 5, 1), &[], &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART14", "authorized_to")]);
    let mut old = bus();
    old.first_registration_date = d(2009, 1, 1);
    let failures =
        vehicle_requirements(&old, &cnpj(), Some(d(2025, 3, 1)), d(2025, 6, 1), &basis());
    let mut out = Vec::new();
    fret_art14_substitution(d(2025, 6, 1), d(2025, 7, 1), &failures, &mut out);
    assert_eq!(
        rules_of(&out),
        vec![("FRET-ART13-P1-A", "substitute_vehicle_id")]
    );
}

fn driver() -> CharterDriverFacts {
    CharterDriverFacts {
        birth_date: d(1990, 5, 1),
        cnh_category: "D".into(),
        cnh_ear: true,
        cnh_expires_on: d(2028, 1, 1),
        course_certificate: proof(Some(d(2029, 1, 1))),
        folha_corrida: Some(Proof {
            reference: "FC".into(),
            issued_on: Some(d(2025, 5, 1)),
            valid_until: None,
        }),
        employment_link: Some(EmploymentLink {
            kind: "ctps_digital".into(),
            reference: "123".into(),
        }),
        toxicological_exam_on: Some(d(2024, 1, 10)),
    }
}

#[test]
fn fret_art15_i_cnh_d_or_e_with_ear() {
    let today = d(2025, 6, 1);
    for (cat, ok) in [
        ("D", true),
        ("E", true),
        ("AD", true),
        ("AE", true),
        ("B", false),
        ("C", false),
        ("A", false),
        ("AC", false),
    ] {
        let mut f = driver();
        f.cnh_category = cat.into();
        let mut out = Vec::new();
        fret_art15_i_cnh(&f, today, &mut out);
        assert_eq!(out.is_empty(), ok, "{cat}");
    }
    let mut f = driver();
    f.cnh_ear = false;
    f.cnh_expires_on = d(2025, 5, 31);
    let mut out = Vec::new();
    fret_art15_i_cnh(&f, today, &mut out);
    assert_eq!(
        rules_of(&out),
        vec![
            ("FRET-ART15-I", "cnh_ear"),
            ("FRET-ART15-I", "cnh_expires_on")
        ]
    );
}

#[test]
fn fret_art15_ii_to_v_and_minimum_age() {
    let b = basis();
    assert!(driver_requirements(&driver(), d(2025, 6, 1), &b).is_empty());
    let cases: [Case<CharterDriverFacts>; 6] = [
        (
            |f| f.course_certificate = proof(Some(d(2025, 5, 31))),
            ("FRET-ART15-II", "course_certificate"),
        ),
        (
            |f| f.folha_corrida = None,
            ("FRET-ART15-III", "folha_corrida"),
        ),
        (
            |f| f.employment_link = None,
            ("FRET-ART15-IV", "employment_link"),
        ),
        (
            |f| f.toxicological_exam_on = Some(d(2022, 11, 30)),
            ("FRET-ART15-V", "toxicological_exam_on"),
        ),
        (
            |f| f.toxicological_exam_on = None,
            ("FRET-ART15-V", "toxicological_exam_on"),
        ),
        (
            |f| f.birth_date = d(2004, 6, 2),
            ("FED-CTB145-I", "birth_date"),
        ),
    ];
    for (change, expected) in cases {
        let mut f = driver();
        change(&mut f);
        assert_eq!(
            rules_of(&driver_requirements(&f, d(2025, 6, 1), &b)),
            vec![expected]
        );
    }
    // The folha corrida without a printed validity lasts 90 days from issue (01/05 → 30/07).
    assert!(driver_requirements(&driver(), d(2025, 7, 30), &b).is_empty());
    assert_eq!(
        rules_of(&driver_requirements(&driver(), d(2025, 7, 31), &b)),
        vec![("FRET-ART15-III", "folha_corrida")]
    );
    // Age 21 is met on the birthday (DL-9).
    let mut f = driver();
    f.birth_date = d(2004, 6, 1);
    assert!(driver_requirements(&f, d(2025, 6, 1), &b).is_empty());
    // Toxicological exam: 30 months, inclusive (10/01/2024 → 10/07/2026).
    assert!(
        driver_requirements(&driver(), d(2026, 7, 10), &b)
            .iter()
            .all(|f| f.rule != "FRET-ART15-V")
    );
    assert!(
        driver_requirements(&driver(), d(2026, 7, 11), &b)
            .iter()
            .any(|f| f.rule == "FRET-ART15-V")
    );
}

#[test]
fn fret_art24_deregistered_driver() {
    let b = basis();
    assert_eq!(
        driver_status(&driver(), Some(d(2025, 6, 1)), d(2025, 6, 1), &b).0,
        CharterStatus::Baixado
    );
    assert_eq!(
        driver_status(&driver(), Some(d(2025, 6, 2)), d(2025, 6, 1), &b).0,
        CharterStatus::Ativo
    );
}

fn contract() -> ContractFacts {
    ContractFacts {
        kind: ContractKind::Continuo,
        contractor_type: ContractorType::PessoaJuridica,
        contractor_name: "Frigorífico Araguaia Ltda.".into(),
        contractor_uses_own_vehicles: false,
        purpose: "Transporte de funcionários".into(),
        tourism: false,
        origin: "Centro".into(),
        destination: "Distrito Industrial".into(),
        itinerary: "Av. Ministro João Alberto".into(),
        within_municipality: true,
        timetable: vec!["Seg a sex 06:00 e 18:00".into()],
        signed_on: d(2025, 6, 2),
        start_date: d(2025, 6, 10),
        end_date: d(2026, 6, 9),
        notary_registration: Some("Cartório 1º Ofício, nº 123".into()),
        nfse_number: Some("2025/991".into()),
        passengers: vec![Passenger {
            name: "Maria".into(),
            cpf: Some("529.982.247-25".into()),
            other_document: None,
        }],
        vehicle_plates: vec!["QBA1C23".into()],
        communicated_on: d(2025, 6, 5),
    }
}

fn listed(seats: i32) -> Vec<ListedVehicle> {
    vec![ListedVehicle {
        plate: "QBA1C23".into(),
        found: Some((CharterStatus::Ativo, seats)),
    }]
}

#[test]
fn fret_contract_rules_table() {
    let mut out = Vec::new();
    contract_requirements(&contract(), &listed(20), &mut out);
    assert!(out.is_empty(), "{out:?}");
    let cases: [Case<ContractFacts>; 11] = [
        (
            |c| c.contractor_type = ContractorType::TransporteEscolarRegular,
            ("FRET-ART28", "contractor_type"),
        ),
        (
            |c| c.contractor_type = ContractorType::Assentamento,
            ("FRET-ART5", "contractor_type"),
        ),
        (
            |c| c.contractor_type = ContractorType::Prefeitura,
            ("FRET-ART5", "contractor_type"),
        ),
        (
            |c| c.contractor_type = ContractorType::GrupoParticular,
            ("FRET-ART2-I", "contractor_type"),
        ),
        (
            |c| {
                c.contractor_type = ContractorType::OrgaoPublico;
                c.contractor_uses_own_vehicles = true;
            },
            ("FRET-ART2-I", "contractor_uses_own_vehicles"),
        ),
        (
            |c| c.notary_registration = None,
            ("FRET-ART2-I", "notary_registration"),
        ),
        (|c| c.nfse_number = None, ("FRET-ART2-I", "nfse_number")),
        (
            |c| {
                c.kind = ContractKind::Eventual;
                c.tourism = true;
            },
            ("FRET-ART2-II", "tourism"),
        ),
        (
            |c| c.within_municipality = false,
            ("FRET-ART1-PU-VII", "within_municipality"),
        ),
        (
            |c| c.end_date = d(2025, 6, 1),
            ("FRET-ART1-PU-III", "end_date"),
        ),
        (
            |c| c.passengers[0].cpf = Some("111.111.111-11".into()),
            ("FRET-ART8-P3", "passengers"),
        ),
    ];
    for (change, expected) in cases {
        let mut c = contract();
        change(&mut c);
        let mut out = Vec::new();
        contract_requirements(&c, &listed(20), &mut out);
        assert_eq!(rules_of(&out), vec![expected]);
    }
    // Occasional charter for a private group, without a notary or a timetable: fine.
    let mut c = contract();
    c.kind = ContractKind::Eventual;
    c.contractor_type = ContractorType::GrupoParticular;
    c.notary_registration = None;
    c.timetable.clear();
    let mut out = Vec::new();
    contract_requirements(&c, &listed(20), &mut out);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn fret_art8_p3_plates_and_passenger_list() {
    // S04: 21 passengers for the 20-seat minibus.
    let mut c = contract();
    c.passengers = (0..21)
        .map(|i| Passenger {
            name: format!("P{i}"),
            cpf: None,
            other_document: Some(format!("RG {i}")),
        })
        .collect();
    let mut out = Vec::new();
    let review = contract_requirements(&c, &listed(20), &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART10-PU", "passengers")]);
    assert_eq!(review.len(), 21, "AMB-56: no CPF → manual review");
    // Unknown plate, or a vehicle not in order.
    let unknown = vec![ListedVehicle {
        plate: "QBA1C23".into(),
        found: None,
    }];
    let mut out = Vec::new();
    contract_requirements(&contract(), &unknown, &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART8-P3", "vehicle_plates")]);
    let expired = vec![ListedVehicle {
        plate: "QBA1C23".into(),
        found: Some((CharterStatus::VidaUtilVencida, 20)),
    }];
    let mut out = Vec::new();
    contract_requirements(&contract(), &expired, &mut out);
    assert_eq!(rules_of(&out), vec![("FRET-ART8-P3", "vehicle_plates")]);
}

fn cal() -> Calendar {
    Calendar::new(CalendarSettings::default(), [])
}

#[test]
fn fret_art3_contract_notice_within_15_days() {
    let b = basis();
    // Signed Monday 02/06/2025: day 15 is Tuesday 17/06.
    let (due, late) = fret_art3_notice(
        d(2025, 6, 2),
        d(2025, 6, 17),
        &cal(),
        &DeadlineRules::default(),
        &b,
    );
    assert_eq!(due.due, d(2025, 6, 17));
    assert!(late.is_none());
    let (_, late) = fret_art3_notice(
        d(2025, 6, 2),
        d(2025, 6, 18),
        &cal(),
        &DeadlineRules::default(),
        &b,
    );
    assert_eq!(late.as_ref().map(|f| f.rule.as_ref()), Some("FRET-ART3"));
}

#[test]
fn fret_art26_transitional_deadlines() {
    let t = transition_deadlines(&basis(), &cal(), &DeadlineRules::default());
    assert_eq!(t.company_registration.due, d(2025, 5, 27));
    // Day 60 is Sunday 27/04/2025 → Monday 28/04 (DL-5).
    assert_eq!(t.vehicle_enrolment.raw_end, d(2025, 4, 27));
    assert_eq!(t.vehicle_enrolment.due, d(2025, 4, 28));
    let w = late_transition_warning(
        true,
        d(2025, 5, 28),
        &t.company_registration,
        "FRET-ART26",
        "art. 26",
        "Registro",
    );
    assert_eq!(w.as_ref().map(|f| f.rule.as_ref()), Some("FRET-ART26"));
    assert!(
        late_transition_warning(
            true,
            d(2025, 5, 27),
            &t.company_registration,
            "FRET-ART26",
            "art. 26",
            "Registro"
        )
        .is_none()
    );
    assert!(
        late_transition_warning(
            false,
            d(2025, 9, 1),
            &t.company_registration,
            "FRET-ART26",
            "art. 26",
            "Registro"
        )
        .is_none()
    );
}

mod per_rule;

#[test]
fn fret_art11_a_vehicle_is_named_by_its_crlv_kind() {
    let micro = bus();
    assert_eq!(
        (micro.kind_label_pt(), micro.kind_noun_pt()),
        ("Micro-ônibus", "micro-ônibus")
    );
    let full = CharterVehicleFacts {
        kind: "onibus".into(),
        ..bus()
    };
    assert_eq!(
        (full.kind_label_pt(), full.kind_noun_pt()),
        ("Ônibus", "ônibus")
    );
}
