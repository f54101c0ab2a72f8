//! Versioned legal-basis parameter sets: every number of the law lives here, never as a
//! literal in a rule. The ride-hailing text is a draft (LEGAL_RULES W1) and Lei 4.976/2025
//! may replace its numbers, so each set has a version and an effective date, and every
//! decision and document records the version that produced it.

use chrono::NaiveDate;
use serde::Serialize;

use super::dates::MonthOverflow;
use super::ids::IbgeCode;

/// A municipality where an app vehicle may be registered (APP-ART8-P1-I).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Municipality {
    pub ibge: u32,
    pub name: &'static str,
    pub uf: &'static str,
}

/// Parameters of the consolidated ride-hailing law (draft, doc 004).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RideHailingLegalBasis {
    /// Recorded on every decision and document.
    pub version: &'static str,
    /// First date on which this set applies.
    pub effective_from: NaiveDate,
    /// Short citation printed on documents.
    pub citation: &'static str,
    /// The article the windshield sticker carries (APP-ART14).
    pub sticker_citation: &'static str,
    /// APP-ART3-PU: authorization validity in months from fee payment.
    pub authorization_validity_months: u32,
    /// APP-ART2-P1/P2: maximum age in years counted from the model year.
    pub max_vehicle_age_years: i32,
    /// APP-ART2-P1: required number of doors.
    pub required_doors: i32,
    /// APP-ART2: maximum capacity including the driver.
    pub max_capacity_including_driver: i32,
    /// APP-ART8-P1-I / APP-ART15-P1-VIII: where the vehicle may be registered.
    pub allowed_municipalities: Vec<Municipality>,
    /// APP-ART12-I: minimum years since the first licence (INTERP AMB-22).
    pub min_years_since_first_license: u32,
    /// DL-6 switch.
    pub month_overflow: MonthOverflow,
    /// APP-ART25: fines per class, in UPFG.
    pub fine_upf_leve: u32,
    pub fine_upf_media: u32,
    pub fine_upf_grave: u32,
    pub fine_upf_gravissima: u32,
    /// AMB-26: recidivism window of art. 26 §§1º–2º and 27 PU (the text states none).
    pub recidivism_window_months: u32,
    /// APP-ART26-P1: suspension for repeating art. 26, IV (AMB-35: lex specialis).
    pub suspension_repeat_iv_days: u32,
    /// APP-ART24-PU / APP-ART26-V: general suspension length.
    pub suspension_general_months: u32,
    /// APP-ART4-P2: hours a platform has to deliver requested data (DL-7).
    pub data_request_hours: u32,
    /// APP-ART5-X: minimum APP insurance cover of a platform, in centavos (R$ 50.000,00).
    pub platform_min_app_cover_centavos: i64,
    /// AMB-23: validity of a criminal-record certificate that prints none.
    pub certificate_default_validity_days: u32,
    /// APP-ART12-P1 (AMB-25): years barred after the CTB 306 sentence is extinguished.
    pub ctb306_bar_years: u32,
    /// APP-ART30 / W2: entry into force of the law; unknown for the draft, so `None`.
    pub entry_into_force: Option<NaiveDate>,
    /// APP-ART2-P3 switch (AMB-16): protect every car in service at EIF, whatever its age.
    pub transition_grandfather_all: bool,
    /// APP-ART22-P1: the notice of penalty goes out within 90 days of the auto.
    pub notice_dispatch_days: u32,
    /// AMB-34: the app law sets no defence, reconsideration or payment periods; until the
    /// decree, the municipality's analogous law (Lei 4.937/2025 arts. 22–23): 15, 10, 30 days.
    pub defence_days: u32,
    pub reconsideration_days: u32,
    pub payment_days: u32,
    /// APP-ART9: days after approval to present the vehicle for vistoria.
    pub vistoria_presentation_days: u32,
    /// APP-ART16: the annual vistoria, in months (DL-6).
    pub vistoria_validity_months: u32,
    /// APP-ART16-P2: days to fix what a failed vistoria found.
    pub vistoria_fix_days: u32,
    /// APP-ART13-XIX: days to report a change of registration data.
    pub data_change_report_days: u32,
    /// Issue 13, item 2 (AMB-63): the driver's history requirements — licence seniority
    /// (art. 12, I), no gravíssima in 12 months (art. 12, IV: "before the protocol"), the CTB
    /// 306 bar (art. 12, §1º) — are judged at the application's protocol date; `false`: at
    /// the grant.
    pub history_judged_at_protocol: bool,
}

