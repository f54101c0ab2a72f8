//! What a platform sends with its own credential: its monthly report to the Secretaria
//! Municipal de Finanças (Lei 4.976/2025) and the file that answers a data request (art. 4º,
//! §§2º e 3º), recorded as the request's delivery, electronically authenticated by the
//! credential (art. 4º, §3º). Each file is checked by its content, kept with its SHA-256 and
//! read only by officials; a retry with the same bytes changes nothing.

use sha2::{Digest, Sha256};

use crate::domain::dates::local_date;
use crate::domain::ride_hailing::platform_files::{
    Period, PlatformFileRefusal, check_platform_file, monthly_report_period_closed,
};
use crate::issuance::UseCaseError;
use crate::issuance::ride_hailing::platform_access::PlatformCaller;
use crate::state::AppState;
use crate::storage::ride_hailing::platform_files::{
    ANOTHER_FILE, NewPlatformFile, PlatformFileRow, Received,
};
use crate::storage::{DataRequest, StorageError};

/// Why a platform's file was not received.
#[derive(Debug, thiserror::Error)]
pub enum ReceiveError {
    /// The file itself is refused (empty, too large, not what it declares).
    #[error("{0}")]
    File(PlatformFileRefusal),
    #[error(transparent)]
    UseCase(#[from] UseCaseError),
}

impl From<StorageError> for ReceiveError {
    fn from(e: StorageError) -> Self {
        Self::UseCase(e.into())
    }
}

/// Checks the file against its declared type and the configured size.
fn checked(
    state: &AppState,
    content_type: Option<&str>,
    bytes: &[u8],
) -> Result<(&'static str, String), ReceiveError> {
    let kind = check_platform_file(
        content_type,
        bytes,
        state.settings.limits.platform_file_bytes,
    )
    .map_err(ReceiveError::File)?;
    Ok((kind.mime(), crate::signing::hex(&Sha256::digest(bytes))))
}

/// Receives the calling platform's report for `period` (AAAA-MM), a month already ended.
pub async fn send_monthly_report(
    state: &AppState,
    caller: &PlatformCaller,
    period: &str,
    content_type: Option<&str>,
    bytes: &[u8],
) -> Result<Received, ReceiveError> {
    let today = local_date(state.clock.now());
    let period = Period::parse(period)
        .filter(|p| monthly_report_period_closed(*p, today))
        .ok_or(UseCaseError::Inconsistent {
            field: "period",
            message: "Informe o mês do relatório como AAAA-MM, de um mês já encerrado.",
        })?;
    let (media_type, sha256) = checked(state, content_type, bytes)?;
    let file = NewPlatformFile {
        platform_id: &caller.platform_id,
        credential_id: &caller.credential_id,
        media_type,
        sha256: &sha256,
        content: bytes,
    };
    let received = state
        .store
        .receive_monthly_report(
            &file,
            &period.as_string(),
            &caller.actor(),
            state.clock.now(),
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(ANOTHER_FILE) => UseCaseError::Conflict {
                detail: format!(
                    "O relatório de {} já foi recebido, com outro conteúdo; para corrigi-lo, \
                     procure a Secretaria Municipal de Finanças.",
                    period.label()
                ),
                field: None,
            },
            e => e.into(),
        })
        .map_err(ReceiveError::UseCase)?;
    if let Received::New(row) = &received {
        tracing::info!(platform = %caller.platform_id, file = %row.id, "monthly report received");
    }
    Ok(received)
}

/// The data requests sent to the calling platform, the latest first.
pub async fn data_requests(
    state: &AppState,
    caller: &PlatformCaller,
) -> Result<Vec<DataRequest>, UseCaseError> {
    Ok(state.store.data_requests_of(&caller.platform_id).await?)
}

/// Receives the file that answers data request `request_id` of the calling platform: the
/// request is delivered now, with the file's SHA-256, authenticated by the credential.
pub async fn answer_data_request(
    state: &AppState,
    caller: &PlatformCaller,
    request_id: &str,
    content_type: Option<&str>,
    bytes: &[u8],
) -> Result<(Received, DataRequest), ReceiveError> {
    const NO_REQUEST: &str = "Solicitação não encontrada.";
    let request_id = uuid::Uuid::parse_str(request_id.trim())
        .map_err(|_| UseCaseError::NotFound(NO_REQUEST))?
        .to_string();
    let (media_type, sha256) = checked(state, content_type, bytes)?;
    let label = state
        .store
        .platform_credential_label(&caller.credential_id)
        .await?
        .unwrap_or_default();
    // Art. 4º, §3º: the data come electronically authenticated; here, by the credential.
    let signer = format!("credencial da plataforma: {label}");
    let file = NewPlatformFile {
        platform_id: &caller.platform_id,
        credential_id: &caller.credential_id,
        media_type,
        sha256: &sha256,
        content: bytes,
    };
    let received = state
        .store
        .answer_data_request(
            &file,
            &request_id,
            &signer,
            &caller.actor(),
            state.clock.now(),
        )
        .await
        .map_err(|e| match e {
            StorageError::Conflict(ANOTHER_FILE) => UseCaseError::Conflict {
                detail: "Esta solicitação já foi respondida, com outro conteúdo; a entrega \
                         registrada permanece."
                    .into(),
                field: None,
            },
            e => e.into(),
        })
        .map_err(ReceiveError::UseCase)?
        .ok_or(UseCaseError::NotFound(NO_REQUEST))?;
    let request = state
        .store
        .get_data_request(&request_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_REQUEST))?;
    if let Received::New(row) = &received {
        tracing::info!(platform = %caller.platform_id, file = %row.id, "data request answered");
    }
    Ok((received, request))
}

/// The files received from platform `platform_id` (officials).
pub async fn files_of(
    state: &AppState,
    platform_id: &str,
) -> Result<Vec<PlatformFileRow>, UseCaseError> {
    Ok(state.store.platform_files_of(platform_id).await?)
}

/// One received file with its bytes (officials).
pub async fn file(state: &AppState, id: &str) -> Result<(PlatformFileRow, Vec<u8>), UseCaseError> {
    const NO_FILE: &str = "Arquivo não encontrado.";
    let id = uuid::Uuid::parse_str(id.trim())
        .map_err(|_| UseCaseError::NotFound(NO_FILE))?
        .to_string();
    state
        .store
        .platform_file(&id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_FILE))
}
