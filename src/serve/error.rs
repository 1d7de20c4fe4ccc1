//! What can go wrong in `comb serve`: starting it ([`ServeError`]), and one request
//! ([`ApiError`], answered with a 4xx status and `{"error": "…"}`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::fmt;

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// `--engine` not `NAME=CMD`, or a bad command.
    BadEngine(String),
    /// Two engines with one name.
    DuplicateEngine(String),
    /// The address could not be bound.
    Bind(String, std::io::Error),
    /// The runtime could not start or the server failed.
    Io(std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::BadEngine(m) => write!(f, "--engine {m}"),
            ServeError::DuplicateEngine(name) => write!(f, "--engine: the name `{name}` is given twice"),
            ServeError::Bind(addr, e) => write!(f, "cannot listen on {addr}: {e}"),
            ServeError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// A request that cannot be done; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// 400: the request is malformed or asks for something the rules refuse.
    BadRequest(String),
    /// 403: the request's Origin is not this server's.
    Forbidden(String),
    /// 404: no such game or file.
    NotFound(String),
    /// 409: the request is well formed but not now (not a person's turn, game over).
    Conflict(String),
    /// 413: the body is over the size limit.
    TooLarge(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        }
    }

    /// What is wrong, in words.
    pub fn message(&self) -> &str {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::Conflict(m)
            | ApiError::TooLarge(m) => m,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(serde_json::json!({ "error": self.message() }))).into_response()
    }
}
