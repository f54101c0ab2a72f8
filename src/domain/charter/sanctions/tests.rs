use super::*;
use crate::domain::calendar::CalendarSettings;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn auto(n: &str, inciso: &str, on: NaiveDate) -> AutoFacts {
    AutoFacts {
        number: n.into(),
        infraction: inciso.into(),
        committed_on: on,
        annulled: false,
        final_: true,
    }
}

fn basis() -> CharterLegalBasis {
    CharterLegalBasis::lei_4937_2025()
}

fn upf(a: &[AutoFacts]) -> Vec<Option<u32>> {
    assess_fines(a, &basis())
        .into_iter()
        .map(|f| f.map(|f| f.upf))
        .collect()
}

#[test]
fn fret_art19_every_inciso_is_500_upfbg() {
    let basis = CharterLegalBasis::lei_4937_2025();
    assert_eq!(basis.infractions.len(), 6);
    for i in &basis.infractions {
        let fines = upf(&[auto("A1", &i.id, d(2025, 4, 10))]);
        assert_eq!(fines, vec![Some(500)], "{}", i.id);
    }
}

#[test]
fn fret_art19_pu_s06_doubles_on_the_anniversary_not_the_day_after() {
    let first = auto("A1", "FRET-ART19-III", d(2025, 4, 10));
    let same_day = auto("A2", "FRET-ART19-III", d(2026, 4, 10));
    let day_after = auto("A2", "FRET-ART19-III", d(2026, 4, 11));
    let other_inciso = auto("A2", "FRET-ART19-I", d(2025, 6, 1));
    assert_eq!(upf(&[first.clone(), same_day]), vec![Some(500), Some(1000)]);
    assert_eq!(upf(&[first.clone(), day_after]), vec![Some(500), Some(500)]);
    assert_eq!(
        upf(&[first.clone(), other_inciso]),
        vec![Some(500), Some(500)]
    );
    let f = assess_fines(
        &[first, auto("A2", "FRET-ART19-III", d(2026, 4, 10))],
        &basis(),
    );
    let second = f[1].clone().unwrap();
    assert_eq!(second.repeats.as_deref(), Some("A1"));
    assert!(second.doubling_confirmed);
}

#[test]
fn fret_art19_pu_s07_never_compounds_and_recalculates_after_annulment() {
    let mut autos = vec![
        auto("A1", "FRET-ART19-III", d(2025, 4, 10)),
        auto("A2", "FRET-ART19-III", d(2025, 9, 1)),
        auto("A3", "FRET-ART19-III", d(2026, 1, 15)),
    ];
    assert_eq!(upf(&autos), vec![Some(500), Some(1000), Some(1000)]);
    autos[0].annulled = true;
    assert_eq!(upf(&autos), vec![None, Some(500), Some(1000)]);
}

#[test]
fn fret_art19_pu_doubling_unconfirmed_while_earlier_penalty_not_final() {
    let mut first = auto("A1", "FRET-ART19-II", d(2025, 4, 10));
    first.final_ = false;
    let f = assess_fines(
        &[first, auto("A2", "FRET-ART19-II", d(2025, 5, 10))],
        &basis(),
    );
    let second = f[1].clone().unwrap();
    assert_eq!(second.upf, 1000);
    assert!(!second.doubling_confirmed);
}

#[test]
fn fret_art20_iv_s08_repeating_vi_is_a_cassacao_ground() {
    let f = assess_fines(
        &[
            auto("A1", "FRET-ART19-VI", d(2025, 2, 3)),
            auto("A2", "FRET-ART19-VI", d(2025, 11, 20)),
        ],
        &basis(),
    );
    assert!(!f[0].clone().unwrap().cassacao_ground);
    let second = f[1].clone().unwrap();
    assert!(second.cassacao_ground);
    assert_eq!(second.upf, 1000);
    // Repeating another inciso is not a ground.
    let g = assess_fines(
        &[
            auto("A1", "FRET-ART19-IV", d(2025, 2, 3)),
            auto("A2", "FRET-ART19-IV", d(2025, 11, 20)),
        ],
        &basis(),
    );
    assert!(!g[1].clone().unwrap().cassacao_ground);
}

