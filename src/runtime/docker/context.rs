//! Which engine to talk to, chosen as the Docker CLI chooses it (`cli/command/cli.go`,
//! `resolveContextName`), Docker contexts included:
//!
//! 1. `--context NAME` (together with `--host` it is a usage error);
//! 2. `--host ADDRESS`;
//! 3. DOCKER_HOST;
//! 4. DOCKER_CONTEXT;
//! 5. `currentContext` in the Docker config file (`$DOCKER_CONFIG/config.json`, else
//!    `~/.docker/config.json`);
//! 6. the default socket; when it is missing, an ordinary user's rootless Podman at
//!    `$XDG_RUNTIME_DIR/podman/podman.sock` if that is there ([`user_podman`]).
//!
//! The context named `default` is DOCKER_HOST, else the default socket. Any other context is
//! `<configdir>/contexts/meta/<sha256 of the name>/meta.json`, found here by the `Name` it
//! holds; its TLS material, if any, is in `<configdir>/contexts/tls/<same dir>/docker/`
//! (ca.pem, cert.pem, key.pem, each optional, as `docker context create --docker ca=...` writes
//! them), and `SkipTLSVerify` in its meta.json turns off the check of the engine's certificate
//! (`cli/context/docker/load.go`). An endpoint without a context gets its TLS settings as the
//! Docker CLI's `cli/flags/options.go` has them: TLS on with `--tls`, `--tlsverify`, DOCKER_TLS
//! or DOCKER_TLS_VERIFY (verified unless only `--tls`/DOCKER_TLS), files from `--tlscacert`,
//! `--tlscert`, `--tlskey`, else ca.pem, cert.pem and key.pem in DOCKER_CERT_PATH (default: the
//! Docker config directory). TLS applies to `tcp://` endpoints; sockets and `ssh://` ignore it.
//! [`resolve`] is pure (its inputs are arguments); [`resolve_from_env`] feeds it the process's
//! environment.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::tls::TlsFiles;
use super::DEFAULT_HOST;
use crate::runtime::auth::{self, JsonProblem};

/// The name of the context that stands for DOCKER_HOST or the default socket.
pub const DEFAULT_CONTEXT: &str = "default";
/// Files of a context's TLS material for its docker endpoint (`docker context create --docker
/// ca=...,cert=...,key=...`).
const TLS_FILES: [&str; 3] = ["ca.pem", "cert.pem", "key.pem"];

/// The engine address podrun connects to, the context it came from (None: `--host`,
/// DOCKER_HOST, or the default socket), and its TLS material (None: no TLS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub host: String,
    pub context: Option<String>,
    pub tls: Option<TlsFiles>,
}

impl Endpoint {
    #[cfg(test)]
    pub fn host(host: impl Into<String>) -> Endpoint {
        Endpoint { host: host.into(), context: None, tls: None }
    }
}

/// TLS as the command line and the environment ask for it, for an endpoint that is not a
/// context's: `--tls`/DOCKER_TLS, `--tlsverify`/DOCKER_TLS_VERIFY, the three file flags, and
/// DOCKER_CERT_PATH.
#[derive(Debug, Clone, Copy, Default)]
pub struct TlsOptions<'a> {
    pub tls: bool,
    pub verify: bool,
    pub cacert: Option<&'a str>,
    pub cert: Option<&'a str>,
    pub key: Option<&'a str>,
    /// DOCKER_CERT_PATH (None: the Docker config directory).
    pub cert_path: Option<&'a Path>,
}

impl TlsOptions<'_> {
    /// The files for an endpoint at `host` without a context; None when TLS is off or `host` is
    /// not a TCP address. A default cert.pem or key.pem that does not exist is left out, as the
    /// Docker CLI does; a CA is read only when the engine's certificate is verified.
    fn files(&self, host: &str, config_dir: Option<&Path>) -> Option<TlsFiles> {
        if !(self.tls || self.verify) || !is_tcp(host) {
            return None;
        }
        let dir = self.cert_path.or(config_dir);
        let file = |flag: Option<&str>, name: &str, only_if_present: bool| match flag.filter(|f| !f.is_empty()) {
            Some(f) => Some(PathBuf::from(f)),
            None => dir.map(|d| d.join(name)).filter(|p| !only_if_present || p.exists()),
        };
        Some(TlsFiles {
            ca: if self.verify { file(self.cacert, "ca.pem", false) } else { None },
            cert: file(self.cert, "cert.pem", true),
            key: file(self.key, "key.pem", true),
            verify: self.verify,
        })
    }
}

