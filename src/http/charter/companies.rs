//! Charter companies (Lei 4.937/2025, arts. 7–9, 18, 26): registration, the art. 7
//! checklist, the Termo de Autorização, sanctions and the transitional deadlines.

use super::{
    ApiError, AppState, CharterStatus, Cnpj, Company, CompanyChecklist, CompanyData,
    CompanySanction, CompanySanctionKind, DateTime, Deserialize, DocumentView, Fields,
    HttpResponse, Modality, NaiveDate, NewCompany, Official, ProblemItem, Reply, Serialize, Utc,
    Uuid, calendar, company_or_404, document_view, local_date, parsed, path_id, rectification, reg,
    register, rules, web,
};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCompanyDto {
    cnpj: String,
    name: String,
    address: String,
    phone: String,
    email: String,
    modality: Modality,
    protocol: String,
    applied_on: String,
    #[serde(default)]
    operating_before_law: bool,
    #[serde(default)]
    checklist: CompanyChecklist,
}

/// `POST /api/v1/charter/companies` (FRET-ART7): registers the application. An incomplete
/// checklist is accepted and reported; it blocks the Termo, not the filing.
#[utoipa::path(post, path = "/api/v1/charter/companies", tag = "charter companies", security(("bearer" = [])),
    responses((status = 201, description = "Empresa cadastrada", body = CompanyView)))]
pub async fn create_company(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewCompanyDto>,
) -> Reply {
    let new = NewCompany::try_from(body.into_inner())?;
    let id = register::register_company(&state, &official.actor, new).await?;
    let company = register::company(&state, id).await?;
    Ok(HttpResponse::Created().json(company_json(&state, &company).await?))
}

/// What registering a company would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyCheckView {
    /// `true` quando a empresa seria cadastrada como está (o CNPJ ainda não cadastrado).
    passes: bool,
    /// Os documentos do art. 7º que faltam ou estão vencidos: não impedem o cadastro, impedem
    /// o Termo de Autorização.
    missing_for_termo: Vec<ProblemItem>,
    /// Por que a empresa não seria cadastrada, com o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/charter/company-checks` (FRET-ART7): judges a company's application as it
/// would be registered now, and the documents its Termo would still need; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/company-checks", tag = "charter companies", security(("bearer" = [])),
    responses((status = 200, description = "O que o cadastro decidiria e o que ainda falta para o Termo", body = CompanyCheckView)))]
pub async fn check_company(
    state: web::Data<AppState>,
    _official: Official,
    body: web::Json<NewCompanyDto>,
) -> Reply {
    let new = NewCompany::try_from(body.into_inner())?;
    let (registered, missing) = register::check_company(&state, &new).await?;
    Ok(HttpResponse::Ok().json(CompanyCheckView {
        passes: !registered,
        missing_for_termo: missing.into_iter().map(ProblemItem::from).collect(),
        errors: if registered {
            vec![ProblemItem::field(
                "cnpj",
                "Empresa já cadastrada com este CNPJ.",
            )]
        } else {
            Vec::new()
        },
    }))
}

impl TryFrom<NewCompanyDto> for NewCompany {
    type Error = ApiError;

    fn try_from(dto: NewCompanyDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let cnpj = f.take("cnpj", Cnpj::parse(&dto.cnpj), "CNPJ inválido.");
        let name = f.text("name", &dto.name, 200);
        let address = f.text("address", &dto.address, 300);
        let phone = f.text("phone", &dto.phone, 40);
        let email = f.text("email", &dto.email, 200);
        let protocol = f.text("protocol", &dto.protocol, 60);
        let applied_on = f.date("applied_on", &dto.applied_on);
        if !dto.email.contains('@') {
            f.take::<(), ()>("email", Err(()), "E-mail inválido.");
        }
        let (cnpj, name, address, phone, email, protocol, applied_on) = f.done(parsed!(
            cnpj, name, address, phone, email, protocol, applied_on
        ))?;
        Ok(Self {
            cnpj,
            data: CompanyData {
                name,
                address,
                phone,
                email,
                modality: dto.modality,
                protocol,
                applied_on,
                operating_before_law: dto.operating_before_law,
                checklist: dto.checklist,
            },
        })
    }
}

pub(super) async fn company_json(state: &AppState, c: &Company) -> Result<CompanyView, ApiError> {
    company_json_at(state, c, local_date(state.clock.now())).await
}

