//! API writes take only JSON. A form on another site can POST here with the visitor's
//! browser (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`, or no
//! type for a raw body) without asking; a JSON content type needs the browser to ask first,
//! which this server never grants. So a POST under `/api/` with a body must say
//! `Content-Type: application/json`, and any other content type is refused with 415,
//! before anything is done. A POST with neither body nor content type (an action without
//! fields, from curl) is let through. `POST /api/import` also takes a `.zip` archive as its
//! raw body, typed `application/zip` (or `application/x-zip-compressed`, as Windows names
//! it): no form can send those types either, so they need the same permission.

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;
use crate::http::request_body::IMPORT_PATH;

/// The middleware: refuses API writes that are not JSON.
pub(crate) async fn require_json(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if request.method() == Method::POST
        && path.starts_with("/api/")
        && let Err(refusal) = check(path, request.headers())
    {
        return refusal.into_response();
    }
    next.run(request).await
}

fn check(path: &str, headers: &HeaderMap) -> Result<(), ApiError> {
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
            .is_some_and(|length| length > 0);
    match headers.get(header::CONTENT_TYPE) {
        None if has_body => Err(refused(
            "a request body needs `Content-Type: application/json`".into(),
        )),
        None => Ok(()),
        Some(v) if is_json(v) => Ok(()),
        Some(v) if path == IMPORT_PATH && is_zip(v) => Ok(()),
        Some(v) => Err(refused(format!(
            "the API takes only JSON: send `Content-Type: application/json`, not `{}`",
            String::from_utf8_lossy(v.as_bytes())
        ))),
    }
}

fn refused(reason: String) -> ApiError {
    ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, reason)
}

/// `application/json`, in any case, with or without parameters (`; charset=utf-8`).
fn is_json(content_type: &HeaderValue) -> bool {
    essence_is(content_type, &["application/json"])
}

/// A `.zip` archive's type, as browsers name it.
pub(crate) fn is_zip(content_type: &HeaderValue) -> bool {
    essence_is(
        content_type,
        &["application/zip", "application/x-zip-compressed"],
    )
}

/// Whether the type, without its parameters, is one of `types` (in any case).
fn essence_is(content_type: &HeaderValue, types: &[&str]) -> bool {
    content_type
        .to_str()
        .ok()
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| types.iter().any(|t| essence.trim().eq_ignore_ascii_case(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    k.parse::<axum::http::HeaderName>().unwrap(),
                    HeaderValue::from_static(v),
                )
            })
            .collect()
    }

    #[test]
    fn json_passes_in_any_case_and_with_parameters() {
        for ty in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
        ] {
            assert!(
                check(
                    "/api/games",
                    &headers(&[("content-type", ty), ("content-length", "2")])
                )
                .is_ok(),
                "{ty}"
            );
        }
    }

    #[test]
    fn other_types_and_untyped_bodies_are_refused() {
        for pairs in [
            &[("content-type", "text/plain"), ("content-length", "20")][..],
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("content-length", "0"),
            ],
            &[("content-type", "multipart/form-data; boundary=x")],
            &[("content-type", "application/jsonp")],
            &[("content-length", "20")],
            &[("transfer-encoding", "chunked")],
        ] {
            let refusal = check("/api/import", &headers(pairs)).unwrap_err();
            assert_eq!(
                refusal.status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{pairs:?}"
            );
            assert!(refusal.reason.contains("application/json"), "{pairs:?}");
        }
    }

    #[test]
    fn no_body_and_no_type_passes() {
        assert!(check("/api/games", &headers(&[])).is_ok());
        assert!(check("/api/games", &headers(&[("content-length", "0")])).is_ok());
    }

    #[test]
    fn archives_pass_only_where_games_are_imported() {
        for ty in ["application/zip", "Application/X-Zip-Compressed"] {
            let pairs = [("content-type", ty), ("content-length", "20")];
            assert!(check("/api/import", &headers(&pairs)).is_ok(), "{ty}");
            let refusal = check("/api/games", &headers(&pairs)).unwrap_err();
            assert_eq!(refusal.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ty}");
        }
    }
}
