//! `punct admin`: the operator's commands against the server's database (`--db`), which
//! may be in use by running servers at the same time (PostgreSQL; an SQLite file is locked
//! by its server, so stop it first): list and close reports, mute and unmute, close an
//! account, make one a bot account.

use anyhow::Context as _;
use punct_server::ops::time::TimeSource;
use punct_server::players::accounts::{self, Account};
use punct_server::players::{chat, username};
use punct_server::room::Stored;
use punct_server::store::Store;

use crate::cli::{AdminAction, AdminArgs};

/// The name account `id` is shown by ("-" for none, as for a player not signed in).
async fn shown(store: &Store, id: Option<&accounts::AccountId>) -> anyhow::Result<String> {
    let Some(id) = id.cloned() else {
        return Ok("-".to_owned());
    };
    let found = store.query(move |db| accounts::by_id(db, &id)).await?;
    Ok(found.map_or_else(|| "-".to_owned(), |a| a.shown_name().to_owned()))
}

/// The account named `name`, or an error naming it.
async fn named(store: &Store, name: &str) -> anyhow::Result<Account> {
    let key = username::key(name);
    store
        .query(move |db| accounts::by_name(db, &key))
        .await?
        .with_context(|| format!("no account named `{name}`"))
}

/// Runs `args.action` on `args.db`.
pub fn run(args: AdminArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let time = TimeSource::system();
        let store = Store::open::<Stored>(&args.db, time.clone())
            .with_context(|| format!("cannot open the database {}", args.db.display()))?;
        let now = time.now_ms();
        match args.action {
            AdminAction::Reports => {
                let reports = store.query(chat::open_reports).await?;
                if reports.is_empty() {
                    println!("no open reports");
                }
                for r in reports {
                    let reporter = shown(&store, Some(&r.reporter)).await?;
                    let reported = shown(&store, r.reported.as_ref()).await?;
                    println!(
                        "{}\t{reporter}\t{reported}\t{:?}\t{:?}",
                        r.id, r.reason, r.body
                    );
                }
            }
            AdminAction::CloseReport { id } => {
                let report = id.clone();
                let closed = store
                    .transact(move |db| chat::close_report(db, &report, now))
                    .await?;
                anyhow::ensure!(closed, "no open report `{id}`");
                println!("report {id} closed");
            }
            AdminAction::Mute { name, hours } => {
                let account = named(&store, &name).await?;
                let until = now + i64::from(hours) * 3_600_000;
                store
                    .transact(move |db| accounts::mute(db, &account.id, Some(until)))
                    .await?;
                println!("{name} muted for {hours} h");
            }
            AdminAction::Unmute { name } => {
                let account = named(&store, &name).await?;
                store
                    .transact(move |db| accounts::mute(db, &account.id, None))
                    .await?;
                println!("{name} may chat again");
            }
            AdminAction::Close { name } => {
                let account = named(&store, &name).await?;
                let closed = store
                    .transact(move |db| accounts::close(db, &account.id, now))
                    .await?;
                anyhow::ensure!(closed, "the account `{name}` was closed already");
                println!("{name} closed: signed out everywhere, and can no longer sign in");
            }
            AdminAction::Bot { name } => {
                let account = named(&store, &name).await?;
                store
                    .transact(move |db| accounts::make_bot(db, &account.id))
                    .await?
                    .with_context(|| format!("`{name}` cannot become a bot account"))?;
                println!("{name} is a bot account: it plays through the API, not in the lobby");
            }
        }
        Ok(())
    })
}
