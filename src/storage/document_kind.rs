//! The kinds of document selo issues, as the register and the API name them.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// The ride-hailing authorization (A4).
    RideHailingAuthorization,
    /// The 10 × 14 cm windshield sticker (APP-ART14).
    RideHailingSticker,
    /// The Termo de Autorização of a charter company (FRET-ART8).
    CharterTermo,
    /// The selo de vistoria of a charter vehicle (FRET-ART13).
    CharterSelo,
    /// The Auto de Infração e Notificação of a charter company (FRET-ART19–23).
    CharterAuto,
    /// The certidão de situação cadastral of a charter vehicle or driver (FRET-ART25).
    CharterCertidao,
    /// The Notificação de Penalidade of a ride-hailing auto (APP-ART19, APP-ART22).
    RideHailingAuto,
    /// The certidão de situação cadastral of a ride-hailing driver or vehicle.
    RideHailingCertidao,
}

/// Serialized as the token spells the kind (`app_sticker`, `charter_termo`…): a public
/// contract, whatever the variant is called in code.
impl serde::Serialize for DocumentKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl utoipa::PartialSchema for DocumentKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Self::ALL.iter().map(|k| k.as_str())))
            .into()
    }
}

impl utoipa::ToSchema for DocumentKind {}

impl DocumentKind {
    /// Every kind, in the order the OpenAPI document lists them.
    pub const ALL: [Self; 8] = [
        Self::RideHailingAuthorization,
        Self::RideHailingSticker,
        Self::CharterTermo,
        Self::CharterSelo,
        Self::CharterAuto,
        Self::CharterCertidao,
        Self::RideHailingAuto,
        Self::RideHailingCertidao,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::RideHailingAuthorization => "app_authorization",
            Self::RideHailingSticker => "app_sticker",
            Self::CharterTermo => "charter_termo",
            Self::CharterSelo => "charter_selo",
            Self::CharterAuto => "charter_auto",
            Self::CharterCertidao => "charter_certidao",
            Self::RideHailingAuto => "app_auto",
            Self::RideHailingCertidao => "app_certidao",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "app_authorization" => Some(Self::RideHailingAuthorization),
            "app_sticker" => Some(Self::RideHailingSticker),
            "charter_termo" => Some(Self::CharterTermo),
            "charter_selo" => Some(Self::CharterSelo),
            "charter_auto" => Some(Self::CharterAuto),
            "charter_certidao" => Some(Self::CharterCertidao),
            "app_auto" => Some(Self::RideHailingAuto),
            "app_certidao" => Some(Self::RideHailingCertidao),
            _ => None,
        }
    }

    /// Whether the ride-hailing law governs it (else Lei 4.937/2025, charter).
    pub fn is_ride_hailing(self) -> bool {
        matches!(
            self,
            Self::RideHailingAuthorization
                | Self::RideHailingSticker
                | Self::RideHailingAuto
                | Self::RideHailingCertidao
        )
    }

    /// The name a citizen reads.
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::RideHailingAuthorization => "Autorização de transporte por aplicativo",
            Self::RideHailingSticker => "Adesivo de identificação do veículo",
            Self::CharterTermo => "Termo de Autorização de fretamento",
            Self::CharterSelo => "Selo de vistoria de veículo de fretamento",
            Self::CharterAuto => "Auto de Infração e Notificação (fretamento)",
            Self::CharterCertidao => "Certidão de situação cadastral",
            Self::RideHailingAuto => "Auto de Infração e Notificação de Penalidade (aplicativo)",
            Self::RideHailingCertidao => "Certidão de situação cadastral (aplicativo)",
        }
    }
}
