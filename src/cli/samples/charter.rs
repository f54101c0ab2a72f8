//! Realistic charter records for `selo samples`: Araguaia Fretamentos, its Termo, a
//! micro-ônibus with its vistoria, and an auto de infração (art. 19, III) notified by contrafé.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::calendar::{Calendar, CalendarSettings, DeadlineRules};
use crate::domain::charter::sanctions::{
    AutoFacts, NoticeMethod, ProcedureAct, assess_fines, procedure_state,
};
use crate::domain::charter::{
    CharterVehicleFacts, CompanyChecklist, Insurance, Modality, VehicleRecord, Vistoria,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{Cnpj, Plate};
use crate::domain::legal_basis::CharterLegalBasis;
use crate::issuance::charter::CertidaoPrint;
use crate::standing::charter::{
    AutoData, AutoView, CertidaoSubject, CertifiedFacts, CharterVehicle, Company, CompanyData,
    Termo, TermoData, certified_facts,
};

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

pub struct CharterSamples {
    pub basis: CharterLegalBasis,
    pub company: Company,
    pub termo: Termo,
    pub vehicle: CharterVehicle,
    pub vistoria: Vistoria,
    pub auto: AutoView,
    pub upf_centavos: i64,
    termos: Vec<Termo>,
    subject: CertidaoSubject,
    facts: CertifiedFacts,
    today: NaiveDate,
}

impl CharterSamples {
    #[expect(
        clippy::too_many_lines,
        reason = "realistic sample data, field by field"
    )]
    pub fn new(now: DateTime<Utc>) -> Option<Self> {
        let basis = CharterLegalBasis::lei_4937_2025();
        let today = local_date(now);
        let company = Company {
            id: Uuid::from_u128(0xc4a7_0001),
            cnpj: Cnpj::parse("11.222.333/0001-81").ok()?,
            data: CompanyData {
                name: "Araguaia Fretamentos Ltda.".into(),
                address: "Av. Ministro João Alberto, 1.200, Centro, Barra do Garças-MT".into(),
                phone: "(66) 3401-0000".into(),
                email: "contato@araguaiafretamentos.com.br".into(),
                modality: Modality::Continuo,
                protocol: "SIS-2026/0042".into(),
                applied_on: date(2026, 11, 10),
                operating_before_law: false,
                checklist: CompanyChecklist::default(),
            },
            sanctions: Vec::new(),
            created_at: now,
        };
        let termo = Termo {
            id: Uuid::from_u128(0xc4a7_0002),
            number: "FRET-2026/000012".into(),
            data: TermoData {
                modality: Modality::Continuo,
                issued_on: date(2026, 11, 20),
                valid_from: date(2026, 11, 20),
                valid_until: date(2028, 11, 20),
                renews: None,
                legal_basis_version: basis.version.clone(),
                protocolled_on: Some(date(2026, 11, 12)),
            },
        };
        let vistoria = Vistoria {
            performed_on: date(2026, 11, 25),
            approved: true,
            inspector: "Fiscal SIS nº 12".into(),
            notes: String::new(),
        };
        let vehicle = CharterVehicle {
            id: Uuid::from_u128(0xc4a7_0003),
            company_id: company.id,
            plate: Plate::parse("QBA1C23").ok()?,
            renavam: "13824652268".into(),
            make: "Marcopolo".into(),
            model: "Volare W9".into(),
            enrolled_on: date(2026, 11, 25),
            record: VehicleRecord {
                facts: CharterVehicleFacts {
                    kind: "micro_onibus".into(),
                    doors: 2,
                    has_turnstile: false,
                    seated_capacity: 28,
                    model_year: 2019,
                    first_registration_date: date(2019, 2, 14),
                    first_registration_year_only: false,
                    zero_km: false,
                    owner_cnpj: "11222333000181".into(),
                    ownership_proof: "crv_e".into(),
                    crlv_year: 2026,
                    insurance: Some(Insurance {
                        policy: "RC-778812".into(),
                        insurer: "Seguradora Exemplo S.A.".into(),
                        valid_from: date(2026, 3, 1),
                        valid_to: date(2027, 2, 28),
                    }),
                },
                itv_reports: vec![date(2026, 9, 15)],
                vistorias: vec![vistoria.clone()],
                baixa: None,
            },
        };
        let cal = Calendar::new(CalendarSettings::default(), []);
        let acts = [ProcedureAct::Notificacao {
            method: NoticeMethod::Contrafe,
            notified_on: date(2026, 11, 27),
        }];
        let procedure = procedure_state(
            &acts,
            today,
            &cal,
            &DeadlineRules::default(),
            (&basis).into(),
        );
        let facts = [AutoFacts {
            number: "AIF-2026/000031".into(),
            infraction: "FRET-ART19-III".into(),
            committed_on: date(2026, 11, 27),
            annulled: false,
            final_: false,
        }];
        let fine = assess_fines(&facts, &basis).pop().flatten();
        let auto = AutoView {
            id: Uuid::from_u128(0xc4a7_0004),
            number: "AIF-2026/000031".into(),
            company_id: company.id,
            data: AutoData {
                infraction: "FRET-ART19-III".into(),
                committed_on: date(2026, 11, 27),
                committed_at: crate::domain::dates::parse_instant("2026-11-27T09:40"),
                place: "Rodovia BR-070, km 3, saída para Aragarças".into(),
                facts: "Micro-ônibus em serviço de fretamento sem cadastro na SIS.".into(),
                inspector: "Fiscal SIS nº 12".into(),
                drawn_up_at: crate::domain::dates::parse_instant("2026-11-27T09:55")?,
                vehicle_plate: Some("RBG4H56".into()),
                legal_basis_version: basis.version.clone(),
            },
            payment: crate::domain::fines::fine_standing(
                fine.as_ref().map_or(0, |f| i64::from(f.upf)),
                date(2026, 11, 27),
                &acts,
                &procedure,
                &crate::domain::fines::UpfValues::new(),
                today,
            ),
            procedure,
            fine,
            acts: acts.to_vec(),
        };
        let termos = vec![termo.clone()];
        let subject = CertidaoSubject::Vehicle(vehicle.clone());
        let facts = certified_facts(&subject, &company, &termos, &[], today, &basis);
        Some(Self {
            basis,
            company,
            termo,
            vehicle,
            vistoria,
            auto,
            upf_centavos: 11_972,
            termos,
            subject,
            facts,
            today,
        })
    }

    /// The certidão of the sample vehicle, issued today.
    /// Every printed text at the widest the API accepts: company name 200 and address 300,
    /// the auto's place 300, facts 4000 and inspector 200 characters.
    pub fn widen(&mut self) {
        use super::widest_text;
        self.company.data.name = widest_text(200);
        self.company.data.address = widest_text(300);
        self.auto.data.place = widest_text(300);
        self.auto.data.facts = widest_text(4000);
        self.auto.data.inspector = widest_text(200);
    }

    pub fn certidao(&self) -> CertidaoPrint<'_> {
        CertidaoPrint {
            subject: &self.subject,
            company: &self.company,
            termos: &self.termos,
            facts: &self.facts,
            protocol: "PG-2026/5531",
            valid_until: self.today
                + chrono::Duration::days(i64::from(self.basis.certidao_validity_days)),
            issued_by: "Maria Exemplo (amostra)",
        }
    }
}
