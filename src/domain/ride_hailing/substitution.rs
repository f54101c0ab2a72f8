//! Replacing the authorized car (draft consolidated law, art. 8º, §2º): after a casualty,
//! a sale or the end of a rental, the driver may bring another car that meets art. 2º,
//! §§1º–2º and passes a new SMF vistoria. The authorization keeps its number and its
//! validity (a reading, APP-ART8-P2); the old car leaves it and a new sticker is
//! issued for the new one.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{
    AuthorizationStatus, RuleFailure, VehicleFacts, app_art15_owner, fail, vehicle_requirements,
};
use crate::domain::legal_basis::RideHailingLegalBasis;

/// Why the car is replaced (art. 8º, §2º: "sinistro, venda ou locação").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubstitutionCause {
    Sinistro,
    Venda,
    Locacao,
}

impl SubstitutionCause {
    pub const ALL: [Self; 3] = [Self::Sinistro, Self::Venda, Self::Locacao];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sinistro => "sinistro",
            Self::Venda => "venda",
            Self::Locacao => "locacao",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Sinistro => "sinistro",
            Self::Venda => "venda",
            Self::Locacao => "locação",
        }
    }
}

/// Everything the replacement decision depends on.
#[derive(Debug, Clone)]
pub struct SubstitutionFacts<'a> {
    /// The authorization's status now (sanctions and vistorias included).
    pub status: AuthorizationStatus,
    /// First day of the authorization (the fee payment, art. 3º, parágrafo único).
    pub valid_from: NaiveDate,
    /// The new car is the one already authorized.
    pub same_vehicle: bool,
    pub new_vehicle: &'a VehicleFacts,
    /// The authorized driver's CPF, canonical (art. 15).
    pub driver_cpf: &'a str,
    /// The new car is bound to another authorization in force (art. 8º, caput).
    pub new_vehicle_bound: bool,
    /// The new car was removed from the register since (art. 24, I, f).
    pub new_vehicle_deregistered_since: Option<NaiveDate>,
    /// The latest vistoria on record for the authorization (of the car it binds now).
    pub last_vistoria_on: Option<NaiveDate>,
    /// The SMF vistoria of the new car.
    pub vistoria_on: NaiveDate,
    pub vistoria_approved: bool,
    /// In America/Cuiaba (DL-11).
    pub today: NaiveDate,
}

/// APP-ART8 (art. 8º, caput): the new car is already bound to another authorization in force.
pub fn app_art8_new_vehicle_bound() -> RuleFailure {
    RuleFailure {
        rule: "APP-ART8".into(),
        article: "art. 8º, caput".into(),
        field: "new_vehicle_id",
        message:
            "O veículo novo já está vinculado a outra autorização ativa (um veículo por condutor)."
                .to_owned(),
    }
}

