//! The kinds of pendency the back office's worklist lists, each for the operation that
//! resolves it.

/// What kind of pendency an item is, for filtering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkKind {
    /// An authorization whose year ends (APP-ART3-PU): renew it.
    Renewal,
    /// A vistoria to present, redo or fix (APP-ART9, APP-ART16).
    Vistoria,
    /// An auto's procedure: the notice to send, a defence window running (APP-ART22).
    Auto,
    /// A fine due or overdue (AMB-34, AMB-61).
    Fine,
    /// A document of a vehicle that lapses: a charter bus's ITV report or insurance.
    Document,
    /// A platform's data to deliver within 24 hours (APP-ART4-P2).
    DataRequest,
    /// A grant or renewal filed for an official's review (AMB-25): decide it.
    Review,
    /// A filing sent online (a renewal): examine its files and decide, or wait for the
    /// applicant's answer to an exigência.
    Filing,
}

impl WorkKind {
    pub const ALL: [Self; 8] = [
        Self::Filing,
        Self::Review,
        Self::Renewal,
        Self::Vistoria,
        Self::Document,
        Self::Auto,
        Self::Fine,
        Self::DataRequest,
    ];

    /// The key of the kind in a filter.
    pub fn key(self) -> &'static str {
        match self {
            Self::Renewal => "renovacao",
            Self::Vistoria => "vistoria",
            Self::Auto => "auto",
            Self::Fine => "multa",
            Self::Review => "analise",
            Self::Document => "documento",
            Self::DataRequest => "dados",
            Self::Filing => "requerimento",
        }
    }

    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Renewal => "Renovações",
            Self::Vistoria => "Vistorias",
            Self::Auto => "Autos de infração",
            Self::Fine => "Multas",
            Self::Review => "Pedidos em análise",
            Self::Document => "Laudos e seguros",
            Self::DataRequest => "Dados pedidos às plataformas",
            Self::Filing => "Requerimentos pela internet",
        }
    }
}
