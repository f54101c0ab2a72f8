//! Use cases of the ride-hailing law (Secretaria Municipal de Finanças).

pub mod acts;
pub mod authorizations;
pub mod autos;
pub mod certidao;
pub mod check;
pub mod electronic_notice;
pub mod grant;
pub mod photo;
pub mod platform_access;
pub mod platform_files;
pub mod platforms;
pub mod print;
pub mod procedure;
pub mod register;
pub mod substitution;
pub mod webhooks;
