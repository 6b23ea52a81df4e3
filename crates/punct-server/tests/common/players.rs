//! Players for the tests of the players' tables.

use punct_server::players::accounts::{self, AccountId};
use punct_server::players::username::Username;
use punct_server::store::Store;

/// Makes account `name` (id `id-<name>`) at `now_ms`, its password hash a placeholder: for
/// tests that never sign in.
pub async fn account(store: &Store, name: &str, now_ms: i64) -> AccountId {
    let id = AccountId(format!("id-{name}"));
    let (made, name) = (id.clone(), Username::new(name).unwrap());
    store
        .transact(move |db| accounts::create(db, &made, &name, "-", now_ms))
        .await
        .unwrap()
        .unwrap();
    id
}
