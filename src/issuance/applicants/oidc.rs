//! Applicants' sign-in through the city's OpenID Connect provider — gov.br's Login Único:
//! the authorization code flow with PKCE (S256), a state bound to the browser by a cookie and
//! a nonce bound to the ID token. The ID token is checked against the provider's published
//! keys (issuer, audience, expiry, nonce); its `sub` is the citizen's CPF; the account's trust
//! level (gov.br's bronze, prata, ouro) is read from the provider and must reach the level
//! the municipality profile names. The account is the one that carries the CPF, so a driver
//! signed in this way follows, from the first sign-in, the driver record of that CPF.

use base64::Engine as _;
use chrono::{DateTime, Duration, Utc};
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use crate::domain::ids::Cpf;
use crate::domain::trust::{self, TrustLevel};
use crate::domain::urls::{Outbound, form_encode, outbound};
use crate::settings::{Environment, Oidc};
use crate::signing::jws;
use crate::signing::secrets::{self, SecretError};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::applicant_links::LinkedEntity;
use crate::storage::applicants::{OidcRequest, OidcSignIn};

/// How long the provider may take to send the applicant back.
pub const REQUEST_LIFETIME: Duration = Duration::minutes(10);
/// How far the provider's clock may stand from ours for an ID token's expiry.
const CLOCK_SKEW: Duration = Duration::minutes(2);
/// Each call to the provider must answer within this time.
const PROVIDER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// The largest answer read from the provider.
const MAX_ANSWER: usize = 256 * 1024;

/// Where the provider sends the applicant back, beneath the public URL.
pub const CALLBACK_PATH: &str = "/servicos/entrar/oidc/retorno";

/// Why a sign-in through the provider did not open a session.
#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("no OpenID Connect provider is configured")]
    NotConfigured,
    /// The answer does not belong to a sign-in this browser began, or came too late, or twice.
    #[error("the sign-in's state is unknown, spent or not this browser's")]
    State,
    /// The applicant (or the provider) stopped the sign-in there.
    #[error("the provider answered the authorization with an error")]
    Denied,
    /// The provider could not be reached, or answered what the protocol does not allow.
    #[error("the provider: {0}")]
    Provider(String),
    /// The ID token is not the provider's, not for selo, expired or not for this sign-in.
    #[error("the ID token: {0}")]
    Token(String),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// A sign-in begun: the browser goes to `location` holding `state` in a cookie.
#[derive(Debug)]
pub struct Begun {
    pub location: String,
    pub state: String,
}

/// What the provider's answer did.
#[derive(Debug)]
pub enum Finished {
    /// Signed in: the session cookie's value.
    SignedIn { cookie: String, new: bool },
    /// The account's trust level is below the profile's.
    LevelTooLow {
        held: Option<TrustLevel>,
        needed: TrustLevel,
    },
    /// The provider vouched for no CPF (`sub` is not one).
    NoCpf,
    /// The provider gave no e-mail address, and the counter writes to one.
    NoEmail,
    /// The address belongs to an account of another CPF.
    EmailTaken,
}

fn settings(state: &AppState) -> Result<&Oidc, OidcError> {
    state.settings.oidc.as_ref().ok_or(OidcError::NotConfigured)
}

/// Whether selo may call `url`: https, or http to this machine outside production.
fn callable(state: &AppState, url: &str) -> Result<(), OidcError> {
    match outbound(url) {
        Some(Outbound::Https) => Ok(()),
        Some(Outbound::LoopbackHttp) if state.settings.environment != Environment::Production => {
            Ok(())
        }
        _ => Err(OidcError::Provider(format!(
            "refused address {url:?}: https only"
        ))),
    }
}

fn client() -> Result<reqwest::Client, OidcError> {
    static CLIENT: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    if let Some(c) = CLIENT.get() {
        return Ok(c.clone());
    }
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(PROVIDER_TIMEOUT)
        .build()
        .map_err(|e| OidcError::Provider(format!("HTTP client: {e}")))?;
    Ok(CLIENT.get_or_init(|| c).clone())
}

