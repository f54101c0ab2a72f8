//! Text put into the query of a link.

pub use crate::domain::urls::urlencode;
