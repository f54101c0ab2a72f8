//! Applicants' accounts at `/servicos`: a one-time code sent by e-mail (through the outbox,
//! in the transaction that stores it), redeemed for a browser session; the account opens on
//! the first right code. The same answer is given whether the address is known or not.

pub mod oidc;

use chrono::Duration;

use crate::signing::secrets::{self, SecretError};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::applicants::{ApplicantSession, NewCode, Redeemed, TOO_MANY_CODES};
use crate::storage::outbox::OutgoingMail;

/// A code is good for this long.
pub const CODE_LIFETIME: Duration = Duration::minutes(10);
/// Wrong tries a code allows.
pub const CODE_TRIES: i64 = 5;
/// Codes one address may ask for in [`CODE_WINDOW`].
pub const CODES_PER_WINDOW: i64 = 3;
pub const CODE_WINDOW: Duration = Duration::minutes(15);
/// A session ends after this long without a request, or this long after sign-in.
pub const SESSION_IDLE: Duration = Duration::minutes(30);
pub const SESSION_ABSOLUTE: Duration = Duration::hours(8);

#[derive(Debug, thiserror::Error)]
pub enum ApplicantError {
    #[error("e-mail inválido")]
    InvalidEmail,
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// An e-mail address as typed, trimmed and lower-cased: one `@`, a dotted domain, no spaces,
/// at most 254 characters.
pub fn parse_email(typed: &str) -> Result<String, ApplicantError> {
    let e = typed.trim().to_lowercase();
    let ok = e.len() <= 254
        && !e
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"".contains(c))
        && e.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        });
    if ok {
        Ok(e)
    } else {
        Err(ApplicantError::InvalidEmail)
    }
}

/// Six decimal digits from the system's random generator, without modulo bias.
fn six_digits() -> Result<String, SecretError> {
    loop {
        let mut b = [0u8; 4];
        getrandom::fill(&mut b).map_err(|_| SecretError::Random)?;
        let n = u32::from_le_bytes(b);
        // The largest multiple of 10⁶ below 2³².
        if n < 4_294_000_000 {
            return Ok(format!("{:06}", n % 1_000_000));
        }
    }
}

fn code_hash(challenge: &str, code: &str) -> String {
    secrets::sha256_hex(&format!("{challenge}:{}", code.trim()))
}

/// What asking for a code did.
#[derive(Debug)]
pub enum CodeRequest {
    /// A code is on its way; the code form carries this challenge.
    Sent { challenge: String },
    /// Too many codes for this address lately: wait.
    TooMany,
}

/// Sends a sign-in code to `email`.
pub async fn request_code(state: &AppState, typed: &str) -> Result<CodeRequest, ApplicantError> {
    let email = parse_email(typed)?;
    let now = state.clock.now();
    let code = six_digits()?;
    let challenge = secrets::random_secret()?;
    let hash = code_hash(&challenge, &code);
    let city = &state.letterhead.profile.prefeitura.name;
    let minutes = CODE_LIFETIME.num_minutes();
    let mail = OutgoingMail {
        recipient: email.clone(),
        subject: format!("Seu código de acesso: {code}"),
        body: format!(
            "Olá,\n\nSeu código para entrar nos serviços de transporte da {city} é:\n\n    \
             {code}\n\nEle vale por {minutes} minutos e só pode ser usado uma vez. Se você não \
             pediu este código, ignore esta mensagem: ninguém entra sem ele.\n\n{city}\n{}/servicos\n",
            state.letterhead.public_url.trim_end_matches('/'),
        ),
        topic: "sign_in_code",
        entity: None,
    };
    let stored = state
        .store
        .insert_sign_in_code(
            &NewCode {
                challenge: &challenge,
                email: &email,
                code_hash: &hash,
                expires: now + CODE_LIFETIME,
                mail: &mail,
            },
            now,
            now - CODE_WINDOW,
            CODES_PER_WINDOW,
        )
        .await;
    match stored {
        Ok(()) => {
            state.mail_wake.notify_one();
            Ok(CodeRequest::Sent { challenge })
        }
        Err(StorageError::Conflict(TOO_MANY_CODES)) => Ok(CodeRequest::TooMany),
        Err(e) => Err(e.into()),
    }
}

/// What a typed code did.
#[derive(Debug)]
pub enum Redemption {
    /// Signed in: the session cookie's value.
    SignedIn {
        cookie: String,
        new: bool,
    },
    Wrong {
        left: i64,
    },
    Gone,
}

/// Checks a typed code; a right one opens a session.
pub async fn redeem(
    state: &AppState,
    challenge: &str,
    typed: &str,
) -> Result<Redemption, ApplicantError> {
    let cookie = secrets::random_secret()?;
    let csrf = secrets::random_secret()?;
    let typed: String = typed.chars().filter(char::is_ascii_digit).collect();
    let redeemed = state
        .store
        .redeem_sign_in_code(
            challenge,
            &code_hash(challenge, &typed),
            (&secrets::sha256_hex(&cookie), &csrf),
            state.clock.now(),
            CODE_TRIES,
        )
        .await?;
    Ok(match redeemed {
        Redeemed::SignedIn { applicant, new } => {
            tracing::info!(applicant = %applicant.id, new, "applicant signed in");
            Redemption::SignedIn { cookie, new }
        }
        Redeemed::Wrong { left } => Redemption::Wrong { left },
        Redeemed::Gone => Redemption::Gone,
    })
}

/// The live session of a cookie.
pub async fn session(
    state: &AppState,
    cookie: &str,
) -> Result<Option<ApplicantSession>, StorageError> {
    state
        .store
        .applicant_session(
            &secrets::sha256_hex(cookie),
            state.clock.now(),
            SESSION_IDLE,
            SESSION_ABSOLUTE,
        )
        .await
}

pub async fn sign_out(state: &AppState, cookie: &str) -> Result<(), StorageError> {
    state
        .store
        .end_applicant_session(&secrets::sha256_hex(cookie), state.clock.now())
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_lowercased_and_checked() {
        assert_eq!(
            parse_email("  Maria.Silva@Exemplo.com.br ").unwrap(),
            "maria.silva@exemplo.com.br"
        );
        for bad in [
            "",
            "maria",
            "maria@",
            "@exemplo.com",
            "maria@exemplo",
            "ma ria@exemplo.com",
            "a@b@c.com",
            "maria@.com",
            "x<y>@exemplo.com",
        ] {
            assert!(parse_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..50 {
            let c = six_digits().unwrap();
            assert_eq!(c.len(), 6);
            assert!(c.chars().all(|d| d.is_ascii_digit()));
        }
    }

    #[test]
    fn the_stored_hash_binds_the_code_to_its_challenge() {
        assert_eq!(code_hash("a", "123456"), code_hash("a", " 123456 "));
        assert_ne!(code_hash("a", "123456"), code_hash("b", "123456"));
    }
}
