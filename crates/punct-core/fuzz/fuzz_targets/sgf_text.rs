//! Reading any bytes as Boardspace SGF never panics, and every game read writes a record
//! that reads back to the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punct_core::Record;

fuzz_target!(|data: &[u8]| {
    let text = &String::from_utf8_lossy(data);
    for record in punct_core::sgf::read_all(text).into_iter().flatten() {
        let written = record.to_string();
        let again = Record::parse(&written).map(|r| r.to_string());
        assert_eq!(again.as_deref(), Ok(written.as_str()));
    }
});
