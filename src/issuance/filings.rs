//! Filings (requerimentos) applicants make at `/servicos`, and what the officials do with
//! them: the yearly renewal of a ride-hailing authorization, or a certidão of its driver or
//! car, is put together online (the documents the legal basis in force asks for), protocolled
//! with a number and the date the law counts from, examined file by file, answered with an
//! exigência when something is missing, and decided through the same act as at the desk (the
//! renewal, the certidão). The applicant is told of every step by e-mail, through the outbox,
//! in the transaction of the step.

use std::collections::{BTreeMap, HashMap};

use chrono::Duration;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::domain::rule::RuleFailure;

use crate::documents::format;
use crate::domain::filings::stated::{self, StatedField};
use crate::domain::filings::{
    self, ChangeStated, FilingKind, FilingStatus, Opening, Slot, SlotContext,
};
use crate::domain::ids::{Cnpj, Cpf};
use crate::state::AppState;
use crate::storage::applicant_links::LinkedEntity;
use crate::storage::applicants::Applicant;
use crate::storage::documents::Document;
use crate::storage::filings::{
    FILE_EXAMINED, FILING_CLOSED, FileRow, FilingRow, NewFile, SLOT_FULL, TOO_MANY_FILES,
};
use crate::storage::outbox::OutgoingMail;
use crate::storage::{StorageError, parse_uuid};

/// Why a filing's step was not taken; the refusals read as they are shown.
#[derive(Debug, thiserror::Error)]
pub enum FilingError {
    /// No such filing, or not the applicant's.
    #[error("pedido não encontrado")]
    NotFound,
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// A filing with its files, the documents it asks for and what it still lacks.
pub struct FilingView {
    pub row: FilingRow,
    pub kind: FilingKind,
    pub status: FilingStatus,
    pub files: Vec<FileRow>,
    pub slots: Vec<Slot>,
    /// Keys of the slots with no standing file.
    pub missing: Vec<String>,
    /// What the filing is about: the authorization or the auto.
    pub subject: Subject,
    /// The documents the decision issued, when granted.
    pub documents: Vec<Document>,
    /// What a report of changed data states, once the applicant said it.
    pub change: Option<ChangeStated>,
    /// While the applicant puts the filing together: what the renewal would find today on the
    /// data the register already holds (every requirement failed; empty: none). `None` once
    /// sent, or when it could not be judged.
    pub preview: Option<Vec<RuleFailure>>,
    /// What the applicant states besides the files (a new authorization's driver and car, a
    /// new car, a company, a bus), each field named as the desk's task names it.
    pub fields: Vec<StatedField>,
    /// What was stated so far, with the CPF or the CNPJ the filing was opened with.
    pub stated: BTreeMap<String, String>,
}

/// What a filing is about, as its pages name it.
#[derive(Default)]
pub struct Subject {
    /// "Autorização" or "Auto de infração".
    pub what: &'static str,
    /// Its number.
    pub number: String,
    /// The driver's name.
    pub holder: String,
    /// "válida até dd/mm/aaaa" or "lavrado em dd/mm/aaaa".
    pub detail: String,
    /// Its page in the back office; empty for what is not registered yet.
    pub desk_path: String,
}

impl Subject {
    /// "Autorização APP-… — Ana, válida até …", without the parts a new record lacks.
    pub fn line(&self) -> String {
        let head = [self.what, self.number.as_str()]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let tail = [self.holder.as_str(), self.detail.as_str()]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if tail.is_empty() {
            head
        } else {
            format!("{head} — {tail}")
        }
    }
}

impl FilingView {
    /// The files of a slot that still count (replaced ones aside), oldest first.
    pub fn files_of(&self, slot: &str) -> Vec<&FileRow> {
        self.files
            .iter()
            .filter(|f| f.slot == slot && f.status != "substituido")
            .collect()
    }

    /// Whether the applicant may still attach to `slot`.
    pub fn has_room(&self, slot: &Slot) -> bool {
        let statuses: Vec<&str> = self
            .files_of(&slot.key)
            .iter()
            .map(|f| f.status.as_str())
            .collect();
        filings::has_room(slot, &statuses)
    }

    pub fn is_open_to_applicant(&self) -> bool {
        matches!(self.status, FilingStatus::Draft | FilingStatus::Waiting)
    }

    /// What the register's data fails today of the requirements `slot`'s document carries.
    pub fn failures_of(&self, slot: &Slot) -> Vec<&RuleFailure> {
        self.preview
            .iter()
            .flatten()
            .filter(|f| slot.rules.iter().any(|r| *r == f.rule))
            .collect()
    }

    /// What was stated, as the pages list it: (label, value shown), in the form's order.
    pub fn stated_rows(&self) -> Vec<(String, String)> {
        self.fields
            .iter()
            .filter_map(|f| {
                self.stated
                    .get(&f.name)
                    .map(|v| (f.label.clone(), f.shown(v)))
            })
            .collect()
    }

    /// The value stated for `field`, or empty.
    pub fn stated_value(&self, field: &str) -> &str {
        self.stated.get(field).map_or("", String::as_str)
    }

    /// The required fields not yet stated.
    pub fn unanswered(&self) -> Vec<&StatedField> {
        stated::unanswered(&self.fields, &self.stated)
    }