/// Sends `req` and reads its JSON answer (at most [`MAX_ANSWER`] bytes); any status but 200
/// is the provider's refusal.
async fn json_of(req: reqwest::RequestBuilder, what: &str) -> Result<Value, OidcError> {
    let mut res = req
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| OidcError::Provider(format!("{what}: {}", without_url(&e))))?;
    let status = res.status();
    let mut body = Vec::new();
    while let Some(chunk) = res
        .chunk()
        .await
        .map_err(|e| OidcError::Provider(format!("{what}: {}", without_url(&e))))?
    {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(OidcError::Provider(format!("{what}: answer too large")));
        }
        body.extend_from_slice(&chunk);
    }
    if status != reqwest::StatusCode::OK {
        // The OAuth error code only: the description may echo what was sent.
        let code = serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        return Err(OidcError::Provider(format!(
            "{what}: HTTP {} {code}",
            status.as_u16()
        )));
    }
    serde_json::from_slice(&body).map_err(|_| OidcError::Provider(format!("{what}: not JSON")))
}

/// reqwest's error without the address it names (a query may carry a code).
fn without_url(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "no answer in time".to_owned()
    } else if e.is_connect() {
        "cannot connect".to_owned()
    } else {
        "transport error".to_owned()
    }
}

/// The provider's endpoints, from its discovery document.
struct Provider {
    issuer: String,
    authorization: String,
    token: String,
    jwks: String,
}

async fn discover(state: &AppState, oidc: &Oidc) -> Result<Provider, OidcError> {
    let url = format!("{}/.well-known/openid-configuration", oidc.issuer);
    callable(state, &url)?;
    let doc = json_of(client()?.get(&url), "discovery").await?;
    let field = |name: &str| -> Result<String, OidcError> {
        let v = doc
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| OidcError::Provider(format!("discovery lacks {name}")))?;
        Ok(v.to_owned())
    };
    let provider = Provider {
        issuer: field("issuer")?,
        authorization: field("authorization_endpoint")?,
        token: field("token_endpoint")?,
        jwks: field("jwks_uri")?,
    };
    // OpenID Connect Discovery 1.0, 4.3: the issuer must be the one asked.
    if provider.issuer.trim_end_matches('/') != oidc.issuer {
        return Err(OidcError::Provider(
            "discovery names another issuer".to_owned(),
        ));
    }
    for url in [&provider.authorization, &provider.token, &provider.jwks] {
        callable(state, url)?;
    }
    Ok(provider)
}

fn s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn redirect_uri(state: &AppState) -> String {
    format!(
        "{}{CALLBACK_PATH}",
        state.settings.public_url.trim_end_matches('/')
    )
}

