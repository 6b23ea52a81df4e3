//! `punct login` and `punct logout`: the sign-in that `punct play --server` uses, kept in the
//! user's configuration folder.

use anyhow::{Context as _, bail};
use punct_tui::online::config::{self, Login};
use punct_tui::online::{Api, read_password};

use crate::cli::{LoginArgs, LogoutArgs};

/// Signs in to `args.server` and keeps the token.
pub fn login(args: LoginArgs) -> anyhow::Result<()> {
    let server = config::server_key(&args.server);
    let path = config::path()?;
    let (token, token_id) = match args.token {
        Some(token) => (token.trim().to_owned(), None),
        None => {
            let username = match args.username {
                Some(name) => name,
                None => read_line("Username: ")?,
            };
            if username.is_empty() {
                bail!("no username given: nothing done");
            }
            let password = read_password("Password: ").context("cannot read the password")?;
            let api = Api::new(&server, None)?;
            let made = api.make_token(&username, &password, &token_name())?;
            (made.token, Some(made.id))
        }
    };
    let api = Api::new(&server, Some(token.clone()))?;
    let username = api.whoami()?;
    config::keep(
        &path,
        Login {
            server: server.clone(),
            username: username.clone(),
            token,
            token_id,
        },
    )?;
    println!(
        "Signed in to {server} as {username}; the token is kept in {} (readable by you alone).\n\
         `punct play --server {server}` lists your games; `punct logout --server {server}` \
         forgets it.",
        path.display()
    );
    Ok(())
}

/// Forgets the sign-in to `args.server`, revoking the token when `punct login` made it.
pub fn logout(args: LogoutArgs) -> anyhow::Result<()> {
    let path = config::path()?;
    let Some(login) = config::forget(&path, &args.server)? else {
        println!(
            "Not signed in to {}: nothing to forget.",
            config::server_key(&args.server)
        );
        return Ok(());
    };
    let revoked = match &login.token_id {
        Some(id) => Api::new(&login.server, Some(login.token.clone()))
            .and_then(|api| api.revoke(id))
            .map_or_else(
                |e| {
                    format!(" The token could not be revoked ({e}): revoke it on the account page.")
                },
                |()| " Its token is revoked.".to_owned(),
            ),
        None => {
            " The token you gave stays valid until you revoke it on the account page.".to_owned()
        }
    };
    println!(
        "Signed out of {} ({}).{revoked}",
        login.server, login.username
    );
    Ok(())
}

/// A line typed at the prompt.
fn read_line(prompt: &str) -> anyhow::Result<String> {
    use std::io::Write as _;
    eprint!("{prompt}");
    std::io::stderr().flush()?;
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    Ok(line.trim().to_owned())
}

/// The name of the token made for this terminal, as the account page lists it.
fn token_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".to_owned());
    let name = format!("punct terminal on {host}");
    name.chars().take(40).collect()
}