    /// Whether the preview judges what `slot`'s document carries: for a first authorization
    /// only the CNH and the car the applicant stated; the certificates, the fee and the
    /// documents the basis lists are judged on the documents themselves, at the desk.
    pub fn preview_judges(&self, slot: &Slot) -> bool {
        !slot.rules.is_empty()
            && (self.kind != FilingKind::AppNewAuthorization
                || matches!(slot.key.as_str(), "cnh" | "crlv"))
    }

    /// What the preview's summary lists: for a first authorization every requirement the
    /// stated data fail; for a renewal those no document of the filing answers.
    pub fn preview_list(&self) -> Vec<&RuleFailure> {
        if self.kind == FilingKind::AppNewAuthorization {
            self.preview.iter().flatten().collect()
        } else {
            self.other_failures()
        }
    }

    /// What the register's data fails today that no document of the filing carries.
    pub fn other_failures(&self) -> Vec<&RuleFailure> {
        self.preview
            .iter()
            .flatten()
            .filter(|f| {
                !self
                    .slots
                    .iter()
                    .any(|s| s.rules.iter().any(|r| *r == f.rule))
            })
            .collect()
    }
}

/// What renewing authorization `id` today would find on the register's data, writing nothing.
async fn preview(state: &AppState, id: Uuid) -> Option<Vec<RuleFailure>> {
    let request = crate::issuance::ride_hailing::check::CheckRequest {
        driver: None,
        filed: None,
        vehicle: None,
        renewal_of: Some(id),
        fee_paid_on: crate::domain::dates::local_date(state.clock.now()),
        protocolled_on: None,
    };
    match crate::issuance::ride_hailing::check::check_grant(state, request).await {
        Ok(c) => Some(c.failures),
        Err(e) => {
            tracing::warn!(error = %e, "a filing's preview could not be judged");
            None
        }
    }
}

fn base_url(state: &AppState) -> String {
    state.letterhead.public_url.trim_end_matches('/').to_owned()
}

fn mail_to(
    state: &AppState,
    row: &FilingRow,
    topic: &'static str,
    subject: String,
    text: &str,
) -> OutgoingMail {
    let city = &state.letterhead.profile.prefeitura.name;
    OutgoingMail {
        recipient: row.email.clone(),
        subject,
        body: format!(
            "Olá,\n\n{text}\n\nAcompanhe o pedido em:\n{}/servicos/pedidos/{}\n\n{city}\n",
            base_url(state),
            row.id
        ),
        topic,
        entity: Some(("filing", row.id.clone())),
    }
}

/// Opens (or reopens, when one is still open) a filing of `kind`, on what the applicant names:
/// an authorization's number and its driver's CPF, an auto's number and the CPF, the CPF of a
/// driver asking for a first authorization, the CNPJ of a company to register, or the CNPJ of
/// a registered company (with one of its Termos' numbers, unless the applicant follows it).
/// A number and a CPF or CNPJ that do not go together get the same answer as a number that
/// does not exist.
pub async fn open(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    number: &str,
    document: &str,
) -> Result<Uuid, FilingError> {
    match kind.opening() {
        Opening::Auto => open_on_auto(state, applicant, kind, number, document).await,
        Opening::Authorization => {
            open_on_authorization(state, applicant, kind, number, document).await
        }
        Opening::Driver => open_for_driver(state, applicant, document).await,
        Opening::NewCompany => open_for_company(state, applicant, document).await,
        Opening::Company => open_on_company(state, applicant, kind, number, document).await,
    }
}

async fn open_on_authorization(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    number: &str,
    cpf: &str,
) -> Result<Uuid, FilingError> {
    let refused = || {
        FilingError::Refused(
            "Não encontramos uma autorização com este número e este CPF. Confira os dois como \
             estão impressos na autorização."
                .into(),
        )
    };
    let cpf = Cpf::parse(cpf).map_err(|_| refused())?;
    let a = crate::issuance::ride_hailing::authorizations::held_by(state, number, &cpf)
        .await?
        .ok_or_else(refused)?;
    // A revoked authorization is neither renewed nor given another car; its certidão
    // certifies the revocation.
    if matches!(kind, FilingKind::AppRenewal | FilingKind::AppSubstitution)
        && a.revocation.is_some()
    {
        return Err(FilingError::Refused(
            "Esta autorização foi revogada: não pode ser renovada nem ter o carro substituído. \
             Procure a Prefeitura."
                .into(),
        ));
    }
    // The driver who files online follows the record: reminders reach the applicant.
    crate::issuance::follows::follow_driver_id(state, applicant.id, a.driver_id).await?;
    open_on(state, applicant, kind, a.id).await
}

/// A first authorization, for the driver whose CPF is `cpf`: refused while that driver holds
/// an authorization in force (that one is renewed, not asked for again).
async fn open_for_driver(
    state: &AppState,
    applicant: &Applicant,
    cpf: &str,
) -> Result<Uuid, FilingError> {
    let cpf = Cpf::parse(cpf)
        .map_err(|_| FilingError::Refused("O CPF não é válido: confira os 11 dígitos.".into()))?;
    if let Some((driver, true)) = state
        .store
        .driver_id_by_cpf_or_cnh(cpf.as_str(), "")
        .await?
        && let Some(latest) = state.store.latest_authorization_of(driver).await?
        && let Some(a) = state.store.get_authorization(latest).await?
        && a.revocation.is_none()
        && a.valid_until >= state.today()
    {
        return Err(FilingError::Refused(format!(
            "Este CPF já tem a autorização {}, válida até {}: peça a renovação dela, não uma \
             nova autorização.",
            a.number,
            format::date(a.valid_until)
        )));
    }
    opened_with(
        state,
        applicant,
        FilingKind::AppNewAuthorization,
        ("cpf", cpf.as_str()),
    )
    .await
}

/// A company's registration (Lei 4.937/2025, art. 7º), for the CNPJ `cnpj`: refused when the
/// company is registered already.
async fn open_for_company(
    state: &AppState,
    applicant: &Applicant,
    cnpj: &str,
) -> Result<Uuid, FilingError> {
    let cnpj = Cnpj::parse(cnpj)
        .map_err(|_| FilingError::Refused("O CNPJ não é válido: confira os 14 dígitos.".into()))?;
    if state.store.company_by_cnpj(cnpj.as_str()).await?.is_some() {
        return Err(FilingError::Refused(
            "Esta empresa já está cadastrada. Para o Termo de Autorização ou um ônibus, escolha \
             essas opções."
                .into(),
        ));
    }
    opened_with(
        state,
        applicant,
        FilingKind::CharterRegistration,
        ("cnpj", cnpj.as_str()),
    )
    .await
}

/// A filing of a registered company (a Termo, a bus): the applicant follows the company, or
/// names one of its Termos with the CNPJ (and follows it from then on).
async fn open_on_company(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    number: &str,
    cnpj: &str,
) -> Result<Uuid, FilingError> {
    let refused = || {
        FilingError::Refused(
            "Não encontramos esta empresa entre as que você acompanha. Informe o CNPJ com o \
             número de um Termo de Autorização dela, como impresso no Termo; ou entre com a \
             conta que pediu o cadastro da empresa."
                .into(),
        )
    };
    let cnpj = Cnpj::parse(cnpj).map_err(|_| refused())?;
    let Some(company) = state.store.company_by_cnpj(cnpj.as_str()).await? else {
        return Err(refused());
    };
    let follows = state
        .store
        .links_of(applicant.id)
        .await?
        .contains(&LinkedEntity::Company(company));
    // Not followed yet: a Termo's number with the CNPJ follows it, as at "Acompanhar".
    if !follows {
        crate::issuance::follows::follow_company(state, applicant, number, cnpj.as_str())
            .await
            .map_err(|e| match e {
                crate::issuance::UseCaseError::Storage(e) => FilingError::Storage(e),
                _ => refused(),
            })?;
    }
    open_on(state, applicant, kind, company).await
}

/// The applicant's open filing of `kind` for what is not registered yet (its subject is the
/// applicant), a draft keeping the CPF or the CNPJ (`key`, `value`) it is opened with.
async fn opened_with(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    (key, value): (&str, &str),
) -> Result<Uuid, FilingError> {
    let id = open_on(state, applicant, kind, applicant.id).await?;
    let v = view(state, id, Some(applicant)).await?;
    if v.status != FilingStatus::Draft || v.stated.get(key).map(String::as_str) == Some(value) {
        return Ok(id);
    }
    let mut kept = v.stated;
    kept.insert(key.to_owned(), value.to_owned());
    save_stated(state, applicant, id, &kept).await?;
    Ok(id)
}

async fn save_stated(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
    kept: &BTreeMap<String, String>,
) -> Result<(), FilingError> {
    let details = serde_json::to_string(kept)
        .map_err(|_| FilingError::Refused("Os dados não puderam ser lidos.".into()))?;
    state
        .store
        .set_filing_details(
            id,
            &details,
            &format!("applicant:{}", applicant.id),
            state.clock.now(),
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(FILING_CLOSED) => closed(),
            e => e.into(),
        })
}

