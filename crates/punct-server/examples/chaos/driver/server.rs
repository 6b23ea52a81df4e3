//! The real server binary, started, killed with SIGKILL and started again on the same
//! database (as one node of several, with a name of its own, when they share PostgreSQL);
//! engine workers of the same binary (`punct-server worker`); and a throwaway PostgreSQL
//! cluster that can be stopped and started under them.

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::http::{Reply, request};

/// A free loopback port below the kernel's ephemeral range (32768 and up on Linux), so
/// that a client's outgoing connection never holds it when the server is started again.
pub fn free_addr(seed: u64) -> SocketAddr {
    for i in 0..4000u64 {
        let port = 20_000 + (seed.wrapping_mul(2_654_435_761).wrapping_add(i * 97) % 12_000);
        if let Ok(l) = std::net::TcpListener::bind(("127.0.0.1", port as u16)) {
            return l.local_addr().expect("a bound socket has an address");
        }
    }
    panic!("no free port between 20000 and 32000");
}

/// The `punct-server` process.
pub struct Server {
    bin: PathBuf,
    /// Where it listens.
    pub addr: SocketAddr,
    db: String,
    movetime_ms: u64,
    /// Where its output goes.
    pub log: PathBuf,
    /// Its environment beyond the inherited one (its node's name, its engine).
    env: Vec<(String, String)>,
    child: Option<Child>,
}

impl Server {
    /// A server (not started yet) of binary `bin` on `addr` with database `db`, its output
    /// appended to `log`.
    pub fn new(bin: &Path, addr: SocketAddr, db: &str, movetime_ms: u64, log: &Path) -> Server {
        Server {
            bin: bin.to_owned(),
            addr,
            db: db.to_owned(),
            movetime_ms,
            log: log.to_owned(),
            env: Vec::new(),
            child: None,
        }
    }

    /// The server as node `name` of several on one PostgreSQL, its searches done by the
    /// engine workers if `workers`.
    pub fn node(mut self, name: &str, workers: bool) -> Server {
        self.env.push(("PUNCT_NODE".into(), name.into()));
        if workers {
            self.env.push(("PUNCT_ENGINE".into(), "workers".into()));
        }
        self
    }

    /// Starts the server and waits until it answers (30 s at most), starting it again if
    /// it exits meanwhile (its database may be starting too).
    pub async fn start(&mut self) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            if self.child.is_none() {
                let log = File::options()
                    .create(true)
                    .append(true)
                    .open(&self.log)
                    .map_err(|e| format!("cannot open {}: {e}", self.log.display()))?;
                let err = log.try_clone().map_err(|e| e.to_string())?;
                let child = Command::new(&self.bin)
                    .args([
                        self.addr.to_string(),
                        self.db.clone(),
                        self.movetime_ms.to_string(),
                    ])
                    .envs(self.env.iter().map(|(k, v)| (k, v)))
                    .stdin(Stdio::null())
                    .stdout(log)
                    .stderr(err)
                    .spawn()
                    .map_err(|e| format!("cannot start {}: {e}", self.bin.display()))?;
                self.child = Some(child);
            }
            if let Some(Ok(Some(_))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            if let Reply::Answer(200, _) =
                request(self.addr, "GET", "/api/games", None, None, None).await
            {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        Err(format!(
            "the server did not answer on {} within 30 s; its output: {}",
            self.addr,
            self.log.display()
        ))
    }

    /// Kills the server at once, like `kill -9`.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An engine worker (`punct-server worker`), started, killed with SIGKILL and started
/// again; it answers nothing, so it is taken to be up once started (it waits out a database
/// that is away by itself).
pub struct Worker {
    bin: PathBuf,
    db: String,
    name: String,
    log: PathBuf,
    child: Option<Child>,
}

impl Worker {
    /// A worker (not started yet) of binary `bin` on PostgreSQL `db`, named `name`, its
    /// output appended to `log`.
    pub fn new(bin: &Path, db: &str, name: &str, log: &Path) -> Worker {
        Worker {
            bin: bin.to_owned(),
            db: db.to_owned(),
            name: name.to_owned(),
            log: log.to_owned(),
            child: None,
        }
    }

    /// Starts the worker.
    pub fn start(&mut self) -> Result<(), String> {
        let log = File::options()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("cannot open {}: {e}", self.log.display()))?;
        let err = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(&self.bin)
            .args(["worker", &self.db, "1"])
            .env("PUNCT_WORKER", &self.name)
            // A killed worker's job is taken again within a few seconds.
            .env("PUNCT_JOB_LEASE_MS", "3000")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.bin.display()))?;
        self.child = Some(child);
        Ok(())
    }

    /// Kills the worker at once, like `kill -9`.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A throwaway PostgreSQL cluster run by `pg_ctl`, stopped and removed when dropped.
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    data: String,
    options: String,
    /// The URL the server is given.
    pub url: String,
}

