//! `selo samples DIR`: one example of every document kind, rendered and signed exactly as
//! issued (realistic data, development or configured keys), so anyone can look at them and
//! check their signatures. Samples are not in the register: verifying one reports
//! `unknown_document`.

use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::documents::render::Renderer;
use crate::documents::{AppDocumentContext, Letterhead, Qr};
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use crate::domain::legal_basis::AppLegalBasis;
use crate::domain::registry::{AppAuthorization, Cnh, Driver, Vehicle};
use crate::signing::keys::Keys;
use crate::signing::pades::{self, SignatureInfo};
use crate::signing::pki::ROOT_CERT_FILE;
use crate::signing::token::{self, TokenPayload};
use crate::storage::DocumentKind;

/// Realistic records for samples and benchmarks.
pub struct SampleRecords {
    pub driver: Driver,
    pub vehicle: Vehicle,
    pub authorization: AppAuthorization,
    pub basis: AppLegalBasis,
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

impl SampleRecords {
    /// Maria, a Chevrolet Onix registered in Barra do Garças, authorized on 20/11/2026.
    pub fn new(now: DateTime<Utc>) -> Option<Self> {
        let basis = AppLegalBasis::draft_2023();
        let driver = Driver {
            id: Uuid::from_u128(0x5e10_0001),
            name: "Maria da Silva Souza".into(),
            cpf: Cpf::parse("529.982.247-25").ok()?,
            cnh: Cnh {
                number: CnhNumber::parse("58316794534").ok()?,
                category: CnhCategory::B,
                first_license_date: date(2015, 3, 10),
                ear: true,
                expires_on: date(2030, 1, 1),
            },
            record: crate::domain::driver_record::DriverRecord::default(),
            created_at: now,
        };
        let vehicle = Vehicle {
            id: Uuid::from_u128(0x5e10_0002),
            plate: Plate::parse("BRA2E19").ok()?,
            renavam: Renavam::parse("13824652268").ok()?,
            make: "Chevrolet".into(),
            model: "Onix Plus".into(),
            color: "Prata".into(),
            model_year: 2022,
            doors: 4,
            air_conditioning: true,
            capacity_including_driver: 5,
            registration_municipality: IbgeCode::from_const(5_101_803),
            in_service_since: None,
            created_at: now,
        };
        let authorization = AppAuthorization {
            id: Uuid::from_u128(0x5e10_0003),
            number: "APP-2026/000123".into(),
            driver_id: driver.id,
            vehicle_id: vehicle.id,
            fee_paid_on: date(2026, 11, 20),
            valid_from: date(2026, 11, 20),
            valid_until: date(2027, 11, 20),
            legal_basis_version: basis.version.into(),
            granted_at: now,
            granted_by: "samples".into(),
            revocation: None,
        };
        Some(Self {
            driver,
            vehicle,
            authorization,
            basis,
        })
    }

    pub fn context<'a>(
        &'a self,
        letterhead: &'a Letterhead,
        issued_at: DateTime<Utc>,
    ) -> AppDocumentContext<'a> {
        AppDocumentContext {
            authorization: &self.authorization,
            driver: &self.driver,
            vehicle: &self.vehicle,
            basis: &self.basis,
            letterhead,
            issued_at,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("could not build the sample records")]
    Records,
    #[error("could not encode the QR code")]
    Qr,
    #[error(transparent)]
    Render(#[from] crate::documents::render::RenderError),
    #[error(transparent)]
    Sign(#[from] pades::PadesError),
    #[error("could not write {0}: {1}")]
    Io(String, std::io::Error),
}

/// Renders and signs one sample of every document kind into `dir`, with the root
/// certificate beside them. Returns the paths written.
pub fn write_samples(
    dir: &Path,
    keys: &Keys,
    keys_dir: &Path,
    letterhead: &Letterhead,
    now: DateTime<Utc>,
) -> Result<Vec<std::path::PathBuf>, SampleError> {
    let records = SampleRecords::new(now).ok_or(SampleError::Records)?;
    let ctx = records.context(letterhead, now);
    let renderer = Renderer::new(1);
    let io = |p: &Path| {
        let name = p.display().to_string();
        move |e| SampleError::Io(name, e)
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut written = Vec::new();
    for kind in [DocumentKind::AppAuthorization, DocumentKind::AppSticker] {
        let payload = TokenPayload {
            kind: kind.as_str().into(),
            document_id: Uuid::new_v4(),
            number: records.authorization.number.clone(),
            plate: records.vehicle.plate.as_str().into(),
            issued_at: now.timestamp(),
            valid_until: records.authorization.valid_until,
            issuer: crate::documents::APP_ISSUER.into(),
        };
        let url = format!(
            "{}/v/{}",
            letterhead.public_url,
            token::sign(&payload, &keys.active)
        );
        let qr = Qr::new(&url).ok_or(SampleError::Qr)?;
        let (template, inputs) = if kind == DocumentKind::AppSticker {
            ("app_sticker.typ", ctx.sticker_inputs("K7Q2-9XHM", &qr))
        } else {
            (
                "app_authorization.typ",
                ctx.authorization_inputs("K7Q2-9XHM", &qr),
            )
        };
        let pdf = renderer.render_blocking(template, &inputs, Some(&qr.svg), now)?;
        let info = SignatureInfo {
            time: now,
            name: "Prefeitura Municipal de Barra do Garças",
            reason: kind.label_pt(),
            location: "Barra do Garças-MT",
        };
        let signed = pades::sign_pdf(&pdf, &keys.active, &keys.chain, &info)?;
        let path = dir.join(format!("{}.pdf", kind.as_str()));
        std::fs::write(&path, signed).map_err(io(&path))?;
        written.push(path);
    }
    let root = dir.join(ROOT_CERT_FILE);
    std::fs::copy(keys_dir.join(ROOT_CERT_FILE), &root).map_err(io(&root))?;
    written.push(root);
    Ok(written)
}