/// APP-ART8-P2: whether the car may be replaced. Every failed requirement is reported.
pub fn decide_substitution(
    f: &SubstitutionFacts<'_>,
    basis: &RideHailingLegalBasis,
) -> Result<(), Vec<RuleFailure>> {
    let mut out = Vec::new();
    // Only an authorization in force has a car to replace; a suspended, barred or
    // vistoria-lapsed one still does (the new car's vistoria is what §2º asks), and so does
    // one whose car was removed from the register (replacing it is the cure).
    if matches!(
        f.status,
        AuthorizationStatus::Vencida
            | AuthorizationStatus::Revogada
            | AuthorizationStatus::Cassada
            | AuthorizationStatus::Caducada
            | AuthorizationStatus::Descadastrada
    ) {
        let msg = format!(
            "A autorização não está em vigor (situação: {}); só o veículo de autorização vigente pode ser substituído.",
            f.status.label_pt()
        );
        fail(
            &mut out,
            "APP-ART8-P2",
            "art. 8º, §2º",
            "authorization",
            msg,
        );
    }
    if f.same_vehicle {
        let msg = "O veículo novo é o mesmo que a autorização já vincula.".to_owned();
        fail(
            &mut out,
            "APP-ART8-P2",
            "art. 8º, §2º",
            "new_vehicle_id",
            msg,
        );
    }
    // Art. 8º, §2º names art. 2º, §§1º–2º; the car must also meet art. 2º, caput, and be
    // plated here (art. 8º, §1º, I; art. 15, §1º, VIII) and held as art. 15 allows.
    vehicle_requirements(f.new_vehicle, f.today, basis, &mut out);
    app_art15_owner(f.new_vehicle.owner.as_ref(), f.driver_cpf, &mut out);
    if f.new_vehicle_bound {
        out.push(app_art8_new_vehicle_bound());
    }
    super::deregistration::app_art24_i_not_deregistered(
        "new_vehicle_id",
        f.new_vehicle_deregistered_since,
        &mut out,
    );
    if !f.vistoria_approved {
        let msg = "O veículo novo precisa ser aprovado em nova vistoria da SMF.".to_owned();
        fail(
            &mut out,
            "APP-ART8-P2",
            "art. 8º, §2º",
            "vistoria.approved",
            msg,
        );
    }
    // A new vistoria: not before the authorization began, nor before the last vistoria on
    // record (else the old car's later result would still be the one in force).
    let floor = f
        .last_vistoria_on
        .map_or(f.valid_from, |l| l.max(f.valid_from));
    if f.vistoria_on < floor {
        let msg = format!(
            "A vistoria do veículo novo ({}) é anterior a {} ({}); é preciso uma nova vistoria.",
            f.vistoria_on.format("%d/%m/%Y"),
            if floor == f.valid_from {
                "o início da autorização"
            } else {
                "a última vistoria registrada"
            },
            floor.format("%d/%m/%Y")
        );
        fail(
            &mut out,
            "APP-ART8-P2",
            "art. 8º, §2º",
            "vistoria.performed_on",
            msg,
        );
    }
    if out.is_empty() { Ok(()) } else { Err(out) }
}