/// A TCP address, where TLS applies (not a socket, not SSH).
fn is_tcp(host: &str) -> bool {
    host.starts_with("tcp://") || host.starts_with("http://") || host.starts_with("https://")
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.context {
            Some(name) => write!(f, "{} (context \"{name}\")", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// Everything the choice depends on. Empty strings count as unset, as in the Docker CLI.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sources<'a> {
    /// `--context`
    pub context_flag: Option<&'a str>,
    /// `--host`
    pub host_flag: Option<&'a str>,
    /// DOCKER_HOST
    pub docker_host: Option<&'a str>,
    /// DOCKER_CONTEXT
    pub docker_context: Option<&'a str>,
    /// The Docker config directory (None: neither DOCKER_CONFIG nor HOME is set).
    pub config_dir: Option<&'a Path>,
    /// TLS for an endpoint that is not a context's.
    pub tls: TlsOptions<'a>,
}

/// Why no endpoint could be chosen. [`ContextError::Unsupported`] is exit 3, like any engine
/// podrun cannot reach (`--host npipe://...` included); the others are usage errors, exit 2.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    #[error("conflicting options: either specify --host or --context, not both")]
    Conflict,
    #[error("context \"{name}\" does not exist ({origin}; {why})")]
    NotFound { name: String, origin: String, why: Absence },
    #[error("context \"{name}\" ({file}): {why}")]
    Invalid { name: String, file: String, why: &'static str },
    #[error(
        "context \"{name}\" ({file}): endpoint {host}: {why} (podrun speaks to unix://, tcp:// (plain or TLS) \
         and ssh:// endpoints)"
    )]
    Unsupported { name: String, file: String, host: String, why: &'static str },
}

/// Why no context of the name was found, part of [`ContextError::NotFound`]'s message.
#[derive(Debug, thiserror::Error)]
pub enum Absence {
    #[error("there is no Docker config directory: neither DOCKER_CONFIG nor HOME is set")]
    NoConfigDir,
    #[error("there is no {}", .0.display())]
    NoMetaDir(PathBuf),
    #[error("{}: {error}", dir.display())]
    MetaDirUnreadable { dir: PathBuf, error: std::io::Error },
    /// No `meta.json` under `pattern` names it; `unreadable` are those that could not be read
    /// (one of them may be the context asked for).
    #[error("no {} names it{}", pattern.display(), Unreadable(unreadable))]
    Unnamed { pattern: PathBuf, unreadable: Vec<(PathBuf, MetaError)> },
}

/// A context's `meta.json` that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MetaError {
    #[error("{0}")]
    Read(std::io::Error),
    #[error("{0}")]
    Json(JsonProblem),
}

/// `; unreadable: a: why, b: why`, or nothing when every file was read.
struct Unreadable<'a>(&'a [(PathBuf, MetaError)]);

impl std::fmt::Display for Unreadable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        for (i, (file, why)) in self.0.iter().enumerate() {
            f.write_str(if i == 0 { "; unreadable: " } else { ", " })?;
            write!(f, "{}: {why}", file.display())?;
        }
        Ok(())
    }
}

/// The endpoint for `--context` and `--host` as given, the process's DOCKER_HOST and
/// DOCKER_CONTEXT, and the Docker config directory ([`auth::docker_config_dir`]); TLS from
/// DOCKER_TLS, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH only (the tests' engine).
#[cfg(test)]
pub fn resolve_from_env(context_flag: Option<&str>, host_flag: Option<&str>) -> Result<Endpoint, ContextError> {
    resolve_with_tls(context_flag, host_flag, TlsOptions::default())
}