fn cal() -> Calendar {
    Calendar::new(CalendarSettings::default(), [])
}

#[test]
fn fret_art22_s09_defence_due_monday_after_finados_and_art23_payment() {
    let acts = [ProcedureAct::Notificacao {
        method: NoticeMethod::Contrafe,
        notified_on: d(2025, 10, 17),
    }];
    let s = procedure_state(
        &acts,
        d(2025, 10, 20),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert_eq!(s.defence_due.as_ref().unwrap().due, d(2025, 11, 3));
    // AMB-32: 30 days from the effective end (03/11 → 03/12/2025, a Wednesday).
    assert_eq!(s.payment_due.as_ref().unwrap().due, d(2025, 12, 3));
    assert!(!s.final_);
    let later = procedure_state(
        &acts,
        d(2025, 11, 4),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert!(later.final_, "art. 23: no defence → facts admitted");
}

#[test]
#[expect(
    clippy::many_single_char_names,
    reason = "one letter per act of the procedure, in order"
)]
fn fret_art22_p3_s10_reconsideration_goes_to_the_mayor() {
    let acts = vec![
        ProcedureAct::Notificacao {
            method: NoticeMethod::CertidaoFiscal,
            notified_on: d(2025, 8, 1),
        },
        ProcedureAct::Defesa {
            protocol: "P-1".into(),
            filed_on: d(2025, 8, 10),
        },
        ProcedureAct::Decisao {
            outcome: Outcome::Mantido,
            decided_on: d(2025, 9, 1),
            notified_on: d(2025, 9, 4),
        },
    ];
    let s = procedure_state(
        &acts,
        d(2025, 9, 5),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert_eq!(s.defence_timely, Some(true));
    // Day 10 is Sunday 14/09; 15/09 is a business day under the default calendar…
    assert_eq!(s.reconsideration_due.as_ref().unwrap().due, d(2025, 9, 15));
    // …and with the municipal anniversary switched on, the due day is Tuesday 16/09.
    let anniversary = Calendar::new(
        CalendarSettings {
            municipal_holidays: vec![crate::domain::calendar::MunicipalHoliday {
                day: "09-15".into(),
                description: "Aniversário de Barra do Garças".into(),
                act: None,
            }],
            ..CalendarSettings::default()
        },
        [],
    );
    let t = procedure_state(
        &acts,
        d(2025, 9, 5),
        &anniversary,
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert_eq!(t.reconsideration_due.as_ref().unwrap().due, d(2025, 9, 16));
    assert!(!s.final_);
    let mut with_recon = acts.clone();
    with_recon.push(ProcedureAct::Reconsideracao {
        protocol: "P-2".into(),
        filed_on: d(2025, 9, 12),
    });
    let r = procedure_state(
        &with_recon,
        d(2025, 10, 1),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert_eq!(r.routed_to, Some("GABINETE_DO_PREFEITO"));
    assert_eq!(r.reconsideration_timely, Some(true));
    assert!(!r.final_);
    with_recon.push(ProcedureAct::DecisaoPrefeito {
        outcome: Outcome::Anulado,
        decided_on: d(2025, 10, 2),
    });
    let a = procedure_state(
        &with_recon,
        d(2025, 10, 3),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert!(a.annulled);
    assert!(!a.final_);
    assert_eq!(a.stage, "anulado");
    // Without reconsideration, the decision becomes final after the 10 days.
    let f = procedure_state(
        &acts,
        d(2025, 9, 17),
        &cal(),
        &DeadlineRules::default(),
        (&basis()).into(),
    );
    assert!(f.final_);
}
