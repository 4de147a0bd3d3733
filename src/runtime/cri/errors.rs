//! gRPC statuses as podrun's runtime errors, told apart by status code, never by message text.

use tonic::Code;

use crate::runtime::{Cause, RuntimeError, Unreachability};

/// `what` failed with `status`, at the runtime listening on `endpoint`.
pub fn of(endpoint: &str, what: &str, status: tonic::Status) -> RuntimeError {
    let what = what.to_owned();
    match status.code() {
        Code::NotFound => RuntimeError::NotFound { what },
        Code::AlreadyExists => RuntimeError::Conflict { what },
        Code::DeadlineExceeded => RuntimeError::Deadline { what },
        // No connection (the socket is gone, or refuses): the runtime is away.
        Code::Unavailable => RuntimeError::Unreachable {
            endpoint: endpoint.to_owned(),
            why: Unreachability::Connection(Cause(std::sync::Arc::new(status))),
        },
        code => RuntimeError::Engine { what, status: grpc_code(code), message: status.message().to_owned() },
    }
}

/// The gRPC code's number, where the Docker backend has an HTTP status.
pub fn grpc_code(code: Code) -> u16 {
    u16::try_from(i32::from(code)).unwrap_or(u16::MAX)
}
