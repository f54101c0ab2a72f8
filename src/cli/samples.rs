//! `selo samples DIR`: one example of every document kind, rendered and signed exactly as
//! issued (realistic data, development or configured keys), so anyone can look at them and
//! check their signatures. Samples are not in the register: verifying one reports
//! `unknown_document`.

use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::documents::render::Renderer;
use crate::documents::{Letterhead, Qr, RideHailingDocumentContext};
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::ride_hailing::registry::{Cnh, Driver, RideHailingAuthorization, Vehicle};
use crate::signing::keys::Keys;
use crate::signing::pades::{self, SignatureInfo};
use crate::signing::pki::ROOT_CERT_FILE;
use crate::signing::revocation::RevocationFetcher;
use crate::signing::timestamp::Timestamper;
use crate::signing::token::{self, TokenPayload};
use crate::storage::DocumentKind;
use crate::{issuance, standing};

mod charter;

/// Realistic records for samples and benchmarks.
pub struct SampleRecords {
    pub driver: Driver,
    pub vehicle: Vehicle,
    pub authorization: RideHailingAuthorization,
    pub basis: RideHailingLegalBasis,
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

impl SampleRecords {
    /// Maria, a Chevrolet Onix registered in Barra do Garças, authorized on 20/11/2026.
    pub fn new(now: DateTime<Utc>) -> Option<Self> {
        let basis = RideHailingLegalBasis::draft_2023();
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
            record: crate::domain::ride_hailing::driver_record::DriverRecord::default(),
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
            manufacture_year: Some(2021),
            doors: 4,
            air_conditioning: true,
            capacity_including_driver: 5,
            registration_municipality: IbgeCode::from_const(5_101_803),
            in_service_since: None,
            owner: Some(crate::domain::ride_hailing::VehicleOwner {
                kind: crate::domain::ride_hailing::OwnerType::Proprietario,
                document: "52998224725".into(),
            }),
            created_at: now,
        };
        let authorization = RideHailingAuthorization {
            id: Uuid::from_u128(0x5e10_0003),
            number: "APP-2026/000123".into(),
            driver_id: driver.id,
            vehicle_id: vehicle.id,
            fee_paid_on: date(2026, 11, 20),
            valid_from: date(2026, 11, 20),
            valid_until: date(2027, 11, 20),
            legal_basis_version: basis.version.clone(),
            granted_at: now,
            granted_by: "samples".into(),
            protocolled_on: Some(date(2026, 11, 18)),
            revocation: None,
            substitutions: 0,
            renewal_of: None,
        };
        Some(Self {
            driver,
            vehicle,
            authorization,
            basis,
        })
    }

    /// An auto under art. 26, IV (grave, 570 UPFG), drawn up and notified by post.
    pub fn auto(&self, now: DateTime<Utc>) -> crate::storage::RideHailingAuto {
        let today = crate::domain::dates::local_date(now);
        crate::storage::RideHailingAuto {
            id: Uuid::from_u128(0x5e10_0004),
            number: "AI-APP-2026/000017".into(),
            infraction_id: "APP-ART26-IV".into(),
            driver_id: self.driver.id,
            authorization_id: Some(self.authorization.id),
            committed_at: now - chrono::Duration::minutes(40),
            committed_on: crate::domain::dates::local_date(now - chrono::Duration::minutes(40)),
            place: "Av. Ministro João Alberto, em frente à rodoviária".into(),
            facts: "Embarcou passageiro na via pública sem intermediação da plataforma.".into(),
            inspector: "Fiscal de Posturas, matrícula 1234".into(),
            drawn_up_at: now - chrono::Duration::minutes(25),
            fine_upf: 570,
            fine_centavos: Some(570 * 11_972),
            consequences: serde_json::Value::Array(Vec::new()),
            legal_basis_version: self.basis.version.clone(),
            notification: Some(crate::storage::AutoNotification {
                method: "post".into(),
                notified_on: today,
                juntada_on: today,
            }),
        }
    }