/// Records what the applicant states (the driver and the car, the new car, the company, the
/// bus) in a filing still theirs, each answer checked for its form; the problems beside each
/// field otherwise, nothing kept.
pub async fn state_data<S: std::hash::BuildHasher>(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
    form: &HashMap<String, String, S>,
) -> Result<(), StatedRefusal> {
    let v = view(state, id, Some(applicant)).await?;
    if v.fields.is_empty() {
        return Err(FilingError::NotFound.into());
    }
    if !v.is_open_to_applicant() {
        return Err(closed().into());
    }
    let mut kept = stated::read(&v.fields, form).map_err(StatedRefusal::Fields)?;
    // The CPF or the CNPJ the filing was opened with stays.
    for key in ["cpf", "cnpj"] {
        if let Some(value) = v.stated.get(key) {
            kept.insert(key.to_owned(), value.clone());
        }
    }
    save_stated(state, applicant, id, &kept).await?;
    Ok(())
}

/// Why what the applicant stated was not kept.
#[derive(Debug)]
pub enum StatedRefusal {
    /// The fields answered out of form: (field, problem).
    Fields(Vec<(String, String)>),
    Filing(FilingError),
}

impl From<FilingError> for StatedRefusal {
    fn from(e: FilingError) -> Self {
        Self::Filing(e)
    }
}

/// The applicant's open filing of `kind` on `subject`, or a new draft.
async fn open_on(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    subject: Uuid,
) -> Result<Uuid, FilingError> {
    let open = state
        .store
        .filings_of(applicant.id)
        .await?
        .into_iter()
        .find(|f| {
            f.kind == kind.as_str()
                && f.subject_id == subject.to_string()
                && f.status != "decidido"
                // A company enrols several buses at once: only an unsent draft is reopened.
                && (kind != FilingKind::CharterBusEnrolment || f.status == "rascunho")
        });
    if let Some(f) = open {
        return Ok(parse_uuid(&f.id)?);
    }
    let id = Uuid::new_v4();
    let kind = kind.as_str();
    state
        .store
        .insert_filing(id, applicant.id, kind, subject, state.clock.now())
        .await?;
    tracing::info!(filing = %id, kind, "filing opened");
    Ok(id)
}

