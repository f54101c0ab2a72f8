//! Use cases of the charter register (Lei 4.937/2025): companies, their vehicles and drivers,
//! contracts and trips, sanctions and the acts of an auto's procedure. Every act is an event of
//! the entity's append-only history, stamped with the official, the instant and the legal
//! basis; every rule is checked by `domain::charter` before anything is written.

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::json;
use uuid::Uuid;

use crate::domain::calendar::Deadline;
use crate::domain::charter::sanctions::{Outcome, ProcedureAct, act_floor};
use crate::domain::charter::{
    self as rules, Baixa, CharterAct, CharterDriverFacts, CharterVehicleFacts, CompanySanction,
    ContractFacts, ListedVehicle, Passenger, SubstitutionReason, TripLeg, Vistoria,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{CnhNumber, Cnpj, Cpf, Plate, Renavam};
use crate::domain::rule::RuleFailure;
use crate::issuance::UseCaseError;
use crate::issuance::procedure::ProcedureCase;
use crate::issuance::rectification::{self, Rectifies};
use crate::standing::charter::{
    self as reg, CharterVehicle, Company, CompanyData, DriverBaixa, DriverData, ItvReport,
    VehicleData, VehicleDocuments,
};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::charter::{CharterCommit, CharterRow, CharterTable, NewEvent};
use crate::storage::documents::Document;

const NO_COMPANY: &str = "Empresa não encontrado(a).";
const NO_VEHICLE: &str = "Veículo não encontrado(a).";
const NO_DRIVER: &str = "Condutor não encontrado(a).";
const NO_CONTRACT: &str = "Contrato não encontrado(a).";
const NO_AUTO: &str = "Auto de infração não encontrado(a).";

fn to_json<T: Serialize>(v: &T) -> Result<serde_json::Value, UseCaseError> {
    serde_json::to_value(v).map_err(|_| UseCaseError::Encoding)
}

/// Act `act` of the charter law on `table` row `id`, by `actor`, now.
fn event<'a>(
    state: &'a AppState,
    actor: &'a str,
    table: CharterTable,
    id: Uuid,
    act: CharterAct,
    data: serde_json::Value,
) -> NewEvent<'a> {
    NewEvent::act(
        table.entity_type(),
        id,
        act.as_str(),
        actor,
        &state.charter_basis().version,
        state.clock.now(),
        data,
    )
}

/// A new row of `table`, created by `actor` now: the registered entity's own data.
#[allow(clippy::too_many_arguments)] // one row: its table, keys and data, who and when
fn new_row(
    state: &AppState,
    actor: &str,
    table: CharterTable,
    id: Uuid,
    company_id: Option<Uuid>,
    key: String,
    alt_key: Option<String>,
    data: &impl Serialize,
) -> Result<Option<(CharterTable, CharterRow)>, UseCaseError> {
    Ok(Some((
        table,
        CharterRow {
            id,
            company_id,
            key,
            alt_key,
            data: to_json(data)?,
            created_at: state.clock.now(),
            created_by: actor.to_owned(),
        },
    )))
}

async fn append(state: &AppState, e: NewEvent<'_>) -> Result<(), UseCaseError> {
    state
        .store
        .charter_commit(CharterCommit {
            events: vec![e],
            ..CharterCommit::default()
        })
        .await?;
    Ok(())
}

/// FRET-ART9 (AMB-53): a change of a company's, vehicle's or driver's registration data
/// communicated to SIS, recorded with the day it changed and the day it was communicated. The
/// law sets no deadline, so none is computed and no warning is given.
pub async fn report_data_change(
    state: &AppState,
    actor: &str,
    table: CharterTable,
    id: Uuid,
    change: &crate::issuance::ride_hailing::register::DataChange,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    state
        .store
        .charter_get(table, id)
        .await?
        .ok_or(UseCaseError::NotFound("Registro não encontrado."))?;
    rectification::record(
        state,
        event(
            state,
            actor,
            table,
            id,
            CharterAct::DataChangeReported,
            json!({
                "what": change.what,
                "changed_on": change.changed_on,
                "reported_on": change.reported_on,
            }),
        ),
        rectifies,
    )
    .await
}

/// The company `id`, as it stands.
pub async fn company(state: &AppState, id: Uuid) -> Result<Company, UseCaseError> {
    reg::load_company(&state.store, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_COMPANY))
}

