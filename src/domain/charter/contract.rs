//! Contracts (Lei 4.937/2025, arts. 1–6, 8 §3º, 28): continuous and occasional
//! charter, trips and their manifests.

use super::{
    Calendar, CharterLegalBasis, CharterStatus, Cpf, Deadline, DeadlineRules, Deserialize,
    Failures, NaiveDate, Plate, RuleFailure, Serialize, br, deadline_in_days, fail,
    fret_art10_pu_passengers,
};

/// Continuous or occasional charter (art. 2, I and II).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContractKind {
    Continuo,
    Eventual,
}

/// Who hires the service (art. 2, I, h; art. 5; art. 28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContractorType {
    /// Employees or collaborators of a legal entity.
    PessoaJuridica,
    /// Teachers, students or technical staff of an educational institution.
    InstituicaoEnsino,
    /// A student body or a legally constituted association.
    EntidadeEstudantilAssociacao,
    /// A government entity that does not use an official or leased vehicle.
    OrgaoPublico,
    /// A rural settlement or its association (art. 5: not continuous charter).
    Assentamento,
    /// A Prefeitura carrying residents (art. 5: not continuous charter).
    Prefeitura,
    /// Regular school transport (art. 28: out of scope of the law).
    TransporteEscolarRegular,
    /// Occasional charter for a private group.
    GrupoParticular,
}

/// One passenger of the list (art. 8 §3º): a CPF, or another document for manual review
/// (AMB-56).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Passenger {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpf: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_document: Option<String>,
}

/// A service contract as filed (art. 2, art. 3, art. 8 §3º).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ContractFacts {
    pub kind: ContractKind,
    pub contractor_type: ContractorType,
    pub contractor_name: String,
    /// Whether the government contractor uses official or leased vehicles (art. 2, I, h).
    #[serde(default)]
    pub contractor_uses_own_vehicles: bool,
    /// Purpose of the trip; tourism is not occasional charter (art. 2, II).
    pub purpose: String,
    #[serde(default)]
    pub tourism: bool,
    pub origin: String,
    pub destination: String,
    pub itinerary: String,
    /// Both ends inside Barra do Garças (art. 1 PU VII, AMB-10), as declared and checked.
    pub within_municipality: bool,
    /// Days and times of the trips (art. 2, I, e; art. 8 §3º).
    pub timetable: Vec<String>,
    pub signed_on: NaiveDate,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    /// Registration at the notary (continuous charter, art. 2, I, g).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notary_registration: Option<String>,
    /// Nota Fiscal de serviço (art. 2, I, d and II).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nfse_number: Option<String>,
    pub passengers: Vec<Passenger>,
    /// Plates of the vehicles used (art. 8 §3º).
    pub vehicle_plates: Vec<String>,
    /// The day the company notified SIS of the contract (art. 3).
    pub communicated_on: NaiveDate,
}

/// What the register says of a plate listed in a contract.
#[derive(Debug, Clone)]
pub struct ListedVehicle {
    pub plate: String,
    /// Registered to this company, and its status and seated capacity on the start date.
    pub found: Option<(CharterStatus, i32)>,
}

/// Which way a trip of a contract goes (art. 2º, III).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TripLeg {
    Ida,
    Volta,
}

/// A passenger group, as compared between the outbound and the return trip: a SHA-256 of the
/// sorted identities (CPF, else the other document, else the name), so the comparison needs
/// no personal data kept in the history.
pub fn passenger_group(passengers: &[Passenger]) -> String {
    use sha2::{Digest, Sha256};
    let mut ids: Vec<String> = passengers
        .iter()
        .map(|p| {
            if let Some(cpf) = p.cpf.as_deref().and_then(|c| Cpf::parse(c).ok()) {
                format!("cpf:{}", cpf.as_str())
            } else if let Some(doc) = p.other_document.as_deref().filter(|d| !d.trim().is_empty()) {
                format!("doc:{}", doc.trim().to_uppercase())
            } else {
                format!("nome:{}", p.name.trim().to_lowercase())
            }
        })
        .collect();
    ids.sort();
    let digest = Sha256::digest(ids.join("\n").as_bytes());
    digest.iter().fold(String::with_capacity(64), |mut hex, b| {
        use std::fmt::Write;
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

/// A trip filed on a contract, as its history records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FiledTrip {
    pub date: NaiveDate,
    /// Trips filed before returns existed are outbound.
    #[serde(default = "outbound_leg")]
    pub leg: TripLeg,
    pub vehicle_plate: String,
    /// `passenger_group` of its list; absent on trips filed before it was kept.
    #[serde(default)]
    pub group: Option<String>,
}

pub(super) fn outbound_leg() -> TripLeg {
    TripLeg::Ida
}

/// FRET-ART1-PU-III, FRET-ART8-P3: a trip runs within the contract's dates, in a vehicle the
/// contract lists.
pub fn fret_trip_in_contract(c: &ContractFacts, day: NaiveDate, plate: &Plate, out: &mut Failures) {
    if day < c.start_date || day > c.end_date {
        let msg = "A viagem está fora da vigência do contrato.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-III",
            "art. 1º, parágrafo único, III",
            "date",
            msg,
        );
    }
    let listed = c
        .vehicle_plates
        .iter()
        .any(|p| canonical_plate(p).as_deref() == Some(plate.as_str()));
    if !listed {
        let msg = "Veículo não consta do contrato.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plate", msg);
    }
}

