//! Applicants sign in at `/servicos` through an OpenID Connect provider shaped on gov.br's
//! Login Único, run in process over real HTTP: discovery, the authorization endpoint (which
//! signs in its one citizen at once), the token endpoint (client secret by HTTP Basic, PKCE
//! S256 checked), the JWK Set (RS256) and the trust-levels API read with the access token.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine as _;
use reqwest::StatusCode;
use rsa::traits::PublicKeyParts as _;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use crate::helpers::{CPFS, PUBLIC_URL, TestApp, spawn_app_with_oidc};
use crate::panel::Browser;

const CLIENT_ID: &str = "selo-barra-do-garcas";
const CLIENT_SECRET: &str = "segredo-do-cliente-de-teste";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the provider does wrong, on purpose.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    None,
    /// The ID token's payload changed after signing.
    Forged,
    /// The ID token carries another nonce.
    Nonce,
    /// The ID token is for another client.
    Audience,
}

/// The citizen the provider signs in, and how.
#[derive(Clone)]
pub struct Citizen {
    pub cpf: String,
    pub email: Option<String>,
    /// gov.br's level ids the account holds ("1" bronze, "2" prata, "3" ouro).
    pub levels: Vec<&'static str>,
    pub fault: Fault,
}

struct Grant {
    redirect_uri: String,
    challenge: String,
    nonce: String,
}

struct ProviderState {
    issuer: String,
    key: rsa::PrivateKey,
    citizen: Mutex<Citizen>,
    codes: Mutex<HashMap<String, Grant>>,
    /// Access tokens issued, with the CPF they speak for.
    access: Mutex<HashMap<String, String>>,
    clock: Arc<selo::clock::FixedClock>,
}

pub struct Provider {
    pub issuer: String,
    state: Arc<ProviderState>,
}