/// The company, its Termo and its vehicles as they stood on `today` (a past day for
/// `as_of`), from the acts recorded with their dates.
async fn company_json_at(
    state: &AppState,
    c: &Company,
    today: NaiveDate,
) -> Result<CompanyView, ApiError> {
    let basis = &state.charter_basis();
    let termos = reg::termos_of(&state.store, c.id).await?;
    let (status, suspended_until) = reg::company_status(c, &termos, today);
    let mut checklist_failures = Vec::new();
    // What the basis asks of a company.
    rules::company_documents(&c.data.checklist, today, basis, &mut checklist_failures);
    let mut ignored = Vec::new();
    let barred_until = rules::company_bar(&c.cassations(), today, basis, &mut ignored);
    let cal = calendar(state).await?;
    let transition = rules::transition_deadlines(basis, &cal, &state.deadline_rules);
    let warnings: Vec<ProblemItem> = rules::late_transition_warning(
        c.data.operating_before_law,
        c.data.applied_on,
        &transition.company_registration,
        "FRET-ART26",
        "art. 26",
        "Pedido de registro de empresa que já operava",
    )
    .into_iter()
    .map(ProblemItem::from)
    .collect();
    let vehicles = reg::vehicles_of(&state.store, c.id).await?;
    let vehicles: Vec<_> = vehicles
        .iter()
        .map(|v| {
            let r = rules::vehicle_status(&v.record, &c.cnpj, today, basis);
            VehicleSummary {
                id: v.id,
                plate: v.plate.formatted(),
                status: r.status,
            }
        })
        .collect();
    let current = reg::current_termo(&termos, today);
    // Each Termo's signed document, to download from the company's page.
    let mut pdfs = Vec::new();
    for t in &termos {
        if let Some(doc) = state.store.documents_of_subject(t.id).await?.pop() {
            pdfs.push((t.id, format!("/api/v1/charter/documents/{}", doc.id)));
        }
    }
    Ok(CompanyView {
        id: c.id,
        cnpj: c.cnpj.formatted(),
        name: c.data.name.clone(),
        address: c.data.address.clone(),
        phone: c.data.phone.clone(),
        email: c.data.email.clone(),
        modality: c.data.modality,
        protocol: c.data.protocol.clone(),
        applied_on: c.data.applied_on,
        operating_before_law: c.data.operating_before_law,
        status,
        status_label: status.label_pt(),
        suspended_until,
        new_registration_from: barred_until,
        termo: current.map(|t| TermoSummary::of(t, false, &pdfs)),
        termos: termos
            .iter()
            .map(|t| TermoSummary::of(t, true, &pdfs))
            .collect(),
        checklist: c.data.checklist.clone(),
        checklist_failures: checklist_failures
            .into_iter()
            .map(ProblemItem::from)
            .collect(),
        sanctions: c.sanctions.clone(),
        vehicles,
        warnings,
        legal_basis_version: basis.version.clone(),
        created_at: c.created_at,
    })
}

/// A charter company: its filing, status now, Termos, sanctions and fleet.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyView {
    id: Uuid,
    /// CNPJ formatado.
    cnpj: String,
    name: String,
    address: String,
    phone: String,
    email: String,
    modality: Modality,
    protocol: String,
    applied_on: NaiveDate,
    operating_before_law: bool,
    status: CharterStatus,
    status_label: &'static str,
    suspended_until: Option<NaiveDate>,
    /// Depois de uma cassação, a partir de quando pode pedir novo registro (art. 20, parágrafo único).
    new_registration_from: Option<NaiveDate>,
    /// O Termo em vigor hoje.
    termo: Option<TermoSummary>,
    termos: Vec<TermoSummary>,
    checklist: CompanyChecklist,
    checklist_failures: Vec<ProblemItem>,
    sanctions: Vec<CompanySanction>,
    vehicles: Vec<VehicleSummary>,
    warnings: Vec<ProblemItem>,
    legal_basis_version: String,
    created_at: DateTime<Utc>,
}

/// A Termo de Autorização, in a company's list.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TermoSummary {
    id: Uuid,
    number: String,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    /// O número do Termo que este renova (só na lista `termos`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[expect(
        clippy::option_option,
        reason = "absent from `termo`; null in `termos` when a first grant"
    )]
    renews: Option<Option<String>>,
    /// O PDF assinado do Termo.
    pdf: Option<String>,
}

