//! Applicants' accounts at `/servicos`: one-time sign-in codes (SHA-256 only, sent through
//! the outbox in the same transaction), the accounts they open and their browser sessions
//! (SHA-256 of the id only). One SQL text for both backends.

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::outbox::{OutgoingMail, micros, queue_mail};
use super::{StorageError, Store, parse_uuid};

/// An applicant as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applicant {
    pub id: Uuid,
    pub email: String,
    pub created_at: DateTime<Utc>,
}

/// A live applicant session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplicantSession {
    pub applicant: Applicant,
    pub csrf_token: String,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

/// A code to store with the message that carries it.
pub struct NewCode<'a> {
    pub challenge: &'a str,
    pub email: &'a str,
    pub code_hash: &'a str,
    pub expires: DateTime<Utc>,
    pub mail: &'a OutgoingMail,
}

/// What a typed code turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redeemed {
    /// Right: the session was opened for this applicant (new or returning).
    SignedIn { applicant: Applicant, new: bool },
    /// Wrong; this many tries are left.
    Wrong { left: i64 },
    /// Expired, used, worn out by wrong tries, or never issued.
    Gone,
}

/// Opens a browser session: `$1` the session id's hash, `$2` the applicant, `$3` the CSRF token,
/// `$4` now.
const INSERT_SESSION: &str = "INSERT INTO applicant_sessions (id_hash, applicant_id, csrf_token, \
     created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)";
const TOUCH_SIGN_IN: &str = "UPDATE applicants SET last_sign_in_at = $2 WHERE id = $1";

/// A sign-in through the city's OpenID Connect provider, as stored between the two legs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcRequest {
    pub nonce: String,
    pub verifier: String,
}

/// What the provider's word opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OidcSignIn {
    /// The session was opened for the account of this CPF (new, or returning; an account
    /// opened with the e-mailed code for the same address now carries the CPF).
    SignedIn { applicant: Applicant, new: bool },
    /// The address belongs to an account of another CPF: nothing was opened.
    EmailTaken,
}

/// The conflict of a code asked for too often.
pub const TOO_MANY_CODES: &str = "too_many_codes";

#[derive(sqlx::FromRow)]
struct CodeRow {
    email: String,
    code_hash: String,
    expires_us: i64,
    failures: i64,
    used_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    id: String,
    email: String,
    created_at: DateTime<Utc>,
    csrf_token: String,
    session_created_at: DateTime<Utc>,
    last_seen_at: DateTime<Utc>,
}