impl Provider {
    pub fn start(clock: Arc<selo::clock::FixedClock>, citizen: Citizen) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let issuer = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
        let state = Arc::new(ProviderState {
            issuer: issuer.clone(),
            key: rsa::PrivateKey::new(&mut rng, 2048).unwrap(),
            citizen: Mutex::new(citizen),
            codes: Mutex::new(HashMap::new()),
            access: Mutex::new(HashMap::new()),
            clock,
        });
        let shared = web::Data::from(state.clone());
        let server = actix_web::HttpServer::new(move || {
            actix_web::App::new()
                .app_data(shared.clone())
                .route(
                    "/.well-known/openid-configuration",
                    web::get().to(discovery),
                )
                .route("/authorize", web::get().to(authorize))
                .route("/token", web::post().to(token))
                .route("/jwk", web::get().to(jwks))
                .route(
                    "/confiabilidades/v3/contas/{cpf}/niveis",
                    web::get().to(levels),
                )
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        tokio::spawn(server);
        Self { issuer, state }
    }

    pub fn settings(&self, with_levels_api: bool) -> selo::settings::Oidc {
        selo::settings::Oidc {
            issuer: self.issuer.clone(),
            client_id: CLIENT_ID.into(),
            client_secret: CLIENT_SECRET.into(),
            name: "gov.br".into(),
            scopes: "openid email profile govbr_confiabilidades".into(),
            levels_url: with_levels_api.then(|| {
                format!(
                    "{}/confiabilidades/v3/contas/{{cpf}}/niveis?response-type=ids",
                    self.issuer
                )
            }),
            level_claim: "nivel".into(),
        }
    }

    pub fn set_citizen(&self, citizen: Citizen) {
        *self.state.citizen.lock().unwrap() = citizen;
    }

    /// Codes issued and not yet exchanged.
    pub fn codes_pending(&self) -> usize {
        self.state.codes.lock().unwrap().len()
    }
}

async fn discovery(p: web::Data<ProviderState>) -> HttpResponse {
    let i = &p.issuer;
    HttpResponse::Ok().json(json!({
        "issuer": i,
        "authorization_endpoint": format!("{i}/authorize"),
        "token_endpoint": format!("{i}/token"),
        "jwks_uri": format!("{i}/jwk"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "code_challenge_methods_supported": ["S256"],
    }))
}

/// Signs the citizen in at once and sends the browser back with a code.
async fn authorize(
    p: web::Data<ProviderState>,
    q: web::Query<HashMap<String, String>>,
) -> HttpResponse {
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    let expected_redirect = format!("{PUBLIC_URL}/servicos/entrar/oidc/retorno");
    if get("client_id") != CLIENT_ID
        || get("redirect_uri") != expected_redirect
        || get("response_type") != "code"
        || get("code_challenge_method") != "S256"
        || get("code_challenge").is_empty()
        || get("nonce").is_empty()
        || !get("scope").split(' ').any(|s| s == "openid")
    {
        return HttpResponse::BadRequest().body("invalid_request");
    }
    let code = b64(&rand_bytes());
    p.codes.lock().unwrap().insert(
        code.clone(),
        Grant {
            redirect_uri: get("redirect_uri"),
            challenge: get("code_challenge"),
            nonce: get("nonce"),
        },
    );
    HttpResponse::Found()
        .insert_header((
            "location",
            format!(
                "{}?code={code}&state={}",
                get("redirect_uri"),
                selo::domain::urls::form_encode(&get("state"))
            ),
        ))
        .finish()
}

fn rand_bytes() -> [u8; 24] {
    let mut b = [0u8; 24];
    getrandom::fill(&mut b).unwrap();
    b
}

fn oauth_error(code: &str) -> HttpResponse {
    HttpResponse::BadRequest().json(json!({ "error": code }))
}

/// The code for tokens: the client by HTTP Basic, the same redirect URI, and the verifier
/// whose S256 is the challenge the authorization carried.
async fn token(
    p: web::Data<ProviderState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> HttpResponse {
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    if req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        != Some(basic.as_str())
    {
        return HttpResponse::Unauthorized().json(json!({"error": "invalid_client"}));
    }
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    if get("grant_type") != "authorization_code" {
        return oauth_error("unsupported_grant_type");
    }
    let Some(grant) = p.codes.lock().unwrap().remove(&get("code")) else {
        return oauth_error("invalid_grant");
    };
    if grant.redirect_uri != get("redirect_uri")
        || b64(&Sha256::digest(get("code_verifier").as_bytes())) != grant.challenge
    {
        return oauth_error("invalid_grant");
    }
    let citizen = p.citizen.lock().unwrap().clone();
    let now = selo::clock::Clock::now(&*p.clock).timestamp();
    let mut claims = json!({
        "iss": p.issuer,
        "sub": citizen.cpf,
        "aud": if citizen.fault == Fault::Audience { "outro-cliente" } else { CLIENT_ID },
        "exp": now + 300,
        "iat": now,
        "nonce": if citizen.fault == Fault::Nonce { "outro-nonce".to_owned() } else { grant.nonce },
        "name": "Cidadão de Teste",
        "amr": ["passwd"],
        "nivel": citizen.levels,
    });
    if let Some(e) = &citizen.email {
        claims["email"] = json!(e);
        claims["email_verified"] = json!(true);
    }
    let header = b64(json!({"alg": "RS256", "kid": "k1", "typ": "JWT"})
        .to_string()
        .as_bytes());
    let payload = b64(claims.to_string().as_bytes());
    let signed = format!("{header}.{payload}");
    let sig = p
        .key
        .sign(
            rsa::Pkcs1v15Sign::new::<Sha256>(),
            &Sha256::digest(signed.as_bytes()),
        )
        .unwrap();
    let id_token = if citizen.fault == Fault::Forged {
        let mut other = claims.clone();
        other["sub"] = json!(CPFS[2].replace(['.', '-'], ""));
        format!(
            "{header}.{}.{}",
            b64(other.to_string().as_bytes()),
            b64(&sig)
        )
    } else {
        format!("{signed}.{}", b64(&sig))
    };
    let access = b64(&rand_bytes());
    p.access
        .lock()
        .unwrap()
        .insert(access.clone(), citizen.cpf.clone());
    HttpResponse::Ok().json(json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": 300,
        "id_token": id_token,
        "scope": "openid email profile govbr_confiabilidades",
    }))
}

fn unsigned_be(bytes: &[u8]) -> &[u8] {
    let first = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    &bytes[first..]
}

async fn jwks(p: web::Data<ProviderState>) -> HttpResponse {
    let public = p.key.to_public_key();
    HttpResponse::Ok().json(json!({"keys": [{
        "kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
        "n": b64(unsigned_be(&public.n().to_be_bytes())),
        "e": b64(unsigned_be(&public.e().to_be_bytes())),
    }]}))
}

/// gov.br's trust levels of an account, for the bearer of an access token of that account.
async fn levels(
    p: web::Data<ProviderState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> HttpResponse {
    let token = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if p.access.lock().unwrap().get(token) != Some(&path.into_inner()) {
        return HttpResponse::Forbidden().finish();
    }
    let citizen = p.citizen.lock().unwrap().clone();
    let list: Vec<Value> = citizen
        .levels
        .iter()
        .map(|id| json!({"id": id, "dataAtualizacao": "2026-01-10T10:00:00"}))
        .collect();
    HttpResponse::Ok().json(list)
}

/// The citizen of `CPFS[index]`, with an e-mail and level prata.
pub fn citizen(index: usize, email: &str) -> Citizen {
    Citizen {
        cpf: CPFS[index].replace(['.', '-'], ""),
        email: Some(email.to_owned()),
        levels: vec!["1", "2"],
        fault: Fault::None,
    }
}

/// Clicks "Entrar com gov.br" and follows the provider back to selo: the status and page of
/// selo's callback, and the address its `Refresh` header sends the browser on to.
pub async fn sign_in_with_provider(b: &mut Browser<'_>) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get("/servicos").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Entrar com gov.br"), "{page}");
    let (status, _, to) = b.get("/servicos/entrar/oidc").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    assert!(to.contains("code_challenge_method=S256"), "{to}");
    let path = at_provider(&to).await;
    // The callback's headers, read with the browser's cookies.
    let res = b
        .client
        .get(b.app_url(&path))
        .header("cookie", b.cookie_header())
        .send()
        .await
        .unwrap();
    let refresh = res
        .headers()
        .get("refresh")
        .map(|v| v.to_str().unwrap().to_owned());
    b.keep_cookies(&res);
    let status = res.status();
    let page = res.text().await.unwrap();
    // The same answer again: the state is spent.
    let (again, replayed, _) = b.get(&path).await;
    assert_eq!(
        again,
        StatusCode::BAD_REQUEST,
        "a replayed answer: {replayed}"
    );
    (status, page, refresh)
}

/// The browser at the provider (no cookie of selo goes there): the path of selo's callback it
/// is sent back to.
async fn at_provider(authorize: &str) -> String {
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(authorize)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FOUND);
    res.headers()["location"]
        .to_str()
        .unwrap()
        .strip_prefix(PUBLIC_URL)
        .unwrap()
        .to_owned()
}

async fn app_with_provider(citizen: Citizen, levels_api: bool) -> (TestApp, Provider) {
    // The provider reads the application's clock: both are built on the same instant.
    let clock = Arc::new(selo::clock::FixedClock::new(crate::helpers::t0()));
    let provider = Provider::start(clock, citizen);
    let app = spawn_app_with_oidc(provider.settings(levels_api)).await;
    (app, provider)
}

#[tokio::test]
async fn a_driver_signs_in_with_govbr_and_finds_the_authorization_of_the_cpf() {
    let (app, provider) = app_with_provider(citizen(0, "motorista@exemplo.com.br"), true).await;
    let a = app.granted().await;
    let number = a["number"].as_str().unwrap();

    let mut b = Browser::new(&app);
    let (status, page, refresh) = sign_in_with_provider(&mut b).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("Você entrou com sua conta gov.br"), "{page}");
    assert_eq!(refresh.as_deref(), Some("0; url=/servicos/inicio?novo"));
    let (status, home, _) = b.get("/servicos/inicio?novo").await;
    assert_eq!(status, StatusCode::OK);
    assert!(home.contains("motorista@exemplo.com.br"), "{home}");
    // The CPF the provider vouched for is the driver's: the authorization is there, unasked.
    assert!(home.contains(&format!("Autorização {number}")), "{home}");
    assert_eq!(provider.codes_pending(), 0, "the code was exchanged");