    pub fn context<'a>(
        &'a self,
        letterhead: &'a Letterhead,
        issued_at: DateTime<Utc>,
    ) -> RideHailingDocumentContext<'a> {
        RideHailingDocumentContext {
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
    #[error(transparent)]
    Timestamp(#[from] crate::signing::timestamp::TimestampError),
    #[error(transparent)]
    Revocation(#[from] crate::signing::revocation::RevocationError),
    #[error("could not write {0}: {1}")]
    Io(String, std::io::Error),
}

/// The verification code printed on every sample.
const CODE: &str = "K7Q-29X-HM6";

/// Renders, signs and writes samples into one folder.
struct SampleWriter<'a> {
    dir: &'a Path,
    keys: &'a Keys,
    letterhead: &'a Letterhead,
    now: DateTime<Utc>,
    renderer: Renderer,
    written: Vec<std::path::PathBuf>,
    /// Every printed text at the widest the API accepts.
    widest: bool,
    /// The time-stamping authority whose timestamps the signatures carry.
    stamper: Option<&'a Timestamper>,
    /// The revocation lists the signer's certificates name, for the DSS.
    revocation: RevocationFetcher,
    /// Where the authorities' requests run.
    runtime: tokio::runtime::Runtime,
}

/// `n` characters of wide glyphs the documents' fonts draw (Latin with diacritics, Greek,
/// Cyrillic), in words of 14 so a line can break as a real name's does.
pub fn widest_text(n: usize) -> String {
    const GLYPHS: [char; 14] = [
        'W', 'Ç', 'Ã', 'M', 'Š', 'Ð', 'Ω', 'Щ', 'Ж', 'Ŵ', 'Ǆ', 'Œ', 'Ю', 'Ф',
    ];
    (0..n)
        .map(|i| GLYPHS.get(i % 15).copied().unwrap_or(' '))
        .collect::<String>()
        .trim_end()
        .to_owned()
}

fn io_error(p: &Path) -> impl FnOnce(std::io::Error) -> SampleError {
    let name = p.display().to_string();
    move |e| SampleError::Io(name, e)
}

impl SampleWriter<'_> {
    /// The QR code of a token for a sample (its document id is random: not in the register).
    fn qr(
        &self,
        kind: DocumentKind,
        number: &str,
        subject: &str,
        valid_until: NaiveDate,
        issuer: &str,
    ) -> Result<Qr, SampleError> {
        let payload = TokenPayload {
            kind: kind.as_str().into(),
            document_id: Uuid::new_v4(),
            number: number.into(),
            plate: subject.into(),
            issued_at: self.now.timestamp(),
            valid_until,
            issuer: issuer.into(),
        };
        let url = format!(
            "{}/v/{}",
            self.letterhead.public_url,
            token::sign(&payload, &self.keys.active)
        );
        Qr::for_document(kind.as_str(), &url).ok_or(SampleError::Qr)
    }

    fn write(
        &mut self,
        kind: DocumentKind,
        template: &str,
        inputs: &serde_json::Value,
        qr: &Qr,
    ) -> Result<(), SampleError> {
        let pdf = self
            .renderer
            .render_blocking(template, inputs, Some(&qr.svg), self.now)?;
        let info = SignatureInfo {
            time: self.now,
            name: &self.letterhead.profile.prefeitura.name,
            reason: kind.label_pt(),
            location: &self.letterhead.profile.prefeitura.city,
        };
        let by = self.keys.pdf_signer();
        let (file, tsa_certs) = match self.stamper {
            None => (pades::sign_pdf(&pdf, &by, &info)?, Vec::new()),
            Some(tsa) => {
                let prepared = pades::prepare_signature(&pdf, &by, &info, true)?;
                let stamp = self.runtime.block_on(tsa.stamp(prepared.value()))?;
                let certs = crate::signing::timestamp::certificates_of(&stamp.token);
                (prepared.finish(Some(&stamp.token))?, certs)
            }
        };
        let dss = self
            .runtime
            .block_on(self.revocation.dss_contents(by.certificates(), tsa_certs))?;
        let file = match dss {
            Some(data) => pades::add_dss(&file, &data)?,
            None => file,
        };
        let path = self.dir.join(format!("{}.pdf", kind.as_str()));
        std::fs::write(&path, file).map_err(io_error(&path))?;
        self.written.push(path);
        Ok(())
    }

    fn ride_hailing_documents(&mut self) -> Result<(), SampleError> {
        let mut records = SampleRecords::new(self.now).ok_or(SampleError::Records)?;
        if self.widest {
            // The API's limits: name 200, make and model 60, colour 40 characters.
            records.driver.name = widest_text(200);
            records.vehicle.make = widest_text(60);
            records.vehicle.model = widest_text(60);
            records.vehicle.color = widest_text(40);
        }
        let ctx = records.context(self.letterhead, self.now);
        let a = &records.authorization;
        let plate = records.vehicle.plate.as_str();
        for kind in [
            DocumentKind::RideHailingAuthorization,
            DocumentKind::RideHailingSticker,
        ] {
            let qr = self.qr(
                kind,
                &a.number,
                plate,
                a.valid_until,
                crate::documents::RIDE_HAILING_ISSUER,
            )?;
            let (template, inputs) = if kind == DocumentKind::RideHailingSticker {
                ("app_sticker.typ", ctx.sticker_inputs(CODE, &qr))
            } else {
                ("app_authorization.typ", ctx.authorization_inputs(CODE, &qr))
            };
            self.write(kind, template, &inputs, &qr)?;
        }
        // The Notificação de Penalidade of an auto under art. 26, IV, notified by post.
        let mut auto = records.auto(self.now);
        if self.widest {
            auto.place = widest_text(300);
            auto.facts = widest_text(4000);
            auto.inspector = widest_text(200);
        }
        let cal = crate::domain::calendar::Calendar::new(
            crate::domain::calendar::CalendarSettings::default(),
            [],
        );
        let p = standing::ride_hailing::state_of(
            &auto,
            &[],
            crate::domain::dates::local_date(self.now),
            &cal,
            &crate::domain::calendar::DeadlineRules::default(),
            &records.basis,
        );
        let kind = DocumentKind::RideHailingAuto;
        let due = p.payment_due.as_ref().map_or(a.valid_until, |d| d.due);
        let qr = self.qr(
            kind,
            &auto.number,
            plate,
            due,
            crate::documents::RIDE_HAILING_ISSUER,
        )?;
        let w = qr.printed_width_mm(crate::documents::A4_QR_MM);
        let infractor = issuance::ride_hailing::procedure::Infractor {
            name: &records.driver.name,
            cpf_masked: &records.driver.cpf.masked(),
            plate: Some((
                records.vehicle.plate.as_str().to_owned(),
                records.vehicle.plate.formatted(),
            )),
        };
        let upf = Some(crate::documents::auto_notice::UpfOfYear {
            year: 2026,
            centavos: 11_972,
            act: "Decreto Municipal nº 0000/2026, de amostra".to_owned(),
        });
        let inputs = issuance::ride_hailing::procedure::notice_inputs(
            &auto,
            &infractor,
            &p,
            upf,
            &records.basis,
            self.letterhead,
            CODE,
            w,
            self.now,
        )
        .ok_or(SampleError::Records)?;
        self.write(kind, "auto_infracao.typ", &inputs, &qr)?;
        self.app_certidao(&records)
    }

    /// The certidão of the authorized car, issued today.
    fn app_certidao(&mut self, records: &SampleRecords) -> Result<(), SampleError> {
        let (protocol, official) = (widest_text(60), widest_text(200));
        let a = &records.authorization;
        let plate = records.vehicle.plate.as_str();
        let record = standing::ride_hailing::RideHailingRecord {
            authorization: records.authorization.clone(),
            driver: records.driver.clone(),
            vehicle: records.vehicle.clone(),
        };
        let today = crate::domain::dates::local_date(self.now);
        let facts = standing::ride_hailing::RideHailingCertifiedFacts {
            status: crate::domain::ride_hailing::AuthorizationStatus::Ativa,
            items: [
                (
                    "Autorização nº APP-2026/000123 (art. 3º)",
                    Some(a.valid_until),
                ),
                (
                    "Idade, portas e ar-condicionado — ano-modelo 2022 (art. 2º)",
                    NaiveDate::from_ymd_opt(2034, 12, 31),
                ),
                ("Emplacamento no município (art. 8º, §1º, I)", None),
                (
                    "Vistoria anual (art. 16)",
                    chrono::Datelike::with_year(&today, 2027),
                ),
            ]
            .into_iter()
            .map(|(item, valid_until)| standing::charter::CertifiedItem {
                item: item.to_owned(),
                situation: "regular".to_owned(),
                valid_until,
            })
            .collect(),
        };
        let print = issuance::ride_hailing::certidao::RideHailingCertidaoPrint {
            record: &record,
            subject: "app_vehicle",
            facts: &facts,
            protocol: if self.widest {
                &protocol
            } else {
                "PG-2026/5532"
            },
            valid_until: today + chrono::Duration::days(30),
            validity_days: 30,
            issued_by: if self.widest {
                &official
            } else {
                "Maria Exemplo (amostra)"
            },
        };
        let kind = DocumentKind::RideHailingCertidao;
        let number = "CERT-APP-2026/000003";
        let qr = self.qr(
            kind,
            number,
            plate,
            print.valid_until,
            crate::documents::RIDE_HAILING_ISSUER,
        )?;
        let w = qr.printed_width_mm(crate::documents::A4_QR_MM);
        let inputs = issuance::ride_hailing::certidao::inputs(
            &print,
            number,
            self.letterhead,
            &records.basis,
            CODE,
            w,
            self.now,
        );
        self.write(kind, "certidao.typ", &inputs, &qr)?;
        Ok(())
    }

    fn charter_documents(&mut self) -> Result<(), SampleError> {
        use crate::documents::{A4_QR_MM, SELO_QR_MM};
        let now = self.now;
        let mut c = charter::CharterSamples::new(now).ok_or(SampleError::Records)?;
        if self.widest {
            c.widen();
        }
        let letterhead = self.letterhead;
        let basis = &c.basis;
        let issuer = issuance::charter::CHARTER_ISSUER;
        let cnpj = c.company.cnpj.as_str().to_owned();
        let plate = c.vehicle.plate.as_str().to_owned();

        let kind = DocumentKind::CharterTermo;
        let qr = self.qr(
            kind,
            &c.termo.number,
            &cnpj,
            c.termo.data.valid_until,
            issuer,
        )?;
        let w = qr.printed_width_mm(A4_QR_MM);
        let inputs =
            issuance::charter::termo_inputs(&c.company, &c.termo, letterhead, basis, CODE, w, now);
        self.write(kind, "charter_termo.typ", &inputs, &qr)?;

        let kind = DocumentKind::CharterSelo;
        let until = crate::domain::charter::vistoria_valid_until(c.vistoria.performed_on, basis);
        let number = "SELO-2026/000042";
        let qr = self.qr(kind, number, &plate, until, issuer)?;
        let w = qr.printed_width_mm(SELO_QR_MM);
        let inputs = issuance::charter::selo_inputs(
            &c.company,
            &c.vehicle,
            &c.vistoria,
            number,
            letterhead,
            basis,
            CODE,
            w,
            now,
        );
        self.write(kind, "charter_selo.typ", &inputs, &qr)?;

        let kind = DocumentKind::CharterAuto;
        let due = c
            .auto
            .procedure
            .payment_due
            .as_ref()
            .map_or(until, |d| d.due);
        let qr = self.qr(kind, &c.auto.number, &cnpj, due, issuer)?;
        let w = qr.printed_width_mm(A4_QR_MM);
        let upf = Some(crate::documents::auto_notice::UpfOfYear {
            year: 2026,
            centavos: c.upf_centavos,
            act: "Decreto Municipal nº 0000/2026, de amostra".to_owned(),
        });
        let inputs = issuance::charter::auto_notice_inputs(
            &c.company, &c.auto, upf, letterhead, basis, CODE, w, now,
        )
        .ok_or(SampleError::Records)?;
        self.write(kind, "auto_infracao.typ", &inputs, &qr)?;

        let kind = DocumentKind::CharterCertidao;
        let print = c.certidao();
        let number = "CERT-2026/000007";
        let qr = self.qr(kind, number, &plate, print.valid_until, issuer)?;
        let w = qr.printed_width_mm(A4_QR_MM);
        let inputs =
            issuance::charter::certidao_inputs(&print, number, letterhead, basis, CODE, w, now);
        self.write(kind, "certidao.typ", &inputs, &qr)
    }
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
    write(dir, keys, keys_dir, letterhead, now, false, None)
}

