//! A legal requirement that was not met: the one shape every rule of both laws reports.

pub mod catalogue;

use std::borrow::Cow;

use serde::Serialize;

/// One legal requirement that was not met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RuleFailure {
    /// Rule id of the catalogue (`catalogue::CATALOGUE`, `docs/rules.md`), e.g. `APP-ART2-P1`.
    pub rule: Cow<'static, str>,
    /// Article of the law, in Portuguese, e.g. `art. 2º, §1º`.
    pub article: Cow<'static, str>,
    /// The input field the requirement is about.
    pub field: &'static str,
    /// What is wrong, in Brazilian Portuguese.
    pub message: String,
}

/// The failures one decision collects.
pub type Failures = Vec<RuleFailure>;

/// Records one failed requirement.
pub fn fail(
    out: &mut Failures,
    rule: &'static str,
    article: &'static str,
    field: &'static str,
    message: String,
) {
    out.push(RuleFailure {
        rule: Cow::Borrowed(rule),
        article: Cow::Borrowed(article),
        field,
        message,
    });
}

impl RuleFailure {
    /// The rule id as a `'static` string, for tables of expected failures in tests.
    #[cfg(test)]
    pub fn rule_id(&self) -> &'static str {
        match &self.rule {
            Cow::Borrowed(s) => s,
            Cow::Owned(s) => Box::leak(s.clone().into_boxed_str()),
        }
    }
}