/// Opens a defence or a reconsideration on the auto `number` drawn up against the driver
/// whose CPF is `cpf`; a number and a CPF that do not go together are not told apart from a
/// number that does not exist.
async fn open_on_auto(
    state: &AppState,
    applicant: &Applicant,
    kind: FilingKind,
    number: &str,
    cpf: &str,
) -> Result<Uuid, FilingError> {
    let refused = || {
        FilingError::Refused(
            "Não encontramos um auto de infração com este número lavrado contra este CPF. \
             Confira os dois como estão impressos na notificação."
                .into(),
        )
    };
    let cpf = Cpf::parse(cpf).map_err(|_| refused())?;
    let Some((driver, true)) = state
        .store
        .driver_id_by_cpf_or_cnh(cpf.as_str(), "")
        .await?
    else {
        return Err(refused());
    };
    let number = number.trim();
    let auto = state
        .store
        .autos_of_driver(driver)
        .await?
        .into_iter()
        .find(|a| !number.is_empty() && a.number.eq_ignore_ascii_case(number))
        .ok_or_else(refused)?;
    open_on(state, applicant, kind, auto.id).await
}

/// What the filing is about, read from the register (or, for what is not registered yet,
/// from what the applicant stated).
async fn subject_of(
    state: &AppState,
    kind: FilingKind,
    subject: Uuid,
    stated: &BTreeMap<String, String>,
) -> Result<Subject, FilingError> {
    let named = |key: &str| stated.get(key).cloned().unwrap_or_default();
    match kind.opening() {
        Opening::Auto => {
            let auto = state
                .store
                .get_auto(subject)
                .await?
                .ok_or(FilingError::NotFound)?;
            let driver = state.store.get_driver(auto.driver_id).await?;
            Ok(Subject {
                what: "Auto de infração",
                number: auto.number,
                holder: driver.map(|d| d.name).unwrap_or_default(),
                detail: format!(
                    "lavrado em {}",
                    format::date(crate::domain::dates::local_date(auto.drawn_up_at))
                ),
                desk_path: format!("/painel/ver/app-infraction-autos/{subject}"),
            })
        }
        Opening::Authorization => {
            let a = state
                .store
                .get_authorization(subject)
                .await?
                .ok_or(FilingError::NotFound)?;
            let driver = state.store.get_driver(a.driver_id).await?;
            Ok(Subject {
                what: "Autorização",
                number: a.number,
                holder: driver.map(|d| d.name).unwrap_or_default(),
                detail: format!("válida até {}", format::date(a.valid_until)),
                desk_path: format!("/painel/ver/app-authorizations/{subject}"),
            })
        }
        Opening::Driver => Ok(Subject {
            what: "Primeira autorização",
            number: String::new(),
            holder: named("name"),
            detail: "motorista ainda sem autorização".into(),
            desk_path: String::new(),
        }),
        Opening::NewCompany => Ok(Subject {
            what: "Empresa",
            number: Cnpj::parse(&named("cnpj"))
                .map(|c| c.formatted())
                .unwrap_or_default(),
            holder: named("name"),
            detail: "a cadastrar".into(),
            desk_path: String::new(),
        }),
        Opening::Company => {
            use crate::standing::charter::{current_termo, load_company, termos_of};
            let company = load_company(&state.store, subject)
                .await?
                .ok_or(FilingError::NotFound)?;
            let termos = termos_of(&state.store, subject).await?;
            let detail = current_termo(&termos, state.today()).map_or_else(
                || "sem Termo de Autorização em vigor".to_owned(),
                |t| {
                    format!(
                        "Termo {} válido até {}",
                        t.number,
                        format::date(t.data.valid_until)
                    )
                },
            );
            Ok(Subject {
                what: "Empresa",
                number: company.cnpj.formatted(),
                holder: company.data.name,
                detail,
                desk_path: format!("/painel/ver/charter/companies/{subject}"),
            })
        }
    }
}

/// The kinds' documents under the bases in force.
fn slots_of(state: &AppState, kind: FilingKind) -> Vec<Slot> {
    let basis = state.ride_hailing_basis();
    let citations = basis.document_citations.as_ref();
    let company_documents = if kind.is_charter() {
        filings::company_documents(&state.charter_basis())
    } else {
        Vec::new()
    };
    kind.slots(&SlotContext {
        requirements: &basis.requirements,
        data_change_citation: citations.map_or("", |c| c.data_change.as_str()),
        substitution_citation: citations.map_or("", |c| c.substitution.as_str()),
        company_documents: &company_documents,
    })
}

