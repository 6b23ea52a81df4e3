//! `POST /api/import` and `POST /api/record`: game records in and out (API.md). The
//! reading and writing are [`crate::records::import`]'s and [`crate::records::export`]'s; this is their HTTP.

use std::sync::Arc;

use axum::Extension;
use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::extract::parse;
use super::positions::TextRequest;
use crate::error::Error;
use crate::http::error::ApiError;
use crate::http::json_only::is_zip;
use crate::records::export::{self, RecordRequest};
use crate::records::import::{self, Imported};
use crate::wire::error::Refusal;
use crate::wire::records::ImportAnswer;

/// How many reasons a refusal of an import that read nothing quotes.
const REASONS_QUOTED: usize = 3;

/// Imports read at once by one server. The largest takes a core for about a sixth of a
/// second (500 games replayed and written out), so more are refused (503) rather than
/// queued: a stranger cannot take the cores that games need.
const READERS: usize = 2;

/// The permits to read imports, one set per server (an extension of the import route).
#[derive(Clone)]
pub(super) struct Readers(Arc<Semaphore>);

impl Readers {
    pub(super) fn new() -> Readers {
        Readers(Arc::new(Semaphore::new(READERS)))
    }
}

/// Reads the games of a text (`{"text"}`) or of a `.zip` archive (the raw body). Answers
/// the games read and those skipped, each with the reason; refuses (400) an import of
/// which no game could be read, quoting why.
pub(super) async fn import(
    Extension(readers): Extension<Readers>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let zip = headers.get(header::CONTENT_TYPE).is_some_and(is_zip);
    let text = if zip {
        None
    } else {
        let req: TextRequest = parse(&body)?;
        Some(req.text.or(req.position).ok_or_else(|| {
            ApiError::bad_request("missing `text` (a record, an SGF file or a position text)")
        })?)
    };
    let _permit = readers
        .0
        .try_acquire()
        .map_err(|_| Error::busy("the server is reading other imports: try again in a moment"))?;
    // Reading replays every game by the rules and may unpack an archive, and the answer
    // holds every position of every game: off the async workers.
    let answer = tokio::task::spawn_blocking(move || {
        let imported = match text {
            Some(text) => import::from_text(&text),
            None => import::from_zip(&body)?,
        };
        if imported.games.is_empty() {
            return Err(nothing_read(&imported));
        }
        serde_json::to_vec(&ImportAnswer::of(&imported))
            .map_err(|e| Error::internal(format!("the import's answer failed: {e}")).into())
    })
    .await
    .map_err(|e| Error::internal(format!("the import failed: {e}")))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
}

fn nothing_read(imported: &Imported) -> ApiError {
    let mut reasons: Vec<String> = imported
        .skipped
        .iter()
        .take(REASONS_QUOTED)
        .map(|s| match &s.file {
            Some(file) => format!("game {} ({file}): {}", s.game, s.reason),
            None if imported.skipped.len() == 1 => s.reason.clone(),
            None => format!("game {}: {}", s.game, s.reason),
        })
        .collect();
    if imported.skipped.len() > REASONS_QUOTED {
        reasons.push(format!(
            "and {} more",
            imported.skipped.len() - REASONS_QUOTED
        ));
    }
    if reasons.is_empty() {
        reasons.push("the archive holds no file".into());
    }
    let refusal = match imported.skipped.first() {
        Some(first) => Refusal::NothingRead {
            first: first.why.clone(),
        },
        None => Refusal::EmptyArchive,
    };
    ApiError {
        refusal: Some(Box::new(refusal)),
        ..ApiError::bad_request(format!("no game could be read: {}", reasons.join("; ")))
    }
}

/// Writes the record of a game the page holds, as `text/plain`.
pub(super) async fn record(body: Bytes) -> Result<Response, ApiError> {
    let req: RecordRequest = parse(&body)?;
    let text = export::write(&req)?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn imports_past_the_readers_are_refused_not_queued() {
        let readers = Readers::new();
        let held = readers.0.try_acquire_many(READERS as u32).unwrap();
        let body = Bytes::from_static(br#"{"text": "standard w 0 -"}"#);
        let refusal = import(Extension(readers.clone()), HeaderMap::new(), body.clone())
            .await
            .unwrap_err();
        assert_eq!(refusal.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(refusal.reason.contains("try again"), "{}", refusal.reason);
        drop(held);
        assert!(
            import(Extension(readers), HeaderMap::new(), body)
                .await
                .is_ok()
        );
    }
}
