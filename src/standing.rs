//! The register as it stands: entities loaded from storage with their acts folded in, and the
//! statuses the domain's rules give them now. Read by the use cases and by verification.

pub mod charter;
pub mod ride_hailing;
pub mod worklist;
