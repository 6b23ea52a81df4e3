//! Game records in and out: what people import (records, SGF, archives) and the records
//! written for the page.

pub mod export;
pub mod import;
pub mod skip;