/// The same, with every printed text at the widest the API accepts (issuance never
/// fails on content once a number is reserved).
pub fn write_widest_samples(
    dir: &Path,
    keys: &Keys,
    keys_dir: &Path,
    letterhead: &Letterhead,
    now: DateTime<Utc>,
) -> Result<Vec<std::path::PathBuf>, SampleError> {
    write(dir, keys, keys_dir, letterhead, now, true, None)
}

/// `write_samples` with every signature timestamped by `tsa` (PAdES B-T; AD-RT for an
/// ICP-Brasil signer).
pub fn write_timestamped_samples(
    dir: &Path,
    keys: &Keys,
    keys_dir: &Path,
    letterhead: &Letterhead,
    now: DateTime<Utc>,
    tsa: &Timestamper,
) -> Result<Vec<std::path::PathBuf>, SampleError> {
    write(dir, keys, keys_dir, letterhead, now, false, Some(tsa))
}

fn write(
    dir: &Path,
    keys: &Keys,
    keys_dir: &Path,
    letterhead: &Letterhead,
    now: DateTime<Utc>,
    widest: bool,
    tsa: Option<&Timestamper>,
) -> Result<Vec<std::path::PathBuf>, SampleError> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(io_error(dir))?;
    let revocation = RevocationFetcher::new(std::time::Duration::from_secs(10))?;
    let mut w = SampleWriter {
        dir,
        keys,
        letterhead,
        now,
        renderer: Renderer::new(1, letterhead.profile.clone()),
        written: Vec::new(),
        widest,
        stamper: tsa,
        revocation,
        runtime,
    };
    w.ride_hailing_documents()?;
    w.charter_documents()?;
    let mut written = w.written;
    let root = dir.join(ROOT_CERT_FILE);
    std::fs::copy(keys_dir.join(ROOT_CERT_FILE), &root).map_err(io_error(&root))?;
    written.push(root);
    Ok(written)
}