/// [`resolve_from_env`] with TLS flags: `flags.tls` and `flags.verify` are `--tls` and
/// `--tlsverify` (DOCKER_TLS and DOCKER_TLS_VERIFY, when not empty, turn them on too), and
/// `flags.cert_path` is ignored for DOCKER_CERT_PATH.
pub fn resolve_with_tls(
    context_flag: Option<&str>,
    host_flag: Option<&str>,
    flags: TlsOptions,
) -> Result<Endpoint, ContextError> {
    let docker_host = std::env::var("DOCKER_HOST").ok();
    let docker_context = std::env::var("DOCKER_CONTEXT").ok();
    let config_dir = auth::docker_config_dir();
    let env_set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let cert_path = std::env::var_os("DOCKER_CERT_PATH").filter(|v| !v.is_empty()).map(PathBuf::from);
    let tls = TlsOptions {
        tls: flags.tls || env_set("DOCKER_TLS"),
        verify: flags.verify || env_set("DOCKER_TLS_VERIFY"),
        cert_path: cert_path.as_deref(),
        ..flags
    };
    let endpoint = resolve(&Sources {
        context_flag,
        host_flag,
        docker_host: docker_host.as_deref(),
        docker_context: docker_context.as_deref(),
        config_dir: config_dir.as_deref(),
        tls,
    })?;
    let named = [host_flag, docker_host.as_deref()].into_iter().flatten().any(|h| !h.is_empty());
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    Ok(user_podman(endpoint, named, runtime_dir.as_deref(), |p| p.exists()))
}

/// The endpoint, or, when it is the default socket only because nothing named an engine
/// (`named`: `--host` or DOCKER_HOST was given) and that socket is missing, the user's rootless
/// Podman service at `<runtime_dir>/podman/podman.sock` (where its `podman.socket` unit
/// listens), if that exists. A user with rootless Podman and no Docker then needs no setup.
pub fn user_podman(
    endpoint: Endpoint,
    named: bool,
    runtime_dir: Option<&Path>,
    exists: impl Fn(&Path) -> bool,
) -> Endpoint {
    let default_socket = DEFAULT_HOST.trim_start_matches("unix://");
    if named || endpoint.context.is_some() || endpoint.host != DEFAULT_HOST || exists(Path::new(default_socket)) {
        return endpoint;
    }
    match runtime_dir.filter(|d| d.is_absolute()).map(|d| d.join("podman").join("podman.sock")) {
        Some(socket) if exists(&socket) => {
            Endpoint { host: format!("unix://{}", socket.display()), context: None, tls: None }
        }
        _ => endpoint,
    }
}

/// The system Podman service's socket (`podman.socket` of root), where Podman's packages put it.
pub const SYSTEM_PODMAN_SOCKET: &str = "/run/podman/podman.sock";

/// The default endpoint, or, for root, the system Podman service when its socket is there. The
/// caller asks only when nothing named an engine and neither Docker's nor a CRI runtime's socket
/// is there. Another user cannot use root's Podman, so for them the default stays (and its
/// error names Docker's socket).
pub fn system_podman(endpoint: Endpoint, root: bool, socket_exists: impl Fn(&str) -> bool) -> Endpoint {
    if root && endpoint.host == DEFAULT_HOST && endpoint.context.is_none() && socket_exists(SYSTEM_PODMAN_SOCKET) {
        return Endpoint { host: format!("unix://{SYSTEM_PODMAN_SOCKET}"), context: None, tls: None };
    }
    endpoint
}

/// Where a context name came from, for the error when it names no context.
enum Origin {
    Flag,
    Env,
    Config(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag => f.write_str("given by --context"),
            Origin::Env => f.write_str("given by DOCKER_CONTEXT"),
            Origin::Config(path) => write!(f, "the currentContext of {}", path.display()),
        }
    }
}

/// `--context` and `--host` together are wrong usage, whether or not the command connects (as
/// in the Docker CLI, which checks before it runs any command).
pub fn check_flags(context_flag: Option<&str>, host_flag: Option<&str>) -> Result<(), ContextError> {
    let set = |v: Option<&str>| v.is_some_and(|v| !v.is_empty());
    if set(context_flag) && set(host_flag) {
        return Err(ContextError::Conflict);
    }
    Ok(())
}

/// The endpoint `sources` select, in the Docker CLI's order (see the module documentation).
pub fn resolve(sources: &Sources) -> Result<Endpoint, ContextError> {
    check_flags(sources.context_flag, sources.host_flag)?;
    let set = |v: Option<&str>| v.filter(|v| !v.is_empty()).map(str::to_owned);
    let (context_flag, host_flag) = (set(sources.context_flag), set(sources.host_flag));
    let docker_host = set(sources.docker_host);
    let with_tls = |host: String| {
        let tls = sources.tls.files(&host, sources.config_dir);
        Endpoint { host, context: None, tls }
    };
    let default = || with_tls(docker_host.clone().unwrap_or_else(|| DEFAULT_HOST.to_owned()));

    let (name, origin) = match (context_flag, host_flag) {
        (Some(name), _) => (name, Origin::Flag),
        (None, Some(host)) => return Ok(with_tls(host)),
        (None, None) if docker_host.is_some() => return Ok(default()),
        (None, None) => match (set(sources.docker_context), sources.config_dir) {
            (Some(name), _) => (name, Origin::Env),
            (None, Some(dir)) => match current_context(dir) {
                Some(name) => (name, Origin::Config(dir.join("config.json"))),
                None => return Ok(default()),
            },
            (None, None) => return Ok(default()),
        },
    };
    if name == DEFAULT_CONTEXT {
        return Ok(default());
    }
    let Some(dir) = sources.config_dir else {
        return Err(ContextError::NotFound { name, origin: origin.to_string(), why: Absence::NoConfigDir });
    };
    load(dir, &name, &origin)
}