/// The vehicle `id`, as it stands.
pub async fn vehicle(state: &AppState, id: Uuid) -> Result<CharterVehicle, UseCaseError> {
    reg::load_vehicle(&state.store, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_VEHICLE))
}

fn problems(failures: Vec<RuleFailure>) -> Result<(), UseCaseError> {
    if failures.is_empty() {
        Ok(())
    } else {
        Err(UseCaseError::Rules(failures))
    }
}

// ----------------------------------------------------------------------------------------
// Companies
// ----------------------------------------------------------------------------------------

/// A company's application (FRET-ART7), parsed.
pub struct NewCompany {
    pub cnpj: Cnpj,
    pub data: CompanyData,
}

/// Registers a company's application (FRET-ART7). An incomplete checklist is accepted; it
/// blocks the Termo, not the filing. The CNPJ is unique.
pub async fn register_company(
    state: &AppState,
    actor: &str,
    new: NewCompany,
) -> Result<Uuid, UseCaseError> {
    let NewCompany { cnpj, data } = new;
    let id = Uuid::new_v4();
    let registered = json!({
        "cnpj": cnpj.as_str(),
        "name": data.name,
        "modality": data.modality,
        "protocol": data.protocol,
    });
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Companies,
            id,
            None,
            cnpj.as_str().to_owned(),
            None,
            &data,
        )?,
        events: vec![event(
            state,
            actor,
            CharterTable::Companies,
            id,
            CharterAct::Registered,
            registered,
        )],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Duplicate {
            field: "cnpj",
            message: "Empresa já cadastrada com este CNPJ.",
        }),
        other => Ok(other.map(|()| id)?),
    }
}

/// Files the company's documents again (FRET-ART7, FRET-ART8-P2: a renewal needs fresh
/// proofs).
pub async fn file_checklist(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    checklist: &rules::CompanyChecklist,
) -> Result<(), UseCaseError> {
    let c = company(state, company_id).await?;
    append(
        state,
        event(
            state,
            actor,
            CharterTable::Companies,
            c.id,
            CharterAct::ChecklistFiled,
            to_json(checklist)?,
        ),
    )
    .await
}

/// Grants or renews the Termo de Autorização (FRET-ART8, §1º, §2º, AMB-55) and issues its
/// signed PDF.
pub async fn grant_termo(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    protocolled_on: Option<NaiveDate>,
) -> Result<(Company, reg::Termo, Document), UseCaseError> {
    let c = company(state, company_id).await?;
    let today = local_date(state.clock.now());
    let protocolled_on = protocolled_on.unwrap_or(today);
    if protocolled_on > today {
        return Err(UseCaseError::Inconsistent {
            field: "protocolled_on",
            message: "A data de protocolo do pedido não pode ser futura.",
        });
    }
    let termos = reg::termos_of(&state.store, c.id).await?;
    let latest = termos
        .iter()
        .max_by_key(|t| t.data.valid_until)
        .map(|t| rules::PriorTermo {
            number: t.number.clone(),
            valid_from: t.data.valid_from,
            valid_until: t.data.valid_until,
        });
    let decision = rules::decide_termo(
        &c.data.checklist,
        &c.cassations(),
        latest.as_ref(),
        (protocolled_on, today),
        &state.charter_basis(),
    )
    .map_err(UseCaseError::Rules)?;
    let (termo, doc) = super::issue_termo(state, &c, &decision, actor).await?;
    Ok((c, termo, doc))
}

/// Records a sanction decided by the competent authority (FRET-ART18, FRET-ART20).
pub async fn apply_sanction(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    sanction: &CompanySanction,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let c = company(state, company_id).await?;
    let mut e = event(
        state,
        actor,
        CharterTable::Companies,
        c.id,
        CharterAct::SanctionApplied,
        to_json(sanction)?,
    );
    e.reason = Some(&sanction.reason);
    rectification::record(state, e, rectifies).await
}

// ----------------------------------------------------------------------------------------
// Vehicles
// ----------------------------------------------------------------------------------------

/// A bus or minibus to enrol, parsed.
pub struct NewVehicle {
    pub plate: Plate,
    pub renavam: Renavam,
    pub make: String,
    pub model: String,
    pub facts: CharterVehicleFacts,
    pub itv: Option<ItvReport>,
    /// When the enrolment was protocolled at SIS; `None`: today (issue 13, item 4).
    pub enrolled_on: Option<NaiveDate>,
}