/// A filing as its applicant (`Some`) or an official (`None`) sees it; another applicant's
/// filing is not found.
pub async fn view(
    state: &AppState,
    id: Uuid,
    applicant: Option<&Applicant>,
) -> Result<FilingView, FilingError> {
    let (row, files) = state.store.filing(id).await?.ok_or(FilingError::NotFound)?;
    if applicant.is_some_and(|a| a.id.to_string() != row.applicant_id) {
        return Err(FilingError::NotFound);
    }
    let kind = FilingKind::parse(&row.kind).ok_or(FilingError::NotFound)?;
    let status = FilingStatus::parse(&row.status).ok_or(FilingError::NotFound)?;
    let subject = parse_uuid(&row.subject_id)?;
    let change = row
        .details
        .as_deref()
        .filter(|_| kind.states_a_change())
        .and_then(|d| serde_json::from_str::<ChangeStated>(d).ok());
    let stated: BTreeMap<String, String> = row
        .details
        .as_deref()
        .filter(|_| !kind.states_a_change())
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or_default();
    let about = subject_of(state, kind, subject, &stated).await?;
    let fields = kind.stated_fields(&filings::car_municipalities(
        &state.ride_hailing_basis().requirements,
    ));
    let slots = slots_of(state, kind);
    let standing: Vec<&str> = files
        .iter()
        .filter(|f| matches!(f.status.as_str(), "pendente" | "aceito"))
        .map(|f| f.slot.as_str())
        .collect();
    let missing = filings::missing(&slots, &standing)
        .into_iter()
        .map(|s| s.key.clone())
        .collect();
    let documents = match row.result_id.as_deref() {
        Some(r) if row.outcome.as_deref() == Some("deferido") && kind.issues_documents() => {
            issued(state, kind, parse_uuid(r)?).await?
        }
        _ => Vec::new(),
    };
    // Judged for the applicant only, while a renewal is theirs to complete.
    let preview = if kind == FilingKind::AppRenewal
        && applicant.is_some()
        && matches!(status, FilingStatus::Draft | FilingStatus::Waiting)
    {
        preview(state, subject).await
    } else {
        None
    };
    Ok(FilingView {
        subject: about,
        row,
        kind,
        status,
        files,
        slots,
        missing,
        documents,
        change,
        preview,
        fields,
        stated,
    })
}

/// The documents a granted filing's decision issued, from what it recorded (`result`): a new
/// or renewed authorization's; after a substitution, the authorization's newest pair; a
/// certidão; a Termo's.
async fn issued(
    state: &AppState,
    kind: FilingKind,
    result: Uuid,
) -> Result<Vec<Document>, FilingError> {
    Ok(match kind {
        FilingKind::AppRenewal | FilingKind::AppNewAuthorization => {
            state.store.documents_of_authorization(result).await?
        }
        FilingKind::AppSubstitution => {
            let all = state.store.documents_of_authorization(result).await?;
            let newest = all.iter().map(|d| d.substitution_seq).max().flatten();
            all.into_iter()
                .filter(|d| d.substitution_seq == newest)
                .collect()
        }
        FilingKind::AppCertidaoDriver | FilingKind::AppCertidaoVehicle => {
            state.store.document(result).await?.into_iter().collect()
        }
        FilingKind::CharterTermo => state.store.documents_of_subject(result).await?,
        _ => Vec::new(),
    })
}

/// Records what changed and when, in a report of changed data still the applicant's.
pub async fn state_change(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
    what: &str,
    changed_on: &str,
) -> Result<(), FilingError> {
    let v = view(state, id, Some(applicant)).await?;
    if !v.kind.states_a_change() {
        return Err(FilingError::NotFound);
    }
    if !v.is_open_to_applicant() {
        return Err(closed());
    }
    let change = ChangeStated::parse(what, changed_on, state.today())
        .map_err(|e| FilingError::Refused(e.to_owned()))?;
    let details = serde_json::to_string(&change)
        .map_err(|_| FilingError::Refused("A alteração não pôde ser lida.".into()))?;
    state
        .store
        .set_filing_details(
            id,
            &details,
            &format!("applicant:{}", applicant.id),
            state.clock.now(),
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(FILING_CLOSED) => closed(),
            e => e.into(),
        })
}

/// An official records the change a report states (APP-ART13-XIX), reported on the filing's
/// protocol date, through the same act as at the desk, and decides the filing with it; a
/// report after the period says so to the driver.
pub async fn record_change(state: &AppState, official: &str, id: Uuid) -> Result<(), FilingError> {
    let v = view(state, id, None).await?;
    let (Some(change), Some(reported_on)) = (v.change.as_ref(), v.row.protocolled_on) else {
        return Err(FilingError::Refused(
            "Este pedido não é uma comunicação de alteração de dados.".into(),
        ));
    };
    in_review(&v)?;
    let a = state
        .store
        .get_authorization(parse_uuid(&v.row.subject_id)?)
        .await?
        .ok_or(FilingError::NotFound)?;
    let reported = crate::issuance::ride_hailing::register::DataChange {
        what: change.what.clone(),
        changed_on: change.changed_on,
        reported_on,
    };
    let (due, late) = crate::issuance::ride_hailing::register::report_data_change(
        state,
        official,
        a.driver_id,
        &reported,
        None,
    )
    .await
    .map_err(|e| refused_by_act(id, e))?;
    let note = late.map(|l| {
        format!(
            "Comunicada em {}, depois do prazo, que terminou em {} ({}).",
            format::date(reported_on),
            format::date(due.due),
            l.article
        )
    });
    decide(
        state,
        official,
        id,
        Outcome::Granted(a.driver_id),
        note.as_deref(),
    )
    .await
}