/// The newest installed PostgreSQL's programs (Debian's layout), if any.
pub fn postgres_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("pg_ctl").exists() && bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

/// `program` with `args`, as the `postgres` user when we are root (PostgreSQL refuses to
/// run as root).
fn as_postgres(program: &Path, args: &[&str]) -> Command {
    // SAFETY: geteuid only reads the process's user id.
    let mut c = if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    c.args(args).stdin(Stdio::null()).stdout(Stdio::null());
    c
}

impl Postgres {
    /// Creates a cluster in `dir` and starts it on a free port.
    pub fn start(bin: &Path, dir: &Path, seed: u64) -> Result<Postgres, String> {
        Postgres::start_with(bin, dir, seed, "")
    }

    /// [`Postgres::start`] with more of the server's options (`-c name=value …`).
    pub fn start_with(bin: &Path, dir: &Path, seed: u64, more: &str) -> Result<Postgres, String> {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        // The cluster belongs to whoever runs it; when that is the postgres user, let it in.
        Command::new("chmod")
            .args(["777", &dir.display().to_string()])
            .status()
            .map_err(|e| e.to_string())?;
        let data = dir.join("data").display().to_string();
        let init = as_postgres(
            &bin.join("initdb"),
            &["-D", &data, "-A", "trust", "-U", "punct", "--no-sync"],
        )
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("initdb: {e}"))?;
        if !init.success() {
            return Err("initdb failed".into());
        }
        let port = free_addr(seed).port();
        let pg = Postgres {
            bin: bin.to_owned(),
            dir: dir.to_owned(),
            data,
            options: format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 {more}",
                dir.display()
            ),
            url: format!("postgres://punct@127.0.0.1:{port}/postgres"),
        };
        pg.start_again()?;
        Ok(pg)
    }

    fn pg_ctl(&self, args: &[&str]) -> Result<(), String> {
        let log = self.dir.join("postgres.log").display().to_string();
        let mut all = vec!["-D", &self.data, "-l", &log, "-w", "-t", "60"];
        all.extend_from_slice(args);
        let status = as_postgres(&self.bin.join("pg_ctl"), &all)
            .status()
            .map_err(|e| format!("pg_ctl: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("pg_ctl {} failed; see {log}", args.join(" ")))
        }
    }

    /// `pg_ctl stop -m fast`: sessions are cut, the cluster shuts down cleanly.
    pub fn stop(&self) -> Result<(), String> {
        self.pg_ctl(&["-m", "fast", "stop"])
    }

    /// `pg_ctl start`, waiting until it accepts connections.
    pub fn start_again(&self) -> Result<(), String> {
        self.pg_ctl(&["-o", &self.options, "start"])
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.pg_ctl(&["-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the database at `url` holds of each game of `games`, a line each: its row's seq,
/// the moves and seq its data holds, whether it ended, and its pending moves.
pub fn rows_of(url: &str, games: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut db = match postgres::Client::connect(url, postgres::NoTls) {
        Ok(db) => db,
        Err(e) => return vec![format!("cannot connect to read the games back: {e}")],
    };
    let mut lines = Vec::new();
    for id in games {
        let row = db.query_opt(
            "SELECT seq, live, data::json->>'seq' AS data_seq,
                    json_array_length(data::json->'moves') AS moves,
                    data::json->>'ended' AS ended
             FROM games WHERE id = $1",
            &[id],
        );
        let pending = db.query(
            "SELECT seq, move FROM pending_moves WHERE game = $1 ORDER BY seq",
            &[id],
        );
        lines.push(match (row, pending) {
            (Ok(Some(r)), Ok(p)) => {
                let pending: Vec<(i64, String)> = p.iter().map(|p| (p.get(0), p.get(1))).collect();
                format!(
                    "game {id}: row seq {}, live {}, its data at seq {:?} with {:?} moves, ended {:?}; pending {pending:?}",
                    r.get::<_, i64>(0),
                    r.get::<_, bool>(1),
                    r.get::<_, Option<String>>(2),
                    r.get::<_, Option<i32>>(3),
                    r.get::<_, Option<String>>(4),
                )
            }
            (Ok(None), _) => format!("game {id}: no row"),
            (Err(e), _) | (_, Err(e)) => format!("game {id}: cannot be read: {e}"),
        });
    }
    lines
}