/// Enrols a bus or minibus (FRET-ART10–13, FRET-ART24): every requirement of arts. 10–13 must
/// hold on the filing day. Answers the vehicle's id and the late-transition warning of
/// art. 26, §1º, if any.
pub async fn enrol_vehicle(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    new: NewVehicle,
) -> Result<(Uuid, Option<RuleFailure>), UseCaseError> {
    let c = company(state, company_id).await?;
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis();
    problems(rules::vehicle_requirements(
        &new.facts,
        &c.cnpj,
        new.itv
            .as_ref()
            .map(|i| i.report_date)
            .filter(|d| *d <= today),
        today,
        basis,
    ))?;
    let enrolled_on = new.enrolled_on.unwrap_or(today);
    if enrolled_on > today {
        return Err(UseCaseError::Inconsistent {
            field: "enrolled_on",
            message: "A data do protocolo do cadastro não pode ser futura.",
        });
    }
    let vid = Uuid::new_v4();
    let data = VehicleData {
        make: new.make,
        model: new.model,
        facts: new.facts,
        enrolled_on: Some(enrolled_on),
    };
    let mut events = vec![event(
        state,
        actor,
        CharterTable::Vehicles,
        vid,
        CharterAct::Registered,
        json!({ "company_id": c.id, "plate": new.plate.as_str(), "renavam": new.renavam.as_str() }),
    )];
    if let Some(itv) = &new.itv {
        events.push(event(
            state,
            actor,
            CharterTable::Vehicles,
            vid,
            CharterAct::ItvReportFiled,
            to_json(itv)?,
        ));
    }
    events.push(event(
        state,
        actor,
        CharterTable::Companies,
        c.id,
        CharterAct::VehicleEnrolled,
        json!({ "vehicle_id": vid, "plate": new.plate.as_str() }),
    ));
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Vehicles,
            vid,
            Some(c.id),
            new.plate.as_str().to_owned(),
            Some(new.renavam.as_str().to_owned()),
            &data,
        )?,
        events,
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(field)) => {
            return Err(UseCaseError::Duplicate {
                field: if field == "renavam" {
                    "renavam"
                } else {
                    "plate"
                },
                message: "Veículo já cadastrado para fretamento.",
            });
        }
        other => other?,
    }
    let cal = state.calendar().await?;
    let transition = rules::transition_deadlines(basis, &cal, &state.deadline_rules);
    // Art. 26, §1º: judged on the day the enrolment was protocolled, not the day it is typed.
    let warning = rules::late_transition_warning(
        c.data.operating_before_law,
        enrolled_on,
        &transition.vehicle_enrolment,
        "FRET-ART26-P1",
        "art. 26, §1º",
        "Vistoria e cadastro de veículo de empresa que já operava",
    );
    Ok((vid, warning))
}

/// Files a new ITV report (FRET-ART12-IV).
pub async fn file_itv(
    state: &AppState,
    actor: &str,
    vehicle_id: Uuid,
    report: &ItvReport,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let v = vehicle(state, vehicle_id).await?;
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Vehicles,
            v.id,
            CharterAct::ItvReportFiled,
            to_json(report)?,
        ),
        rectifies,
    )
    .await
}

/// Files a new CRLV year or insurance policy (FRET-ART12-II/III).
pub async fn file_vehicle_documents(
    state: &AppState,
    actor: &str,
    vehicle_id: Uuid,
    docs: &VehicleDocuments,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let v = vehicle(state, vehicle_id).await?;
    if docs
        .insurance
        .as_ref()
        .is_some_and(|i| i.valid_to < i.valid_from)
    {
        return Err(UseCaseError::Inconsistent {
            field: "insurance",
            message: "A vigência do seguro termina antes de começar.",
        });
    }
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Vehicles,
            v.id,
            CharterAct::VehicleDocumentsFiled,
            to_json(docs)?,
        ),
        rectifies,
    )
    .await
}

