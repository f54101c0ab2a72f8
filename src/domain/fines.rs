//! The fine of an auto once imposed, for both laws: payments by guia (DAM),
//! the payment deadline, `vencida`, and the inscription of the balance in dívida ativa.
//!
//! - Lei 4.937/2025, art. 23 (FRET-ART23): with no defence the fine is paid within 30 days of
//!   the defence period's effective end (AMB-32); "after that, send to dívida ativa".
//! - Ride-hailing law, art. 13, XXII (APP-ART13-XXII): the driver pays municipal fines within
//!   the set deadline; art. 22, §1º names the dívida ativa (AMB-33, AMB-34: the charter periods
//!   by analogy until the decree).
//! - AMB-03: the fine in reais uses the UPF value of the year the auto was drawn up; paid
//!   late, it is updated monetarily. Reading taken (AMB-61): the update is the
//!   unit's own — a payment made after the deadline is converted at the UPF value of the year
//!   it was made in (no interest or surcharge: the tax code's, outside these laws). Partial
//!   payments are accepted and credited in units; the balance stays owed, becomes `vencida`
//!   after the deadline and is what is inscribed.
//!
//! Pure: the UPF values, the acts and the day come in as arguments.

use std::collections::BTreeMap;

use chrono::{Datelike as _, NaiveDate};
use serde::Serialize;

use crate::domain::charter::sanctions::{ProcedureAct, ProcedureState};

/// Where the fine stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FineStatus {
    /// The auto has not been notified: no deadline runs yet.
    #[default]
    AguardandoNotificacao,
    /// A defence or reconsideration awaits decision: the payment deadline is not set.
    AguardandoDecisao,
    /// Due, within its deadline.
    APagar,
    /// The deadline passed with a balance owed.
    Vencida,
    /// The balance was inscribed in dívida ativa (Lei 6.830/1980; Lei 4.320/1964, art. 39).
    InscritaEmDividaAtiva,
    /// Paid in full.
    Paga,
    /// The penalty was annulled: nothing is owed.
    Anulada,
}

impl FineStatus {
    /// Owed past its deadline: `vencida` or inscribed in dívida ativa.
    pub fn is_debt(self) -> bool {
        matches!(self, Self::Vencida | Self::InscritaEmDividaAtiva)
    }
}

/// One payment as recorded, with what it was credited as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PaymentView {
    pub guia: String,
    pub paid_on: NaiveDate,
    pub amount_centavos: i64,
    /// Paid after the deadline: converted at the UPF value of its year (AMB-03).
    pub late: bool,
    /// The UPF year whose value converted it.
    pub upf_year: i32,
}

/// The inscription in dívida ativa.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct DividaAtivaView {
    pub number: String,
    pub inscribed_on: NaiveDate,
    /// The balance owed on the day it was inscribed.
    pub balance_centavos: Option<i64>,
}

/// The fine's account on a day.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, utoipa::ToSchema)]
pub struct FineStanding {
    pub status: FineStatus,
    pub fine_upf: i64,
    /// The fine at the UPF value of the year it was drawn up (AMB-03).
    pub amount_centavos: Option<i64>,
    /// The last day to pay, when set.
    pub due: Option<NaiveDate>,
    pub paid_centavos: i64,
    /// What is owed on the day, updated by the UPF of the year when late; `None` while a UPF
    /// value it needs is unknown.
    pub balance_centavos: Option<i64>,
    pub payments: Vec<PaymentView>,
    pub divida_ativa: Option<DividaAtivaView>,
}

/// The UPF value (centavos) of each year the account needs.
pub type UpfValues = BTreeMap<i32, i64>;

/// The years whose UPF values [`fine_standing`] may read.
pub fn years_needed(drawn_up_on: NaiveDate, acts: &[ProcedureAct], today: NaiveDate) -> Vec<i32> {
    let mut years = vec![drawn_up_on.year(), today.year()];
    for act in acts {
        match act {
            ProcedureAct::Pagamento { paid_on, .. } => years.push(paid_on.year()),
            ProcedureAct::InscricaoDividaAtiva { inscribed_on, .. } => {
                years.push(inscribed_on.year());
            }
            _ => {}
        }
    }
    years.sort_unstable();
    years.dedup();
    years
}

