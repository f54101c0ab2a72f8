//! The trust levels of a citizen's gov.br account (Login Único): bronze for an account opened
//! with the CPF alone, prata once validated (a bank's app, a face against the CNH), ouro once
//! proven (the biometrics of the electoral court, an ICP-Brasil certificate). The municipality
//! profile names the level an applicant's account must hold to sign in with it.

use serde::{Deserialize, Serialize};

/// A gov.br trust level, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustLevel {
    Bronze,
    Prata,
    Ouro,
}

impl TrustLevel {
    /// The level of gov.br's numeric id (`"1"`, `"2"`, `"3"`), or of its name.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_lowercase().as_str() {
            "1" | "bronze" => Some(Self::Bronze),
            "2" | "prata" => Some(Self::Prata),
            "3" | "ouro" => Some(Self::Ouro),
            _ => None,
        }
    }

    /// As the applicant reads it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Bronze => "bronze",
            Self::Prata => "prata",
            Self::Ouro => "ouro",
        }
    }
}

/// The highest level among those an account was found to hold (gov.br lists every level
/// reached); `None` when no entry is a level.
pub fn highest<'a>(levels: impl IntoIterator<Item = &'a str>) -> Option<TrustLevel> {
    levels.into_iter().filter_map(TrustLevel::parse).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_from_ids_and_names_and_the_highest_counts() {
        assert_eq!(TrustLevel::parse("2"), Some(TrustLevel::Prata));
        assert_eq!(TrustLevel::parse(" Ouro "), Some(TrustLevel::Ouro));
        assert_eq!(TrustLevel::parse("4"), None);
        assert_eq!(highest(["1", "3", "2"]), Some(TrustLevel::Ouro));
        assert_eq!(highest(["1", "x"]), Some(TrustLevel::Bronze));
        assert_eq!(highest([]), None);
        assert!(TrustLevel::Bronze < TrustLevel::Prata);
    }
}
