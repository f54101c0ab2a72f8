//! The verification page in pt-BR: one verdict in words, icon and colour, what to do
//! about it, what a passenger compares with the car and driver in front of them, the
//! document's public data, and the forms to verify by printed code or by PDF. The template
//! (`templates/pages/verify.html`) is layout only; every sentence is chosen here.

use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};
use askama::Template;

use crate::documents::format;
use crate::http::problem::ApiError;
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::verification::inspector::InspectorRecord;
use crate::verification::{PublicDocument, Verdict, Verification};

/// How the verification reached the page.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// `/v` with nothing to verify: the forms alone.
    Form,
    /// A scanned QR code (`/v/{token}`): the token.
    Token(&'a str),
    /// A typed code (`/v?codigo=`): shown back as typed; `mistyped` when its check symbol fails.
    Code { typed: &'a str, mistyped: bool },
    /// An uploaded PDF.
    Pdf,
    /// Not verified at all (a rate limit, an upload not received): the note says why.
    Refused,
}

/// The law a document belongs to, for the wording of its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Law {
    RideHailing,
    Charter,
}

fn law_of(kind: DocumentKind) -> Law {
    if kind.is_ride_hailing() {
        Law::RideHailing
    } else {
        Law::Charter
    }
}

/// What the person holding the phone should do now.
struct Action {
    text: &'static str,
    /// Ends with the Ouvidoria's number as a `tel:` link.
    report: bool,
}

/// (css class, icon, headline, explanation, action) of a verdict.
struct Banner {
    class: &'static str,
    icon: &'static str,
    headline: &'static str,
    text: &'static str,
    action: Action,
}

const DO_NOT_BOARD: &str = "Não embarque. Denuncie à Ouvidoria Municipal:";
const DO_NOT_TRUST: &str =
    "Não confie neste documento nem embarque no veículo. Denuncie à Ouvidoria Municipal:";

