//! One test per rule id of art. 19–23 (each also covered by the tables above).
use super::*;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn fine(inciso: &'static str) -> (u32, u32) {
    let b = CharterLegalBasis::lei_4937_2025();
    let mk = |n: &str, on| AutoFacts {
        number: n.into(),
        infraction: inciso.into(),
        committed_on: on,
        annulled: false,
        final_: true,
    };
    let f = assess_fines(&[mk("A1", d(2025, 1, 10)), mk("A2", d(2025, 6, 10))], &b);
    (f[0].clone().unwrap().upf, f[1].clone().unwrap().upf)
}

macro_rules! inciso_tests {
    ($($name:ident => $id:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            assert!(CharterLegalBasis::lei_4937_2025().infraction($id).is_some());
            assert_eq!(fine($id), (500, 1000), "500 UPFBG, doubled on repeat");
        }
    )*};
}

inciso_tests! {
    fret_art19_i_500_upfbg_doubled_on_repeat => "FRET-ART19-I",
    fret_art19_ii_500_upfbg_doubled_on_repeat => "FRET-ART19-II",
    fret_art19_iii_500_upfbg_doubled_on_repeat => "FRET-ART19-III",
    fret_art19_iv_500_upfbg_doubled_on_repeat => "FRET-ART19-IV",
    fret_art19_v_500_upfbg_doubled_on_repeat => "FRET-ART19-V",
    fret_art19_vi_500_upfbg_doubled_on_repeat => "FRET-ART19-VI",
}

#[test]
fn fret_art23_no_defence_payment_thirty_days_after_the_defence_period() {
    let cal = Calendar::new(crate::domain::calendar::CalendarSettings::default(), []);
    let b = CharterLegalBasis::lei_4937_2025();
    let acts = [ProcedureAct::Notificacao {
        method: NoticeMethod::Contrafe,
        notified_on: d(2025, 12, 5),
    }];
    let s = procedure_state(
        &acts,
        d(2026, 1, 6),
        &cal,
        &DeadlineRules::default(),
        (&b).into(),
    );
    // S11 with the default calendar (no recess decreed here): 20/12 is a Saturday → 22/12.
    assert_eq!(s.defence_due.as_ref().unwrap().due, d(2025, 12, 22));
    assert_eq!(s.payment_due.as_ref().unwrap().due, d(2026, 1, 21));
    assert!(s.final_, "facts deemed admitted");
}
