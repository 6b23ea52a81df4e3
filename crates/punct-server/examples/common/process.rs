//! The server under measurement, as its own process: target/release/punct-server (beside
//! the examples folder) on a free port with a fresh SQLite database, or the `postgres://`
//! URL in `LOAD_DB`, so that its memory and CPU time are the server's alone; both are read
//! from /proc.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::Duration;

/// The server's process, killed when dropped (its temporary folder removed).
pub struct Server {
    child: Child,
    dir: PathBuf,
    db: String,
    /// `http://host:port`.
    pub base: String,
    /// `ws://host:port`.
    pub ws_base: String,
}

impl Server {
    /// Starts the server and waits until it answers; `name` names its temporary folder.
    pub async fn start(name: &str) -> Server {
        let exe = std::env::current_exe().unwrap();
        let server_exe = exe.parent().unwrap().parent().unwrap().join("punct-server");
        assert!(
            server_exe.exists(),
            "{} not found: cargo build --release -p punct-server --bins --examples",
            server_exe.display()
        );
        let dir = std::env::temp_dir().join(format!("punct-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = std::env::var("LOAD_DB")
            .unwrap_or_else(|_| dir.join(format!("{name}.db")).display().to_string());
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let child = Command::new(&server_exe)
            .args([addr.to_string(), db.clone()])
            .spawn()
            .unwrap();
        let server = Server {
            child,
            dir,
            db,
            base: format!("http://{addr}"),
            ws_base: format!("ws://{addr}"),
        };
        while reqwest::get(format!("{}/api/games", server.base))
            .await
            .is_err()
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its database: a path or a `postgres://` URL.
    pub fn db(&self) -> &str {
        &self.db
    }

    /// The CPU seconds it used so far.
    pub fn cpu_seconds(&self) -> f64 {
        cpu_seconds(&self.pid().to_string())
    }

    /// Its resident memory now, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// CPU seconds (user + system) used so far by process `pid` (`self` for this one).
pub fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime and stime are 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|x| x.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

/// Signs up `name` with `password` on the server at `base`: the answer, its status 201.
pub async fn sign_up(
    client: &reqwest::Client,
    base: &str,
    name: &str,
    password: &str,
) -> reqwest::Response {
    let made = client
        .post(format!("{base}/api/account"))
        .json(&serde_json::json!({ "username": name, "password": password }))
        .send()
        .await
        .expect("server answers");
    assert_eq!(made.status().as_u16(), 201, "signing up {name}");
    made
}

/// The `p`-quantile (0 to 1) of the sorted, non-empty `sorted`.
pub fn quantile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}