    // Signing in again opens the same account.
    let mut again = Browser::new(&app);
    let (status, _, _) = sign_in_with_provider(&mut again).await;
    assert_eq!(status, StatusCode::OK);
    let (_, home, _) = again.get("/servicos/inicio").await;
    assert!(home.contains(&format!("Autorização {number}")), "{home}");
    assert!(!home.contains("Conta criada"), "not a new account: {home}");
}

#[tokio::test]
async fn a_bronze_account_is_refused_and_opens_no_session() {
    let mut bronze = citizen(1, "bronze@exemplo.com.br");
    bronze.levels = vec!["1"];
    for levels_api in [true, false] {
        // With the levels API, or without it from the ID token's claim `nivel`.
        let (app, _provider) = app_with_provider(bronze.clone(), levels_api).await;
        let mut b = Browser::new(&app);
        let (status, page, _) = sign_in_with_provider(&mut b).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
        assert!(page.contains("Nível da conta insuficiente"), "{page}");
        assert!(page.contains("é de nível bronze"), "{page}");
        assert!(page.contains("nível prata ou acima"), "{page}");
        let (status, _, to) = b.get("/servicos/inicio").await;
        assert_eq!(
            (status, to.as_deref()),
            (StatusCode::SEE_OTHER, Some("/servicos"))
        );
    }
}

