//! bollard's errors as [`RuntimeError`]s, told apart by HTTP status code.

use bollard::errors::Error as BollardError;

use super::guard::Refusal;
use super::DockerRuntime;
use std::sync::Arc;

use crate::runtime::{Cause, RuntimeError, Unreachability};

impl DockerRuntime {
    pub(super) fn error(&self, what: &str, e: BollardError) -> RuntimeError {
        if let Some(refusal) = refusal_in(&e) {
            return RuntimeError::Unreachable {
                endpoint: self.endpoint.to_string(),
                why: Unreachability::Connection(Cause(Arc::new(refusal))),
            };
        }
        match e {
            BollardError::DockerResponseServerError { status_code: 404, .. } => {
                RuntimeError::NotFound { what: what.to_owned() }
            }
            BollardError::DockerResponseServerError { status_code: 409, .. } => {
                RuntimeError::Conflict { what: what.to_owned() }
            }
            BollardError::DockerResponseServerError { status_code, message } => {
                RuntimeError::Engine { what: what.to_owned(), status: status_code, message }
            }
            // No connection, or one broken in the middle of an answer (an engine going away
            // while it answers): the engine is unreachable, whatever the request was.
            BollardError::IOError { .. }
            | BollardError::HyperLegacyError { .. }
            | BollardError::HyperResponseError { .. }
            | BollardError::SocketNotFoundError(_)
            | BollardError::RequestTimeoutError => RuntimeError::Unreachable {
                endpoint: self.endpoint.to_string(),
                why: Unreachability::Client(Cause(Arc::new(e))),
            },
            other => RuntimeError::Client { what: what.to_owned(), source: Cause(Arc::new(other)) },
        }
    }

    pub(super) fn status_of(e: &BollardError) -> Option<u16> {
        match e {
            BollardError::DockerResponseServerError { status_code, .. } => Some(*status_code),
            _ => None,
        }
    }
}

/// The cap an answer broke ([`super::guard`]), if that is why the request failed: hyper and bollard
/// wrap it in errors of their own, whose words say less.
fn refusal_in(e: &BollardError) -> Option<Refusal> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        let found =
            c.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref()).and_then(|r| r.downcast_ref::<Refusal>());
        if let Some(refusal) = found.or_else(|| c.downcast_ref::<Refusal>()) {
            return Some(refusal.clone());
        }
        cause = c.source();
    }
    None
}
