//! Use cases of charter vehicles: enrolment, ITV, documents, vistorias and the selo,
//! baixa and substitution (Lei 4.937/2025, arts. 10–14).

use super::{
    AppState, Baixa, CharterAct, CharterCommit, CharterTable, CharterVehicleFacts, Document,
    ItvReport, NaiveDate, Plate, Rectifies, Renavam, RuleFailure, Serialize, StorageError,
    SubstitutionReason, UseCaseError, Uuid, VehicleData, VehicleDocuments, Vistoria, append,
    company, event, json, local_date, new_row, problems, rectification, reg, rules, to_json,
    vehicle,
};

/// A bus or minibus to enrol, parsed.
pub struct NewVehicle {
    pub plate: Plate,
    pub renavam: Renavam,
    pub make: String,
    pub model: String,
    pub facts: CharterVehicleFacts,
    pub itv: Option<ItvReport>,
    /// When the enrolment was protocolled at SIS; `None`: today.
    pub enrolled_on: Option<NaiveDate>,
}

/// FRET-ART10–13: the requirements of arts. 10–13 the vehicle does not meet on `today`.
fn enrolment_failures(
    new: &NewVehicle,
    company: &crate::domain::ids::Cnpj,
    today: NaiveDate,
    basis: &crate::domain::legal_basis::CharterLegalBasis,
) -> Vec<RuleFailure> {
    rules::vehicle_requirements(
        &new.facts,
        company,
        new.itv
            .as_ref()
            .map(|i| i.report_date)
            .filter(|d| *d <= today),
        today,
        basis,
    )
}

/// The enrolment of a bus or minibus judged as it would be decided now (FRET-ART10–13),
/// writing nothing: every requirement not met.
pub async fn check_vehicle(
    state: &AppState,
    company_id: Uuid,
    new: &NewVehicle,
) -> Result<Vec<RuleFailure>, UseCaseError> {
    let c = company(state, company_id).await?;
    let today = local_date(state.clock.now());
    Ok(enrolment_failures(
        new,
        &c.cnpj,
        today,
        &state.charter_basis(),
    ))
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
    problems(enrolment_failures(&new, &c.cnpj, today, basis))?;
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
        crate::issuance::charter::issue_selo(state, &c, &v, vistoria, actor, rectifies).await?,
    ))
}

/// Judges an approving vistoria on `performed_on` as its record would (FRET-ART13-P5 and the
/// vehicle's requirements: FRET-ART10…13); writes nothing. The failures, empty when the selo
/// would be issued.
pub async fn check_vistoria(
    state: &AppState,
    vehicle_id: Uuid,
    performed_on: NaiveDate,
) -> Result<Vec<RuleFailure>, UseCaseError> {
    let v = vehicle(state, vehicle_id).await?;
    let c = company(state, v.company_id).await?;
    if let Some(failure) = rules::fret_art13_p5_no_vistoria_after_baixa(v.record.baixa.is_some()) {
        return Ok(vec![failure]);
    }
    Ok(rules::vehicle_requirements(
        &v.record.facts,
        &c.cnpj,
        v.record.last_itv(performed_on),
        performed_on,
        &state.charter_basis(),
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
    // A baixa entered wrongly is rectified, never entered twice.
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
