//! Charter autos de infração (Lei 4.937/2025, arts. 18–23): drawing up, the acts of
//! the procedure, the notice, the list of a company's autos and the art. 19 catalogue.

use super::{
    ApiError, AppState, AutoView, CharterInfraction, Deserialize, DocumentView, Fields,
    HttpResponse, NaiveDate, NewAuto, Official, Plate, ProcedureAct, Reply, Serialize, Uuid,
    company_or_404, document_view, issue, local_date, not_found, parsed, path_id, reg, register,
    web,
};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewAutoDto {
    infraction: String,
    /// A data da infração; dispensável quando `committed_at` a traz.
    #[serde(default)]
    committed_on: Option<String>,
    /// Data e hora da infração, no horário de Mato Grosso ou RFC 3339.
    #[serde(default)]
    #[schema(format = DateTime)]
    committed_at: Option<String>,
    place: String,
    facts: String,
    inspector: String,
    #[serde(default)]
    vehicle_plate: Option<String>,
    /// Quando o agente lavrou o auto, se antes do registro no sistema; padrão: agora.
    #[serde(default)]
    #[schema(format = DateTime)]
    drawn_up_at: Option<String>,
}

pub(super) async fn auto_views(
    state: &AppState,
    company_id: Uuid,
) -> Result<Vec<AutoView>, ApiError> {
    Ok(reg::company_autos_now(state, company_id, local_date(state.clock.now())).await?)
}

pub(super) async fn auto_reply(
    state: &AppState,
    company_id: Uuid,
    auto_id: Uuid,
    created: bool,
) -> Reply {
    let views = auto_views(state, company_id).await?;
    let view = views
        .into_iter()
        .find(|v| v.id == auto_id)
        .ok_or_else(|| not_found("Auto de infração"))?;
    // AMB-03: the R$ amount uses the UPF value of the year the auto was drawn up.
    let year = chrono::Datelike::year(&local_date(view.data.drawn_up_at));
    let upf = state.store.upf_value(year).await?;
    let basis = state.charter_basis_of(&view.data.legal_basis_version);
    let infraction = basis.infraction(&view.data.infraction);
    let centavos = view
        .fine
        .as_ref()
        .zip(upf)
        .map(|(f, v)| i64::from(f.upf) * v);
    let body = CharterAutoView {
        article: infraction.map(|i| i.article.clone()),
        description: infraction.map(|i| i.description.clone()),
        fine_centavos: centavos,
        fine_brl: centavos.map(crate::documents::format::money),
        fine_in_words: centavos.map(crate::documents::format::money_in_words),
        upf_year: year,
        view,
    };
    Ok(if created {
        HttpResponse::Created().json(body)
    } else {
        HttpResponse::Ok().json(body)
    })
}

/// A charter auto de infração with its procedure and fine in reais (art. 19).
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterAutoView {
    #[serde(flatten)]
    view: AutoView,
    article: Option<String>,
    description: Option<String>,
    /// A multa em centavos, com o valor da UPF do ano da lavratura (AMB-03).
    fine_centavos: Option<i64>,
    fine_brl: Option<String>,
    fine_in_words: Option<String>,
    upf_year: i32,
}

/// `POST /api/v1/charter/companies/{id}/autos` (FRET-ART19, FRET-ART19-PU, FRET-ART20-IV,
/// FRET-ART21): draws up an auto; the fine follows recidivism.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/autos", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Auto lavrado", body = CharterAutoView)))]
pub async fn create_auto(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewAutoDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let today = local_date(state.clock.now());
    let auto = NewAuto::try_from((body.into_inner(), today, &*state.charter_basis()))?;
    let aid = issue::draw_up_auto(&state, c.id, auto, &official.actor).await?;
    auto_reply(&state, c.id, aid, true).await
}

/// What drawing up a charter auto would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterAutoCheckView {
    /// `true` quando o auto seria lavrado como está.
    passes: bool,
    /// A multa, com a reincidência contada entre os autos da empresa.
    fine: Option<crate::domain::charter::sanctions::FineAssessment>,
    /// A multa em reais, quando o valor da UPF do ano é conhecido.
    fine_brl: Option<String>,
    /// Por que o auto não seria lavrado, com o campo.
    errors: Vec<crate::http::problem::ProblemItem>,
}