impl RideHailingLegalBasis {
    /// The text in `../shared/laws/004_*.txt`, read as LEGAL_RULES recommends.
    pub fn draft_2023() -> Self {
        Self {
            version: "APP-MINUTA-2023-11-23/v1",
            effective_from: NaiveDate::from_ymd_opt(2023, 11, 23).unwrap_or_default(),
            citation: "Lei municipal consolidada do transporte remunerado privado individual \
                       de passageiros por plataformas tecnológicas (minuta de 23/11/2023), \
                       arts. 2º, 3º, 8º, 12 e 14",
            sticker_citation: "Art. 14 da lei municipal do transporte remunerado privado individual \
                               de passageiros por plataformas tecnológicas (minuta de 23/11/2023)",
            authorization_validity_months: 12,
            max_vehicle_age_years: 12,
            required_doors: 4,
            max_capacity_including_driver: 7,
            allowed_municipalities: vec![
                Municipality {
                    ibge: 5_101_803,
                    name: "Barra do Garças",
                    uf: "MT",
                },
                Municipality {
                    ibge: 5_201_702,
                    name: "Aragarças",
                    uf: "GO",
                },
                Municipality {
                    ibge: 5_106_653,
                    name: "Pontal do Araguaia",
                    uf: "MT",
                },
            ],
            min_years_since_first_license: 2,
            month_overflow: MonthOverflow::LastDay,
            fine_upf_leve: 115,
            fine_upf_media: 285,
            fine_upf_grave: 570,
            fine_upf_gravissima: 950,
            recidivism_window_months: 12,
            suspension_repeat_iv_days: 30,
            suspension_general_months: 12,
            data_request_hours: 24,
            platform_min_app_cover_centavos: 5_000_000,
            certificate_default_validity_days: 90,
            ctb306_bar_years: 5,
            entry_into_force: None,
            transition_grandfather_all: false,
            notice_dispatch_days: 90,
            defence_days: 15,
            reconsideration_days: 10,
            payment_days: 30,
            vistoria_presentation_days: 5,
            vistoria_validity_months: 12,
            vistoria_fix_days: 15,
            data_change_report_days: 7,
            history_judged_at_protocol: true,
        }
    }

    pub fn municipality(&self, code: IbgeCode) -> Option<&Municipality> {
        self.allowed_municipalities
            .iter()
            .find(|m| m.ibge == code.code())
    }
}

/// Parameters of the charter law, Lei 4.937/2025 (doc 000), read as LEGAL_RULES recommends.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CharterLegalBasis {
    /// Recorded on every decision and document.
    pub version: &'static str,
    /// FRET-ART29: in force on publication (AMB-02: 26/02/2025 assumed, UNSURE).
    pub publication_date: NaiveDate,
    /// Short citation printed on documents.
    pub citation: &'static str,
    /// FRET-ART8-P1: Termo de Autorização validity, in months (2 years).
    pub termo_validity_months: u32,
    /// FRET-ART13-P1-A: service life in months from the first registration (15 years).
    pub service_life_months: u32,
    /// FRET-ART13-P1-B: municipal vistoria validity in months (annual).
    pub vistoria_validity_months: u32,
    /// FRET-ART12-IV: ITV report validity in months (renewed every 6 months).
    pub itv_validity_months: u32,
    /// FRET-ART12-II (INTERP): a CRLV of the previous exercise is still accepted, since the
    /// DETRAN-MT licensing calendar runs through the year by plate ending.
    pub crlv_years_back_accepted: i32,
    /// FRET-ART19 I–VI: the fine, in UPFBG.
    pub fine_upf: u32,
    /// FRET-ART19-PU: multiplier for repeating the same inciso; never compounds (AMB-27).
    pub recidivism_multiplier: u32,
    /// FRET-ART19-PU / FRET-ART20-IV: recidivism window in months (DL-10).
    pub recidivism_window_months: u32,
    /// FRET-ART20-PU: months barred after cassação (DL-9: eligible from the day after).
    pub cassacao_bar_months: u32,
    /// FRET-ART22: defence, days from notification.
    pub defence_days: u32,
    /// FRET-ART22-P3: reconsideration to the Mayor, days from the decision's notice.
    pub reconsideration_days: u32,
    /// FRET-ART23: payment, days from the effective end of the defence period (AMB-32).
    pub payment_days: u32,
    /// FRET-ART3: days to notify SIS of a contract's signing and of its end.
    pub contract_notice_days: u32,
    /// FRET-ART26: days from publication for operating companies to register.
    pub transition_company_days: u32,
    /// FRET-ART26-P1: days from publication for vehicle vistoria and enrolment.
    pub transition_vehicle_days: u32,
    /// FRET-ART15-V (INTERP, CTB art. 148-A §2): toxicological exam validity in months.
    pub toxicological_validity_months: u32,
    /// FRET-ART15-III (AMB-58): validity of a folha corrida that prints none.
    pub certificate_default_validity_days: u32,
    /// FRET-ART25: validity of a certidão de situação cadastral (issue 4: default 30 days).
    pub certidao_validity_days: u32,
    /// AMB-58 [FED] CTB art. 145, I: minimum age of a charter driver.
    pub min_driver_age_years: u32,
    /// DL-6 switch.
    pub month_overflow: MonthOverflow,
}

impl CharterLegalBasis {
    /// The text in `../shared/laws/000_*.txt`.
    pub fn lei_4937_2025() -> Self {
        Self {
            version: "LEI-4937-2025/v1",
            publication_date: NaiveDate::from_ymd_opt(2025, 2, 26).unwrap_or_default(),
            citation: "Lei Municipal nº 4.937, de 26 de fevereiro de 2025 (fretamento)",
            termo_validity_months: 24,
            service_life_months: 15 * 12,
            vistoria_validity_months: 12,
            itv_validity_months: 6,
            crlv_years_back_accepted: 1,
            fine_upf: 500,
            recidivism_multiplier: 2,
            recidivism_window_months: 12,
            cassacao_bar_months: 12,
            defence_days: 15,
            reconsideration_days: 10,
            payment_days: 30,
            contract_notice_days: 15,
            transition_company_days: 90,
            transition_vehicle_days: 60,
            toxicological_validity_months: 30,
            certificate_default_validity_days: 90,
            certidao_validity_days: 30,
            min_driver_age_years: 21,
            month_overflow: MonthOverflow::LastDay,
        }
    }
}