/// The part of the Docker config file this module reads.
#[derive(Deserialize)]
struct ConfigFile {
    #[serde(default, rename = "currentContext")]
    current_context: String,
}

/// `currentContext` of `<dir>/config.json`. A file that is missing, empty, unreadable or not
/// JSON names none: the Docker CLI warns about the last two and carries on, and so does podrun.
fn current_context(dir: &Path) -> Option<String> {
    let path = dir.join("config.json");
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            tracing::warn!("docker config {}: cannot read it ({e}); using no context", path.display());
            return None;
        }
    };
    if text.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<ConfigFile>(&text) {
        Ok(config) => Some(config.current_context).filter(|c| !c.is_empty()),
        Err(e) => {
            tracing::warn!("docker config {}: {}; using no context", path.display(), JsonProblem::from(&e));
            None
        }
    }
}

/// A context's `meta.json`, as far as podrun needs it.
#[derive(Deserialize)]
struct Meta {
    #[serde(rename = "Name")]
    name: String,
    #[serde(default, rename = "Endpoints")]
    endpoints: Endpoints,
}

#[derive(Default, Deserialize)]
struct Endpoints {
    docker: Option<DockerEndpoint>,
}

#[derive(Deserialize)]
struct DockerEndpoint {
    #[serde(default, rename = "Host")]
    host: String,
    #[serde(default, rename = "SkipTLSVerify")]
    skip_tls_verify: bool,
}

/// The context called `name`, found among `<dir>/contexts/meta/*/meta.json` by the name each
/// holds (the directory's name is its sha256, which podrun need not compute).
fn load(dir: &Path, name: &str, origin: &Origin) -> Result<Endpoint, ContextError> {
    let meta_dir = dir.join("contexts").join("meta");
    let not_found = |why: Absence| ContextError::NotFound { name: name.to_owned(), origin: origin.to_string(), why };
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(&meta_dir) {
        Ok(entries) => entries.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(not_found(Absence::NoMetaDir(meta_dir)));
        }
        Err(error) => return Err(not_found(Absence::MetaDirUnreadable { dir: meta_dir, error })),
    };
    dirs.sort();
    // Files that could not be read: one of them may be the context asked for.
    let mut unreadable = Vec::new();
    for context_dir in dirs {
        let file = context_dir.join("meta.json");
        let meta = match std::fs::read(&file) {
            Ok(text) => serde_json::from_slice::<Meta>(&text).map_err(|e| MetaError::Json(JsonProblem::from(&e))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => Err(MetaError::Read(e)),
        };
        match meta {
            Ok(meta) if meta.name == name => return endpoint_of(meta, name, &file, &context_dir, dir),
            Ok(_) => {}
            Err(why) => unreadable.push((file, why)),
        }
    }
    Err(not_found(Absence::Unnamed { pattern: meta_dir.join("*").join("meta.json"), unreadable }))
}

