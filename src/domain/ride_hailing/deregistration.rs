//! Descadastramento of a ride-hailing driver or car (draft consolidated law, art. 24, I, d and
//! f). The law lists it among the penalties but gives it no trigger (AMB-36); the reading we
//! take is a **non-punitive** act: the register removes a driver or car that lost a legal
//! requirement (car over age, CNH suspended or cassada, failed vistoria not fixed, criminal
//! record), **after notice** to the person. It is lifted when the requirement is met again
//! (recadastramento), both by act of the SMF, and both stay in the entity's history.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::domain::rule::{RuleFailure, fail};

/// Why a driver or car is removed from the register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeregistrationGround {
    /// The car passed the age limit of art. 2º, §§1º–2º.
    IdadeVeiculo,
    /// A failed vistoria was not fixed (art. 16, §2º).
    VistoriaNaoCorrigida,
    /// The driver's CNH was suspended, cassada or downgraded (art. 12, I).
    Cnh,
    /// A criminal-record certificate is no longer clear (art. 12, III).
    AntecedentesCriminais,
    /// Another requirement of the law was lost; the act says which.
    OutroRequisito,
}

impl DeregistrationGround {
    pub const ALL: [Self; 5] = [
        Self::IdadeVeiculo,
        Self::VistoriaNaoCorrigida,
        Self::Cnh,
        Self::AntecedentesCriminais,
        Self::OutroRequisito,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::IdadeVeiculo => "idade_veiculo",
            Self::VistoriaNaoCorrigida => "vistoria_nao_corrigida",
            Self::Cnh => "cnh",
            Self::AntecedentesCriminais => "antecedentes_criminais",
            Self::OutroRequisito => "outro_requisito",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == s)
    }

    /// Whether the ground can concern a driver (else a car) or both.
    pub fn applies_to(self, subject: Subject) -> bool {
        match self {
            Self::IdadeVeiculo | Self::VistoriaNaoCorrigida => subject == Subject::Vehicle,
            Self::Cnh | Self::AntecedentesCriminais => subject == Subject::Driver,
            Self::OutroRequisito => true,
        }
    }
}

/// Who is removed: art. 24, I, d (driver) or f (car).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Driver,
    Vehicle,
}

/// One act on the register entry of a driver or car, as recorded in its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum RegisterAct {
    Descadastramento {
        ground: DeregistrationGround,
        /// When the person was notified that the requirement was lost.
        notified_on: NaiveDate,
        /// From when the entry is removed.
        effective_on: NaiveDate,
        /// The SMF act (portaria, despacho…).
        reference: String,
    },
    Recadastramento {
        /// From when the entry is restored (the requirement met again).
        effective_on: NaiveDate,
        reference: String,
    },
}

impl RegisterAct {
    fn effective_on(&self) -> NaiveDate {
        match self {
            Self::Descadastramento { effective_on, .. }
            | Self::Recadastramento { effective_on, .. } => *effective_on,
        }
    }
}

/// APP-ART24-I (d, f; AMB-36): the day from which the entry is removed, if it is removed on
/// `today`. Acts apply in the order recorded, each from its own effective day.
pub fn deregistered_since(acts: &[RegisterAct], today: NaiveDate) -> Option<NaiveDate> {
    let mut since = None;
    for a in acts.iter().filter(|a| a.effective_on() <= today) {
        since = match a {
            RegisterAct::Descadastramento { effective_on, .. } => Some(*effective_on),
            RegisterAct::Recadastramento { .. } => None,
        };
    }
    since
}