/// Begins a sign-in: a fresh state, nonce and PKCE verifier, stored; the address of the
/// provider's authorization endpoint to send the browser to.
pub async fn begin(state: &AppState) -> Result<Begun, OidcError> {
    let oidc = settings(state)?;
    let provider = discover(state, oidc).await?;
    let st = secrets::random_secret()?;
    let request = OidcRequest {
        nonce: secrets::random_secret()?,
        verifier: secrets::random_secret()?,
    };
    state
        .store
        .insert_oidc_request(&secrets::sha256_hex(&st), &request, state.clock.now())
        .await?;
    let params = [
        ("response_type", "code"),
        ("client_id", &oidc.client_id),
        ("scope", &oidc.scopes),
        ("redirect_uri", &redirect_uri(state)),
        ("state", &st),
        ("nonce", &request.nonce),
        ("code_challenge", &s256(&request.verifier)),
        ("code_challenge_method", "S256"),
    ];
    let query = params
        .iter()
        .map(|(k, v)| format!("{k}={}", form_encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let sep = if provider.authorization.contains('?') {
        '&'
    } else {
        '?'
    };
    Ok(Begun {
        location: format!("{}{sep}{query}", provider.authorization),
        state: st,
    })
}

/// The provider's answer, as the callback received it.
pub struct Answer<'a> {
    /// The state the browser's cookie holds.
    pub cookie_state: Option<&'a str>,
    pub state: &'a str,
    pub code: Option<&'a str>,
    /// The provider's `error` parameter (the applicant declined, for one).
    pub error: Option<&'a str>,
}

/// Finishes a sign-in with the provider's answer: the code is exchanged (with the PKCE
/// verifier), the ID token checked, the trust level read, and a session opened.
pub async fn finish(state: &AppState, answer: &Answer<'_>) -> Result<Finished, OidcError> {
    let oidc = settings(state)?;
    let bound = answer.cookie_state.is_some_and(|c| {
        !c.is_empty()
            && bool::from(subtle::ConstantTimeEq::ct_eq(
                c.as_bytes(),
                answer.state.as_bytes(),
            ))
    });
    if !bound {
        return Err(OidcError::State);
    }
    let now = state.clock.now();
    let request = state
        .store
        .take_oidc_request(&secrets::sha256_hex(answer.state), now, REQUEST_LIFETIME)
        .await?
        .ok_or(OidcError::State)?;
    if answer.error.is_some() {
        return Err(OidcError::Denied);
    }
    let code = answer
        .code
        .filter(|c| !c.is_empty())
        .ok_or_else(|| OidcError::Provider("no code in the answer".to_owned()))?;
    let provider = discover(state, oidc).await?;
    let tokens = exchange(state, oidc, &provider, code, &request.verifier).await?;
    let id_token = tokens
        .get("id_token")
        .and_then(Value::as_str)
        .ok_or_else(|| OidcError::Provider("the token answer has no id_token".to_owned()))?;
    let jwks = json_of(client()?.get(&provider.jwks), "JWK Set").await?;
    let claims = jws::verify(id_token, &jwks).map_err(|e| OidcError::Token(e.to_string()))?;
    check_claims(
        &claims,
        &provider.issuer,
        &oidc.client_id,
        &request.nonce,
        now,
    )?;
    let Some(cpf) = claims
        .get("sub")
        .and_then(Value::as_str)
        .and_then(|s| Cpf::parse(s).ok())
    else {
        return Ok(Finished::NoCpf);
    };
    let needed = state.letterhead.profile.sign_in.min_trust_level;
    let held = match &oidc.levels_url {
        Some(template) => {
            let access = tokens
                .get("access_token")
                .and_then(Value::as_str)
                .ok_or_else(|| OidcError::Provider("no access_token".to_owned()))?;
            levels_from_api(state, template, &cpf, access).await?
        }
        None => level_from_claim(&claims, &oidc.level_claim),
    };
    if held.is_none_or(|h| h < needed) {
        tracing::info!(held = ?held, needed = ?needed, "applicant's account below the trust level");
        return Ok(Finished::LevelTooLow { held, needed });
    }
    let Some(email) = claims
        .get("email")
        .and_then(Value::as_str)
        .and_then(|e| super::parse_email(e).ok())
    else {
        return Ok(Finished::NoEmail);
    };
    let cookie = secrets::random_secret()?;
    let csrf = secrets::random_secret()?;
    let opened = state
        .store
        .oidc_sign_in(
            cpf.as_str(),
            &email,
            (&secrets::sha256_hex(&cookie), &csrf),
            now,
        )
        .await?;
    let (applicant, new) = match opened {
        OidcSignIn::SignedIn { applicant, new } => (applicant, new),
        OidcSignIn::EmailTaken => return Ok(Finished::EmailTaken),
    };
    // The provider vouched for the CPF: the driver record of that CPF is the applicant's own.
    if let Some((driver, true)) = state
        .store
        .driver_id_by_cpf_or_cnh(cpf.as_str(), "")
        .await?
    {
        state
            .store
            .link_applicant(applicant.id, LinkedEntity::Driver(driver), now)
            .await?;
    }
    tracing::info!(applicant = %applicant.id, new, "applicant signed in through the provider");
    Ok(Finished::SignedIn { cookie, new })
}

/// The token endpoint's answer to the code (client authentication: HTTP Basic, RFC 6749,
/// 2.3.1).
async fn exchange(
    state: &AppState,
    oidc: &Oidc,
    provider: &Provider,
    code: &str,
    verifier: &str,
) -> Result<Map<String, Value>, OidcError> {
    let body = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", &redirect_uri(state)),
        ("code_verifier", verifier),
        ("client_id", &oidc.client_id),
    ]
    .iter()
    .map(|(k, v)| format!("{k}={}", form_encode(v)))
    .collect::<Vec<_>>()
    .join("&");
    let basic = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        form_encode(&oidc.client_id),
        form_encode(&oidc.client_secret)
    ));
    let answer = json_of(
        client()?
            .post(&provider.token)
            .header("authorization", format!("Basic {basic}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body),
        "token endpoint",
    )
    .await?;
    match answer {
        Value::Object(m) => Ok(m),
        _ => Err(OidcError::Provider(
            "token endpoint: not an object".to_owned(),
        )),
    }
}

/// OpenID Connect Core 1.0, 3.1.3.7: the ID token is the issuer's, for this client, not
/// expired, and carries this sign-in's nonce.
fn check_claims(
    claims: &Map<String, Value>,
    issuer: &str,
    client_id: &str,
    nonce: &str,
    now: DateTime<Utc>,
) -> Result<(), OidcError> {
    let bad = |what: &str| Err(OidcError::Token(what.to_owned()));
    if claims.get("iss").and_then(Value::as_str) != Some(issuer) {
        return bad("another issuer");
    }
    let audiences: Vec<&str> = match claims.get("aud") {
        Some(Value::String(a)) => vec![a.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !audiences.contains(&client_id) {
        return bad("not for this client");
    }
    if audiences.len() > 1 && claims.get("azp").and_then(Value::as_str) != Some(client_id) {
        return bad("authorized party is another client");
    }
    let Some(exp) = claims.get("exp").and_then(Value::as_i64) else {
        return bad("no expiry");
    };
    if exp < (now - CLOCK_SKEW).timestamp() {
        return bad("expired");
    }
    let sent = claims
        .get("nonce")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !bool::from(subtle::ConstantTimeEq::ct_eq(
        sent.as_bytes(),
        nonce.as_bytes(),
    )) {
        return bad("another nonce");
    }
    Ok(())
}

/// The highest level the provider's levels API lists for the account (gov.br: `GET
/// …/confiabilidades/v3/contas/{cpf}/niveis?response-type=ids` with the access token).
async fn levels_from_api(
    state: &AppState,
    template: &str,
    cpf: &Cpf,
    access_token: &str,
) -> Result<Option<TrustLevel>, OidcError> {
    let url = template.replace("{cpf}", cpf.as_str());
    callable(state, &url)?;
    let answer = json_of(
        client()?.get(&url).bearer_auth(access_token),
        "trust levels",
    )
    .await?;
    let ids: Vec<String> = answer
        .as_array()
        .map(|levels| {
            levels
                .iter()
                .filter_map(|l| match l.get("id") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Number(n)) => Some(n.to_string()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(trust::highest(ids.iter().map(String::as_str)))
}

/// The level an ID token's `claim` carries: a level, or a list of them.
fn level_from_claim(claims: &Map<String, Value>, claim: &str) -> Option<TrustLevel> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    match claims.get(claim)? {
        Value::Array(items) => {
            let ids: Vec<String> = items.iter().filter_map(text).collect();
            trust::highest(ids.iter().map(String::as_str))
        }
        one => text(one).and_then(|t| TrustLevel::parse(&t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn the_pkce_challenge_is_rfc_7636s() {
        // RFC 7636, appendix B.
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn an_id_token_must_be_the_issuers_for_this_client_unexpired_with_the_nonce() {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let good = json!({"iss": "https://sso.example", "aud": "selo", "exp": 1_800_000_300_i64,
                          "nonce": "n1", "sub": "52998224725"});
        let ok =
            |v: &Value| check_claims(&claims(v.clone()), "https://sso.example", "selo", "n1", now);
        assert!(ok(&good).is_ok());
        for (field, value) in [
            ("iss", json!("https://other.example")),
            ("aud", json!("another-client")),
            ("aud", json!(["selo", "other"])),
            ("exp", json!(1_799_999_000_i64)),
            ("nonce", json!("n2")),
        ] {
            let mut bad = good.clone();
            bad[field] = value;
            assert!(ok(&bad).is_err(), "{field}");
        }
        let mut with_azp = good.clone();
        with_azp["aud"] = json!(["selo", "other"]);
        with_azp["azp"] = json!("selo");
        assert!(ok(&with_azp).is_ok());
    }

    #[test]
    fn the_level_is_read_from_a_claim_as_a_number_a_name_or_a_list() {
        let c = claims(json!({"a": 2, "b": "ouro", "c": ["1", "2"], "d": "x"}));
        assert_eq!(level_from_claim(&c, "a"), Some(TrustLevel::Prata));
        assert_eq!(level_from_claim(&c, "b"), Some(TrustLevel::Ouro));
        assert_eq!(level_from_claim(&c, "c"), Some(TrustLevel::Prata));
        assert_eq!(level_from_claim(&c, "d"), None);
        assert_eq!(level_from_claim(&c, "z"), None);
    }

    use serde_json::json;
}