/// Records a municipal vistoria (FRET-ART13, §1º); an approved one certifies that arts. 10–13
/// hold on that day and issues the selo de vistoria, in the same transaction. Answers the selo.
pub async fn record_vistoria(
    state: &AppState,
    actor: &str,
    vehicle_id: Uuid,
    vistoria: &Vistoria,
    rectifies: Option<&Rectifies>,
) -> Result<Option<Document>, UseCaseError> {
    let v = vehicle(state, vehicle_id).await?;
    let c = company(state, v.company_id).await?;
    if let Some(failure) = rules::fret_art13_p5_no_vistoria_after_baixa(v.record.baixa.is_some()) {
        return Err(UseCaseError::Rules(vec![failure]));
    }
    if !vistoria.approved {
        rectification::record(
            state,
            event(
                state,
                actor,
                CharterTable::Vehicles,
                v.id,
                CharterAct::VistoriaRecorded,
                to_json(vistoria)?,
            ),
            rectifies,
        )
        .await?;
        return Ok(None);
    }
    problems(rules::vehicle_requirements(
        &v.record.facts,
        &c.cnpj,
        v.record.last_itv(vistoria.performed_on),
        vistoria.performed_on,
        &state.charter_basis(),
    ))?;
    Ok(Some(
        super::issue_selo(state, &c, &v, vistoria, actor, rectifies).await?,
    ))
}

/// Records a vehicle's baixa (FRET-ART13-P5, FRET-ART24), once.
pub async fn baixa_vehicle(
    state: &AppState,
    actor: &str,
    vehicle_id: Uuid,
    baixa: &Baixa,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let v = vehicle(state, vehicle_id).await?;
    // A baixa entered wrongly is rectified (issue 13, item 1), never entered twice.
    if v.record.baixa.is_some() && rectifies.is_none() {
        return Err(UseCaseError::Conflict {
            detail: "Veículo já baixado.".into(),
            field: Some(("vehicle", "A baixa já foi registrada.".into())),
        });
    }
    let mut failures = Vec::new();
    rules::fret_art13_p5_baixa(baixa, &mut failures);
    problems(failures)?;
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Vehicles,
            v.id,
            CharterAct::Baixa,
            to_json(baixa)?,
        ),
        rectifies,
    )
    .await
}

/// A temporary substitution to authorize (FRET-ART14), parsed.
pub struct SubstitutionRequest {
    pub replaced_vehicle_id: Uuid,
    pub substitute_vehicle_id: Uuid,
    pub reason: SubstitutionReason,
    pub authorized_from: NaiveDate,
    pub authorized_to: NaiveDate,
    pub decision: String,
}

/// A temporary substitution authorized (art. 14), as recorded.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuthorizedSubstitution {
    pub replaced_vehicle_id: Uuid,
    pub replaced_plate: String,
    pub substitute_vehicle_id: Uuid,
    pub substitute_plate: String,
    pub reason: SubstitutionReason,
    pub authorized_from: NaiveDate,
    pub authorized_to: NaiveDate,
    pub decision: String,
}

/// Authorizes a temporary, revocable replacement of a vehicle made unusable by accident,
/// theft or damage (FRET-ART14, AMB-48): the substitute must meet arts. 10–13.
pub async fn authorize_substitution(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    req: SubstitutionRequest,
) -> Result<AuthorizedSubstitution, UseCaseError> {
    let c = company(state, company_id).await?;
    let replaced = reg::load_vehicle(&state.store, req.replaced_vehicle_id)
        .await?
        .filter(|v| v.company_id == c.id)
        .ok_or(UseCaseError::NotFound(
            "Veículo substituído desta empresa não encontrado(a).",
        ))?;
    let sub = reg::load_vehicle(&state.store, req.substitute_vehicle_id)
        .await?
        .ok_or(UseCaseError::NotFound(
            "Veículo substituto não encontrado(a).",
        ))?;
    let owner = company(state, sub.company_id).await?;
    let sub_failures = rules::vehicle_requirements(
        &sub.record.facts,
        &owner.cnpj,
        sub.record.last_itv(req.authorized_from),
        req.authorized_from,
        &state.charter_basis(),
    );
    let mut failures = Vec::new();
    rules::fret_art14_substitution(
        req.authorized_from,
        req.authorized_to,
        &sub_failures,
        &mut failures,
    );
    problems(failures)?;
    let authorized = AuthorizedSubstitution {
        replaced_vehicle_id: replaced.id,
        replaced_plate: replaced.plate.as_str().to_owned(),
        substitute_vehicle_id: sub.id,
        substitute_plate: sub.plate.as_str().to_owned(),
        reason: req.reason,
        authorized_from: req.authorized_from,
        authorized_to: req.authorized_to,
        decision: req.decision,
    };
    append(
        state,
        event(
            state,
            actor,
            CharterTable::Companies,
            c.id,
            CharterAct::SubstitutionAuthorized,
            to_json(&authorized)?,
        ),
    )
    .await?;
    Ok(authorized)
}

