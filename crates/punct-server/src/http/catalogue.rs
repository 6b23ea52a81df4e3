//! The interface's texts in each language: static/i18n/<lang>/<part>.json, served merged at
//! `/i18n/<lang>.json` with the English text for any key a language's part lacks.

use serde_json::{Map, Value};

/// The languages of the rulebooks; English is complete by definition.
pub(crate) const LANGUAGES: [&str; 8] = ["en", "fr", "de", "es", "it", "nl", "pl", "ro"];

/// The merged catalogue of `lang` as JSON, reading each part with `read` (a name under
/// static/); `None` for a language we do not have.
pub(crate) fn merged(
    lang: &str,
    parts: impl Iterator<Item = String>,
    read: impl Fn(&str) -> Option<Vec<u8>>,
) -> Option<Vec<u8>> {
    if !LANGUAGES.contains(&lang) {
        return None;
    }
    let mut texts = Map::new();
    for part in parts {
        for source in ["en", lang] {
            let object = read(&format!("i18n/{source}/{part}"))
                .and_then(|bytes| serde_json::from_slice::<Map<String, Value>>(&bytes).ok());
            texts.extend(object.into_iter().flatten());
        }
    }
    serde_json::to_vec(&texts).ok()
}

/// The part file names (such as `game.json`) that English has, from the app's file names.
pub(crate) fn parts<'a>(names: impl Iterator<Item = &'a str>) -> impl Iterator<Item = String> {
    names.filter_map(|name| {
        let part = name.strip_prefix("i18n/en/")?;
        (part.ends_with(".json") && !part.contains('/')).then(|| part.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::{Map, Value};

    use super::LANGUAGES;

    fn dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/i18n")
    }

    fn part(lang: &str, name: &str) -> Map<String, Value> {
        let path = dir().join(lang).join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn placeholders(text: &str) -> BTreeSet<&str> {
        text.split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .collect()
    }

    /// Every language has every English text of every part, no key English lacks, and the
    /// same placeholders in each text: the languages are complete.
    #[test]
    fn every_language_is_complete() {
        let names: Vec<String> = std::fs::read_dir(dir().join("en"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(!names.is_empty());
        for lang in LANGUAGES {
            let theirs: BTreeSet<String> = std::fs::read_dir(dir().join(lang))
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            assert_eq!(
                theirs,
                names.iter().cloned().collect(),
                "the parts of {lang}"
            );
            for name in &names {
                let english = part("en", name);
                let other = part(lang, name);
                let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<BTreeSet<_>>();
                // Plural forms differ between languages (Polish has `few` and `many`).
                let base = |k: &String| {
                    k.rsplit_once('.')
                        .filter(|(_, f)| ["zero", "one", "two", "few", "many", "other"].contains(f))
                        .map_or(k.clone(), |(b, _)| b.to_owned())
                };
                let bases =
                    |m: &Map<String, Value>| keys(m).iter().map(base).collect::<BTreeSet<_>>();
                assert_eq!(bases(&other), bases(&english), "the keys of {lang}/{name}");
                for (key, text) in &other {
                    let text = text
                        .as_str()
                        .unwrap_or_else(|| panic!("{lang}/{name} {key}: not a string"));
                    let english_text = english
                        .get(key)
                        .or_else(|| english.get(&format!("{}.other", base(key))))
                        .and_then(Value::as_str)
                        .unwrap_or_else(|| panic!("{lang}/{name} {key}: no English text"));
                    assert_eq!(
                        placeholders(text),
                        placeholders(english_text),
                        "the placeholders of {lang}/{name} {key}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_language_merges_its_parts_over_english() {
        let files = |name: &str| -> Option<Vec<u8>> {
            match name {
                "i18n/en/a.json" => Some(br#"{"a.x":"X","a.y":"Y"}"#.to_vec()),
                "i18n/fr/a.json" => Some(br#"{"a.x":"Ixe"}"#.to_vec()),
                "i18n/en/b.json" => Some(br#"{"b.z":"Z"}"#.to_vec()),
                _ => None,
            }
        };
        let names = [
            "i18n/en/a.json",
            "i18n/fr/a.json",
            "i18n/en/b.json",
            "js/app.js",
        ];
        let parts = || super::parts(names.iter().copied());
        let fr: Value =
            serde_json::from_slice(&super::merged("fr", parts(), files).unwrap()).unwrap();
        assert_eq!(
            fr,
            serde_json::json!({"a.x": "Ixe", "a.y": "Y", "b.z": "Z"})
        );
        assert!(super::merged("xx", parts(), files).is_none());
    }
}
