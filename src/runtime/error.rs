//! What can go wrong with the engine, as code tells it apart.
//!
//! The reasons inside [`RuntimeError::Unreachable`], `Unsupported` and `Protocol` are part of
//! their message rather than its `source`: callers print these errors both with and without
//! their chain, and the reason must show either way.

use std::sync::Arc;
use std::time::Duration;

use super::labels;
use crate::error_chain::{distinct, Chain};

/// What went wrong with the engine. Code decides by the variant (an unreachable engine ends a
/// run; `NotFound`, `Conflict` and `Engine` come from the engine's HTTP status), never by text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    #[error("cannot reach the container engine at {}: {why}", crate::escape::Escaped(endpoint))]
    Unreachable { endpoint: String, why: Unreachability },
    #[error("{what}: not found")]
    NotFound { what: String },
    #[error("{what}: already exists")]
    Conflict { what: String },
    /// The engine or registry refused the pull; `detail` is what it said.
    #[error("image {image}: {detail}")]
    Image { image: String, detail: String },
    /// The image is not there, and imagePullPolicy Never forbids pulling it.
    #[error("{image}: the image is not present and imagePullPolicy is Never")]
    ImageNeverPull { image: String },
    /// The image is present, but imagePullPolicy Never forbids the pull that would show the pod
    /// may use it (it was pulled with credentials the pod does not have).
    #[error(
        "{image}: the image is present, but the pod does not have the credentials that pulled it, and \
         imagePullPolicy Never forbids pulling it with its own"
    )]
    ImageNeverPullUnverified { image: String },
    /// The registry answered that there is no such image (or tag): pulling again cannot help.
    #[error("image {image}: not found: {detail}")]
    ImageNotFound { image: String, detail: String },
    /// The registry refused the credentials given (HTTP 401/403 to the engine): pulling again
    /// with the same credentials cannot help.
    #[error("image {image}: access denied: {detail}")]
    ImageDenied { image: String, detail: String },
    /// The registry could not be reached at all (no answer, as opposed to "not found").
    #[error("image {image}: registry unreachable: {detail}")]
    RegistryUnreachable { image: String, detail: String },
    /// The CRI runtime's own sandbox (pause) image is absent and could not be pulled.
    #[error(
        "the runtime's sandbox image {image} is not present and cannot be pulled ({detail}); import it into the \
         runtime (containerd: ctr -n k8s.io images import pause.tar) or point the runtime's sandbox_image at an \
         image it has"
    )]
    SandboxImage { image: String, detail: String },
    #[error("{what}: the engine answered {status}: {message}")]
    Engine { what: String, status: u16, message: String },
    /// The name podrun gives a container is held by one podrun cannot prove it made (no valid
    /// seal): an older podrun's, another state directory's, or someone else's.
    #[error(
        "{what}: the name {name} is taken by a container podrun did not make (it has no valid {} label); \
         remove it (docker rm -f {name}) if it is yours to remove",
        labels::SEAL
    )]
    NameTaken { what: String, name: String },
    #[error("{what}: refusing to touch container {id}: it was not created by podrun")]
    NotOwned { what: String, id: String },
    /// A volume podrun did not create (no seal of its key): podrun never removes data it did not
    /// create.
    #[error("remove volume {name}: refusing: it was not created by podrun (it has no valid {} label)", labels::SEAL)]
    VolumeNotOwned { name: String },
    /// The engine cannot do what is asked (its API is too old for it, say).
    #[error("{what}: {why}")]
    Unsupported { what: String, why: NotSupported },
    /// The engine did not answer before the run's deadline (`--timeout`): see `bounded`.
    #[error("{what}: no answer from the engine by the deadline")]
    Deadline { what: String },
    /// The engine answered, but not as its API says it would.
    #[error("{what}: {why}")]
    Protocol { what: String, why: BadAnswer },
    /// The client failed in a way that is none of the above (an answer it could not decode,
    /// say); the client's error is the source.
    #[error("{what}")]
    Client {
        what: String,
        #[source]
        source: Cause,
    },
}

