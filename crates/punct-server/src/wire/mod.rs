//! Every message on the wire as a serde type.

pub mod analysis;
pub mod refusal;
pub mod replay;