#[tokio::test]
async fn a_forged_token_another_nonce_or_another_audience_is_refused() {
    let (app, provider) = app_with_provider(citizen(0, "m@exemplo.com.br"), true).await;
    for fault in [Fault::Forged, Fault::Nonce, Fault::Audience] {
        let mut c = citizen(0, "m@exemplo.com.br");
        c.fault = fault;
        provider.set_citizen(c);
        let mut b = Browser::new(&app);
        let (status, page, _) = sign_in_with_provider(&mut b).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{page}");
        assert!(page.contains("não respondeu como esperado"), "{page}");
        let (status, _, _) = b.get("/servicos/inicio").await;
        assert_eq!(status, StatusCode::SEE_OTHER);
    }
    // No account was opened by any of them.
    let rows = app.count("SELECT COUNT(*) FROM applicants").await;
    assert_eq!(rows, 0);
}

#[tokio::test]
async fn an_answer_without_this_browsers_state_is_refused() {
    let (app, _provider) = app_with_provider(citizen(0, "m@exemplo.com.br"), true).await;
    let mut b = Browser::new(&app);
    let (_, _, to) = b.get("/servicos/entrar/oidc").await;
    let path = at_provider(&to.unwrap()).await;
    // Another browser (an attacker's link): its cookie does not hold the state.
    let mut other = Browser::new(&app);
    let (status, page, _) = other.get(&path).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    // The provider said no: nothing opens, and the state is spent.
    let (_, _, to) = b.get("/servicos/entrar/oidc").await;
    let st = to
        .unwrap()
        .split("state=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    let (status, page, _) = b
        .get(&format!(
            "/servicos/entrar/oidc/retorno?error=access_denied&state={st}"
        ))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{page}");
    assert!(page.contains("foi cancelada"), "{page}");
}

#[tokio::test]
async fn the_email_of_an_account_of_another_cpf_is_not_taken_over() {
    let (app, provider) = app_with_provider(citizen(0, "joao@exemplo.com.br"), true).await;
    // João signs in with gov.br; then a gov.br account of another CPF presents João's address.
    let mut b = Browser::new(&app);
    assert_eq!(sign_in_with_provider(&mut b).await.0, StatusCode::OK);
    provider.set_citizen(citizen(1, "joao@exemplo.com.br"));
    let mut intruder = Browser::new(&app);
    let (status, page, _) = sign_in_with_provider(&mut intruder).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    // An account opened with the e-mailed code takes the CPF on its first gov.br sign-in.
    crate::services::signed_in(&app, "maria@exemplo.com.br").await;
    provider.set_citizen(citizen(2, "maria@exemplo.com.br"));
    let mut maria = Browser::new(&app);
    assert_eq!(sign_in_with_provider(&mut maria).await.0, StatusCode::OK);
    let rows = app
        .count("SELECT COUNT(*) FROM applicants WHERE email = 'maria@exemplo.com.br' AND cpf = '12345678909'")
        .await;
    assert_eq!(rows, 1);
    // Without an e-mail in the account: refused with what to do.
    let mut no_mail = citizen(1, "x@exemplo.com.br");
    no_mail.email = None;
    provider.set_citizen(no_mail);
    let mut c = Browser::new(&app);
    let (status, page, _) = sign_in_with_provider(&mut c).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Cadastre um e-mail"), "{page}");
}