/// `POST /api/v1/charter/companies/{id}/auto-checks` (FRET-ART19, FRET-ART19-PU,
/// FRET-ART20-IV): judges an auto as it would be drawn up now — its fine, recidivism counted —
/// writing nothing.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/auto-checks", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "O que a lavratura decidiria: a multa, ou por que não seria lavrado", body = CharterAutoCheckView)))]
pub async fn check_auto(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<NewAutoDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let today = local_date(state.clock.now());
    let auto = NewAuto::try_from((body.into_inner(), today, &*state.charter_basis()))?;
    let view = match issue::assess_auto(&state, c.id, &auto).await {
        Ok(fine) => {
            let year = chrono::Datelike::year(&today);
            let upf = state.store.upf_value(year).await?;
            CharterAutoCheckView {
                passes: true,
                fine_brl: upf.map(|v| crate::documents::format::money(i64::from(fine.upf) * v)),
                fine: Some(fine),
                errors: Vec::new(),
            }
        }
        Err(crate::issuance::UseCaseError::Inconsistent { field, message }) => {
            CharterAutoCheckView {
                passes: false,
                fine: None,
                fine_brl: None,
                errors: vec![crate::http::problem::ProblemItem::field(field, message)],
            }
        }
        Err(e) => return Err(e.into()),
    };
    Ok(HttpResponse::Ok().json(view))
}

impl
    TryFrom<(
        NewAutoDto,
        NaiveDate,
        &crate::domain::legal_basis::CharterLegalBasis,
    )> for NewAuto
{
    type Error = ApiError;

    /// `today`: an infraction cannot be future; it is one of the catalogue of the basis in
    /// force.
    fn try_from(
        (dto, today, basis): (
            NewAutoDto,
            NaiveDate,
            &crate::domain::legal_basis::CharterLegalBasis,
        ),
    ) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let infraction = f.take(
            "infraction",
            basis
                .infraction(dto.infraction.trim())
                .map(|i| i.id.clone())
                .ok_or(()),
            "Infração desconhecida; veja /api/v1/charter/infractions.",
        );
        let committed_at = dto
            .committed_at
            .as_deref()
            .and_then(|t| f.instant("committed_at", t));
        let committed_on = match (&dto.committed_on, committed_at) {
            (Some(d), at) => {
                let d = f.date("committed_on", d);
                if let (Some(d), Some(at)) = (d, at)
                    && local_date(at) != d
                {
                    f.take::<(), ()>(
                        "committed_on",
                        Err(()),
                        "A data não confere com a data e hora da infração (committed_at).",
                    );
                }
                d
            }
            (None, Some(at)) => Some(local_date(at)),
            (None, None) => f.take(
                "committed_on",
                Err::<NaiveDate, ()>(()),
                "Informe a data da infração (committed_on) ou a data e hora (committed_at).",
            ),
        };
        let drawn_up_at = match &dto.drawn_up_at {
            Some(t) => f.instant("drawn_up_at", t).map(Some),
            None => Some(None),
        };
        let place = f.text("place", &dto.place, 300);
        let facts = f.text("facts", &dto.facts, 4000);
        let inspector = f.text("inspector", &dto.inspector, 200);
        if committed_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "committed_on",
                Err(()),
                "A infração não pode ter data futura.",
            );
        }
        let vehicle_plate = dto
            .vehicle_plate
            .as_deref()
            .map(|p| f.take("vehicle_plate", Plate::parse(p), "Placa inválida."));
        let (infraction, committed_on, drawn_up_at, place, facts, inspector) = f.done(parsed!(
            infraction,
            committed_on,
            drawn_up_at,
            place,
            facts,
            inspector
        ))?;
        Ok(Self {
            infraction,
            committed_on,
            committed_at,
            drawn_up_at,
            place,
            facts,
            inspector,
            vehicle_plate: vehicle_plate.flatten(),
        })
    }
}

#[utoipa::path(get, path = "/api/v1/charter/autos/{id}", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O auto", body = CharterAutoView)))]
pub async fn get_auto(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let (row, company_id) =
        register::auto_company(&state, path_id(&id, "Auto de infração")?).await?;
    auto_reply(&state, company_id, row.id, false).await
}