/// Adds a file to one of the filing's slots: PDF, JPEG or PNG by its content, its name
/// agreeing, at most the configured size; nothing is kept when it is refused.
pub async fn add_file(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
    slot: &str,
    name: &str,
    bytes: &[u8],
) -> Result<(), FilingError> {
    let v = view(state, id, Some(applicant)).await?;
    if !v.is_open_to_applicant() {
        return Err(closed());
    }
    let Some(slot) = v.slots.iter().find(|s| s.key == slot) else {
        return Err(FilingError::Refused(
            "Escolha qual documento o arquivo é.".into(),
        ));
    };
    let limits = &state.settings.limits;
    let media = filings::check_file(name, bytes, limits.filing_file_bytes)
        .map_err(|r| FilingError::Refused(r.to_string()))?;
    let sha256 = crate::signing::hex(&Sha256::digest(bytes));
    let name = filings::clean_name(name);
    let added = state
        .store
        .add_filing_file(
            &NewFile {
                filing_id: id,
                slot: &slot.key,
                file_name: &name,
                media_type: media.mime(),
                sha256: &sha256,
                content: bytes,
                // Never fewer than the documents the kind requires (a company's art. 7 list).
                max_files: limits
                    .filing_files
                    .max(i64::try_from(v.slots.iter().filter(|s| s.required).count()).unwrap_or(0)),
                max_in_slot: i64::try_from(slot.max_files).unwrap_or(1),
            },
            &format!("applicant:{}", applicant.id),
            state.clock.now(),
        )
        .await;
    match added {
        Ok(_) => Ok(()),
        Err(StorageError::Conflict(SLOT_FULL)) => Err(FilingError::Refused(format!(
            "“{}” já tem {} arquivo(s); não é possível juntar mais.",
            slot.label, slot.max_files
        ))),
        Err(StorageError::Conflict(TOO_MANY_FILES)) => Err(FilingError::Refused(format!(
            "O pedido já tem {} arquivos, o máximo.",
            limits.filing_files
        ))),
        Err(StorageError::Conflict(FILING_CLOSED)) => Err(closed()),
        Err(e) => Err(e.into()),
    }
}

const NOT_IN_REVIEW: &str = "O pedido não está em análise (ainda em preparo ou já decidido).";

fn not_in_review(e: StorageError) -> FilingError {
    match e {
        StorageError::Conflict(FILING_CLOSED) => FilingError::Refused(NOT_IN_REVIEW.into()),
        e => e.into(),
    }
}

/// Refuses an official's act on a filing that is not with the officials.
fn in_review(v: &FilingView) -> Result<(), FilingError> {
    if matches!(v.status, FilingStatus::Filed | FilingStatus::Waiting) {
        Ok(())
    } else {
        Err(FilingError::Refused(NOT_IN_REVIEW.into()))
    }
}

fn closed() -> FilingError {
    FilingError::Refused(
        "Este pedido já foi enviado e está com a Prefeitura; não pode ser mudado agora.".into(),
    )
}

/// Protocols the filing (a draft with every document it asks for), or sends the answer to an
/// exigência back to the officials. Answers the filing's number.
pub async fn submit(
    state: &AppState,
    applicant: &Applicant,
    id: Uuid,
) -> Result<String, FilingError> {
    let v = view(state, id, Some(applicant)).await?;
    if !v.is_open_to_applicant() {
        return Err(closed());
    }
    if !v.missing.is_empty() {
        let names: Vec<&str> = v
            .slots
            .iter()
            .filter(|s| v.missing.contains(&s.key))
            .map(|s| s.label.as_str())
            .collect();
        return Err(FilingError::Refused(format!(
            "Ainda falta juntar: {}.",
            names.join("; ")
        )));
    }
    if v.kind.states_a_change() && v.change.is_none() {
        return Err(FilingError::Refused(
            "Diga o que mudou e em que data antes de enviar.".into(),
        ));
    }
    let unanswered: Vec<&str> = v.unanswered().iter().map(|f| f.label.as_str()).collect();
    if !unanswered.is_empty() {
        return Err(FilingError::Refused(format!(
            "Ainda falta informar: {}.",
            unanswered.join("; ")
        )));
    }
    let answering = v.status == FilingStatus::Waiting;
    let today = state.today();
    let presentation_days = state.ride_hailing_basis().vistoria_presentation_days;
    let number = state
        .store
        .submit_filing(
            id,
            today,
            &format!("applicant:{}", applicant.id),
            state.clock.now(),
            |number| {
                let text = if answering {
                    format!(
                        "Recebemos sua resposta à exigência do pedido {number}. Ele voltou para \
                         análise da Prefeitura."
                    )
                } else {
                    format!(
                        "Seu pedido “{}”, referente a: {}, foi protocolado com o número \
                         {number}, em {}. A Prefeitura vai analisá-lo; você receberá um e-mail \
                         a cada novidade.{}",
                        v.kind.label(),
                        v.subject.line(),
                        format::date(today),
                        in_person(v.kind, presentation_days)
                    )
                };
                mail_to(
                    state,
                    &v.row,
                    "filing_protocolled",
                    format!("Pedido {number} recebido"),
                    &text,
                )
            },
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(FILING_CLOSED) => closed(),
            e => e.into(),
        })?;
    state.mail_wake.notify_one();
    tracing::info!(filing = %id, number, "filing submitted");
    Ok(number)
}

/// What the applicant still does in person after filing, as the protocol's e-mail says it:
/// the new car of a substitution passes a vistoria before it is substituted (APP-ART8-P2); a
/// first authorization's car, within the days the basis sets after the approval (APP-ART9).
fn in_person(kind: FilingKind, presentation_days: u32) -> String {
    match kind {
        FilingKind::AppSubstitution => "\n\nO carro novo passa por vistoria da Prefeitura antes \
            da substituição: aguarde o agendamento."
            .to_owned(),
        FilingKind::AppNewAuthorization => format!(
            "\n\nSe o pedido for deferido, o carro deve ser apresentado à vistoria da Prefeitura \
             em até {presentation_days} dias da aprovação."
        ),
        _ => String::new(),
    }
}