/// APP-ART24-I (AMB-36): a descadastramento comes after notice, concerns a ground of its
/// subject, and is not recorded twice; a recadastramento only lifts one in force.
pub fn check_act(
    act: &RegisterAct,
    subject: Subject,
    earlier: &[RegisterAct],
    today: NaiveDate,
) -> Vec<RuleFailure> {
    let mut out = Vec::new();
    let current = deregistered_since(earlier, NaiveDate::MAX);
    match act {
        RegisterAct::Descadastramento {
            ground,
            notified_on,
            effective_on,
            ..
        } => {
            if !ground.applies_to(subject) {
                let msg = format!(
                    "O motivo {} não se aplica a {}.",
                    ground.as_str(),
                    match subject {
                        Subject::Driver => "condutor",
                        Subject::Vehicle => "veículo",
                    }
                );
                fail(&mut out, "APP-ART24-I", "art. 24, I", "ground", msg);
            }
            if *notified_on > today {
                let msg = "A notificação não pode ter data futura.".to_owned();
                fail(&mut out, "APP-ART24-I", "art. 24, I", "notified_on", msg);
            }
            if effective_on < notified_on {
                let msg = format!(
                    "O descadastramento só produz efeito depois da notificação ({}).",
                    notified_on.format("%d/%m/%Y")
                );
                fail(&mut out, "APP-ART24-I", "art. 24, I", "effective_on", msg);
            }
            if current.is_some() {
                let msg = "O cadastro já está descadastrado.".to_owned();
                fail(&mut out, "APP-ART24-I", "art. 24, I", "act", msg);
            }
        }
        RegisterAct::Recadastramento { effective_on, .. } => match current {
            None => {
                let msg = "Não há descadastramento a desfazer.".to_owned();
                fail(&mut out, "APP-ART24-I", "art. 24, I", "act", msg);
            }
            Some(since) if *effective_on < since => {
                let msg = format!(
                    "O recadastramento não pode valer antes do descadastramento ({}).",
                    since.format("%d/%m/%Y")
                );
                fail(&mut out, "APP-ART24-I", "art. 24, I", "effective_on", msg);
            }
            Some(_) => {}
        },
    }
    out
}

/// APP-ART24-I: a removed driver or car cannot be authorized.
pub fn app_art24_i_not_deregistered(
    field: &'static str,
    since: Option<NaiveDate>,
    out: &mut Vec<RuleFailure>,
) {
    if let Some(since) = since {
        let who = if field == "driver_id" {
            "O condutor"
        } else {
            "O veículo"
        };
        let msg = format!(
            "{who} está descadastrado desde {} (art. 24, I); é preciso o recadastramento antes.",
            since.format("%d/%m/%Y")
        );
        fail(out, "APP-ART24-I", "art. 24, I", field, msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn out(ground: DeregistrationGround, notified: NaiveDate, effective: NaiveDate) -> RegisterAct {
        RegisterAct::Descadastramento {
            ground,
            notified_on: notified,
            effective_on: effective,
            reference: "Portaria SMF nº 1/2026".into(),
        }
    }

    fn back(effective: NaiveDate) -> RegisterAct {
        RegisterAct::Recadastramento {
            effective_on: effective,
            reference: "Despacho SMF".into(),
        }
    }

    #[test]
    fn app_art24_i_deregistration_in_force_on_a_date() {
        let acts = [
            out(DeregistrationGround::Cnh, d(2026, 11, 2), d(2026, 11, 20)),
            back(d(2027, 1, 10)),
        ];
        let cases = [
            (d(2026, 11, 19), None),
            (d(2026, 11, 20), Some(d(2026, 11, 20))),
            (d(2027, 1, 9), Some(d(2026, 11, 20))),
            (d(2027, 1, 10), None),
        ];
        for (today, want) in cases {
            assert_eq!(deregistered_since(&acts, today), want, "{today}");
        }
    }

    #[test]
    fn app_art24_i_acts_are_checked() {
        let today = d(2026, 11, 30);
        let fields = |a: &RegisterAct, s, earlier: &[RegisterAct]| -> Vec<&'static str> {
            check_act(a, s, earlier, today)
                .iter()
                .map(|f| f.field)
                .collect()
        };
        let ok = out(
            DeregistrationGround::IdadeVeiculo,
            d(2026, 11, 2),
            d(2026, 11, 20),
        );
        assert!(fields(&ok, Subject::Vehicle, &[]).is_empty());
        // A car's ground does not fit a driver.
        assert_eq!(fields(&ok, Subject::Driver, &[]), ["ground"]);
        // Effect before the notice; notice in the future.
        let early = out(
            DeregistrationGround::OutroRequisito,
            d(2026, 11, 25),
            d(2026, 11, 20),
        );
        assert_eq!(fields(&early, Subject::Driver, &[]), ["effective_on"]);
        let future = out(
            DeregistrationGround::OutroRequisito,
            d(2026, 12, 1),
            d(2026, 12, 5),
        );
        assert_eq!(fields(&future, Subject::Driver, &[]), ["notified_on"]);
        // Not twice; a recadastramento needs one in force and cannot precede it.
        assert_eq!(
            fields(&ok, Subject::Vehicle, std::slice::from_ref(&ok)),
            ["act"]
        );
        assert_eq!(fields(&back(today), Subject::Vehicle, &[]), ["act"]);
        assert_eq!(
            fields(
                &back(d(2026, 11, 1)),
                Subject::Vehicle,
                std::slice::from_ref(&ok)
            ),
            ["effective_on"]
        );
        assert!(fields(&back(today), Subject::Vehicle, &[ok]).is_empty());
    }
}