#[expect(
    clippy::too_many_lines,
    reason = "one table of sentences, verdict by verdict"
)]
fn banner(v: Verdict, law: Option<Law>, source: Source<'_>) -> Banner {
    let b = |class, icon, headline, text, action: &'static str, report| Banner {
        class,
        icon,
        headline,
        text,
        action: Action {
            text: action,
            report,
        },
    };
    let ride_hailing = law == Some(Law::RideHailing);
    let may_not_operate = if ride_hailing {
        DO_NOT_BOARD
    } else {
        "Este veículo não pode fazer fretamento agora. Denuncie à Ouvidoria Municipal:"
    };
    match (v, source) {
        (Verdict::Valid, _) => b(
            "ok",
            "✔",
            "AUTORIZADO",
            "Documento autêntico, emitido pela Prefeitura e em vigor.",
            match law {
                Some(Law::RideHailing) => {
                    "Antes de embarcar, confira o modelo, a cor, a placa e o nome do motorista abaixo."
                }
                Some(Law::Charter) => "Confira se o veículo e a placa são os mostrados abaixo.",
                None => "Confira se os dados abaixo são os do documento apresentado.",
            },
            false,
        ),
        (Verdict::Expired, _) => b(
            "bad",
            "✖",
            "VENCIDO",
            if ride_hailing {
                "Documento autêntico, mas a validade terminou: o carro não está autorizado a transportar passageiros."
            } else {
                "Documento autêntico, mas a validade terminou: não vale mais."
            },
            may_not_operate,
            true,
        ),
        (Verdict::Revoked, _) => b(
            "bad",
            "✖",
            "REVOGADO",
            if ride_hailing {
                "Documento autêntico, mas a autorização do motorista foi revogada ou cassada: o carro não está autorizado."
            } else {
                "Documento autêntico, mas a autorização foi cassada, anulada ou o veículo foi baixado: não vale mais."
            },
            may_not_operate,
            true,
        ),
        (Verdict::Suspended, _) => b(
            "bad",
            "✖",
            "SUSPENSO",
            if ride_hailing {
                "Documento autêntico, mas a autorização do motorista está suspensa: ele não pode transportar passageiros agora."
            } else {
                "Documento autêntico, mas a autorização da empresa está suspensa: o veículo não pode fazer fretamento agora."
            },
            may_not_operate,
            true,
        ),
        (Verdict::Replaced, _) => b(
            "bad",
            "✖",
            "VEÍCULO SUBSTITUÍDO",
            "Documento autêntico, mas o carro que ele identifica foi substituído na autorização: este documento não vale mais. O carro autorizado leva adesivo e autorização novos.",
            DO_NOT_BOARD,
            true,
        ),
        (Verdict::Irregular, _) => b(
            "bad",
            "✖",
            "IRREGULAR",
            if ride_hailing {
                "Documento autêntico, mas há exigência pendente ou vencida (vistoria do carro ou cadastro do motorista): o carro não pode transportar passageiros agora."
            } else {
                "Documento autêntico, mas há exigência pendente ou vencida (vistoria, inspeção veicular, seguro ou Termo de Autorização da empresa): o veículo não pode operar agora."
            },
            may_not_operate,
            true,
        ),
        (Verdict::Outdated, _) => b(
            "warn",
            "⚠",
            "DESATUALIZADA",
            "Certidão autêntica, mas a situação certificada mudou desde a emissão.",
            "Peça uma certidão nova à Prefeitura; a situação atual aparece abaixo.",
            false,
        ),
        (Verdict::InvalidSignature, _) => b(
            "bad",
            "✖",
            "FALSO OU ALTERADO",
            "A assinatura digital não confere: este documento não foi emitido assim pela Prefeitura.",
            DO_NOT_TRUST,
            true,
        ),
        (Verdict::UnknownKey, _) => b(
            "bad",
            "✖",
            "NÃO RECONHECIDO",
            "Assinado por uma chave que a Prefeitura não publicou ou retirou de uso.",
            DO_NOT_TRUST,
            true,
        ),
        (Verdict::UnknownDocument, _) => b(
            "bad",
            "✖",
            "NÃO ENCONTRADO",
            "Não há documento com estes dados no cadastro da Prefeitura.",
            DO_NOT_TRUST,
            true,
        ),
        (Verdict::StatusUnavailable, _) => b(
            "warn",
            "?",
            "SITUAÇÃO INDISPONÍVEL",
            "A assinatura é autêntica, mas o cadastro não pôde ser consultado agora.",
            "Tente de novo em instantes. Se precisar decidir agora, considere a última situação conhecida, se houver, abaixo.",
            false,
        ),
        (Verdict::Malformed, Source::Code { mistyped: true, .. }) => b(
            "info",
            "✎",
            "CÓDIGO DIGITADO INCORRETAMENTE",
            "O código não confere: algum caractere foi digitado errado. Isto não indica falsificação.",
            "Confira o código impresso, caractere por caractere, e digite de novo.",
            false,
        ),
        (Verdict::Malformed, Source::Pdf) => b(
            "info",
            "!",
            "ARQUIVO NÃO VERIFICADO",
            "O arquivo enviado não pôde ser verificado como documento do selo.",
            "Veja o motivo abaixo. Envie o PDF recebido da Prefeitura, sem alterações.",
            false,
        ),
        (Verdict::Malformed, Source::Refused) => b(
            "info",
            "!",
            "NÃO VERIFICADO",
            "A verificação não foi feita.",
            "Veja o motivo abaixo e tente de novo.",
            false,
        ),
        (Verdict::Malformed, _) => b(
            "info",
            "!",
            "CÓDIGO INVÁLIDO",
            "Este código não é de um documento do selo.",
            "Confira se leu o QR code inteiro ou se digitou o código como está impresso, e tente de novo.",
            false,
        ),
    }
}

/// (label, what to compare) of the subject a document names.
fn subject_label(kind: DocumentKind) -> &'static str {
    match kind {
        DocumentKind::CharterTermo | DocumentKind::CharterAuto => "CNPJ",
        DocumentKind::CharterCertidao | DocumentKind::RideHailingCertidao => "Registro",
        DocumentKind::RideHailingAuto => "Placa ou auto",
        _ => "Placa",
    }
}

/// What a passenger compares with the car and driver in front of them.
struct PassengerView {
    first_name: Option<String>,
    photo_url: Option<String>,
    /// `Chevrolet Onix`, `Ônibus Marcopolo Paradiso`.
    vehicle: String,
    color: Option<String>,
    plate: String,
}

impl PassengerView {
    fn of(doc: &PublicDocument) -> Option<Self> {
        let v = doc.vehicle.as_ref()?;
        let vehicle = match &v.body {
            Some(body) => format!("{body} {} {}", v.make, v.model),
            None => format!("{} {}", v.make, v.model),
        };
        Some(Self {
            first_name: doc.driver.as_ref().map(|d| d.first_name.clone()),
            photo_url: doc.driver.as_ref().and_then(|d| d.photo_url.clone()),
            vehicle,
            color: v.color.clone(),
            plate: doc.plate.clone(),
        })
    }
}

