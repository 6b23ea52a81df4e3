//! Every message on the wire as a serde type.

pub mod refusal;
pub mod replay;