/// An official accepts a pending file, or refuses it with the reason the applicant reads.
pub async fn examine(
    state: &AppState,
    official: &str,
    id: Uuid,
    file: Uuid,
    refusal: Option<&str>,
) -> Result<(), FilingError> {
    let v = view(state, id, None).await?;
    let refusal = refusal.map(str::trim).filter(|r| !r.is_empty());
    let mail = match refusal {
        Some(reason) => {
            let f = v
                .files
                .iter()
                .find(|f| f.id == file.to_string())
                .ok_or(FilingError::NotFound)?;
            let label = v
                .slots
                .iter()
                .find(|s| s.key == f.slot)
                .map_or(f.slot.as_str(), |s| s.label.as_str());
            let number = v.row.number.clone().unwrap_or_default();
            Some(mail_to(
                state,
                &v.row,
                "filing_file_refused",
                format!("Pedido {number}: um documento foi recusado"),
                &format!(
                    "O arquivo “{}” ({label}) do pedido {number} foi recusado pela Prefeitura:\n\n    \
                     {reason}\n\nEnvie outro arquivo no lugar dele pela página do pedido.",
                    f.file_name
                ),
            ))
        }
        None => None,
    };
    state
        .store
        .examine_filing_file(
            id,
            file,
            refusal,
            official,
            state.clock.now(),
            mail.as_ref(),
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(FILE_EXAMINED) => FilingError::Refused(
                "Este arquivo já foi examinado, foi substituído ou o pedido não está em análise."
                    .into(),
            ),
            e => e.into(),
        })?;
    if mail.is_some() {
        state.mail_wake.notify_one();
    }
    Ok(())
}

/// An official asks the applicant for what is missing, within `days` calendar days.
pub async fn demand(
    state: &AppState,
    official: &str,
    id: Uuid,
    text: &str,
    days: i64,
) -> Result<(), FilingError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FilingError::Refused(
            "Escreva o que o requerente precisa apresentar.".into(),
        ));
    }
    if !(1..=90).contains(&days) {
        return Err(FilingError::Refused(
            "O prazo precisa ser de 1 a 90 dias.".into(),
        ));
    }
    let v = view(state, id, None).await?;
    let due = state.today() + Duration::days(days);
    let number = v.row.number.clone().unwrap_or_default();
    let mail = mail_to(
        state,
        &v.row,
        "filing_demand",
        format!("Pedido {number}: a Prefeitura pede um documento"),
        &format!(
            "Para continuar a análise do pedido {number}, a Prefeitura pede:\n\n    {text}\n\n\
             Responda até {} pela página do pedido: junte o que foi pedido e envie de novo.",
            format::date(due)
        ),
    );
    state
        .store
        .demand_on_filing(id, text, due, official, state.clock.now(), &mail)
        .await
        .map_err(not_in_review)?;
    state.mail_wake.notify_one();
    Ok(())
}

/// Why the desk's act that decides filing `id` was not taken, as the official reads it: the
/// rules it failed with their provisions, the procedure's own reason, or a retry.
fn refused_by_act(id: Uuid, e: crate::issuance::UseCaseError) -> FilingError {
    use crate::issuance::UseCaseError;
    match e {
        UseCaseError::Storage(e) => FilingError::Storage(e),
        UseCaseError::Rules(failures) => FilingError::Refused(
            failures
                .iter()
                .map(|f| format!("{} ({})", f.message, f.article))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        UseCaseError::Conflict { detail, .. } => FilingError::Refused(detail),
        e => {
            tracing::error!(filing = %id, error = %e, "the act deciding a filing was not taken");
            FilingError::Refused("O ato não pôde ser registrado agora; tente de novo.".into())
        }
    }
}

/// An official issues the certidão a certidão filing asks for, numbered with the filing's
/// protocol, through the same act as at the desk, and decides the filing with it. The register
/// may refuse it (a rule of the certidão); the filing then stays as it was.
pub async fn issue_certidao(state: &AppState, official: &str, id: Uuid) -> Result<(), FilingError> {
    let v = view(state, id, None).await?;
    let Some(subject) = v.kind.certidao_subject() else {
        return Err(FilingError::Refused(
            "Este pedido não é de certidão.".into(),
        ));
    };
    in_review(&v)?;
    let authorization = parse_uuid(&v.row.subject_id)?;
    let protocol = v.row.number.clone().unwrap_or_default();
    let doc = crate::issuance::ride_hailing::authorizations::certidao(
        state,
        official,
        authorization,
        subject,
        &protocol,
    )
    .await
    .map_err(|e| refused_by_act(id, e))?;
    decide(state, official, id, Outcome::Granted(doc.id), None).await
}

/// An official joins a defence or a reconsideration to the auto's procedure (APP-ART22) as
/// filed on the filing's protocol date, with its number as the protocol, through the same act
/// as at the desk, and decides the filing with it. The procedure judges it as at the counter:
/// an act out of its order is refused and the filing stays as it was.
pub async fn file_on_auto(state: &AppState, official: &str, id: Uuid) -> Result<(), FilingError> {
    use crate::domain::charter::sanctions::ProcedureAct;
    let v = view(state, id, None).await?;
    let (Some(number), Some(filed_on)) = (v.row.number.clone(), v.row.protocolled_on) else {
        return Err(FilingError::Refused(NOT_IN_REVIEW.into()));
    };
    let act = match v.kind {
        FilingKind::AppDefence => ProcedureAct::Defesa {
            protocol: number,
            filed_on,
        },
        FilingKind::AppReconsideration => ProcedureAct::Reconsideracao {
            protocol: number,
            filed_on,
        },
        _ => {
            return Err(FilingError::Refused(
                "Este pedido não é uma defesa nem um pedido de reconsideração.".into(),
            ));
        }
    };
    in_review(&v)?;
    let auto = parse_uuid(&v.row.subject_id)?;
    crate::issuance::ride_hailing::autos::procedure_act(state, official, auto, &act)
        .await
        .map_err(|e| refused_by_act(id, e))?;
    decide(state, official, id, Outcome::Granted(auto), None).await
}

/// How a filing was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Granted: the new authorization, or the certidão (its id), was issued.
    Granted(Uuid),
    /// Sent to an official's review: nothing issued yet.
    InReview,
    /// Refused, with the reason the applicant reads.
    Refused,
}