/// FRET-ART2-III: the outbound trip a return on `day` closes — the one of latest date up to
/// that day, the last filed on that date (`earlier` in the order filed).
pub fn outbound_of(earlier: &[FiledTrip], day: NaiveDate) -> Option<&FiledTrip> {
    earlier
        .iter()
        .enumerate()
        .filter(|(_, t)| t.leg == TripLeg::Ida && t.date <= day)
        .max_by_key(|(i, t)| (t.date, *i))
        .map(|(_, t)| t)
}

/// FRET-ART2-III (art. 2º, III; art. 1º, parágrafo único, III): a closed circuit — the group
/// that went returns to the origin in the vehicle that took it. `outbound` is the outbound
/// trip's (plate, passenger group), if one was filed.
pub fn fret_art2_iii_closed_circuit(
    outbound: Option<(&str, &str)>,
    plate: &str,
    group: &str,
    out: &mut Failures,
) {
    let Some((out_plate, out_group)) = outbound else {
        let msg = "Não há viagem de ida registrada neste contrato até esta data para o retorno."
            .to_owned();
        fail(out, "FRET-ART2-III", "art. 2º, III", "leg", msg);
        return;
    };
    if out_plate != plate {
        let msg = format!(
            "O grupo deve retornar no mesmo veículo que fez a viagem de ida (placa {out_plate})."
        );
        fail(out, "FRET-ART2-III", "art. 2º, III", "vehicle_plate", msg);
    }
    if out_group != group {
        let msg = "O grupo de passageiros do retorno deve ser o mesmo da viagem de ida (sem embarques nem desembarques no itinerário).".to_owned();
        fail(out, "FRET-ART2-III", "art. 2º, III", "passengers", msg);
    }
}

/// FRET-ART1-PU-III/VI/VII, FRET-ART2-I/II, FRET-ART5, FRET-ART8-P3, FRET-ART10-PU,
/// FRET-ART28: whether a contract may be filed. Returns (refusals, passengers sent to
/// manual review).
pub fn contract_requirements(
    c: &ContractFacts,
    vehicles: &[ListedVehicle],
    out: &mut Failures,
) -> Vec<String> {
    use ContractorType as T;
    if c.contractor_type == T::TransporteEscolarRegular {
        let msg = "O transporte escolar regular não é regido por esta lei.".to_owned();
        fail(out, "FRET-ART28", "art. 28", "contractor_type", msg);
    }
    if c.kind == ContractKind::Continuo {
        if matches!(c.contractor_type, T::Assentamento | T::Prefeitura) {
            let msg = "Contratos com assentamentos, suas associações ou Prefeituras não \
                       caracterizam fretamento contínuo."
                .to_owned();
            fail(out, "FRET-ART5", "art. 5º", "contractor_type", msg);
        }
        if c.contractor_type == T::GrupoParticular {
            let msg = "No fretamento contínuo o contratante deve ser pessoa jurídica, \
                       instituição de ensino, entidade estudantil ou associação, ou órgão público."
                .to_owned();
            fail(out, "FRET-ART2-I", "art. 2º, I, h", "contractor_type", msg);
        }
        if c.contractor_type == T::OrgaoPublico && c.contractor_uses_own_vehicles {
            let msg = "Órgão público que usa veículo oficial ou locado não contrata fretamento \
                       contínuo."
                .to_owned();
            fail(
                out,
                "FRET-ART2-I",
                "art. 2º, I, h",
                "contractor_uses_own_vehicles",
                msg,
            );
        }
        if c.notary_registration
            .as_deref()
            .is_none_or(|s| s.trim().is_empty())
        {
            let msg =
                "O contrato de fretamento contínuo deve ser registrado em cartório.".to_owned();
            fail(
                out,
                "FRET-ART2-I",
                "art. 2º, I, g",
                "notary_registration",
                msg,
            );
        }
        if c.timetable.iter().all(|t| t.trim().is_empty()) {
            let msg = "Informe o número de viagens, a frequência e os horários.".to_owned();
            fail(out, "FRET-ART2-I", "art. 2º, I, e", "timetable", msg);
        }
    }
    if c.kind == ContractKind::Eventual && c.tourism {
        let msg = "O fretamento eventual não se destina ao turismo.".to_owned();
        fail(out, "FRET-ART2-II", "art. 2º, II", "tourism", msg);
    }
    if c.nfse_number.as_deref().is_none_or(|s| s.trim().is_empty()) {
        let msg = "Informe a Nota Fiscal de serviço do contrato.".to_owned();
        fail(out, "FRET-ART2-I", "art. 2º, I, d", "nfse_number", msg);
    }
    if !c.within_municipality {
        let msg = "Origem e destino devem estar no Município de Barra do Garças; viagens \
                   intermunicipais ou interestaduais são da AGER-MT ou da ANTT."
            .to_owned();
        fail(
            out,
            "FRET-ART1-PU-VII",
            "art. 1º, parágrafo único, VII",
            "within_municipality",
            msg,
        );
    }
    if c.end_date < c.start_date {
        let msg = "O contrato deve ter prazo de vigência: o fim vem antes do início.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-III",
            "art. 1º, parágrafo único, III",
            "end_date",
            msg,
        );
    }
    if c.contractor_name.trim().is_empty() {
        let msg = "Identifique o contratante e o grupo de passageiros.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-VI",
            "art. 1º, parágrafo único, VI",
            "contractor_name",
            msg,
        );
    }
    if c.origin.trim().is_empty()
        || c.destination.trim().is_empty()
        || c.itinerary.trim().is_empty()
    {
        let msg = "Informe origem, destino e itinerário.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "itinerary", msg);
    }
    fret_art8_p3_lists(c, vehicles, out)
}