/// The endpoint of a context's docker endpoint, when podrun can speak to it.
fn endpoint_of(meta: Meta, name: &str, file: &Path, context_dir: &Path, dir: &Path) -> Result<Endpoint, ContextError> {
    let file = file.display().to_string();
    let Some(docker) = meta.endpoints.docker else {
        return Err(ContextError::Invalid { name: name.to_owned(), file, why: "it has no docker endpoint" });
    };
    // An empty Host is the default socket, as the Docker CLI's ParseHost has it.
    let host = if docker.host.is_empty() { DEFAULT_HOST.to_owned() } else { docker.host };
    let unsupported = |why: &'static str| ContextError::Unsupported {
        name: name.to_owned(),
        file: file.clone(),
        host: host.clone(),
        why,
    };
    let scheme = host.split_once("://").map_or("", |(s, _)| s);
    match scheme {
        "unix" | "tcp" | "http" | "ssh" => {}
        _ => return Err(unsupported("this kind of address is not supported")),
    }
    let tls_dir = context_dir.file_name().map(|d| dir.join("contexts").join("tls").join(d).join("docker"));
    let present = |f: &str| tls_dir.as_ref().map(|t| t.join(f)).filter(|p| p.exists());
    let (ca, cert, key) = (present(TLS_FILES[0]), present(TLS_FILES[1]), present(TLS_FILES[2]));
    // As the Docker CLI: TLS when the context has TLS material or skips verification, for a
    // TCP endpoint only; a certificate is used when both it and its key are there.
    let has_material = ca.is_some() || cert.is_some() || key.is_some();
    let tls = ((has_material || docker.skip_tls_verify) && is_tcp(&host)).then(|| {
        let (cert, key) = match (cert, key) {
            (Some(c), Some(k)) => (Some(c), Some(k)),
            _ => (None, None),
        };
        TlsFiles { ca, cert, key, verify: !docker.skip_tls_verify }
    });
    Ok(Endpoint { host, context: Some(name.to_owned()), tls })
}

#[cfg(test)]
mod tests {

    use super::*;

    /// A Docker config directory of the test's own.
    struct ConfigDir(crate::test_support::TempDir);

    impl ConfigDir {
        fn new(tag: &str) -> ConfigDir {
            ConfigDir(crate::test_support::TempDir::new(&format!("context-{tag}")))
        }

        fn config(&self, json: &str) -> &ConfigDir {
            std::fs::write(self.0.join("config.json"), json).unwrap();
            self
        }

        /// A context in directory `id` (the Docker CLI names it by the sha256 of the name; any
        /// name does here), with `meta` as its meta.json.
        fn context(&self, id: &str, meta: &str) -> PathBuf {
            let d = self.0.join("contexts/meta").join(id);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("meta.json"), meta).unwrap();
            d.join("meta.json")
        }

        fn docker_context(&self, id: &str, name: &str, host: &str) -> PathBuf {
            let meta = format!(
                r#"{{"Name":"{name}","Metadata":{{}},"Endpoints":{{"docker":{{"Host":"{host}","SkipTLSVerify":false}}}}}}"#
            );
            self.context(id, &meta)
        }

