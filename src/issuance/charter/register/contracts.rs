//! Use cases of charter contracts and trips (Lei 4.937/2025, arts. 1–6, 28).

use super::{
    AppState, CharterAct, CharterCommit, CharterRow, CharterTable, Company, ContractFacts,
    Deadline, ListedVehicle, NO_CONTRACT, NaiveDate, Passenger, Plate, RuleFailure, Serialize,
    TripLeg, UseCaseError, Uuid, append, company, event, json, local_date, new_row, problems, reg,
    rules, to_json,
};

pub(super) async fn listed_vehicles(
    state: &AppState,
    c: &Company,
    plates: &[String],
    on: NaiveDate,
) -> Result<Vec<ListedVehicle>, UseCaseError> {
    let mut out = Vec::new();
    for raw in plates {
        let found = match Plate::parse(raw) {
            Ok(p) => reg::vehicle_by_plate(&state.store, &p)
                .await?
                .filter(|v| v.company_id == c.id)
                .map(|v| {
                    let r = rules::vehicle_status(&v.record, &c.cnpj, on, &state.charter_basis());
                    (r.status, v.record.facts.seated_capacity)
                }),
            Err(_) => None,
        };
        out.push(ListedVehicle {
            plate: raw.clone(),
            found,
        });
    }
    Ok(out)
}

/// A contract registered: its id, the deadline to communicate it (art. 3º), the warning of a
/// late communication and what the Secretaria must check by hand.
pub struct RegisteredContract {
    pub id: Uuid,
    pub notice_due: Deadline,
    pub late: Option<RuleFailure>,
    pub manual_review: Vec<String>,
}

/// What registering a contract decides, before anything is written.
pub struct JudgedContract {
    /// The requirements not met.
    pub failures: Vec<RuleFailure>,
    pub notice_due: Deadline,
    pub late: Option<RuleFailure>,
    pub manual_review: Vec<String>,
}

/// FRET-ART2, FRET-ART3, FRET-ART8-P3: the contract judged for company `c` as it would be
/// registered now: only an authorized company, with regular listed vehicles.
async fn judge_contract(
    state: &AppState,
    c: &Company,
    contract: &ContractFacts,
) -> Result<JudgedContract, UseCaseError> {
    let today = local_date(state.clock.now());
    let termos = reg::termos_of(&state.store, c.id).await?;
    let mut failures: Vec<RuleFailure> =
        rules::fret_art2_i_authorized_company(reg::company_status(c, &termos, today).0)
            .into_iter()
            .collect();
    let listed = listed_vehicles(state, c, &contract.vehicle_plates, today).await?;
    let manual_review = rules::contract_requirements(contract, &listed, &mut failures);
    let cal = state.calendar().await?;
    let (notice_due, late) = rules::fret_art3_notice(
        contract.signed_on,
        contract.communicated_on,
        &cal,
        &state.deadline_rules,
        &state.charter_basis(),
    );
    Ok(JudgedContract {
        failures,
        notice_due,
        late,
        manual_review,
    })
}

/// A contract judged as it would be registered now, writing nothing.
pub async fn check_contract(
    state: &AppState,
    company_id: Uuid,
    contract: &ContractFacts,
) -> Result<JudgedContract, UseCaseError> {
    let c = company(state, company_id).await?;
    judge_contract(state, &c, contract).await
}

/// Registers a contract (FRET-ART1-PU, FRET-ART2, FRET-ART3, FRET-ART5, FRET-ART8-P3,
/// FRET-ART10-PU, FRET-ART28): only an authorized company, with regular listed vehicles.
pub async fn register_contract(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    contract: &ContractFacts,
) -> Result<RegisteredContract, UseCaseError> {
    let c = company(state, company_id).await?;
    let judged = judge_contract(state, &c, contract).await?;
    problems(judged.failures)?;
    let (notice_due, late, review) = (judged.notice_due, judged.late, judged.manual_review);
    let cid = Uuid::new_v4();
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Contracts,
            cid,
            Some(c.id),
            cid.to_string(),
            None,
            contract,
        )?,
        events: vec![event(
            state,
            actor,
            CharterTable::Contracts,
            cid,
            CharterAct::Registered,
            json!({ "company_id": c.id, "kind": contract.kind, "late_notice": late.is_some(), "manual_review": review }),
        )],
        ..CharterCommit::default()
    };
    state.store.charter_commit(commit).await?;
    Ok(RegisteredContract {
        id: cid,
        notice_due,
        late,
        manual_review: review,
    })
}

/// The contract `id`, if registered.
pub async fn contract_id(state: &AppState, id: Uuid) -> Result<Uuid, UseCaseError> {
    Ok(contract(state, id).await?.0.id)
}

