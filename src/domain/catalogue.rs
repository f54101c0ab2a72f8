//! Catalogue notes: the rules of the catalogue (`docs/rules.md`) that are not rules of behaviour selo can
//! check, each with the reason. Every other rule of both laws is encoded
//! where it applies, with a test named after its id.

/// A rule selo does not decide, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutsideSelo {
    pub rule: &'static str,
    pub article: &'static str,
    pub reason: &'static str,
}

/// The ride-hailing rules outside what selo can check.
pub const OUTSIDE_SELO: &[OutsideSelo] = &[
    OutsideSelo {
        rule: "APP-ART7-P2",
        article: "art. 7º, §2º",
        reason: "A duty of the Municipality (a pick-up area at the bus station within 90 days \
                 of publication), not of a driver or platform; the draft text has no \
                 publication date to count from.",
    },
    OutsideSelo {
        rule: "APP-ART11",
        article: "art. 11",
        reason: "ISSQN per registered vehicle is assessed by the tax administration under the \
                 tax code; selo issues no tax assessment and the register does not link a \
                 driver to a platform.",
    },
    OutsideSelo {
        rule: "APP-ART11-P2",
        article: "art. 11, §2º",
        reason: "The penalties for unpaid taxes are the tax code's, outside this law.",
    },
    OutsideSelo {
        rule: "APP-ART13-XX",
        article: "art. 13, XX",
        reason: "Checking that every trip used the authorized car needs the platforms' trip \
                 data, which selo does not keep (LGPD minimisation: a delivery is recorded by \
                 its SHA-256). On the road the sticker shows the plate, and a replaced car's \
                 sticker verifies as `replaced`.",
    },
    OutsideSelo {
        rule: "APP-ART28",
        article: "art. 28",
        reason: "Tow and storage costs follow a fee schedule of the tax code, and the law \
                 gives no removal power to charge them under (AMB-39).",
    },
    OutsideSelo {
        rule: "APP-ART31",
        article: "art. 31",
        reason: "The repeal of Leis 4.092, 4.100, 4.120 and 4.121/2019 and their decrees \
                 needs a migration rule for authorizations issued under them, which the text \
                 does not give (AMB-16); selo issues only under the law in force.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_outside_selo_is_named_once_with_its_reason() {
        let mut ids: Vec<&str> = OUTSIDE_SELO.iter().map(|o| o.rule).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), OUTSIDE_SELO.len());
        for o in OUTSIDE_SELO {
            assert!(o.rule.starts_with("APP-ART"), "{o:?}");
            assert!(o.article.starts_with("art. "), "{o:?}");
            assert!(o.reason.len() > 40, "{o:?}");
        }
    }
}
