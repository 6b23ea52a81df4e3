//! A `punct serve` of a test's own on SQLite, and HTTP requests to it as a browser or a
//! script makes them.

use std::path::Path;
use std::process::Command;

/// A `punct serve` of the test's own on SQLite, killed when dropped.
pub struct Server {
    child: std::process::Child,
    addr: String,
    db: std::path::PathBuf,
}

impl Server {
    /// Starts a server on a free port with the database `db`.
    pub fn start(db: &Path) -> Server {
        Server::start_with(db, &[])
    }

    /// Starts a server on a free port with the database `db` and more options.
    pub fn start_with(db: &Path, options: &[&str]) -> Server {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .to_string();
        Server::on_with(&addr, db, options)
    }

    /// Starts a server at `addr` with the database `db`, and waits until it serves.
    pub fn on(addr: &str, db: &Path) -> Server {
        Server::on_with(addr, db, &[])
    }

    /// Starts a server at `addr` with the database `db` and more options, and waits until
    /// it serves.
    pub fn on_with(addr: &str, db: &Path, options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_punct"))
            .args(["serve", "--addr", addr, "--db", db.to_str().unwrap()])
            .args(options)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stderr.take().unwrap()),
            &mut line,
        )
        .unwrap();
        assert!(line.contains("serving on"), "{line}");
        Server {
            child,
            addr: addr.to_owned(),
            db: db.to_owned(),
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Kills the server at once, as a crash would.
    pub fn kill(mut self) -> (String, std::path::PathBuf) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        (self.addr.clone(), self.db.clone())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request as a browser or a script would make it: the status, the body as JSON
/// (`null` when empty) and the cookies set.
pub fn http(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value, Vec<String>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = match body {
        Some(body) => agent.run(
            request
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .unwrap(),
        ),
        None => agent.run(request.body(()).unwrap()),
    }
    .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let cookies = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .collect();
    let text = response.body_mut().read_to_string().unwrap();
    let json = if text.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: {e} in {text}"))
    };
    (response.status().as_u16(), json, cookies)
}

/// Makes account `name` over HTTP as the sign-up page does and returns an API token made
/// with its session, as the account page does.
pub fn account_with_token(server: &str, name: &str) -> String {
    made_with_token(
        server,
        serde_json::json!({"username": name, "password": "a long secret of mine"}),
    )
}

/// Makes bot account `name` (signed up as one) and returns an API token of it.
pub fn bot_with_token(server: &str, name: &str) -> String {
    made_with_token(
        server,
        serde_json::json!({"username": name, "password": "a long secret of mine", "bot": true}),
    )
}

fn made_with_token(server: &str, sign_up: serde_json::Value) -> String {
    let (status, made, cookies) =
        http("POST", &format!("{server}/api/account"), &[], Some(sign_up));
    assert_eq!(status, 201, "{made}");
    let csrf = made["csrf"].as_str().unwrap();
    let cookie = cookies.join("; ");
    let (status, token, _) = http(
        "POST",
        &format!("{server}/api/account/tokens"),
        &[
            ("Cookie", &cookie),
            ("X-CSRF-Token", csrf),
            ("Origin", server),
        ],
        Some(serde_json::json!({"name": "terminal"})),
    );
    assert_eq!(status, 201, "{token}");
    token["token"].as_str().unwrap().to_owned()
}