/// The error of a library or the OS behind a [`RuntimeError`] or an `AuthError`: shared, as
/// those are cloned into outcomes, and equal only to itself. It ends the chain: bollard's
/// messages already say their own cause (`Unable to URLEncode: ...`) while also giving it as
/// their source, so following it would print the cause twice.
#[derive(Debug, Clone)]
pub struct Cause(pub Arc<dyn std::error::Error + Send + Sync>);

impl PartialEq for Cause {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cause {}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Cause {}

/// Why the engine could not be reached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreachability {
    /// The endpoint cannot be dialled as written (an address podrun cannot use, TLS files that
    /// do not load, an ssh URL the Docker CLI refuses), with its causes.
    #[error("{}", Chain(.0.0.as_ref()))]
    Endpoint(Cause),
    /// The engine took the connection but did not answer the first request in time.
    #[error("no answer within {}s", .0.as_secs())]
    NoAnswer(Duration),
    /// What refused, in words the transport found for it (which TLS side, what ssh said).
    #[error("{0}")]
    Refused(String),
    /// The connection failed: the error's own words.
    #[error("{0}")]
    Connection(Cause),
    /// A request failed for want of an engine: the client's error with each of its causes once
    /// (its own text often leaves out the one that matters, a refused connection, a closed
    /// stream).
    #[error("{}", distinct(.0.0.as_ref()))]
    Client(Cause),
    /// Still unreachable at the run's deadline, after an outage of `away_for`.
    #[error("{why} (gone for {away_for}, and still unreachable at the deadline)")]
    AtDeadline { why: Box<Unreachability>, away_for: String },
}

/// What the engine lacks for a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotSupported {
    /// A container of a pod in a user namespace of its own, whose sandbox records none.
    #[error("the pod's sandbox has no user namespace for the container to join")]
    NoUserNamespace,
    #[error("the engine cannot change a running container's resources in place")]
    Resize,
    #[error(
        "the mount at {target} must be recursively read-only, which needs Docker API {}.{} (Engine 25) or later; \
         this engine speaks {}.{}",
        .needs.0,
        .needs.1,
        .speaks.0,
        .speaks.1
    )]
    RecursiveReadOnly { target: String, needs: (usize, usize), speaks: (usize, usize) },
    /// A CRI runtime takes a Localhost seccomp profile by its path on the node, which podrun
    /// does not hand out.
    #[error("a Localhost seccomp profile is not supported on a CRI runtime (use RuntimeDefault or Unconfined)")]
    CriLocalhostSeccomp,
    /// What the CRI has no call for.
    #[error("a CRI runtime cannot {0}")]
    Cri(&'static str),
}

/// How an engine's answer is not what its API says it would be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadAnswer {
    #[error("the engine's API version {0:?} is not MAJOR.MINOR")]
    ApiVersion(String),
    #[error("the engine's answer is not JSON: {0}")]
    NotJson(Cause),
    #[error("the engine accepted the archive, but has no image {0}")]
    NoImage(String),
    #[error("the engine did not attach to the command")]
    NotAttached,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reasons_read_as_the_engine_messages_always_have() {
        let unsupported = RuntimeError::Unsupported {
            what: "create container c".into(),
            why: NotSupported::RecursiveReadOnly { target: "/data".into(), needs: (1, 44), speaks: (1, 41) },
        };
        assert_eq!(
            unsupported.to_string(),
            "create container c: the mount at /data must be recursively read-only, which needs Docker API 1.44 \
             (Engine 25) or later; this engine speaks 1.41"
        );
        let unreachable = |why| RuntimeError::Unreachable { endpoint: "unix:///x.sock".into(), why };
        let gone = unreachable(Unreachability::AtDeadline {
            why: Box::new(Unreachability::NoAnswer(Duration::from_secs(30))),
            away_for: "5s".into(),
        });
        assert_eq!(
            gone.to_string(),
            "cannot reach the container engine at unix:///x.sock: no answer within 30s (gone for 5s, and still \
             unreachable at the deadline)"
        );
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let e = unreachable(Unreachability::Connection(Cause(Arc::new(refused))));
        assert_eq!(e.to_string(), "cannot reach the container engine at unix:///x.sock: connection refused");
        let bad = RuntimeError::Protocol { what: "engine version".into(), why: BadAnswer::ApiVersion("x".into()) };
        assert_eq!(bad.to_string(), "engine version: the engine's API version \"x\" is not MAJOR.MINOR");
    }
}