/// The account of a fine of `fine_upf` units drawn up on `drawn_up_on`, on `today`, from the
/// procedure's acts (payments and inscription among them) and its state on `today`.
pub fn fine_standing(
    fine_upf: i64,
    drawn_up_on: NaiveDate,
    acts: &[ProcedureAct],
    procedure: &ProcedureState,
    values: &UpfValues,
    today: NaiveDate,
) -> FineStanding {
    let base_year = drawn_up_on.year();
    let due = procedure.payment_due.as_ref().map(|d| d.due);
    let mut payments = Vec::new();
    let mut divida_ativa = None;
    for act in acts {
        match act {
            ProcedureAct::Pagamento {
                guia,
                paid_on,
                amount_centavos,
            } => {
                let late = due.is_some_and(|d| *paid_on > d);
                payments.push(PaymentView {
                    guia: guia.clone(),
                    paid_on: *paid_on,
                    amount_centavos: *amount_centavos,
                    late,
                    upf_year: if late { paid_on.year() } else { base_year },
                });
            }
            ProcedureAct::InscricaoDividaAtiva {
                number,
                inscribed_on,
            } => {
                divida_ativa = Some(DividaAtivaView {
                    number: number.clone(),
                    inscribed_on: *inscribed_on,
                    balance_centavos: balance_on(
                        fine_upf,
                        &payments,
                        values,
                        base_year,
                        due,
                        *inscribed_on,
                    ),
                });
            }
            _ => {}
        }
    }
    let paid_centavos = payments.iter().map(|p| p.amount_centavos).sum();
    let balance = if procedure.annulled {
        Some(0)
    } else {
        balance_on(fine_upf, &payments, values, base_year, due, today)
    };
    let status = if procedure.annulled {
        FineStatus::Anulada
    } else if balance == Some(0) {
        FineStatus::Paga
    } else if divida_ativa.is_some() {
        FineStatus::InscritaEmDividaAtiva
    } else if let Some(d) = due {
        if today > d {
            FineStatus::Vencida
        } else {
            FineStatus::APagar
        }
    } else if procedure.notified_on.is_none() {
        FineStatus::AguardandoNotificacao
    } else {
        FineStatus::AguardandoDecisao
    };
    FineStanding {
        status,
        fine_upf,
        amount_centavos: values.get(&base_year).map(|v| fine_upf * v),
        due,
        paid_centavos,
        balance_centavos: balance,
        payments,
        divida_ativa,
    }
}

/// The balance owed on `on`: the fine in units less what each payment was worth in units,
/// valued at the UPF of the drawing-up year until the deadline and of `on`'s year after it
/// (AMB-03). Never negative.
pub fn balance_on(
    fine_upf: i64,
    payments: &[PaymentView],
    values: &UpfValues,
    base_year: i32,
    due: Option<NaiveDate>,
    on: NaiveDate,
) -> Option<i64> {
    let year = if due.is_some_and(|d| on > d) {
        on.year()
    } else {
        base_year
    };
    let value = i128::from(
        *values
            .get(&year)
            .or_else(|| values.get(&base_year))
            .unwrap_or(&0),
    );
    if value == 0 {
        return None;
    }
    let mut owed = i128::from(fine_upf) * value;
    for p in payments.iter().filter(|p| p.paid_on <= on) {
        let credited_at = i128::from(
            *values
                .get(&p.upf_year)
                .or_else(|| values.get(&base_year))
                .unwrap_or(&0),
        );
        if credited_at == 0 {
            return None;
        }
        // What the payment is worth at `value`, rounded half up to the centavo.
        let worth = (i128::from(p.amount_centavos) * value * 2 + credited_at) / (credited_at * 2);
        owed -= worth;
    }
    i64::try_from(owed.max(0)).ok()
}

