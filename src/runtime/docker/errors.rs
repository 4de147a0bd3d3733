//! bollard's errors as [`RuntimeError`]s, told apart by HTTP status code.

use bollard::errors::Error as BollardError;

use super::DockerRuntime;
use std::sync::Arc;

use crate::runtime::{Cause, RuntimeError, Unreachability};

impl DockerRuntime {
    pub(super) fn error(&self, what: &str, e: BollardError) -> RuntimeError {
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