        fn sources(&self) -> Sources<'_> {
            Sources { config_dir: Some(&self.0), ..Sources::default() }
        }
    }

    fn ok(sources: Sources) -> Endpoint {
        resolve(&sources).unwrap_or_else(|e| panic!("{e}"))
    }

    fn err(sources: Sources) -> ContextError {
        match resolve(&sources) {
            Ok(e) => panic!("resolved to {e}"),
            Err(e) => e,
        }
    }

    fn in_context(host: &str, name: &str) -> Endpoint {
        Endpoint { host: host.into(), context: Some(name.into()), tls: None }
    }

    #[test]
    fn nothing_set_is_the_default_socket() {
        assert_eq!(ok(Sources::default()), Endpoint::host(DEFAULT_HOST));
        let dir = ConfigDir::new("nothing");
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
        dir.config(r#"{"auths": {}}"#);
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
        dir.config(r#"{"currentContext": ""}"#);
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
        dir.config("  \n");
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
    }

    #[test]
    fn precedence_is_the_docker_clis() {
        let dir = ConfigDir::new("precedence");
        dir.docker_context("a", "flag", "unix:///flag.sock");
        dir.docker_context("b", "env", "unix:///env.sock");
        dir.docker_context("c", "current", "tcp://10.0.0.1:2375");
        dir.config(r#"{"currentContext": "current"}"#);
        let all = Sources {
            context_flag: Some("flag"),
            host_flag: None,
            docker_host: Some("unix:///docker-host.sock"),
            docker_context: Some("env"),
            config_dir: Some(&dir.0),
            tls: TlsOptions::default(),
        };
        // --context wins over everything but --host, with which it conflicts.
        assert_eq!(ok(all), in_context("unix:///flag.sock", "flag"));
        assert!(matches!(err(Sources { host_flag: Some("unix:///h.sock"), ..all }), ContextError::Conflict));
        let no_flag = Sources { context_flag: None, ..all };
        assert_eq!(ok(Sources { host_flag: Some("unix:///h.sock"), ..no_flag }), Endpoint::host("unix:///h.sock"));
        assert_eq!(ok(no_flag), Endpoint::host("unix:///docker-host.sock"));
        let no_host = Sources { docker_host: None, ..no_flag };
        assert_eq!(ok(no_host), in_context("unix:///env.sock", "env"));
        let no_env = Sources { docker_context: None, ..no_host };
        assert_eq!(ok(no_env), in_context("tcp://10.0.0.1:2375", "current"));
        // Empty values count as unset.
        let empty = Sources { context_flag: Some(""), host_flag: Some(""), docker_host: Some(""), ..no_env };
        assert_eq!(ok(Sources { docker_context: Some(""), ..empty }), in_context("tcp://10.0.0.1:2375", "current"));
        assert_eq!(ok(Sources { context_flag: Some(""), ..all }), Endpoint::host("unix:///docker-host.sock"));
    }

    #[test]
    fn the_default_context_is_docker_host_or_the_default_socket() {
        let dir = ConfigDir::new("default");
        // Even were there a context of that name on disk: `default` is reserved.
        dir.docker_context("a", "default", "unix:///not-this.sock");
        let s = Sources { context_flag: Some("default"), ..dir.sources() };
        assert_eq!(ok(s), Endpoint::host(DEFAULT_HOST));
        assert_eq!(ok(Sources { docker_host: Some("tcp://1.2.3.4:2375"), ..s }), Endpoint::host("tcp://1.2.3.4:2375"));
        dir.config(r#"{"currentContext": "default"}"#);
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
        assert_eq!(ok(Sources { docker_context: Some("default"), ..dir.sources() }), Endpoint::host(DEFAULT_HOST));
        // Without any config directory.
        assert_eq!(ok(Sources { context_flag: Some("default"), ..Sources::default() }), Endpoint::host(DEFAULT_HOST));
    }

    #[test]
    fn a_context_is_found_by_the_name_in_its_meta_json() {
        let dir = ConfigDir::new("found");
        dir.docker_context("0aa", "other", "unix:///other.sock");
        dir.context("1bb", "{broken");
        std::fs::create_dir_all(dir.0.join("contexts/meta/2cc")).unwrap(); // no meta.json
        dir.context(
            "3dd",
            r#"{"Name":"mine","Metadata":{"Description":"x"},"Endpoints":{"docker":{"Host":"unix:///run/user/1000/docker.sock"},"kubernetes":{"Host":"https://k"}}}"#,
        );
        let s = Sources { context_flag: Some("mine"), ..dir.sources() };
        assert_eq!(ok(s), in_context("unix:///run/user/1000/docker.sock", "mine"));
        // An empty Host is the default socket.
        dir.context("4ee", r#"{"Name":"bare","Endpoints":{"docker":{"Host":""}}}"#);
        assert_eq!(ok(Sources { context_flag: Some("bare"), ..s }), in_context(DEFAULT_HOST, "bare"));
    }

    #[test]
    fn an_unknown_context_is_an_error_naming_it_and_where_podrun_looked() {
        let dir = ConfigDir::new("unknown");
        // No contexts directory at all.
        let e = err(Sources { context_flag: Some("nope"), ..dir.sources() }).to_string();
        assert!(e.starts_with("context \"nope\" does not exist (given by --context; there is no "), "{e}");
        assert!(e.contains(&dir.0.join("contexts/meta").display().to_string()), "{e}");

        dir.docker_context("a", "other", "unix:///other.sock");
        let broken = dir.context("b", r#"{"Name": 3}"#);
        let e = err(Sources { docker_context: Some("nope"), ..dir.sources() }).to_string();
        assert!(e.starts_with("context \"nope\" does not exist (given by DOCKER_CONTEXT; no "), "{e}");
        assert!(e.contains(&dir.0.join("contexts/meta/*/meta.json").display().to_string()), "{e}");
        assert!(e.contains(&format!("unreadable: {}: unexpected JSON structure", broken.display())), "{e}");

        // A currentContext that names no context is an error too, as in the Docker CLI.
        dir.config(r#"{"currentContext": "gone"}"#);
        let e = err(dir.sources()).to_string();
        let config = dir.0.join("config.json");
        assert!(e.starts_with(&format!("context \"gone\" does not exist (the currentContext of {};", config.display())));
        // ... unless DOCKER_HOST (or --host) says where to go.
        assert_eq!(
            ok(Sources { docker_host: Some("unix:///d.sock"), ..dir.sources() }),
            Endpoint::host("unix:///d.sock")
        );

        let e = err(Sources { context_flag: Some("nope"), ..Sources::default() }).to_string();
        assert!(e.contains("neither DOCKER_CONFIG nor HOME is set"), "{e}");
    }

    #[test]
    fn a_config_file_docker_cannot_parse_names_no_context() {
        let dir = ConfigDir::new("badconfig");
        dir.config("{not json");
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
        dir.config(r#"{"currentContext": 7}"#);
        assert_eq!(ok(dir.sources()), Endpoint::host(DEFAULT_HOST));
    }

    #[test]
    fn ssh_and_tls_contexts_are_endpoints_and_others_are_refused() {
        let dir = ConfigDir::new("remote");
        dir.docker_context("a", "remote", "ssh://me@build-host");
        let s = Sources { context_flag: Some("remote"), ..dir.sources() };
        assert_eq!(ok(s), in_context("ssh://me@build-host", "remote"));

        // ca.pem and a certificate with its key: all three used, verified.
        dir.docker_context("b", "secure", "tcp://10.0.0.2:2376");
        let tls_dir = dir.0.join("contexts/tls/b/docker");
        std::fs::create_dir_all(&tls_dir).unwrap();
        for f in TLS_FILES {
            std::fs::write(tls_dir.join(f), "x").unwrap();
        }
        let e = ok(Sources { context_flag: Some("secure"), ..dir.sources() });
        let files = TlsFiles {
            ca: Some(tls_dir.join("ca.pem")),
            cert: Some(tls_dir.join("cert.pem")),
            key: Some(tls_dir.join("key.pem")),
            verify: true,
        };
        assert_eq!(e.tls, Some(files.clone()));
        // A certificate without its key is not used; the CA still is.
        std::fs::remove_file(tls_dir.join("key.pem")).unwrap();
        let e = ok(Sources { context_flag: Some("secure"), ..dir.sources() });
        assert_eq!(e.tls, Some(TlsFiles { cert: None, key: None, ..files }));

        // SkipTLSVerify alone is TLS without verification.
        dir.context("c", r#"{"Name":"skip","Endpoints":{"docker":{"Host":"tcp://h:2376","SkipTLSVerify":true}}}"#);
        let e = ok(Sources { context_flag: Some("skip"), ..dir.sources() });
        assert_eq!(e.tls, Some(TlsFiles { verify: false, ..TlsFiles::default() }));

        let pipe = dir.docker_context("d", "pipe", "npipe:////./pipe/docker_engine");
        let e = err(Sources { context_flag: Some("pipe"), ..dir.sources() });
        assert!(matches!(e, ContextError::Unsupported { .. }), "{e}");
        assert!(e.to_string().starts_with(&format!("context \"pipe\" ({}): endpoint npipe:", pipe.display())), "{e}");

        let k8s = dir.context("e", r#"{"Name":"k8s","Endpoints":{"kubernetes":{"Host":"https://k"}}}"#);
        let e = err(Sources { context_flag: Some("k8s"), ..dir.sources() });
        assert!(matches!(e, ContextError::Invalid { .. }), "{e}");
        assert_eq!(e.to_string(), format!("context \"k8s\" ({}): it has no docker endpoint", k8s.display()));

        // A plain tcp:// context with an empty TLS directory is plain; a socket ignores TLS.
        dir.docker_context("f", "plain", "tcp://10.0.0.3:2375");
        std::fs::create_dir_all(dir.0.join("contexts/tls/f/docker")).unwrap();
        assert_eq!(
            ok(Sources { context_flag: Some("plain"), ..dir.sources() }),
            in_context("tcp://10.0.0.3:2375", "plain")
        );
        dir.context("g", r#"{"Name":"sock","Endpoints":{"docker":{"Host":"unix:///s.sock","SkipTLSVerify":true}}}"#);
        assert_eq!(ok(Sources { context_flag: Some("sock"), ..dir.sources() }), in_context("unix:///s.sock", "sock"));
    }

    #[test]
    fn tls_flags_and_environment_apply_to_tcp_hosts_without_a_context() {
        let dir = ConfigDir::new("tlsenv");
        let certs = crate::test_support::TempDir::new("context-certs");
        std::fs::write(certs.join("cert.pem"), "x").unwrap();
        std::fs::write(certs.join("key.pem"), "x").unwrap();
        let verify = TlsOptions { verify: true, cert_path: Some(&certs), ..TlsOptions::default() };
        let s = Sources { docker_host: Some("tcp://docker:2376"), tls: verify, ..dir.sources() };
        let e = ok(s);
        assert_eq!(e.host, "tcp://docker:2376");
        assert_eq!(
            e.tls,
            Some(TlsFiles {
                ca: Some(certs.join("ca.pem")),
                cert: Some(certs.join("cert.pem")),
                key: Some(certs.join("key.pem")),
                verify: true,
            })
        );
        // --tls alone: no verification, no CA; the default cert.pem and key.pem only if present.
        std::fs::remove_file(certs.join("key.pem")).unwrap();
        let e = ok(Sources { tls: TlsOptions { tls: true, cert_path: Some(&certs), ..TlsOptions::default() }, ..s });
        assert_eq!(e.tls, Some(TlsFiles { ca: None, cert: Some(certs.join("cert.pem")), key: None, verify: false }));
        // Flags name their files; without DOCKER_CERT_PATH the default is the config directory.
        let flags = TlsOptions { verify: true, cacert: Some("/c/ca"), key: Some("/c/k"), ..TlsOptions::default() };
        let e = ok(Sources { host_flag: Some("tcp://h"), tls: flags, ..s });
        assert_eq!(
            e.tls,
            Some(TlsFiles { ca: Some("/c/ca".into()), cert: None, key: Some("/c/k".into()), verify: true })
        );
        // Sockets and ssh ignore TLS; no TLS asked, none given.
        assert_eq!(ok(Sources { docker_host: Some("unix:///d.sock"), ..s }).tls, None);
        assert_eq!(ok(Sources { docker_host: Some("ssh://h"), ..s }).tls, None);
        assert_eq!(ok(Sources { tls: TlsOptions::default(), ..s }).tls, None);
    }

    #[test]
    fn without_docker_or_a_cri_runtime_root_finds_the_system_podman() {
        let default = Endpoint::host(DEFAULT_HOST);
        let podman = Endpoint::host("unix:///run/podman/podman.sock");
        assert_eq!(system_podman(default.clone(), true, |p| p == SYSTEM_PODMAN_SOCKET), podman);
        // Not there, or not root (root's socket is not theirs): the default, named in the error.
        assert_eq!(system_podman(default.clone(), true, |_| false), default);
        assert_eq!(system_podman(default.clone(), false, |_| true), default);
        // An endpoint found otherwise (the user's rootless Podman, a context) stays.
        let user = Endpoint::host("unix:///run/user/0/podman/podman.sock");
        assert_eq!(system_podman(user.clone(), true, |_| true), user);
        let ctx = in_context(DEFAULT_HOST, "mine");
        assert_eq!(system_podman(ctx.clone(), true, |_| true), ctx);
    }

    #[test]
    fn without_docker_the_users_podman_socket_is_found() {
        let run = Path::new("/run/user/1000");
        let podman = Path::new("/run/user/1000/podman/podman.sock");
        let docker = Path::new("/var/run/docker.sock");
        let found = |endpoint: Endpoint, named: bool, there: &[&Path]| {
            user_podman(endpoint, named, Some(run), |p| there.contains(&p))
        };
        let default = Endpoint::host(DEFAULT_HOST);
        assert_eq!(
            found(default.clone(), false, &[podman]),
            Endpoint::host("unix:///run/user/1000/podman/podman.sock")
        );
        // Docker's socket is there: it stays the default.
        assert_eq!(found(default.clone(), false, &[podman, docker]), default);
        // Neither is there: the default, so the error names the usual socket.
        assert_eq!(found(default.clone(), false, &[]), default);
        // Named engines are what they name, even the default socket.
        assert_eq!(found(default.clone(), true, &[podman]), default);
        let ctx = in_context(DEFAULT_HOST, "mine");
        assert_eq!(found(ctx.clone(), false, &[podman]), ctx);
        let other = Endpoint::host("unix:///elsewhere.sock");
        assert_eq!(found(other.clone(), false, &[podman]), other);
        // No XDG_RUNTIME_DIR, or a relative one (the XDG spec says to ignore it).
        assert_eq!(user_podman(default.clone(), false, None, |p| p == podman), default);
        assert_eq!(user_podman(default.clone(), false, Some(Path::new("run")), |_| true), default);
    }

    #[test]
    fn an_endpoint_shows_its_context() {
        assert_eq!(in_context("unix:///x.sock", "c").to_string(), "unix:///x.sock (context \"c\")");
        assert_eq!(Endpoint::host("tcp://h:2375").to_string(), "tcp://h:2375");
    }
}