pub(super) async fn contract(
    state: &AppState,
    id: Uuid,
) -> Result<(CharterRow, ContractFacts), UseCaseError> {
    let row = state
        .store
        .charter_get(CharterTable::Contracts, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_CONTRACT))?;
    let facts: ContractFacts = serde_json::from_value(row.data.clone())
        .map_err(|_| UseCaseError::Internal("a contract row that does not parse"))?;
    Ok((row, facts))
}

/// Records the end of a contract with its notice (FRET-ART3: within 15 days of the end).
pub async fn end_contract(
    state: &AppState,
    actor: &str,
    contract_id: Uuid,
    ended_on: NaiveDate,
    communicated_on: NaiveDate,
) -> Result<(Deadline, Option<RuleFailure>), UseCaseError> {
    let (row, _) = contract(state, contract_id).await?;
    let cal = state.calendar().await?;
    let (due, late) = rules::fret_art3_notice(
        ended_on,
        communicated_on,
        &cal,
        &state.deadline_rules,
        &state.charter_basis(),
    );
    let data = json!({ "ended_on": ended_on, "communicated_on": communicated_on, "late_notice": late.is_some() });
    append(
        state,
        event(
            state,
            actor,
            CharterTable::Contracts,
            row.id,
            CharterAct::ContractEnded,
            data,
        ),
    )
    .await?;
    Ok((due, late))
}

/// A trip's passenger list to file (art. 1º, parágrafo único, III), parsed.
pub struct TripRequest {
    pub date: NaiveDate,
    pub vehicle_plate: Plate,
    pub passengers: Vec<Passenger>,
    pub leg: TripLeg,
}

/// A trip's passenger list as filed.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FiledTripList {
    pub date: NaiveDate,
    pub leg: TripLeg,
    pub vehicle_plate: String,
    /// Quantos passageiros a lista traz.
    pub passengers: usize,
    /// A impressão do grupo (os mesmos passageiros na ida e na volta, art. 2º, III).
    pub group: String,
    pub manual_review: Vec<String>,
}

/// Files the passenger list of one trip in one registered, regular vehicle of the contract
/// (FRET-ART1-PU-III, FRET-ART2, FRET-ART10-PU); a return carries the group that went in the
/// vehicle that took it (FRET-ART2-III).
pub async fn file_trip(
    state: &AppState,
    actor: &str,
    contract_id: Uuid,
    trip: TripRequest,
) -> Result<FiledTripList, UseCaseError> {
    let (row, facts) = contract(state, contract_id).await?;
    let company_id = row
        .company_id
        .ok_or(UseCaseError::Internal("a contract without its company"))?;
    let c = company(state, company_id).await?;
    let plate = trip.vehicle_plate.as_str().to_owned();
    let mut failures = Vec::new();
    rules::fret_trip_in_contract(&facts, trip.date, &trip.vehicle_plate, &mut failures);
    let listed = listed_vehicles(state, &c, std::slice::from_ref(&plate), trip.date).await?;
    let list = ContractFacts {
        passengers: trip.passengers.clone(),
        vehicle_plates: vec![plate.clone()],
        ..facts
    };
    // The trip's own list against this one vehicle: status on the day, CPFs, seats.
    let review = rules::contract_requirements(&list, &listed, &mut failures);
    failures.retain(|f| {
        matches!(
            f.rule.as_ref(),
            "FRET-ART8-P3" | "FRET-ART10-PU" | "FRET-ART1-PU-III"
        )
    });
    let group = rules::passenger_group(&trip.passengers);
    if trip.leg == TripLeg::Volta {
        let earlier = filed_trips(state, row.id).await?;
        let outbound = rules::outbound_of(&earlier, trip.date);
        rules::fret_art2_iii_closed_circuit(
            outbound.map(|t| {
                (
                    t.vehicle_plate.as_str(),
                    t.group.as_deref().unwrap_or_default(),
                )
            }),
            &plate,
            &group,
            &mut failures,
        );
    }
    problems(failures)?;
    let filed = FiledTripList {
        date: trip.date,
        leg: trip.leg,
        vehicle_plate: plate,
        passengers: trip.passengers.len(),
        group,
        manual_review: review,
    };
    append(
        state,
        event(
            state,
            actor,
            CharterTable::Contracts,
            row.id,
            CharterAct::TripManifestFiled,
            to_json(&filed)?,
        ),
    )
    .await?;
    Ok(filed)
}

/// The trips filed on a contract, in the order filed.
pub(super) async fn filed_trips(
    state: &AppState,
    contract_id: Uuid,
) -> Result<Vec<rules::FiledTrip>, UseCaseError> {
    let events = state
        .store
        .charter_events(CharterTable::Contracts, contract_id)
        .await?;
    Ok(events
        .iter()
        .filter(|e| e.kind == CharterAct::TripManifestFiled.as_str())
        .filter_map(|e| serde_json::from_str(&e.data).ok())
        .collect())
}
