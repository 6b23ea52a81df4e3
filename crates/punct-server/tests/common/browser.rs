//! A browser of the tests' as the server sees one: it keeps the session cookie and the CSRF
//! token the server sets, and sends them, with our `Origin`, on every request.

use reqwest::Method;
use serde_json::{Value, json};

/// The password of the tests' accounts.
pub const PASSWORD: &str = "a long walk in the hills";

/// An answer: its status, its `Retry-After` and its JSON body (or its text, as a JSON
/// string).
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The `Retry-After` header, if any.
    pub retry_after: Option<String>,
    /// The body.
    pub body: Value,
}

/// A browser: its session cookie and CSRF token, once the server has set them.
pub struct Browser {
    /// The server, `http://host:port`.
    pub base: String,
    /// The `punct_session` cookie.
    pub session: Option<String>,
    /// The `punct_csrf` token.
    pub csrf: Option<String>,
}

impl Browser {
    /// A browser that has not signed in.
    pub fn anonymous(base: &str) -> Browser {
        Browser {
            base: base.to_owned(),
            session: None,
            csrf: None,
        }
    }

    /// A browser that has just signed up as `name`, with [`PASSWORD`].
    pub async fn signed_up(base: &str, name: &str) -> Browser {
        let mut b = Browser::anonymous(base);
        let body = json!({ "username": name, "password": PASSWORD });
        let (status, made) = b.send(Method::POST, "/api/account", Some(body)).await;
        assert_eq!(status, 201, "{made}");
        assert!(b.session.is_some() && b.csrf.is_some(), "{made}");
        b
    }

    /// Sends a request, keeping the cookies it sets; the answer's status and its JSON (or
    /// its text, as a JSON string).
    pub async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let answer = self.request(method, path, body, None).await;
        (answer.status, answer.body)
    }

    /// Sends a request, with the seat `token` as `Authorization: Bearer` if given, keeping
    /// the cookies it sets (a cookie set empty is gone).
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> Answer {
        let mut req = reqwest::Client::new()
            .request(method, format!("{}{path}", self.base))
            .header("origin", &self.base);
        if let Some(s) = &self.session {
            req = req.header("cookie", format!("punct_session={s}"));
        }
        if let Some(c) = &self.csrf {
            req = req.header("x-csrf-token", c);
        }
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("the server answers");
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_owned());
        for c in resp.headers().get_all(reqwest::header::SET_COOKIE) {
            let (pair, _) = c.to_str().unwrap().split_once(';').unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            let value = (!value.is_empty()).then(|| value.to_owned());
            match name {
                "punct_session" => self.session = value,
                "punct_csrf" => self.csrf = value,
                _ => {}
            }
        }
        let text = resp.text().await.unwrap();
        Answer {
            status,
            retry_after,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
        }
    }

    /// `POST`s `body` to `path`.
    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::POST, path, Some(body)).await
    }

    /// `GET`s `path`.
    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send(Method::GET, path, None).await
    }
}