/// `POST /api/v1/charter/autos/{id}/acts` (FRET-ART22, §§1º–3º, FRET-ART23): notification,
/// defence, decision, reconsideration to the Mayor and the Mayor's decision, in order.
#[utoipa::path(post, path = "/api/v1/charter/autos/{id}/acts", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "Ato registrado", body = CharterAutoView)))]
pub async fn procedure_act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ProcedureAct>,
) -> Reply {
    let auto_id = path_id(&id, "Auto de infração")?;
    let company_id =
        register::procedure_act(&state, &official.actor, auto_id, &body.into_inner()).await?;
    auto_reply(&state, company_id, auto_id, false).await
}

/// An act of the procedure to judge before it is recorded.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterActCheckDto {
    /// O ato, como em `…/acts`.
    act: ProcedureAct,
}

/// `POST /api/v1/charter/autos/{id}/act-checks` (FRET-ART22, FRET-ART23): judges an act of
/// the procedure as it would be recorded now; writes nothing.
#[utoipa::path(post, path = "/api/v1/charter/autos/{id}/act-checks", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O que o ato decidiria: o procedimento depois dele, ou por que não seria registrado", body = crate::http::autos::ActCheckView)))]
pub async fn check_procedure_act(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<CharterActCheckDto>,
) -> Reply {
    let auto_id = path_id(&id, "Auto de infração")?;
    let judged = register::check_act(&state, auto_id, &body.into_inner().act).await;
    Ok(HttpResponse::Ok().json(crate::http::autos::act_check_view(judged)?))
}

/// `POST /api/v1/charter/autos/{id}/notice` (FRET-ART19–23, APP-ART19): issues the signed
/// Auto de Infração e Notificação, two copies, every deadline dated.
#[utoipa::path(post, path = "/api/v1/charter/autos/{id}/notice", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Auto de Infração e Notificação emitido", body = DocumentView)))]
pub async fn issue_notice(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let auto_id = path_id(&id, "Auto de infração")?;
    let doc = register::auto_notice(&state, &official.actor, auto_id).await?;
    Ok(HttpResponse::Created().json(document_view(&state, &doc)))
}

/// `GET /api/v1/charter/autos?company_id=…`: every auto of a company with its current fine.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AutosQuery {
    /// A empresa.
    company_id: String,
}

#[utoipa::path(get, path = "/api/v1/charter/autos", tag = "charter autos", security(("bearer" = [])), params(AutosQuery),
    responses((status = 200, description = "Os autos da empresa", body = CompanyAutos)))]
pub async fn list_autos(
    state: web::Data<AppState>,
    _o: Official,
    q: web::Query<AutosQuery>,
) -> Reply {
    let c = company_or_404(&state, &q.company_id).await?;
    let views = auto_views(&state, c.id).await?;
    Ok(HttpResponse::Ok().json(CompanyAutos {
        company_id: c.id,
        autos: views,
    }))
}

/// Every auto of a company, with where its procedure stands.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyAutos {
    company_id: Uuid,
    autos: Vec<AutoView>,
}

/// `GET /api/v1/charter/infractions`: the art. 19 catalogue with the fine in force.
#[utoipa::path(get, path = "/api/v1/charter/infractions", tag = "charter autos",
    responses((status = 200, description = "O catálogo do art. 19", body = CharterInfractionCatalogue)))]
pub async fn infractions(state: web::Data<AppState>) -> Reply {
    let b = &state.charter_basis();
    Ok(HttpResponse::Ok().json(CharterInfractionCatalogue {
        legal_basis_version: b.version.clone(),
        fine_upf: b.fine_upf,
        recidivism_fine_upf: b.fine_upf * b.recidivism_multiplier,
        recidivism_window_months: b.recidivism_window_months,
        infractions: b.infractions.clone(),
    }))
}

/// The infractions of art. 19 with the fines of the legal basis in force.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterInfractionCatalogue {
    legal_basis_version: String,
    fine_upf: u32,
    /// A multa na reincidência (art. 21).
    recidivism_fine_upf: u32,
    recidivism_window_months: u32,
    infractions: Vec<CharterInfraction>,
}
