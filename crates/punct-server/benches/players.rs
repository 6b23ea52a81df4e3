//! The cost of passwords: one Argon2id hash (a sign-up, a password change) and one check (a
//! sign-in) with OWASP's parameters, on one core; and a whole sign-in on SQLite (the count
//! of the attempt, the account's read, the check, the session's write), its password check
//! on one core as the server runs it. Sign-ins per second on one core is 1 / that time.

use std::sync::atomic::{AtomicUsize, Ordering};

use divan::{Bencher, black_box};
use punct_server::ops::time::TimeSource;
use punct_server::players::auth::Auth;
use punct_server::players::hashing::{Hasher, hash_now, verify_now};
use punct_server::players::password::Password;
use punct_server::room::Stored;
use punct_server::store::Store;

fn main() {
    divan::main();
}

const PASSWORD: &str = "a long walk in the hills";

#[divan::bench(sample_count = 20)]
fn argon2id_hash() -> String {
    hash_now(&Password::new(black_box(PASSWORD)).unwrap()).unwrap()
}

#[divan::bench(sample_count = 20)]
fn argon2id_check(bencher: Bencher) {
    let password = Password::new(PASSWORD).unwrap();
    let hash = hash_now(&password).unwrap();
    bencher.bench(|| verify_now(black_box(&password), Some(&hash)).unwrap());
}

#[divan::bench(sample_count = 20)]
fn sign_in_on_sqlite(bencher: Bencher) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("punct-bench-players-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open::<Stored>(&dir.join("punct.db"), TimeSource::system()).unwrap();
    let auth = Auth::new(store, Hasher::new(1, 64));
    runtime
        .block_on(auth.sign_up("bencher", PASSWORD, 0))
        .unwrap();
    // Each sign-in a little later than the one before, from its own address, as many
    // people signing in would be.
    let n = AtomicUsize::new(0);
    bencher.bench(|| {
        let i = n.fetch_add(1, Ordering::Relaxed);
        let address = std::net::IpAddr::from([10, 0, (i >> 8) as u8, i as u8]);
        runtime
            .block_on(auth.sign_in("bencher", PASSWORD, Some(address), i as i64))
            .unwrap()
    });
    std::fs::remove_dir_all(&dir).ok();
}
