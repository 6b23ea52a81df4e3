//! Reading any bytes never panics, and whatever reads writes back to text that reads again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punct_core::Move;

fuzz_target!(|data: &[u8]| {
    let text = &String::from_utf8_lossy(data);
    if let Ok(written) = Move::parse(text).map(|m| m.to_string()) {
        let text = &written;
        let again = Move::parse(text).map(|m| m.to_string());
        assert_eq!(again.as_deref(), Ok(written.as_str()));
    }
});