impl Store {
    /// Stores a sign-in code and queues its message, unless `max_recent` codes were already
    /// asked for the address since `window_start` (`Conflict(TOO_MANY_CODES)`).
    pub async fn insert_sign_in_code(
        &self,
        code: &NewCode<'_>,
        now: DateTime<Utc>,
        window_start: DateTime<Utc>,
        max_recent: i64,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let recent: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM applicant_codes WHERE email = $1 AND created_at >= $2",
            )
            .bind(code.email)
            .bind(window_start)
            .fetch_one(&mut *tx)
            .await?;
            if recent >= max_recent {
                return Err(StorageError::Conflict(TOO_MANY_CODES));
            }
            sqlx::query(
                "INSERT INTO applicant_codes (challenge, email, code_hash, created_at, expires_us) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(code.challenge)
            .bind(code.email)
            .bind(code.code_hash)
            .bind(now)
            .bind(micros(code.expires))
            .execute(&mut *tx)
            .await?;
            queue_mail!(tx, code.mail, now);
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Checks a typed code against the challenge: a right one is used up and opens a session
    /// (`session_hash`, `csrf`) for the address's applicant, created on first sign-in with its
    /// event; a wrong one counts against `max_failures`.
    pub async fn redeem_sign_in_code(
        &self,
        challenge: &str,
        typed_hash: &str,
        session: (&str, &str),
        now: DateTime<Utc>,
        max_failures: i64,
    ) -> Result<Redeemed, StorageError> {
        let (session_hash, csrf) = session;
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let row: Option<CodeRow> = sqlx::query_as(
                "SELECT email, code_hash, expires_us, failures, used_at FROM applicant_codes \
                 WHERE challenge = $1",
            )
            .bind(challenge)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else {
                return Ok(Redeemed::Gone);
            };
            if row.used_at.is_some() || row.expires_us < micros(now) || row.failures >= max_failures
            {
                return Ok(Redeemed::Gone);
            }
            let right: bool =
                subtle::ConstantTimeEq::ct_eq(row.code_hash.as_bytes(), typed_hash.as_bytes())
                    .into();
            if !right {
                sqlx::query(
                    "UPDATE applicant_codes SET failures = failures + 1 WHERE challenge = $1",
                )
                .bind(challenge)
                .execute(&mut *tx)
                .await?;
                tx.commit_unseen().await?;
                return Ok(Redeemed::Wrong {
                    left: max_failures - row.failures - 1,
                });
            }
            sqlx::query("UPDATE applicant_codes SET used_at = $2 WHERE challenge = $1")
                .bind(challenge)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let known: Option<(String, DateTime<Utc>)> =
                sqlx::query_as("SELECT id, created_at FROM applicants WHERE email = $1")
                    .bind(&row.email)
                    .fetch_optional(&mut *tx)
                    .await?;
            let new = known.is_none();
            let (id, created_at) = if let Some((id, created_at)) = known {
                (parse_uuid(&id)?, created_at)
            } else {
                let id = Uuid::new_v4();
                sqlx::query("INSERT INTO applicants (id, email, created_at) VALUES ($1, $2, $3)")
                    .bind(id.to_string())
                    .bind(&row.email)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                append_event!(
                    tx,
                    "applicant",
                    id.to_string(),
                    "applicant_created",
                    id.to_string(),
                    None::<String>,
                    None::<String>,
                    now,
                    serde_json::json!({ "sign_in": "email_code" }).to_string(),
                );
                (id, now)
            };
            sqlx::query(TOUCH_SIGN_IN)
                .bind(id.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(INSERT_SESSION)
                .bind(session_hash)
                .bind(id.to_string())
                .bind(csrf)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit_unseen().await?;
            Ok(Redeemed::SignedIn {
                applicant: Applicant {
                    id,
                    email: row.email,
                    created_at,
                },
                new,
            })
        })
    }

