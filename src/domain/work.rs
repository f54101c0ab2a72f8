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

/// What a ride-hailing authorization in force may have due, as the worklist keeps it for
/// each of hundreds of thousands (a byte: the sentence and the task are the variant's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthorizationDue {
    /// APP-ART3-PU (AMB-66): the year ends; renew it unless it already was.
    Renewal,
    /// APP-ART9: the car not presented to the vistoria by its day.
    NotPresented,
    /// APP-ART9: the car to present to the vistoria.
    Present,
    /// APP-ART16: the annual vistoria.
    Annual,
    /// APP-ART16-P1: a summons to an extra vistoria not yet attended.
    Summons,
    /// APP-ART16-P2: what the vistoria found to fix, then a vistoria again.
    Fix,
}

impl AuthorizationDue {
    pub fn kind(self) -> WorkKind {
        match self {
            Self::Renewal => WorkKind::Renewal,
            _ => WorkKind::Vistoria,
        }
    }

    /// What is due, in Portuguese, with the article.
    pub fn sentence(self) -> &'static str {
        match self {
            Self::Renewal => {
                "Autorização chega ao fim da validade: renovar (art. 3º, parágrafo único)"
            }
            Self::NotPresented => "Veículo não apresentado à vistoria no prazo (art. 9º)",
            Self::Present => "Apresentar o veículo à vistoria (art. 9º)",
            Self::Annual => "Vistoria anual (art. 16)",
            Self::Summons => {
                "Convocação para vistoria extraordinária ainda não atendida (art. 16, §1º)"
            }
            Self::Fix => "Corrigir o que a vistoria apontou e vistoriar de novo (art. 16, §2º)",
        }
    }

    /// The API operation whose task resolves it.
    pub fn task(self) -> &'static str {
        match self {
            Self::Renewal => "renewal.renew",
            _ => "authorizations.vistoria",
        }
    }
}