/// The headline the page gives a verdict recorded by its wire name (`suspended` →
/// "SUSPENSO"), as a report quotes it; `None` for anything that is not a verdict.
pub(crate) fn headline_of(verdict: &str) -> Option<&'static str> {
    Verdict::parse(verdict).map(|v| banner(v, None, Source::Form).headline)
}

/// The public data of a verified document, as the page prints it.
struct DocumentView {
    kind: &'static str,
    number: String,
    company: Option<String>,
    subject_label: &'static str,
    subject: String,
    valid_until: String,
    /// "Situação", or "Última situação" while the register does not answer.
    status_label: &'static str,
    /// When the last known status was read (`HH:MM`), while the register does not answer.
    status_as_of: Option<String>,
    status: &'static str,
    holds: &'static str,
    suspended_until: Option<String>,
}

impl DocumentView {
    fn of(doc: &PublicDocument) -> Self {
        Self {
            kind: doc.kind.label_pt(),
            number: doc.number.clone(),
            company: doc.company.clone(),
            subject_label: subject_label(doc.kind),
            subject: doc.plate.clone(),
            valid_until: format::date(doc.valid_until),
            status_label: "Situação",
            status_as_of: None,
            status: doc.status.label_pt(),
            holds: match doc.facts_hold {
                Some(true) => " · os fatos certificados continuam verdadeiros",
                Some(false) => " · a situação mudou desde a emissão",
                None => "",
            },
            // The last day of the suspension: it ends the day before `suspended_until`.
            suspended_until: doc
                .suspended_until
                .map(|u| format::date(u - chrono::Duration::days(1))),
        }
    }
}

/// One line of the inspector's record.
struct Row {
    label: &'static str,
    value: String,
}

/// The inspector tier: the full record, in lines ready to print.
struct RecordView {
    rows: Vec<Row>,
    pending: Vec<String>,
    sanctions: Vec<String>,
    autos: Vec<String>,
    history_url: String,
    new_auto_url: String,
}

fn sanction_label(kind: &str) -> &str {
    match kind {
        "suspension" | "suspensao" => "Suspensão",
        "cassacao" => "Cassação",
        "advertencia" => "Advertência",
        "apreensao" => "Apreensão",
        other => other,
    }
}

/// The lines of the record about the holder, the vehicle and the authorization.
fn record_rows(r: &InspectorRecord) -> Vec<Row> {
    let d = format::date;
    let mut rows = Vec::new();
    let mut row = |label, value: String| rows.push(Row { label, value });
    let h = &r.holder;
    row(
        if r.law == "charter" {
            "Empresa"
        } else {
            "Motorista"
        },
        h.name.clone(),
    );
    if let Some(cpf) = &h.cpf {
        row("CPF", cpf.clone());
    }
    if let Some(cnpj) = &h.cnpj {
        row("CNPJ", cnpj.clone());
    }
    if let (Some(cat), Some(until)) = (&h.cnh_category, h.cnh_expires_on) {
        row("CNH", format!("categoria {cat}, válida até {}", d(until)));
    }
    if let Some(v) = &r.vehicle {
        let mut parts = vec![format!("{} {}", v.make, v.model)];
        parts.extend(v.color.clone());
        parts.extend(v.model_year.map(|y| format!("modelo {y}")));
        parts.push(v.plate.clone());
        row("Veículo", parts.join(" · "));
    }
    if let Some(a) = &r.authorization {
        let what = if r.law == "charter" {
            "Termo"
        } else {
            "Autorização"
        };
        row(
            what,
            format!(
                "{}, de {} a {}",
                a.number,
                d(a.valid_from),
                d(a.valid_until)
            ),
        );
        if let Some(at) = a.revoked_at {
            row(
                "Revogada em",
                format!(
                    "{} — {}",
                    format::datetime_local(at),
                    a.revocation_reason.clone().unwrap_or_default()
                ),
            );
        }
    }
    if let Some(i) = &r.inspection {
        row(
            "Última vistoria",
            match (i.last_vistoria_on, i.last_vistoria_approved) {
                (Some(on), Some(ok)) => {
                    format!("{}, {}", d(on), if ok { "aprovada" } else { "reprovada" })
                }
                _ => "nenhuma registrada".to_owned(),
            },
        );
        if let Some(u) = i.vistoria_valid_until {
            row("Vistoria válida até", d(u));
        }
        if let Some(u) = i.itv_valid_until {
            row("Inspeção (ITV) até", d(u));
        }
        if let Some(u) = i.insurance_valid_until {
            row("Seguro até", d(u));
        }
    }
    rows
}