impl TermoSummary {
    fn of(t: &reg::Termo, with_renews: bool, pdfs: &[(Uuid, String)]) -> Self {
        Self {
            id: t.id,
            number: t.number.clone(),
            valid_from: t.data.valid_from,
            valid_until: t.data.valid_until,
            renews: with_renews.then(|| t.data.renews.clone()),
            pdf: pdfs
                .iter()
                .find(|(termo, _)| *termo == t.id)
                .map(|(_, pdf)| pdf.clone()),
        }
    }
}

/// A vehicle of a company's fleet, with its status now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VehicleSummary {
    id: Uuid,
    plate: String,
    status: CharterStatus,
}

#[utoipa::path(get, path = "/api/v1/charter/companies/{id}", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa"), crate::http::authorizations::AsOfQuery),
    responses((status = 200, description = "A empresa, com a situação do Termo hoje ou ao fim do dia `as_of`", body = CompanyView)))]
pub async fn get_company(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
    q: web::Query<crate::http::authorizations::AsOfQuery>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let Some(day) = q.day(&state)? else {
        return Ok(HttpResponse::Ok().json(company_json(&state, &c).await?));
    };
    if day < local_date(c.created_at) {
        return Err(crate::http::authorizations::AsOfQuery::before_record(
            "A empresa",
        ));
    }
    Ok(HttpResponse::Ok().json(company_json_at(&state, &c, day).await?))
}

/// `POST /api/v1/charter/companies/{id}/checklist` (FRET-ART7, FRET-ART8-P2): files the
/// documents again (a renewal needs fresh proofs).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/checklist", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "Documentos registrados", body = CompanyView)))]
pub async fn file_checklist(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CompanyChecklist>,
) -> Reply {
    let id = path_id(&id, "Empresa")?;
    register::file_checklist(&state, &official.actor, id, &body.into_inner()).await?;
    let c = register::company(&state, id).await?;
    Ok(HttpResponse::Ok().json(company_json(&state, &c).await?))
}

/// What a Termo's application may say; the body may be empty or `{}`.
#[derive(Deserialize, Default, utoipa::ToSchema)]
pub struct TermoRequestDto {
    /// The day the application was protocolled at SIS (AAAA-MM-DD; default today, never
    /// future): the art. 20 bar is judged there too (AMB-64).
    protocolled_on: Option<String>,
}

/// `POST /api/v1/charter/companies/{id}/termos` (FRET-ART8, §1º, §2º, AMB-55): grants or
/// renews the Termo de Autorização and issues its signed PDF.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/termos", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    request_body = TermoRequestDto,
    responses((status = 201, description = "Termo de Autorização emitido", body = TermoView)))]
pub async fn grant_termo(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Bytes,
) -> Reply {
    let id = path_id(&id, "Empresa")?;
    let dto: TermoRequestDto = if body.iter().all(u8::is_ascii_whitespace) {
        TermoRequestDto::default()
    } else {
        serde_json::from_slice(&body).map_err(|_| {
            ApiError::Invalid(vec![ProblemItem::field(
                "body",
                "Corpo inválido: envie {} ou {\"protocolled_on\": \"AAAA-MM-DD\"}.",
            )])
        })?
    };
    let mut f = Fields::default();
    let protocolled_on = dto
        .protocolled_on
        .as_deref()
        .map(|d| f.date("protocolled_on", d));
    f.finish()?;
    let (c, termo, doc) =
        register::grant_termo(&state, &official.actor, id, protocolled_on.flatten()).await?;
    Ok(HttpResponse::Created().json(TermoView {
        id: termo.id,
        number: termo.number.clone(),
        company_id: c.id,
        modality: termo.data.modality,
        valid_from: termo.data.valid_from,
        valid_until: termo.data.valid_until,
        renews: termo.data.renews.clone(),
        legal_basis_version: termo.data.legal_basis_version.clone(),
        protocolled_on: termo.data.protocolled_on,
        document: document_view(&state, &doc),
    }))
}

/// What a Termo's check may say: the art. 7 checklist to judge in place of the one filed.
#[derive(Deserialize, Default, utoipa::ToSchema)]
pub struct TermoCheckDto {
    #[serde(default)]
    #[schema(format = Date)]
    protocolled_on: Option<String>,
    /// Os documentos do art. 7º a conferir no lugar dos juntados (todos os itens).
    #[serde(default)]
    checklist: Option<CompanyChecklist>,
}

