//! Officials' accounts: creating and changing them (command line and back office),
//! authenticating a bearer token or a browser session, signing in and out. Every change is an
//! event of the official, made by a named official (or the server's command line).

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use crate::domain::officials::{Login, NewPassword, Roles, parse_name};
use crate::settings::Environment;
use crate::signing::secrets::{self, SecretError};
use crate::state::AppState;
use crate::storage::officials::{AccountChange, DEV_TOKEN_OFFICIAL, Official, Session};
use crate::storage::{StorageError, Store};

/// A session ends after this long without a request.
pub const SESSION_IDLE: Duration = Duration::minutes(30);
/// A session ends this long after sign-in, used or not.
pub const SESSION_ABSOLUTE: Duration = Duration::hours(10);

/// Why an account operation failed; each front end (CLI, back office) says it in pt-BR.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error(transparent)]
    Invalid(#[from] crate::domain::officials::OfficialError),
    #[error("já existe um(a) servidor(a) com o login {0}")]
    LoginTaken(String),
    #[error("não há servidor(a) com o login {0}")]
    Unknown(String),
    #[error("a senha atual não confere")]
    WrongPassword,
    #[error(
        "{0} é o(a) último(a) administrador(a) ativo(a): dê o papel de administrador(a) a outra \
         conta ativa antes de desativar esta ou de tirar dela esse papel"
    )]
    LastAdmin(String),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The official the development token stands for: every role, named in events as "token de
/// desenvolvimento" (refused in production).
pub fn development_official(now: DateTime<Utc>) -> Official {
    Official {
        id: DEV_TOKEN_OFFICIAL,
        login: Login::development(),
        name: "token de desenvolvimento".to_owned(),
        roles: Roles::all(),
        active: true,
        created_at: now,
        updated_at: now,
    }
}

async fn hash_blocking(password: NewPassword) -> Result<String, AccountError> {
    tokio::task::spawn_blocking(move || secrets::hash_password(password.expose()))
        .await
        .map_err(|_| AccountError::Secret(SecretError::Hash("worker stopped".into())))?
        .map_err(AccountError::from)
}

/// `selo officials add`: a new active official.
pub async fn add(
    store: &Store,
    actor: &str,
    login: &str,
    name: &str,
    roles: &str,
    password: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    let login = Login::parse(login)?;
    let name = parse_name(name)?;
    let roles = Roles::parse(roles)?;
    let password = NewPassword::parse(password)?;
    let hash = hash_blocking(password).await?;
    let official = Official {
        id: Uuid::new_v4(),
        login,
        name,
        roles,
        active: true,
        created_at: now,
        updated_at: now,
    };
    match store.insert_official(&official, &hash, actor).await {
        Ok(()) => Ok(official),
        Err(StorageError::Conflict(_)) => Err(AccountError::LoginTaken(official.login.to_string())),
        Err(e) => Err(e.into()),
    }
}

/// The official with this login, or `Unknown`.
pub async fn find(store: &Store, login: &str) -> Result<Official, AccountError> {
    let parsed = Login::parse(login).map_err(|_| AccountError::Unknown(login.to_owned()))?;
    store
        .official_by_login(&parsed)
        .await?
        .map(|c| c.official)
        .ok_or_else(|| AccountError::Unknown(login.to_owned()))
}

async fn change(
    store: &Store,
    login: &str,
    change: AccountChange<'_>,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    let official = find(store, login).await?;
    match store.change_official(official.id, change, actor, now).await {
        Err(StorageError::Conflict(crate::storage::officials::LAST_ADMIN)) => {
            return Err(AccountError::LastAdmin(official.login.to_string()));
        }
        other => other?,
    }
    find(store, login).await
}

/// The full name of the official whose id is `actor` (the id itself for acts older than
/// accounts), as documents print it.
pub async fn name_of(store: &Store, actor: &str) -> Result<String, StorageError> {
    Ok(match Uuid::parse_str(actor) {
        Ok(id) => store
            .official_by_id(id)
            .await?
            .map_or_else(|| actor.to_owned(), |o| o.name),
        Err(_) => actor.to_owned(),
    })
}

