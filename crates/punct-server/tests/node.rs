//! The browser app's own unit tests (`node --test` over `static/`), run with every other
//! test so that one command runs them all. Without Node the test is skipped with a message,
//! as the browser tests are without Chromium.

use std::process::Command;

#[test]
fn the_browser_apps_unit_tests_pass() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static");
    let Ok(out) = Command::new("node").arg("--test").arg(dir).output() else {
        eprintln!(
            "SKIPPED the browser app's unit tests: no Node.js installed (apt-get install -y nodejs)"
        );
        return;
    };
    assert!(
        out.status.success(),
        "node --test failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
