//! The source tree's layers (docs/server.md, "The code"): each folder of `src/` is one
//! layer, and code uses only the layers below its own, so that the arrows between them
//! point down and no two modules need each other. This reads every source file and fails
//! naming any use of a layer above.

use std::path::Path;

/// The layers, from the top; each may use those after it. A slot with several folders is
/// one layer whose folders do not use one another.
const LAYERS: &[&[&str]] = &[
    &["http"],
    &["ws"],
    &["lobby"],
    &["wire"],
    &["analysis"],
    &["games"],
    &["room", "records", "pictures"],
    &["players"],
    // The engine queues its jobs in the database when workers search (`--engine workers`).
    &["engine"],
    &["store"],
    &["ops"],
];

/// Modules at the root that every layer may use: the domain's error type, and the
/// configuration the wiring hands down.
const SHARED: &[&str] = &["error", "Config"];

fn layer_of(folder: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&folder))
}

/// The code of `text` that ships: comment lines and the tests at its end left out.
fn shipped(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
}

/// The crate's modules that `line` names (`crate::games::Hub` names `games`,
/// `crate::{error, room::Room}` names `error` and `room`).
fn named(line: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        let paths: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group
                .split('}')
                .next()
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .collect(),
            None => vec![rest],
        };
        for path in paths {
            let end = path
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(path.len());
            if end > 0 {
                names.push(&path[..end]);
            }
        }
    }
    names
}

#[test]
fn the_modules_a_line_names_are_read_from_paths_and_groups() {
    assert_eq!(named("use crate::games::{Hub, Seated};"), ["games"]);
    assert_eq!(named("use crate::{error, room::Room};"), ["error", "room"]);
    assert_eq!(
        named("let x = crate::ops::time::TimeSource::system();"),
        ["ops"]
    );
}

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            visit(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn every_layer_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for path in &files {
        let relative = path.strip_prefix(&src).unwrap();
        let Some(folder) = relative.iter().next().and_then(|f| f.to_str()) else {
            continue;
        };
        // The crate's root (its wiring) and the binary are above every layer.
        let Some(own) = layer_of(folder) else {
            continue;
        };
        if relative.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(path).unwrap();
        for (number, line) in shipped(&text) {
            for module in named(line) {
                if SHARED.contains(&module) {
                    continue;
                }
                let Some(used) = layer_of(module) else {
                    wrong.push(format!(
                        "{}:{}: unknown module `{module}`",
                        relative.display(),
                        number + 1
                    ));
                    continue;
                };
                let same_folder = module == folder;
                if used < own || (used == own && !same_folder) {
                    wrong.push(format!(
                        "{}:{}: `{folder}` uses `{module}`, which is not below it: {}",
                        relative.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} files were read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