// ----------------------------------------------------------------------------------------
// Drivers
// ----------------------------------------------------------------------------------------

/// A driver to enrol (FRET-ART15), parsed.
pub struct NewDriver {
    pub name: String,
    pub cpf: Cpf,
    pub cnh_number: CnhNumber,
    pub facts: CharterDriverFacts,
}

/// Enrols a driver of a company (FRET-ART15, FRET-ART24); the CPF is unique in the company.
pub async fn enrol_driver(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    new: NewDriver,
) -> Result<Uuid, UseCaseError> {
    let c = company(state, company_id).await?;
    let now = state.clock.now();
    problems(rules::driver_requirements(
        &new.facts,
        local_date(now),
        &state.charter_basis(),
    ))?;
    let did = Uuid::new_v4();
    let data = DriverData {
        name: new.name,
        cnh_number: new.cnh_number.as_str().to_owned(),
        facts: new.facts,
    };
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Drivers,
            did,
            Some(c.id),
            new.cpf.as_str().to_owned(),
            None,
            &data,
        )?,
        events: vec![
            event(
                state,
                actor,
                CharterTable::Drivers,
                did,
                CharterAct::Registered,
                json!({ "company_id": c.id }),
            ),
            event(
                state,
                actor,
                CharterTable::Companies,
                c.id,
                CharterAct::DriverEnrolled,
                json!({ "driver_id": did }),
            ),
        ],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Duplicate {
            field: "cpf",
            message: "Condutor já cadastrado nesta empresa.",
        }),
        other => Ok(other.map(|()| did)?),
    }
}

/// Files a driver's updated documents (FRET-ART9, FRET-ART15).
pub async fn file_driver_documents(
    state: &AppState,
    actor: &str,
    driver_id: Uuid,
    facts: &CharterDriverFacts,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    reg::load_driver(&state.store, driver_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Drivers,
            driver_id,
            CharterAct::DriverDocumentsFiled,
            to_json(facts)?,
        ),
        rectifies,
    )
    .await
}

/// Records a driver's baixa (FRET-ART24), once.
pub async fn baixa_driver(
    state: &AppState,
    actor: &str,
    driver_id: Uuid,
    baixa: &DriverBaixa,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let d = reg::load_driver(&state.store, driver_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    // A baixa entered wrongly is rectified (issue 13, item 1), never entered twice.
    if d.deregistered_on.is_some() && rectifies.is_none() {
        return Err(UseCaseError::Conflict {
            detail: "Condutor já baixado.".into(),
            field: Some(("driver", "A baixa já foi registrada.".into())),
        });
    }
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Drivers,
            driver_id,
            CharterAct::Baixa,
            to_json(baixa)?,
        ),
        rectifies,
    )
    .await
}

// ----------------------------------------------------------------------------------------
// Contracts and trips
// ----------------------------------------------------------------------------------------

