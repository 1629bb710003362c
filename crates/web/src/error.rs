//! Errors: the server's (binding) and the API's (a status and a message for the page).

use std::net::SocketAddr;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {reason}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The system's reason (kept out of the error chain: the message already says it).
        reason: std::io::Error,
    },
    /// Any other I/O failure of the runtime or the socket.
    #[error("server I/O: {0}")]
    Io(std::io::Error),
}

/// A request the server refuses: the status and a message saying what was wrong, sent as
/// `{"error": message}`, with `"field": name` when one field of the request is to blame (the
/// page shows the message beside it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status (4xx for bad input).
    pub status: StatusCode,
    /// What was wrong and where, in the player's words.
    pub message: String,
    /// The request field at fault, if one is.
    pub field: Option<&'static str>,
}

impl ApiError {
    /// A 400 Bad Request with `message`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            field: None,
        }
    }

    /// A 400 Bad Request blaming the request field `field`.
    pub fn field(field: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            field: Some(field),
        }
    }

    /// The same error blaming `field`.
    #[must_use]
    pub fn on(mut self, field: &'static str) -> Self {
        self.field = Some(field);
        self
    }

    /// A body the server could not read (too large, cut off), in words.
    pub fn from_body_rejection(rejection: &axum::extract::rejection::BytesRejection) -> Self {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!(
                "the upload is too large: at most {} MiB",
                crate::MAX_UPLOAD_BYTES / (1024 * 1024)
            )
        } else {
            format!("the request could not be read: {}", rejection.body_text())
        };
        ApiError {
            status,
            message,
            field: None,
        }
    }

    /// A 404 Not Found with `message`.
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
            field: None,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.field {
            Some(field) => serde_json::json!({ "error": self.message, "field": field }),
            None => serde_json::json!({ "error": self.message }),
        };
        (self.status, Json(body)).into_response()
    }
}
