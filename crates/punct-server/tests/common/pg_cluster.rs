//! A throwaway PostgreSQL server for the tests that need a real one (Debian's `postgresql`
//! package; without it those tests are skipped with a message).

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A PostgreSQL cluster of its own, killed and removed when dropped.
pub struct Cluster {
    dir: PathBuf,
    server: Child,
    /// The URL of its `postgres` database.
    pub url: String,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let group = self.server.id() as i32;
        if group > 1 {
            // SAFETY: killpg has no memory-safety preconditions; the group is the server's own.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
        self.server.wait().ok();
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// The newest installed PostgreSQL's programs.
fn programs() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("postgres").exists() && bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

/// `program` with `args`, as the `postgres` user when we are root (PostgreSQL refuses to run
/// as root).
fn run_as_postgres(program: &Path, args: &[&str]) -> Command {
    // SAFETY: geteuid only reads the process's user id.
    let mut c = if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    c.args(args);
    c
}

impl Cluster {
    /// Starts a fresh cluster on a free port, or says why it cannot (and the test skips).
    pub fn start(test: &str) -> Option<Cluster> {
        let Some(bin) = programs() else {
            eprintln!(
                "SKIPPED {test}: no PostgreSQL server installed (apt-get install -y postgresql)"
            );
            return None;
        };
        let dir = super::temp_db("pg-cluster").parent().unwrap().to_owned();
        Command::new("chmod")
            .args(["777", &dir.display().to_string()])
            .status()
            .ok();
        let data = dir.join("data").display().to_string();
        let init = run_as_postgres(
            &bin.join("initdb"),
            &["-D", &data, "-A", "trust", "-U", "punct", "--no-sync"],
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("initdb runs");
        assert!(init.success(), "initdb failed");
        let port = super::free_addr().port().to_string();
        let socket_dir = dir.display().to_string();
        let server = run_as_postgres(
            &bin.join("postgres"),
            &[
                "-D",
                &data,
                "-p",
                &port,
                "-k",
                &socket_dir,
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                // Tests that kill a node a hundred times leave its connections for the
                // server to notice; each node holds a reader, a writer and a listener.
                "-c",
                "max_connections=300",
            ],
        )
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("postgres starts");
        let cluster = Cluster {
            dir,
            server,
            url: format!("postgres://punct@127.0.0.1:{port}/postgres"),
        };
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            let ready = Command::new(bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &port, "-U", "punct"])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Some(cluster);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("PostgreSQL did not start on port {port} within 30 s");
    }
}

/// The databases a test runs on: a fresh SQLite file, and the `postgres` database of a fresh
/// cluster when one can be started (it runs while the returned cluster lives).
pub fn databases(test: &str) -> (Vec<PathBuf>, Option<Cluster>) {
    let cluster = Cluster::start(test);
    let mut dbs = vec![super::temp_db(test)];
    if let Some(c) = &cluster {
        dbs.push(PathBuf::from(&c.url));
    }
    (dbs, cluster)
}
