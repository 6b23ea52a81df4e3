//! The sign-ins kept between runs: one API token per server, in the user's configuration
//! folder (`$XDG_CONFIG_HOME/punct/logins.json`, else `~/.config/punct/logins.json`), as
//! other command-line clients keep theirs. The file holds secrets, so it is made readable by
//! its owner alone (mode 0600, in a folder of mode 0700) and replaced whole, never half
//! written.

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

/// The file's name inside the configuration folder.
const FILE: &str = "logins.json";

/// A sign-in to one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Login {
    /// The server's address, as [`server_key`] writes it.
    pub server: String,
    /// The account's name.
    pub username: String,
    /// The API token (`punct_…`).
    pub token: String,
    /// The token's id, when `punct login` made it (so that `punct logout` revokes it).
    #[serde(default)]
    pub token_id: Option<String>,
}

/// Every sign-in kept.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Logins {
    logins: Vec<Login>,
}

/// Where the sign-ins are kept: `$XDG_CONFIG_HOME/punct/logins.json`, or
/// `$HOME/.config/punct/logins.json` when that is not set (an empty or relative value is
/// ignored, as the XDG specification says).
pub fn path() -> anyhow::Result<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = match xdg {
        Some(dir) => dir,
        None => match std::env::var_os("HOME").map(PathBuf::from) {
            Some(home) if home.is_absolute() => home.join(".config"),
            _ => bail!(
                "neither XDG_CONFIG_HOME nor HOME is set: there is nowhere to keep the sign-in"
            ),
        },
    };
    Ok(base.join("punct").join(FILE))
}

/// A server's address as the sign-ins are keyed by: without a trailing `/`.
pub fn server_key(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

fn read(path: &Path) -> anyhow::Result<Logins> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{} does not read as punct's sign-ins", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Logins::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Writes `logins` to `path` readable by its owner alone: a new file beside it, renamed over
/// the old one, so that a crash leaves one or the other whole.
fn write(path: &Path, logins: &Logins) -> anyhow::Result<()> {
    let dir = path.parent().context("the sign-in file has no folder")?;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot make {}", dir.display()))?;
    let temporary = dir.join(format!(".{FILE}.{}", std::process::id()));
    let text = serde_json::to_string_pretty(logins)?;
    let written = write_private(&temporary, &text).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `text` to a new file at `path` that only its owner may read, and waits until it is
/// on the disk.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// The sign-in kept for `server`, if any, from the file at `path`.
pub fn find(path: &Path, server: &str) -> anyhow::Result<Option<Login>> {
    let key = server_key(server);
    Ok(read(path)?.logins.into_iter().find(|l| l.server == key))
}

/// Keeps `login`, replacing the one for its server.
pub fn keep(path: &Path, login: Login) -> anyhow::Result<()> {
    let mut logins = read(path)?;
    logins.logins.retain(|l| l.server != login.server);
    logins.logins.push(login);
    write(path, &logins)
}

/// Forgets the sign-in to `server`, returning it (`None` if there was none).
pub fn forget(path: &Path, server: &str) -> anyhow::Result<Option<Login>> {
    let key = server_key(server);
    let mut logins = read(path)?;
    let Some(index) = logins.logins.iter().position(|l| l.server == key) else {
        return Ok(None);
    };
    let login = logins.logins.remove(index);
    write(path, &logins)?;
    Ok(Some(login))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn login(server: &str, token: &str) -> Login {
        Login {
            server: server_key(server),
            username: "ada".into(),
            token: token.into(),
            token_id: None,
        }
    }

    #[test]
    fn sign_ins_are_kept_per_server_readable_by_their_owner_alone() {
        let dir = std::env::temp_dir().join(format!("punct-logins-{}", std::process::id()));
        let path = dir.join("punct").join(FILE);
        assert_eq!(find(&path, "http://a").unwrap(), None);
        keep(&path, login("http://a/", "punct_1")).unwrap();
        keep(&path, login("http://b", "punct_2")).unwrap();
        keep(&path, login("http://a", "punct_3")).unwrap();
        assert_eq!(find(&path, "http://a/").unwrap().unwrap().token, "punct_3");
        assert_eq!(find(&path, "http://b").unwrap().unwrap().token, "punct_2");
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!(forget(&path, "http://a").unwrap().unwrap().token, "punct_3");
        assert_eq!(forget(&path, "http://a").unwrap(), None);
        assert_eq!(find(&path, "http://b").unwrap().unwrap().token, "punct_2");
        fs::write(&path, "not json").unwrap();
        let e = find(&path, "http://b").unwrap_err().to_string();
        assert!(e.contains("does not read"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
