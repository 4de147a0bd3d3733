//! Registry credentials for image pulls, found where the kubelet and Docker find them.
//!
//! Two sources, both engine-neutral, each taking its input as plain data (the caller hands in
//! the pod's pull Secrets; the Docker config is read from the user's files):
//!
//! - [`from_pull_secrets`]: the pod's `imagePullSecrets`, matched to the image the way the
//!   kubelet's credential keyring does (`pkg/credentialprovider/keyring.go`): server keys may be
//!   URLs, may carry a path (`quay.io/coreos`) or globs in the host (`*.example.com`); the most
//!   specific key wins, and Docker Hub images fall back to the `index.docker.io` entry.
//! - [`from_docker_config`]: the user's `~/.docker/config.json`, read the way the Docker CLI
//!   reads it (`cli/config/configfile`): a per-registry `credHelpers` entry, else the
//!   `credsStore`, else the plain `auths` entries; helpers speak the docker-credential-helpers
//!   protocol.
//!
//! Nothing here prints a password or a token: [`Credentials`] has a redacting `Debug`, and every
//! error names the Secret, file, server or helper involved, never the data it held.
//!
//! Registry names are normalised as `distribution/reference`'s `splitDockerDomain` does (in
//! `manifest::image`, the one reader of image references).
//! Beyond the kubelet and the Docker CLI, `docker.io`, `index.docker.io` and
//! `registry-1.docker.io` are treated as one registry for credential keys (as
//! `containers/image`, Podman's library, does), since users write all three for Docker Hub.
//!
//! Files: `entries` (docker config
//! entries, shared by both sources), `keyring` and `glob` (the kubelet's key matching),
//! `pull_secrets`, `docker_config`, and `helper` (running a credential helper program).

mod docker_config;
mod entries;
mod glob;
mod helper;
mod keyring;
mod pull_secrets;

use std::fmt;

pub use docker_config::{docker_config_dir, from_docker_config};
pub use pull_secrets::{from_pull_secrets, PullSecret, SecretData};

/// Credentials for one registry. Debug never shows the password/token.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
    /// The server the credentials were stored for, as written there (a config key such as
    /// `https://index.docker.io/v1/`, or the address a helper was asked about).
    pub server: String,
    /// An identity (refresh) token, in place of a password (a helper's `<token>` user, or an
    /// `identitytoken` in the Docker config).
    pub identity_token: Option<String>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // Whether a secret is set at all helps debugging; what it is never does.
        let redact = |s: &str| if s.is_empty() { "" } else { "<redacted>" };
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &redact(&self.password))
            .field("server", &self.server)
            .field("identity_token", &self.identity_token.as_deref().map(redact))
            .finish()
    }
}

/// Why credentials could not be determined. Messages name where the data came from (Secret,
/// file, server key, helper), never the data. An I/O error is kept as the source; a JSON
/// error is not (serde's message quotes the value it met, which may be a secret): its
/// [`JsonProblem`], the value left out, is part of the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error(
        "image pull secret {namespace}/{name} has type {type_:?}; registry credentials need type \
         kubernetes.io/dockerconfigjson or kubernetes.io/dockercfg"
    )]
    SecretType { namespace: String, name: String, type_: String },
    #[error("image pull secret {namespace}/{name}: no {key:?} key")]
    SecretKey { namespace: String, name: String, key: String },
    #[error("image pull secret {namespace}/{name}: key {key:?} is not a docker config: {problem}")]
    SecretJson { namespace: String, name: String, key: String, problem: JsonProblem },
    #[error("image pull secret {namespace}/{name}: the entry for {server:?}: `auth` is not base64 of user:password")]
    SecretAuth { namespace: String, name: String, server: String },
    #[error("docker config {}: cannot read it", crate::escape::Escaped(path))]
    ConfigRead {
        path: String,
        #[source]
        source: super::Cause,
    },
    #[error("docker config {}: not a docker config: {problem}", crate::escape::Escaped(path))]
    ConfigJson { path: String, problem: JsonProblem },
    #[error(
        "docker config {}: the entry for {server:?}: `auth` is not base64 of user:password",
        crate::escape::Escaped(path)
    )]
    ConfigAuth { path: String, server: String },
    #[error("credential helper {helper}: not found on PATH")]
    HelperMissing { helper: String },
    #[error("credential helper {helper}: cannot run it")]
    HelperStart {
        helper: String,
        #[source]
        source: super::Cause,
    },
    #[error("credential helper {helper} failed ({status})")]
    HelperFailed { helper: String, status: String },
    #[error("credential helper {helper}: no answer within {seconds} s; killed")]
    HelperTimeout { helper: String, seconds: u64 },
    #[error("credential helper {helper}: unreadable answer: {problem}")]
    HelperOutput { helper: String, problem: JsonProblem },
}

/// A JSON error by position and kind only: serde's own message may quote the offending value,
/// which may be a password. `Empty`: there was no JSON at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonProblem {
    #[error("{what} at line {line} column {column}")]
    At { what: &'static str, line: usize, column: usize },
    #[error("no output")]
    Empty,
}

impl From<&serde_json::Error> for JsonProblem {
    fn from(e: &serde_json::Error) -> JsonProblem {
        let what = match e.classify() {
            serde_json::error::Category::Io => "unreadable",
            serde_json::error::Category::Syntax => "invalid JSON",
            serde_json::error::Category::Data => "unexpected JSON structure",
            serde_json::error::Category::Eof => "truncated JSON",
        };
        JsonProblem::At { what, line: e.line(), column: e.column() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASSWORD: &str = "hunter2-very-secret";

    #[test]
    fn debug_of_credentials_and_errors_never_shows_the_secret() {
        let creds = Credentials {
            username: "alice".into(),
            password: PASSWORD.into(),
            server: "r.io".into(),
            identity_token: Some("tok-very-secret".into()),
        };
        let debug = format!("{creds:?}");
        assert!(debug.contains("alice") && debug.contains("r.io") && debug.contains("<redacted>"), "{debug}");
        assert!(!debug.contains(PASSWORD) && !debug.contains("tok-very-secret"), "{debug}");
        let debug = format!("{:?}", Credentials { password: String::new(), identity_token: None, ..creds });
        assert!(!debug.contains("<redacted>"), "an empty password shows as empty: {debug}");
    }
}
