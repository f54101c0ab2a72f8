//! The law as pure code: value types and the rules of both laws. No I/O, no clock: the date
//! comes in as an argument (America/Cuiaba, DL-11).

pub mod audit;
pub mod calendar;
pub mod catalogue;
pub mod charter;
pub mod dates;
pub mod filings;
pub mod fines;
pub mod ids;
pub mod infractions;
pub mod legal_basis;
pub mod money;
pub mod officials;
pub mod reminders;
pub mod reports;
pub mod requirements;
pub mod ride_hailing;
pub mod rule;
pub mod trust;
pub mod urls;
pub mod verification_code;
pub mod work;