/// What a decision records and tells the applicant: its code, what it issued, the e-mail's
/// subject and text.
fn told(
    v: &FilingView,
    outcome: Outcome,
    note: Option<&str>,
) -> (&'static str, Option<Uuid>, String, String) {
    let number = v.row.number.clone().unwrap_or_default();
    match outcome {
        Outcome::Granted(new) if v.kind.certidao_subject().is_some() => (
            "deferido",
            Some(new),
            format!("Pedido {number} deferido: certidão emitida"),
            format!(
                "Seu pedido {number} foi deferido: a {} foi emitida e está na página do \
                 pedido, para baixar.",
                v.kind.label().to_lowercase()
            ),
        ),
        Outcome::Granted(new) if v.kind.on_auto() => (
            "deferido",
            Some(new),
            format!("Pedido {number} juntado ao processo"),
            format!(
                "Seu pedido {number} (“{}”) foi juntado ao processo do auto de infração {}, \
                 com a data do protocolo. A decisão será comunicada a você.",
                v.kind.label(),
                v.subject.number
            ),
        ),
        Outcome::Granted(new) if v.kind.states_a_change() => (
            "deferido",
            Some(new),
            format!("Comunicação {number} registrada"),
            format!(
                "A alteração de dados que você comunicou no pedido {number} foi registrada no \
                 cadastro.{}",
                note.map_or_else(String::new, |n| format!("\n\n    {n}"))
            ),
        ),
        Outcome::Granted(new) if v.kind.issues_documents() => (
            "deferido",
            Some(new),
            format!("Pedido {number} deferido"),
            format!(
                "Seu pedido {number} (“{}”) foi deferido: {} {}",
                v.kind.label(),
                v.kind.granted_line(),
                if v.kind.is_charter() {
                    "O Termo está na página do pedido, para baixar."
                } else {
                    "A autorização e o adesivo estão na página do pedido, para baixar e imprimir."
                }
            ),
        ),
        Outcome::Granted(new) => (
            "deferido",
            Some(new),
            format!("Pedido {number} deferido"),
            format!(
                "Seu pedido {number} (“{}”) foi deferido: {}",
                v.kind.label(),
                v.kind.granted_line()
            ),
        ),
        Outcome::InReview => (
            "em_revisao",
            None,
            format!("Pedido {number} em revisão"),
            format!(
                "Seu pedido {number} depende da decisão de um servidor da Prefeitura, que vai \
                 examinar o caso. Você receberá um e-mail com a decisão."
            ),
        ),
        Outcome::Refused => (
            "indeferido",
            None,
            format!("Pedido {number} indeferido"),
            format!(
                "Seu pedido {number} foi indeferido pela Prefeitura, pelo motivo:\n\n    {}",
                note.unwrap_or_default()
            ),
        ),
    }
}

/// Records the decision of a filing (the renewal, when granted, committed before) and tells
/// the applicant.
pub async fn decide(
    state: &AppState,
    official: &str,
    id: Uuid,
    outcome: Outcome,
    note: Option<&str>,
) -> Result<(), FilingError> {
    let note = note.map(str::trim).filter(|n| !n.is_empty());
    if outcome == Outcome::Refused && note.is_none() {
        return Err(FilingError::Refused(
            "Escreva o motivo do indeferimento: o requerente o recebe por e-mail.".into(),
        ));
    }
    let v = view(state, id, None).await?;
    let (code, result, subject, text) = told(&v, outcome, note);
    let mail = mail_to(state, &v.row, "filing_decided", subject, &text);
    state
        .store
        .decide_filing(id, code, note, result, official, state.clock.now(), &mail)
        .await
        .map_err(not_in_review)?;
    state.mail_wake.notify_one();
    tracing::info!(filing = %id, outcome = code, "filing decided");
    // The company registered online is followed by whoever asked: its Termo, its buses and
    // its reminders are theirs from then on.
    if let (FilingKind::CharterRegistration, Outcome::Granted(company)) = (v.kind, outcome) {
        let applicant = parse_uuid(&v.row.applicant_id)?;
        state
            .store
            .link_applicant(applicant, LinkedEntity::Company(company), state.clock.now())
            .await?;
    }
    Ok(())
}
