//! Copies docs/rules.md into the build so the rules page ships inside the binary; a short
//! note stands in while the file does not exist. Also builds the crate again when the app's
//! files change.

use std::path::Path;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md");
    println!("cargo:rerun-if-changed={}", src.display());
    // The app's files are built in (assets.rs): a file added to or changed in static/
    // builds the crate again.
    println!("cargo:rerun-if-changed=static");
    let text = std::fs::read_to_string(&src).unwrap_or_else(|_| {
        "# Rules of PÜNCT\n\nThe rules text (docs/rules.md) was not present when this server was built.\n".to_owned()
    });
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rules.md");
    std::fs::write(out, text).expect("OUT_DIR is writable");
}
