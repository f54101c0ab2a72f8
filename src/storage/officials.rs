//! Officials' accounts, their API tokens (stored as SHA-256 only) and browser sessions. One SQL
//! text for both backends; every change to an account is an event of the entity `official` in
//! the same transaction.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{StorageError, Store, corrupt, parse_uuid};
use crate::domain::officials::{Login, Roles};

/// The id of the development token's pseudo-official (migration 0015).
pub const DEV_TOKEN_OFFICIAL: Uuid = Uuid::nil();
/// The id of the server command line's pseudo-official (migration 0015).
pub const CLI_OFFICIAL: Uuid = Uuid::from_u128(1);

/// An official as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Official {
    pub id: Uuid,
    pub login: Login,
    pub name: String,
    pub roles: Roles,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An official with the hash of their password, for signing in.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub official: Official,
    pub password_hash: String,
}

/// A live browser session.
#[derive(Debug, Clone)]
pub struct Session {
    pub official: Official,
    pub csrf_token: String,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct OfficialRow {
    id: String,
    login: String,
    name: String,
    roles: String,
    active: bool,
    password_hash: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl TryFrom<OfficialRow> for Credentials {
    type Error = StorageError;

    fn try_from(r: OfficialRow) -> Result<Self, StorageError> {
        Ok(Credentials {
            official: Official {
                id: parse_uuid(&r.id)?,
                login: Login::parse(&r.login).map_err(|_| corrupt("login", &r.id))?,
                name: r.name,
                roles: Roles::parse(&r.roles).map_err(|_| corrupt("roles", &r.id))?,
                active: r.active,
                created_at: r.created_at,
                updated_at: r.updated_at,
            },
            password_hash: r.password_hash,
        })
    }
}

/// Appends an event of the official `$id` (entity `official`, no legal basis) inside `$tx`.
macro_rules! account_event {
    ($tx:expr, $id:expr, $kind:expr, $actor:expr, $at:expr, $data:expr $(,)?) => {
        append_event!(
            $tx,
            "official",
            $id,
            $kind,
            $actor,
            None::<String>,
            None::<String>,
            $at,
            $data,
        )
    };
}

const COLUMNS: &str =
    "o.id, o.login, o.name, o.roles, o.active, o.password_hash, o.created_at, o.updated_at";

/// What changed in an account, recorded as the event's kind and data.
#[derive(Debug, Clone)]
pub enum AccountChange<'a> {
    Disabled,
    Enabled,
    Roles(&'a Roles),
    /// The owner changed it (`by_owner`) or an admin reset it.
    Password {
        hash: &'a str,
        by_owner: bool,
    },
    TokenIssued,
    TokensRevoked,
}

impl AccountChange<'_> {
    fn kind(&self) -> &'static str {
        match self {
            AccountChange::Disabled => "official_disabled",
            AccountChange::Enabled => "official_enabled",
            AccountChange::Roles(_) => "official_roles_changed",
            AccountChange::Password { by_owner: true, .. } => "official_password_changed",
            AccountChange::Password {
                by_owner: false, ..
            } => "official_password_reset",
            AccountChange::TokenIssued => "official_token_issued",
            AccountChange::TokensRevoked => "official_tokens_revoked",
        }
    }
}

/// SQL: how many active officials hold the admin role (roles are kept sorted, comma-separated).
const ACTIVE_ADMINS: &str = "SELECT COUNT(*) FROM officials WHERE active = TRUE AND \
     (roles = 'admin' OR roles LIKE 'admin,%' OR roles LIKE '%,admin' OR roles LIKE '%,admin,%')";

/// The conflict of a change that would leave no active admin.
pub const LAST_ADMIN: &str = "last_admin";