async fn listed_vehicles(
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

/// Registers a contract (FRET-ART1-PU, FRET-ART2, FRET-ART3, FRET-ART5, FRET-ART8-P3,
/// FRET-ART10-PU, FRET-ART28): only an authorized company, with regular listed vehicles.
pub async fn register_contract(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    contract: &ContractFacts,
) -> Result<RegisteredContract, UseCaseError> {
    let c = company(state, company_id).await?;
    let now = state.clock.now();
    let today = local_date(now);
    let termos = reg::termos_of(&state.store, c.id).await?;
    let mut failures: Vec<RuleFailure> =
        rules::fret_art2_i_authorized_company(reg::company_status(&c, &termos, today).0)
            .into_iter()
            .collect();
    let listed = listed_vehicles(state, &c, &contract.vehicle_plates, today).await?;
    let review = rules::contract_requirements(contract, &listed, &mut failures);
    problems(failures)?;
    let cal = state.calendar().await?;
    let (notice_due, late) = rules::fret_art3_notice(
        contract.signed_on,
        contract.communicated_on,
        &cal,
        &state.deadline_rules,
        &state.charter_basis(),
    );
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

async fn contract(state: &AppState, id: Uuid) -> Result<(CharterRow, ContractFacts), UseCaseError> {
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
            f.rule,
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
async fn filed_trips(
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

// ----------------------------------------------------------------------------------------
// Autos de infração
// ----------------------------------------------------------------------------------------

/// The auto `id` and its company.
pub async fn auto_company(state: &AppState, id: Uuid) -> Result<(CharterRow, Uuid), UseCaseError> {
    let row = state
        .store
        .charter_get(CharterTable::Autos, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTO))?;
    let company_id = row
        .company_id
        .ok_or(UseCaseError::Internal("an auto without its company"))?;
    Ok((row, company_id))
}

async fn auto_view(
    state: &AppState,
    company_id: Uuid,
    auto_id: Uuid,
) -> Result<reg::AutoView, UseCaseError> {
    let cal = state.calendar().await?;
    reg::company_autos(
        &state.store,
        company_id,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.charter_basis(),
    )
    .await?
    .into_iter()
    .find(|v| v.id == auto_id)
    .ok_or(UseCaseError::NotFound(NO_AUTO))
}

/// Records an act of an auto's procedure (FRET-ART22, §§1º–3º, FRET-ART23): notification,
/// defence, decision, reconsideration to the Mayor and the Mayor's decision, in order.
/// Answers the auto's company.
pub async fn procedure_act(
    state: &AppState,
    actor: &str,
    auto_id: Uuid,
    act: &ProcedureAct,
) -> Result<Uuid, UseCaseError> {
    let (row, company_id) = auto_company(state, auto_id).await?;
    // Read first: whatever is recorded on the auto after this is caught at the commit.
    let head = state
        .store
        .entity_head(CharterTable::Autos.entity_type(), row.id)
        .await?;
    let view = auto_view(state, company_id, row.id).await?;
    let cal = state.calendar().await?;
    let start = view.data.committed_on;
    crate::issuance::procedure::check_procedure_act(
        state,
        &ProcedureCase {
            acts: &view.acts,
            start,
            floor: act_floor(&view.acts, start),
            fine_upf: view.fine.as_ref().map_or(0, |f| i64::from(f.upf)),
            drawn_up_on: local_date(view.data.drawn_up_at),
            days: state.charter_basis().as_ref().into(),
        },
        act,
        &cal,
    )
    .await?;
    crate::issuance::procedure::commit_act(
        state,
        head,
        vec![event(
            state,
            actor,
            CharterTable::Autos,
            row.id,
            CharterAct::ProcedureAct,
            to_json(act)?,
        )],
    )
    .await?;
    if matches!(
        act,
        ProcedureAct::Decisao {
            outcome: Outcome::Anulado,
            ..
        } | ProcedureAct::DecisaoPrefeito {
            outcome: Outcome::Anulado,
            ..
        }
    ) {
        // AMB-29: later autos of the company are recalculated on read.
        tracing::info!(auto = %row.key, "charter auto annulled; recidivism recalculated");
    }
    Ok(company_id)
}

/// Issues the signed Auto de Infração e Notificação of an auto (FRET-ART19–23, APP-ART19): two
/// copies, every deadline dated; the fine in reais uses the UPF value of the year it was drawn
/// up (AMB-03).
pub async fn auto_notice(
    state: &AppState,
    actor: &str,
    auto_id: Uuid,
) -> Result<Document, UseCaseError> {
    let (row, company_id) = auto_company(state, auto_id).await?;
    let c = company(state, company_id).await?;
    let view = auto_view(state, company_id, row.id).await?;
    let upf = crate::issuance::pipeline::upf_when_drawn_up(state, view.data.drawn_up_at).await?;
    super::issue_auto_notice(state, &c, &view, upf, actor).await
}

/// Issues the certidão de situação cadastral of a vehicle or driver (FRET-ART25), on a
/// petition filed at the protocol.
pub async fn certidao(
    state: &AppState,
    actor: &str,
    subject_type: &str,
    id: Uuid,
    protocol: &str,
) -> Result<Document, UseCaseError> {
    let subject = reg::certidao_subject(&state.store, subject_type, id)
        .await?
        .ok_or(UseCaseError::NotFound("Registro não encontrado(a)."))?;
    let c = company(state, subject.company_id()).await?;
    super::issue_certidao(state, &subject, &c, protocol, actor).await
}