impl RecordView {
    fn of(r: &InspectorRecord) -> Self {
        let d = format::date;
        Self {
            rows: record_rows(r),
            pending: r
                .inspection
                .as_ref()
                .map(|i| i.pending.clone())
                .unwrap_or_default(),
            sanctions: r
                .sanctions
                .iter()
                .map(|s| {
                    let period = match s.until {
                        Some(u) => format!(
                            "de {} a {}",
                            d(s.effective_from),
                            d(u - chrono::Duration::days(1))
                        ),
                        None => format!("desde {}", d(s.effective_from)),
                    };
                    format!("{} {period} — {}", sanction_label(&s.kind), s.reason)
                })
                .collect(),
            autos: r
                .open_autos
                .iter()
                .map(|a| {
                    format!(
                        "{} · {} · cometida em {} · {}",
                        a.number,
                        a.infraction,
                        d(a.committed_on),
                        a.stage.replace('_', " ")
                    )
                })
                .collect(),
            history_url: r.history_url.clone(),
            new_auto_url: r.new_auto_url.clone(),
        }
    }
}

/// One verdict as the page shows it.
struct ResultView<'a> {
    banner: Banner,
    passenger: Option<PassengerView>,
    record: Option<RecordView>,
    document: Option<DocumentView>,
    note: Option<&'a str>,
    checked_at: String,
}

/// `templates/pages/verify.html`: escaped by the template engine.
#[derive(Template)]
#[template(path = "pages/verify.html")]
struct VerifyPage<'a> {
    title: &'static str,
    result: Option<ResultView<'a>>,
    /// The code as typed, shown back and kept in the box.
    typed: &'a str,
    /// The signed-in official's name (inspector tier).
    viewer: Option<&'a str>,
    phone: &'a str,
    /// The phone as a `tel:` address (`+556634019999`).
    phone_tel: String,
    /// The report form about what this page verified (`/denuncia?…`), under a verdict.
    report_url: Option<String>,
}

/// The report form about what `source` verified: the same token or printed code, so the
/// report names the document the passenger saw.
fn report_url(source: Source<'_>) -> Option<String> {
    match source {
        Source::Token(t) if !t.is_empty() => {
            Some(format!("/denuncia?t={}", crate::http::urls::urlencode(t)))
        }
        Source::Code { typed, .. } if !typed.is_empty() => Some(format!(
            "/denuncia?codigo={}",
            crate::http::urls::urlencode(typed)
        )),
        Source::Refused | Source::Form => None,
        _ => Some("/denuncia".to_owned()),
    }
}

/// `(66) 3401-9999` → `+556634019999`: a Brazilian number with its area code; a 0800
/// number or a short one (`156`) is dialled as it is.
pub(crate) fn tel(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    match digits.len() {
        _ if digits.starts_with('0') => digits,
        10 | 11 => format!("+55{digits}"),
        12 | 13 if digits.starts_with("55") => format!("+{digits}"),
        _ => digits,
    }
}

/// The page: the forms, and the verdict of `v` when there is one, with `note` (why, in
/// detail) below it.
pub fn render(
    state: &AppState,
    v: Option<&Verification>,
    note: Option<&str>,
    source: Source<'_>,
    viewer: Option<&str>,
) -> String {
    let result = v.map(|v| {
        let law = v.document.as_ref().map(|d| law_of(d.kind));
        ResultView {
            banner: banner(v.verdict, law, source),
            passenger: v.document.as_ref().and_then(PassengerView::of),
            record: v.record.as_ref().map(RecordView::of),
            document: v.document.as_ref().map(|d| {
                let mut view = DocumentView::of(d);
                // A status read earlier never reads as the status now.
                if let Some(last) = &v.last_known {
                    view.status_label = "Última situação";
                    view.status_as_of = Some(format::time_local(last.as_of));
                }
                view
            }),
            note,
            checked_at: format::datetime_local(v.checked_at),
        }
    });
    let typed = match source {
        Source::Code { typed, .. } => typed,
        _ => "",
    };
    let phone = &state.letterhead.ouvidoria_phone;
    // An official on the road has the record and the auto form instead.
    let report_url = result
        .as_ref()
        .filter(|_| viewer.is_none())
        .and(report_url(source));
    let page = VerifyPage {
        title: result
            .as_ref()
            .map_or("Verificar documento", |r| r.banner.headline),
        result,
        typed,
        viewer,
        phone,
        phone_tel: tel(phone),
        report_url,
    };
    page.render().unwrap_or_else(|e| {
        tracing::error!(error = %e, "verification page did not render");
        "<!doctype html><title>Erro</title><p>Erro interno ao montar a página.</p>".to_owned()
    })
}

