//! What the operator runs the server with: its log, its metrics, the logging of a run of
//! failures, and the time source.

pub mod logging;
pub mod metrics;
pub mod outage;
pub mod time;