    /// Stores a sign-in through the provider until its answer comes back; requests older than a
    /// day are dropped on the way.
    pub async fn insert_oidc_request(
        &self,
        state_hash: &str,
        request: &OidcRequest,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query("DELETE FROM applicant_oidc_requests WHERE created_at < $1")
                .bind(now - Duration::days(1))
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO applicant_oidc_requests (state_hash, nonce, verifier, created_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(state_hash)
            .bind(&request.nonce)
            .bind(&request.verifier)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Takes, once, the sign-in stored under `state_hash`; `None` when unknown, already taken
    /// or older than `max_age`.
    pub async fn take_oidc_request(
        &self,
        state_hash: &str,
        now: DateTime<Utc>,
        max_age: Duration,
    ) -> Result<Option<OidcRequest>, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let taken = sqlx::query(
                "UPDATE applicant_oidc_requests SET used_at = $2 \
                 WHERE state_hash = $1 AND used_at IS NULL AND created_at >= $3",
            )
            .bind(state_hash)
            .bind(now)
            .bind(now - max_age)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if taken != 1 {
                return Ok(None);
            }
            let row: (String, String) = sqlx::query_as(
                "SELECT nonce, verifier FROM applicant_oidc_requests WHERE state_hash = $1",
            )
            .bind(state_hash)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit_unseen().await?;
            Ok(Some(OidcRequest {
                nonce: row.0,
                verifier: row.1,
            }))
        })
    }

    /// Opens a session (`session_hash`, `csrf`) for the account of `cpf`, as the provider
    /// vouched for it: the account that carries the CPF; else the one opened with the e-mailed
    /// code for `email`, which now carries the CPF; else a new one, with its event.
    pub async fn oidc_sign_in(
        &self,
        cpf: &str,
        email: &str,
        session: (&str, &str),
        now: DateTime<Utc>,
    ) -> Result<OidcSignIn, StorageError> {
        let (session_hash, csrf) = session;
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let by_cpf: Option<(String, String, DateTime<Utc>)> =
                sqlx::query_as("SELECT id, email, created_at FROM applicants WHERE cpf = $1")
                    .bind(cpf)
                    .fetch_optional(&mut *tx)
                    .await?;
            let (applicant, new, event) = if let Some((id, email, created_at)) = by_cpf {
                let id = parse_uuid(&id)?;
                let applicant = Applicant {
                    id,
                    email,
                    created_at,
                };
                (applicant, false, None)
            } else {
                let by_email: Option<(String, Option<String>, DateTime<Utc>)> =
                    sqlx::query_as("SELECT id, cpf, created_at FROM applicants WHERE email = $1")
                        .bind(email)
                        .fetch_optional(&mut *tx)
                        .await?;
                match by_email {
                    Some((_, Some(_), _)) => return Ok(OidcSignIn::EmailTaken),
                    Some((id, None, created_at)) => {
                        sqlx::query("UPDATE applicants SET cpf = $2 WHERE id = $1")
                            .bind(&id)
                            .bind(cpf)
                            .execute(&mut *tx)
                            .await?;
                        let id = parse_uuid(&id)?;
                        let email = email.to_owned();
                        let applicant = Applicant {
                            id,
                            email,
                            created_at,
                        };
                        (applicant, false, Some("applicant_cpf_vouched"))
                    }
                    None => {
                        let id = Uuid::new_v4();
                        sqlx::query(
                            "INSERT INTO applicants (id, email, cpf, created_at) \
                             VALUES ($1, $2, $3, $4)",
                        )
                        .bind(id.to_string())
                        .bind(email)
                        .bind(cpf)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                        let email = email.to_owned();
                        let applicant = Applicant {
                            id,
                            email,
                            created_at: now,
                        };
                        (applicant, true, Some("applicant_created"))
                    }
                }
            };
            if let Some(kind) = event {
                append_event!(
                    tx,
                    "applicant",
                    applicant.id.to_string(),
                    kind,
                    applicant.id.to_string(),
                    None::<String>,
                    None::<String>,
                    now,
                    serde_json::json!({ "sign_in": "oidc" }).to_string(),
                );
            }
            sqlx::query(TOUCH_SIGN_IN)
                .bind(applicant.id.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(INSERT_SESSION)
                .bind(session_hash)
                .bind(applicant.id.to_string())
                .bind(csrf)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit_unseen().await?;
            Ok(OidcSignIn::SignedIn { applicant, new })
        })
    }

    /// The live session stored under `id_hash`, touched at `now`; `None` once ended, idle
    /// longer than `idle` or older than `absolute`.
    pub async fn applicant_session(
        &self,
        id_hash: &str,
        now: DateTime<Utc>,
        idle: Duration,
        absolute: Duration,
    ) -> Result<Option<ApplicantSession>, StorageError> {
        let row: Option<SessionRow> = on_backend!(self, |pool, _begin| {
            sqlx::query_as(
                "SELECT a.id, a.email, a.created_at, s.csrf_token, \
                 s.created_at AS session_created_at, s.last_seen_at \
                 FROM applicant_sessions s JOIN applicants a ON a.id = s.applicant_id \
                 WHERE s.id_hash = $1 AND s.ended_at IS NULL",
            )
            .bind(id_hash)
            .fetch_optional(pool)
            .await?
        });
        let Some(r) = row else { return Ok(None) };
        if now - r.last_seen_at > idle || now - r.session_created_at > absolute {
            return Ok(None);
        }
        on_backend!(self, |pool, _begin| {
            sqlx::query("UPDATE applicant_sessions SET last_seen_at = $2 WHERE id_hash = $1")
                .bind(id_hash)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(Some(ApplicantSession {
            applicant: Applicant {
                id: parse_uuid(&r.id)?,
                email: r.email,
                created_at: r.created_at,
            },
            csrf_token: r.csrf_token,
            created_at: r.session_created_at,
            last_seen_at: now,
        }))
    }

    /// Ends a session (signing out).
    pub async fn end_applicant_session(
        &self,
        id_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(
                "UPDATE applicant_sessions SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL",
            )
            .bind(id_hash)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }
}