/// FRET-ART8-P3 and FRET-ART10-PU: the passenger list (name and CPF; another ID goes to
/// manual review, AMB-56) and the plates of registered, regular vehicles with enough seats.
pub fn fret_art8_p3_lists(
    c: &ContractFacts,
    vehicles: &[ListedVehicle],
    out: &mut Failures,
) -> Vec<String> {
    let mut review = Vec::new();
    if c.passengers.is_empty() {
        let msg = "A relação de passageiros é obrigatória.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
    }
    for (i, p) in c.passengers.iter().enumerate() {
        match (&p.cpf, &p.other_document) {
            (Some(cpf), _) if Cpf::parse(cpf).is_err() => {
                let msg = format!("CPF inválido do passageiro nº {}.", i + 1);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
            }
            (Some(_), _) => {}
            (None, Some(doc)) if !doc.trim().is_empty() => review.push(format!(
                "Passageiro nº {} sem CPF (documento apresentado): análise manual.",
                i + 1
            )),
            (None, _) => {
                let msg = format!("Informe o CPF do passageiro nº {}.", i + 1);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
            }
        }
    }
    if c.vehicle_plates.is_empty() {
        let msg = "Informe as placas dos veículos utilizados.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
    }
    let mut capacity = 0i64;
    for v in vehicles {
        match v.found {
            Some((CharterStatus::Ativo, seats)) => capacity += i64::from(seats),
            Some((status, _)) => {
                let msg = format!(
                    "Veículo {} está {} e não pode ser usado.",
                    v.plate,
                    status.label_pt()
                );
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
            }
            None => {
                let msg = format!("Veículo {} não está cadastrado para esta empresa.", v.plate);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
            }
        }
    }
    // Seats are counted only when every listed vehicle may run; otherwise the plate error
    // above is the one to fix first.
    if !vehicles.is_empty()
        && vehicles
            .iter()
            .all(|v| matches!(v.found, Some((CharterStatus::Ativo, _))))
    {
        fret_art10_pu_passengers(c.passengers.len(), capacity, "passengers", out);
    }
    review
}

/// FRET-ART3: SIS is notified within 15 days of signing (and of the end). Late filing is an
/// untyped violation (AMB-30): a warning for SIS, not a refusal.
pub fn fret_art3_notice(
    event_on: NaiveDate,
    communicated_on: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &CharterLegalBasis,
) -> (Deadline, Option<RuleFailure>) {
    let signing = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    let due = deadline_in_days(event_on, basis.contract_notice_days, cal, &signing);
    let late = (communicated_on > due.due).then(|| RuleFailure {
        rule: "FRET-ART3".into(),
        article: "art. 3º".into(),
        field: "communicated_on",
        message: format!(
            "Comunicação à SIS feita em {}, depois do prazo de 15 dias, que terminou em {}.",
            br(communicated_on),
            br(due.due)
        ),
    });
    (due, late)
}

/// Canonical plate text, for matching contract plates to the register.
pub fn canonical_plate(raw: &str) -> Option<String> {
    Plate::parse(raw).ok().map(|p| p.as_str().to_owned())
}