/// APP-ART8-P2 (art. 8º, §2º): a document issued for car replacement `issued_for` (`None`:
/// with the grant) is superseded once the authorization's latest replacement is another one:
/// the car it names no longer holds the authorization.
pub fn superseded(issued_for: Option<i32>, latest: Option<i32>) -> bool {
    issued_for.unwrap_or(0) != latest.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_art8_p2_only_the_documents_of_the_latest_car_are_in_force() {
        assert!(!superseded(None, None), "grant documents, never replaced");
        assert!(
            superseded(None, Some(1)),
            "grant documents after one replacement"
        );
        assert!(
            !superseded(Some(1), Some(1)),
            "documents of the replacement car"
        );
        assert!(
            superseded(Some(1), Some(2)),
            "documents of a car replaced again"
        );
    }
    use crate::domain::ids::IbgeCode;
    use crate::domain::ride_hailing::{OwnerType, VehicleOwner};

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    const CPF: &str = "52998224725";

    fn car() -> VehicleFacts {
        VehicleFacts {
            model_year: 2021,
            manufacture_year: Some(2020),
            doors: 4,
            air_conditioning: true,
            capacity_including_driver: 5,
            registration_municipality: IbgeCode::from_const(5_201_702),
            in_service_since: None,
            owner: Some(VehicleOwner {
                kind: OwnerType::Proprietario,
                document: CPF.to_owned(),
            }),
        }
    }

    fn failed(change: impl Fn(&mut SubstitutionFacts<'_>), v: &VehicleFacts) -> Vec<&'static str> {
        let mut f = SubstitutionFacts {
            status: AuthorizationStatus::Ativa,
            valid_from: d(2026, 3, 2),
            same_vehicle: false,
            new_vehicle: v,
            driver_cpf: CPF,
            new_vehicle_bound: false,
            new_vehicle_deregistered_since: None,
            last_vistoria_on: Some(d(2026, 11, 20)),
            vistoria_on: d(2026, 11, 27),
            vistoria_approved: true,
            today: d(2026, 11, 30),
        };
        change(&mut f);
        match decide_substitution(&f, &RideHailingLegalBasis::draft_2023()) {
            Ok(()) => vec![],
            Err(v) => v.iter().map(|x| x.field).collect(),
        }
    }

    type Case<'a> = (
        &'a str,
        &'a VehicleFacts,
        Box<dyn Fn(&mut SubstitutionFacts<'_>)>,
        Vec<&'static str>,
    );

    #[test]
    #[expect(clippy::too_many_lines, reason = "the table reads best as one list")]
    fn app_art8_p2_replacement_table() {
        let ok = car();
        let old = VehicleFacts {
            model_year: 2013,
            ..car()
        };
        let two_doors = VehicleFacts { doors: 2, ..car() };
        let elsewhere = VehicleFacts {
            registration_municipality: IbgeCode::from_const(5_103_403),
            ..car()
        };
        let not_drivers = VehicleFacts {
            owner: Some(VehicleOwner {
                kind: OwnerType::Proprietario,
                document: "11144477735".to_owned(),
            }),
            ..car()
        };
        let cases: Vec<Case<'_>> = vec![
            ("eligible", &ok, Box::new(|_| {}), vec![]),
            // A suspended or barred authorization keeps its car and may replace it.
            (
                "suspended",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::Suspensa),
                vec![],
            ),
            (
                "impedida",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::Impedida),
                vec![],
            ),
            (
                "expired",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::Vencida),
                vec!["authorization"],
            ),
            (
                "cassada",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::Cassada),
                vec!["authorization"],
            ),
            (
                "same car",
                &ok,
                Box::new(|f| f.same_vehicle = true),
                vec!["new_vehicle_id"],
            ),
            // Art. 2º, §2º: model year 2013 is 13 years old in 2026.
            (
                "too old",
                &old,
                Box::new(|_| {}),
                vec!["vehicle.model_year"],
            ),
            (
                "two doors",
                &two_doors,
                Box::new(|_| {}),
                vec!["vehicle.doors"],
            ),
            (
                "plated elsewhere",
                &elsewhere,
                Box::new(|_| {}),
                vec!["vehicle.registration_municipality_ibge"],
            ),
            (
                "someone else's car",
                &not_drivers,
                Box::new(|_| {}),
                vec!["vehicle.owner_document"],
            ),
            (
                "bound elsewhere",
                &ok,
                Box::new(|f| f.new_vehicle_bound = true),
                vec!["new_vehicle_id"],
            ),
            (
                "car deregistered",
                &ok,
                Box::new(|f| f.new_vehicle_deregistered_since = Some(d(2026, 11, 1))),
                vec!["new_vehicle_id"],
            ),
            (
                "authorization of a car removed from the register",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::VeiculoDescadastrado),
                vec![],
            ),
            (
                "driver removed from the register",
                &ok,
                Box::new(|f| f.status = AuthorizationStatus::Descadastrada),
                vec!["authorization"],
            ),
            (
                "failed vistoria",
                &ok,
                Box::new(|f| f.vistoria_approved = false),
                vec!["vistoria.approved"],
            ),
            (
                "old vistoria",
                &ok,
                Box::new(|f| f.vistoria_on = d(2026, 3, 1)),
                vec!["vistoria.performed_on"],
            ),
            (
                "vistoria before the last one on record",
                &ok,
                Box::new(|f| f.vistoria_on = d(2026, 11, 19)),
                vec!["vistoria.performed_on"],
            ),
            (
                "no vistoria yet, new one on the first day",
                &ok,
                Box::new(|f| {
                    f.last_vistoria_on = None;
                    f.vistoria_on = d(2026, 3, 2);
                }),
                vec![],
            ),
        ];
        for (name, v, change, want) in cases {
            assert_eq!(failed(change, v), want, "{name}");
        }
    }
}