impl Store {
    /// Records a new official; `Conflict("login")` if the login is taken.
    pub async fn insert_official(
        &self,
        o: &Official,
        password_hash: &str,
        actor: &str,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let taken: Option<String> =
                sqlx::query_scalar("SELECT id FROM officials WHERE login = $1")
                    .bind(o.login.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
            if taken.is_some() {
                return Err(StorageError::Conflict("login"));
            }
            sqlx::query(
                "INSERT INTO officials (id, login, name, roles, active, password_hash, created_at, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
            )
            .bind(o.id.to_string())
            .bind(o.login.as_str())
            .bind(&o.name)
            .bind(o.roles.to_string())
            .bind(o.active)
            .bind(password_hash)
            .bind(o.created_at)
            .execute(&mut *tx)
            .await?;
            account_event!(
                tx,
                o.id.to_string(),
                "official_created",
                actor,
                o.created_at,
                serde_json::json!({
                    "login": o.login.as_str(),
                    "name": o.name,
                    "roles": o.roles.to_string(),
                })
                .to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Changes an account, with its event; `NotFound` if there is no such official. Disabling
    /// ends every session of the official at once; revoking tokens revokes every live one.
    pub async fn change_official(
        &self,
        id: Uuid,
        change: AccountChange<'_>,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let admins_before: i64 = sqlx::query_scalar(ACTIVE_ADMINS)
                .fetch_one(&mut *tx)
                .await?;
            let end_sessions = matches!(
                change,
                AccountChange::Disabled
                    | AccountChange::Password {
                        by_owner: false,
                        ..
                    }
            );
            if end_sessions {
                // Disabling ends every session at once; so does a reset by an admin (the
                // owner's own change keeps the session they changed it from).
                sqlx::query(
                    "UPDATE official_sessions SET ended_at = $2 \
                     WHERE official_id = $1 AND ended_at IS NULL",
                )
                .bind(id.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            if matches!(change, AccountChange::TokensRevoked) {
                sqlx::query(
                    "UPDATE official_tokens SET revoked_at = $2 \
                     WHERE official_id = $1 AND revoked_at IS NULL",
                )
                .bind(id.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            let (update, third) = match &change {
                AccountChange::Disabled => (
                    "UPDATE officials SET active = FALSE, updated_at = $2 WHERE id = $1",
                    None,
                ),
                AccountChange::Enabled => (
                    "UPDATE officials SET active = TRUE, updated_at = $2 WHERE id = $1",
                    None,
                ),
                AccountChange::Roles(roles) => (
                    "UPDATE officials SET roles = $3, updated_at = $2 WHERE id = $1",
                    Some(roles.to_string()),
                ),
                AccountChange::Password { hash, .. } => (
                    "UPDATE officials SET password_hash = $3, updated_at = $2 WHERE id = $1",
                    Some((*hash).to_owned()),
                ),
                AccountChange::TokenIssued | AccountChange::TokensRevoked => {
                    ("UPDATE officials SET updated_at = $2 WHERE id = $1", None)
                }
            };
            let mut q = sqlx::query(update).bind(id.to_string()).bind(now);
            if let Some(third) = third {
                q = q.bind(third);
            }
            let done = q.execute(&mut *tx).await?;
            if done.rows_affected() == 0 {
                return Err(StorageError::NotFound);
            }
            // The register always keeps an active admin once it has one: the last one can
            // neither be disabled nor lose the role (dropping the transaction undoes it).
            let admins_after: i64 = sqlx::query_scalar(ACTIVE_ADMINS)
                .fetch_one(&mut *tx)
                .await?;
            if admins_before > 0 && admins_after == 0 {
                return Err(StorageError::Conflict(LAST_ADMIN));
            }
            let data = match &change {
                AccountChange::Roles(r) => serde_json::json!({ "roles": r.to_string() }),
                _ => serde_json::json!({}),
            };
            account_event!(
                tx,
                id.to_string(),
                change.kind(),
                actor,
                now,
                data.to_string()
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Stores a new API token of `id` (its SHA-256 only), with its event.
    pub async fn insert_official_token(
        &self,
        id: Uuid,
        token_hash: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(
                "INSERT INTO official_tokens (token_hash, official_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(id.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            account_event!(
                tx,
                id.to_string(),
                AccountChange::TokenIssued.kind(),
                actor,
                now,
                "{}"
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// The official a live token belongs to, active or not.
    pub async fn official_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<Official>, StorageError> {
        let q = format!(
            "SELECT {COLUMNS} FROM official_tokens t JOIN officials o ON o.id = t.official_id \
             WHERE t.token_hash = $1 AND t.revoked_at IS NULL"
        );
        self.one_official(q, token_hash)
            .await
            .map(|c| c.map(|c| c.official))
    }

    pub async fn official_by_login(
        &self,
        login: &Login,
    ) -> Result<Option<Credentials>, StorageError> {
        let q = format!("SELECT {COLUMNS} FROM officials o WHERE o.login = $1");
        self.one_official(q, login.as_str()).await
    }

    pub async fn official_by_id(&self, id: Uuid) -> Result<Option<Official>, StorageError> {
        let q = format!("SELECT {COLUMNS} FROM officials o WHERE o.id = $1");
        self.one_official(q, &id.to_string())
            .await
            .map(|c| c.map(|c| c.official))
    }

    async fn one_official(
        &self,
        q: String,
        value: &str,
    ) -> Result<Option<Credentials>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<OfficialRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(value)
                .fetch_optional(pool)
                .await?;
            row.map(Credentials::try_from).transpose()
        })
    }

    /// Every official but the two pseudo-officials, by login.
    pub async fn officials(&self) -> Result<Vec<Official>, StorageError> {
        let q = format!(
            "SELECT {COLUMNS} FROM officials o WHERE o.id NOT IN ($1, $2) ORDER BY o.login"
        );
        on_backend!(self, |pool, _begin| {
            let rows: Vec<OfficialRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(DEV_TOKEN_OFFICIAL.to_string())
                .bind(CLI_OFFICIAL.to_string())
                .fetch_all(pool)
                .await?;
            rows.into_iter()
                .map(|r| Credentials::try_from(r).map(|c| c.official))
                .collect()
        })
    }

    /// Starts a browser session (its id stored as SHA-256 only) and records the sign-in.
    pub async fn insert_session(
        &self,
        official: Uuid,
        id_hash: &str,
        csrf_token: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(
                "INSERT INTO official_sessions (id_hash, official_id, csrf_token, created_at, \
                 last_seen_at) VALUES ($1, $2, $3, $4, $4)",
            )
            .bind(id_hash)
            .bind(official.to_string())
            .bind(csrf_token)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            account_event!(
                tx,
                official.to_string(),
                "official_signed_in",
                official.to_string(),
                now,
                "{}"
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// The live session with this id hash, with its official (active or not).
    pub async fn session(&self, id_hash: &str) -> Result<Option<Session>, StorageError> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            official: OfficialRow,
            csrf_token: String,
            s_created_at: DateTime<Utc>,
            last_seen_at: DateTime<Utc>,
        }
        let q = format!(
            "SELECT {COLUMNS}, s.csrf_token, s.created_at AS s_created_at, s.last_seen_at \
             FROM official_sessions s JOIN officials o ON o.id = s.official_id \
             WHERE s.id_hash = $1 AND s.ended_at IS NULL"
        );
        on_backend!(self, |pool, _begin| {
            let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(id_hash)
                .fetch_optional(pool)
                .await?;
            row.map(|r| {
                Ok(Session {
                    official: Credentials::try_from(r.official)?.official,
                    csrf_token: r.csrf_token,
                    created_at: r.s_created_at,
                    last_seen_at: r.last_seen_at,
                })
            })
            .transpose()
        })
    }

    /// Marks the session as used now (idle expiry counts from here).
    pub async fn touch_session(
        &self,
        id_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(
                "UPDATE official_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND ended_at IS NULL",
            )
            .bind(id_hash)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Ends a session (logout or expiry); `reason` goes to the event when one is recorded.
    pub async fn end_session(
        &self,
        id_hash: &str,
        now: DateTime<Utc>,
        event: Option<&str>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let official: Option<String> = sqlx::query_scalar(
                "UPDATE official_sessions SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL \
                 RETURNING official_id",
            )
            .bind(id_hash)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            if let (Some(official), Some(kind)) = (official, event) {
                account_event!(tx, &official, kind, &official, now, "{}");
            }
            tx.commit_unseen().await?;
            Ok(())
        })
    }
}

impl Store {
    /// Who reserved a number (`None` before accounts, or no such number).
    pub async fn number_reserved_by(&self, number: &str) -> Result<Option<String>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let by: Option<Option<String>> =
                sqlx::query_scalar("SELECT reserved_by FROM document_numbers WHERE number = $1")
                    .bind(number)
                    .fetch_optional(pool)
                    .await?;
            Ok(by.flatten())
        })
    }
}