/// Whether a payment or an inscription may be recorded, the account standing as `s` on the
/// act's own date (the order of the procedure is `check_act`'s); the pt-BR reason when not.
pub fn check_account_act(s: &FineStanding, act: &ProcedureAct) -> Result<(), String> {
    match act {
        ProcedureAct::Pagamento {
            amount_centavos, ..
        } => match (s.status, s.balance_centavos) {
            (FineStatus::Paga, _) => Err("A multa já está quitada.".to_owned()),
            (_, Some(balance)) if *amount_centavos > balance => Err(format!(
                "O valor pago excede o saldo devedor nessa data, {}.",
                crate::domain::money::money(balance)
            )),
            // The balance cannot be known without the UPF value of the year that prices the
            // fine on the payment's day (AMB-03): no payment until it is recorded.
            (_, None) => Err(
                "O valor da multa nessa data ainda não é conhecido: registre primeiro o valor da UPF do ano."
                    .to_owned(),
            ),
            _ => Ok(()),
        },
        ProcedureAct::InscricaoDividaAtiva { .. } if s.status == FineStatus::Paga => {
            Err("A multa está quitada: não há saldo a inscrever em dívida ativa.".to_owned())
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::calendar::{CalendarSettings, DeadlineRules};
    use crate::domain::charter::sanctions::{NoticeMethod, ProcedureDays, procedure_state};

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    const DAYS: ProcedureDays = ProcedureDays {
        defence: 15,
        reconsideration: 10,
        payment: 30,
    };

    fn standing(acts: &[ProcedureAct], today: NaiveDate, values: &UpfValues) -> FineStanding {
        let cal = crate::domain::calendar::Calendar::new(CalendarSettings::default(), []);
        let p = procedure_state(acts, today, &cal, &DeadlineRules::default(), DAYS);
        fine_standing(500, d(2026, 3, 2), acts, &p, values, today)
    }

    fn notified() -> ProcedureAct {
        ProcedureAct::Notificacao {
            method: NoticeMethod::Contrafe,
            notified_on: d(2026, 3, 2),
        }
    }

    fn paid(on: NaiveDate, centavos: i64) -> ProcedureAct {
        ProcedureAct::Pagamento {
            guia: "DAM-1".into(),
            paid_on: on,
            amount_centavos: centavos,
        }
    }

    fn values() -> UpfValues {
        UpfValues::from([(2026, 11_972), (2027, 12_500)])
    }

    #[test]
    fn fret_art23_a_fine_paid_in_time_is_paid_and_an_unpaid_one_falls_due() {
        let v = values();
        // Notified 02/03/2026: defence due 17/03, payment due 16/04 (30 days).
        let s = standing(&[notified()], d(2026, 4, 16), &v);
        assert_eq!(s.status, FineStatus::APagar);
        assert_eq!(s.due, Some(d(2026, 4, 16)));
        assert_eq!(s.balance_centavos, Some(500 * 11_972));
        let s = standing(&[notified()], d(2026, 4, 17), &v);
        assert_eq!(s.status, FineStatus::Vencida);
        let s = standing(
            &[notified(), paid(d(2026, 4, 10), 500 * 11_972)],
            d(2027, 1, 5),
            &v,
        );
        assert_eq!(s.status, FineStatus::Paga);
        assert_eq!(s.balance_centavos, Some(0));
    }

    #[test]
    fn amb03_partial_and_late_payments_are_credited_in_units() {
        let v = values();
        // Half paid in time: 250 UPF remain, at the 2026 value while the deadline runs.
        let half = 250 * 11_972;
        let s = standing(&[notified(), paid(d(2026, 4, 1), half)], d(2026, 4, 2), &v);
        assert_eq!(s.status, FineStatus::APagar);
        assert_eq!(s.balance_centavos, Some(half));
        // After the deadline, the same 250 UPF are owed at the value of the current year.
        let s = standing(&[notified(), paid(d(2026, 4, 1), half)], d(2027, 2, 1), &v);
        assert_eq!(s.status, FineStatus::Vencida);
        assert_eq!(s.balance_centavos, Some(250 * 12_500));
        // Paying the updated balance late settles it.
        let acts = [
            notified(),
            paid(d(2026, 4, 1), half),
            paid(d(2027, 2, 1), 250 * 12_500),
        ];
        let s = standing(&acts, d(2027, 2, 2), &v);
        assert_eq!(s.status, FineStatus::Paga, "{s:?}");
        assert!(s.payments[1].late);
        assert_eq!(s.payments[1].upf_year, 2027);
        // Paying the old value late leaves the update owed.
        let acts = [notified(), paid(d(2027, 2, 1), 500 * 11_972)];
        let s = standing(&acts, d(2027, 2, 2), &v);
        assert_eq!(s.status, FineStatus::Vencida);
        assert_eq!(s.balance_centavos, Some(500 * 12_500 - 500 * 11_972));
    }

    #[test]
    fn an_inscribed_balance_is_dated_and_a_defence_suspends_the_deadline() {
        let v = values();
        let acts = [
            notified(),
            ProcedureAct::InscricaoDividaAtiva {
                number: "CDA 2026/0001".into(),
                inscribed_on: d(2026, 5, 4),
            },
        ];
        let s = standing(&acts, d(2026, 6, 1), &v);
        assert_eq!(s.status, FineStatus::InscritaEmDividaAtiva);
        assert_eq!(s.divida_ativa.unwrap().balance_centavos, Some(500 * 11_972));
        let acts = [
            notified(),
            ProcedureAct::Defesa {
                protocol: "PG-1".into(),
                filed_on: d(2026, 3, 10),
            },
        ];
        assert_eq!(
            standing(&acts, d(2026, 6, 1), &v).status,
            FineStatus::AguardandoDecisao
        );
        assert_eq!(
            standing(&[], d(2026, 6, 1), &v).status,
            FineStatus::AguardandoNotificacao
        );
    }
}