/// A verification page refused (a rate limit, an upload not read): `note` says why, with the
/// error's status and, for a 429, its `Retry-After`.
pub fn refused_page(state: &AppState, e: &ApiError, note: &str) -> HttpResponse {
    let v = Verification {
        verdict: Verdict::Malformed,
        checked_at: state.clock.now(),
        document: None,
        reason: None,
        last_known: None,
        record: None,
    };
    let mut res = html(
        actix_web::ResponseError::status_code(e),
        &render(state, Some(&v), Some(note), Source::Refused, None),
    );
    if let ApiError::TooManyRequests { retry_after, .. } = e
        && let Ok(value) = header::HeaderValue::from_str(&retry_after.to_string())
    {
        res.headers_mut().insert(header::RETRY_AFTER, value);
    }
    res
}

/// An HTML answer of the verification pages, with their security headers.
pub fn html(status: StatusCode, body: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
        ))
        // No other site may frame the page (clickjacking); older browsers read this header.
        .insert_header(("X-Frame-Options", "DENY"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .body(body.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_text_is_escaped_by_the_template_engine() {
        let page = VerifyPage {
            title: "AUTORIZADO",
            result: Some(ResultView {
                banner: banner(Verdict::Valid, Some(Law::Charter), Source::Token("")),
                passenger: Some(PassengerView {
                    first_name: Some("<b>Zé</b>".into()),
                    photo_url: None,
                    vehicle: "Ônibus <i>Marcopolo</i>".into(),
                    color: None,
                    plate: "ABC1D23".into(),
                }),
                record: None,
                document: Some(DocumentView {
                    kind: "Termo de Autorização",
                    number: "FRET-2026/000001".into(),
                    company: Some("<script>alert('x')</script> & Cia \"Ltda\"".into()),
                    subject_label: "CNPJ",
                    subject: "11.222.333/0001-81".into(),
                    valid_until: "20/11/2028".into(),
                    status_label: "Situação",
                    status_as_of: None,
                    status: "ativo",
                    holds: "",
                    suspended_until: None,
                }),
                note: Some("<img src=x>"),
                checked_at: "30/11/2026 12:00".into(),
            }),
            typed: "\"><script>",
            viewer: Some("<u>Ana</u>"),
            phone: "(66) 3401-9999",
            phone_tel: tel("(66) 3401-9999"),
            report_url: Some("/denuncia?t=\"><x>".into()),
        }
        .render()
        .unwrap();
        for raw in ["<script>", "<img", "<b>Zé", "<i>Marcopolo", "<u>Ana"] {
            assert!(!page.contains(raw), "{raw} in {page}");
        }
        assert!(
            page.contains("&#60;script&#62;") || page.contains("&lt;script&gt;"),
            "{page}"
        );
        assert!(page.contains("FRET-2026/000001"));
        assert!(page.contains("<h1>AUTORIZADO</h1>"));
        // Under a verdict that lets one board, the report comes after what to compare.
        let link = page.find("Denunciar pela internet").unwrap();
        assert!(link > page.find("FRET-2026/000001").unwrap(), "{page}");
        assert!(!page.contains("<x>"), "{page}");
    }

    #[test]
    fn the_ouvidoria_number_dials() {
        assert_eq!(tel("(66) 3401-9999"), "+556634019999");
        assert_eq!(tel("+55 66 3401-9999"), "+556634019999");
        assert_eq!(tel("0800 123 4567"), "08001234567");
        assert_eq!(tel("156"), "156");
    }

    #[test]
    fn every_verdict_that_forbids_operating_is_red_and_says_what_to_do() {
        for v in [
            Verdict::Expired,
            Verdict::Revoked,
            Verdict::Suspended,
            Verdict::Replaced,
            Verdict::Irregular,
            Verdict::InvalidSignature,
            Verdict::UnknownKey,
            Verdict::UnknownDocument,
        ] {
            for law in [Law::RideHailing, Law::Charter] {
                let b = banner(v, Some(law), Source::Token(""));
                assert_eq!(b.class, "bad", "{v:?}");
                assert_eq!(b.icon, "✖", "{v:?}");
                assert!(b.action.report, "{v:?}");
            }
        }
        let rh = banner(
            Verdict::Irregular,
            Some(Law::RideHailing),
            Source::Token(""),
        );
        assert!(!rh.text.contains("empresa"), "{}", rh.text);
        let typo = banner(
            Verdict::Malformed,
            None,
            Source::Code {
                typed: "X",
                mistyped: true,
            },
        );
        assert_eq!(typo.headline, "CÓDIGO DIGITADO INCORRETAMENTE");
    }
}
