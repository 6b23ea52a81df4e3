//! Reading any bytes, as one record or as a file of them, never panics, and whatever reads
//! writes back to text that reads again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punct_core::Record;

fuzz_target!(|data: &[u8]| {
    let text = &String::from_utf8_lossy(data);
    let _ = Record::parse_all(text);
    if let Ok(written) = Record::parse(text).map(|r| r.to_string()) {
        let text = &written;
        let again = Record::parse(text).map(|r| r.to_string());
        assert_eq!(again.as_deref(), Ok(written.as_str()));
    }
});
