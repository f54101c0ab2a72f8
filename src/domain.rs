//! The law as pure code: value types and the rules of both laws. No I/O, no clock: the date
//! comes in as an argument (America/Cuiaba, DL-11).

pub mod app;
pub mod app_deregistration;
pub mod app_sanctions;
pub mod app_substitution;
pub mod app_vistoria;
pub mod calendar;
pub mod charter;
pub mod charter_sanctions;
pub mod dates;
pub mod driver_record;
pub mod ids;
pub mod legal_basis;
pub mod platform;
pub mod registry;