/// `selo officials token LOGIN`: a new personal API token, returned once; the official's
/// other tokens keep working.
pub async fn issue_token(
    store: &Store,
    login: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<String, AccountError> {
    let official = find(store, login).await?;
    let token = secrets::new_api_token()?;
    store
        .insert_official_token(official.id, &secrets::sha256_hex(&token), actor, now)
        .await?;
    Ok(token)
}

pub async fn revoke_tokens(
    store: &Store,
    login: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    change(store, login, AccountChange::TokensRevoked, actor, now).await
}

/// Disabling ends the official's sessions at once; their tokens stop working too (they are
/// checked against the account on every request).
pub async fn disable(
    store: &Store,
    login: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    change(store, login, AccountChange::Disabled, actor, now).await
}

pub async fn enable(
    store: &Store,
    login: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    change(store, login, AccountChange::Enabled, actor, now).await
}

pub async fn set_roles(
    store: &Store,
    login: &str,
    roles: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    let roles = Roles::parse(roles)?;
    change(store, login, AccountChange::Roles(&roles), actor, now).await
}

/// An admin (or the command line) sets a new password; the official's sessions end.
pub async fn reset_password(
    store: &Store,
    login: &str,
    password: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Official, AccountError> {
    let hash = hash_blocking(NewPassword::parse(password)?).await?;
    let change_ = AccountChange::Password {
        hash: &hash,
        by_owner: false,
    };
    change(store, login, change_, actor, now).await
}

/// The owner changes their own password, giving the current one.
pub async fn change_own_password(
    store: &Store,
    official: &Official,
    current: &str,
    new: &str,
    now: DateTime<Utc>,
) -> Result<(), AccountError> {
    let new = NewPassword::parse(new)?;
    let stored = store
        .official_by_login(&official.login)
        .await?
        .ok_or_else(|| AccountError::Unknown(official.login.to_string()))?;
    let current = current.to_owned();
    let ok = tokio::task::spawn_blocking(move || {
        secrets::verify_password(&current, &stored.password_hash)
    })
    .await
    .unwrap_or(false);
    if !ok {
        return Err(AccountError::WrongPassword);
    }
    let hash = hash_blocking(new).await?;
    let id = official.id.to_string();
    store
        .change_official(
            official.id,
            AccountChange::Password {
                hash: &hash,
                by_owner: true,
            },
            &id,
            now,
        )
        .await?;
    Ok(())
}

/// Why a bearer token was not accepted.
#[derive(Debug, PartialEq, Eq)]
pub enum BearerRefusal {
    /// Unknown or revoked token.
    Invalid,
    /// The token's official is disabled.
    Disabled,
}

/// The official a bearer token stands for: a personal token, or — outside production — the
/// development token (`SELO_ADMIN_TOKEN`).
pub async fn authenticate_bearer(
    state: &AppState,
    presented: &str,
) -> Result<Result<Official, BearerRefusal>, StorageError> {
    use subtle::ConstantTimeEq;
    if state.settings.environment != Environment::Production
        && let Some(dev) = state.settings.admin_token.as_deref()
        && bool::from(presented.as_bytes().ct_eq(dev.as_bytes()))
    {
        return Ok(Ok(development_official(state.clock.now())));
    }
    Ok(
        match state
            .store
            .official_by_token(&secrets::sha256_hex(presented))
            .await?
        {
            Some(o) if o.active => Ok(o),
            Some(_) => Err(BearerRefusal::Disabled),
            None => Err(BearerRefusal::Invalid),
        },
    )
}

/// A new browser session: the cookie value (shown to the browser only) and the session.
pub struct NewSession {
    pub cookie: String,
    pub session: Session,
}

/// Signs in with login and password. `None` for an unknown login, a wrong password and a
/// disabled official alike (the same answer, after the same work).
pub async fn sign_in(
    state: &AppState,
    login: &str,
    password: &str,
) -> Result<Option<NewSession>, AccountError> {
    let now = state.clock.now();
    let credentials = match Login::parse(login) {
        Ok(l) => state.store.official_by_login(&l).await?,
        Err(_) => None,
    };
    let hash = credentials.as_ref().map_or_else(
        || secrets::decoy_hash().to_owned(),
        |c| c.password_hash.clone(),
    );
    let password = password.to_owned();
    let matches = tokio::task::spawn_blocking(move || secrets::verify_password(&password, &hash))
        .await
        .unwrap_or(false);
    let Some(credentials) = credentials.filter(|c| matches && c.official.active) else {
        return Ok(None);
    };
    let cookie = secrets::random_secret()?;
    let csrf_token = secrets::random_secret()?;
    state
        .store
        .insert_session(
            credentials.official.id,
            &secrets::sha256_hex(&cookie),
            &csrf_token,
            now,
        )
        .await?;
    Ok(Some(NewSession {
        cookie,
        session: Session {
            official: credentials.official,
            csrf_token,
            created_at: now,
            last_seen_at: now,
        },
    }))
}

/// The live session a cookie names, refreshed; `None` when unknown, ended, expired (30 min
/// idle, 10 h absolute) or its official disabled.
pub async fn session(state: &AppState, cookie: &str) -> Result<Option<Session>, StorageError> {
    let now = state.clock.now();
    let hash = secrets::sha256_hex(cookie);
    let Some(s) = state.store.session(&hash).await? else {
        return Ok(None);
    };
    let expired = now - s.last_seen_at > SESSION_IDLE || now - s.created_at > SESSION_ABSOLUTE;
    if expired || !s.official.active {
        state
            .store
            .end_session(&hash, now, expired.then_some("official_session_expired"))
            .await?;
        return Ok(None);
    }
    state.store.touch_session(&hash, now).await?;
    Ok(Some(s))
}

/// Logout: the session ends at once.
pub async fn sign_out(state: &AppState, cookie: &str) -> Result<(), StorageError> {
    state
        .store
        .end_session(
            &secrets::sha256_hex(cookie),
            state.clock.now(),
            Some("official_signed_out"),
        )
        .await
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_development_official_holds_every_role() {
        let o = super::development_official(chrono::Utc::now());
        assert_eq!(o.login.as_str(), "token-dev");
        for r in crate::domain::officials::Role::ALL {
            assert!(o.roles.contains(r));
        }
    }
}