/// What the Termo's grant or renewal would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TermoCheckView {
    /// `true` quando o Termo seria emitido como está.
    passes: bool,
    valid_from: Option<NaiveDate>,
    valid_until: Option<NaiveDate>,
    /// O Termo que este renovaria sem intervalo, se houver.
    renews: Option<String>,
    company: String,
    /// Cada requisito não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/charter/companies/{id}/termo-checks` (FRET-ART7, FRET-ART8): judges the
/// Termo's grant or renewal as it would be decided now, with the checklist given in place of
/// the one filed; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/termo-checks", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "O que a emissão do Termo decidiria, com cada requisito não atendido", body = TermoCheckView)))]
pub async fn check_termo(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<TermoCheckDto>,
) -> Reply {
    let id = path_id(&id, "Empresa")?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let protocolled_on = dto
        .protocolled_on
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .map(|d| f.date("protocolled_on", d));
    f.finish()?;
    let (c, decided) =
        register::check_termo(&state, id, dto.checklist.as_ref(), protocolled_on.flatten()).await?;
    let view = match decided {
        Ok(d) => TermoCheckView {
            passes: true,
            valid_from: Some(d.valid_from),
            valid_until: Some(d.valid_until),
            renews: d.renews,
            company: c.data.name.clone(),
            errors: Vec::new(),
        },
        Err(failures) => TermoCheckView {
            passes: false,
            valid_from: None,
            valid_until: None,
            renews: None,
            company: c.data.name.clone(),
            errors: failures.into_iter().map(ProblemItem::from).collect(),
        },
    };
    Ok(HttpResponse::Ok().json(view))
}

/// A Termo de Autorização just granted, with its signed document.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TermoView {
    id: Uuid,
    /// The day the application was protocolled.
    protocolled_on: Option<NaiveDate>,
    number: String,
    company_id: Uuid,
    modality: Modality,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    renews: Option<String>,
    legal_basis_version: String,
    document: DocumentView,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterSanctionDto {
    kind: CompanySanctionKind,
    effective_from: String,
    #[serde(default)]
    until: Option<String>,
    article: String,
    reason: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/companies/{id}/sanctions` (FRET-ART18, FRET-ART20): records a
/// sanction decided by the competent authority.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/sanctions", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Sanção registrada", body = CompanyView)))]
pub async fn apply_sanction(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterSanctionDto>,
) -> Reply {
    // The record is looked up before the body is parsed: a missing one is a 404 first.
    let id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let sanction = CompanySanction::try_from(body.into_inner())?;
    register::apply_sanction(&state, &official.actor, id, &sanction, rectifies.as_ref()).await?;
    let c = register::company(&state, id).await?;
    Ok(HttpResponse::Created().json(company_json(&state, &c).await?))
}

impl TryFrom<CharterSanctionDto> for CompanySanction {
    type Error = ApiError;

    fn try_from(dto: CharterSanctionDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let from = f.date("effective_from", &dto.effective_from);
        let until = dto.until.as_deref().map(|u| f.date("until", u));
        let reason = f.text("reason", &dto.reason, 2000);
        if !rules::sanction_grounded(dto.kind, dto.article.trim()) {
            f.take::<(), ()>(
                "article",
                Err(()),
                "Artigo incompatível com a sanção: cassação (art. 20, I a IV), advertência (art. 18, I), suspensão (art. 18, III) ou apreensão (art. 18, IV).",
            );
        }
        let until = until.flatten();
        if let Some(message) = rules::fret_art18_iii_suspension_end(dto.kind, from, until) {
            f.take::<(), ()>("until", Err(()), message);
        }
        let (effective_from, reason) = f.done(parsed!(from, reason))?;
        Ok(Self {
            kind: dto.kind,
            effective_from,
            until: until.filter(|_| dto.kind == CompanySanctionKind::Suspensao),
            article: dto.article.trim().to_owned(),
            reason,
        })
    }
}

/// `GET /api/v1/charter/transition` (FRET-ART26, §1º): the transitional deadlines.
#[utoipa::path(get, path = "/api/v1/charter/transition", tag = "charter companies",
    responses((status = 200, description = "Os prazos de transição (art. 26)", body = rules::TransitionDeadlines)))]
pub async fn transition(state: web::Data<AppState>) -> Reply {
    let cal = calendar(&state).await?;
    Ok(HttpResponse::Ok().json(rules::transition_deadlines(
        &state.charter_basis(),
        &cal,
        &state.deadline_rules,
    )))
}
