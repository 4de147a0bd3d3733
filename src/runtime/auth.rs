//! Registry credentials for image pulls, found where the kubelet and Docker find them.
//!
//! Two sources, both engine-neutral:
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
//! Registry names are normalised as `distribution/reference`'s `splitDockerDomain` does.
//! Beyond the kubelet and the Docker CLI, `docker.io`, `index.docker.io` and
//! `registry-1.docker.io` are treated as one registry for credential keys (as
//! `containers/image`, Podman's library, does), since users write all three for Docker Hub.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Deserialize;

use crate::manifest::config_store::{ConfigStore, SecretBytes};

/// Docker Hub's canonical domain in image references.
const DOCKER_HUB: &str = "docker.io";
/// Docker Hub's legacy ("Docker Index") domain; the kubelet's fallback key for Hub images.
const LEGACY_HUB: &str = "index.docker.io";
/// The host Docker Hub's registry API actually answers on; users copy it into configs.
const HUB_API: &str = "registry-1.docker.io";
/// The key under which the Docker CLI stores and looks up Docker Hub credentials.
const INDEX_SERVER: &str = "https://index.docker.io/v1/";

const TYPE_DOCKER_CONFIG_JSON: &str = "kubernetes.io/dockerconfigjson";
const KEY_DOCKER_CONFIG_JSON: &str = ".dockerconfigjson";
const TYPE_DOCKERCFG: &str = "kubernetes.io/dockercfg";
const KEY_DOCKERCFG: &str = ".dockercfg";

/// What a credential helper prints (exiting non-zero) when it has nothing for the server:
/// not an error, the registry is then pulled from anonymously.
const HELPER_NOT_FOUND: &str = "credentials not found in native keychain";
/// The helper `Username` that marks `Secret` as an identity (refresh) token.
const TOKEN_USERNAME: &str = "<token>";
const HELPER_PREFIX: &str = "docker-credential-";
const HELPER_TIMEOUT: Duration = Duration::from_secs(10);
/// More than any helper's answer; a runaway helper must not fill memory.
const HELPER_MAX_OUTPUT: u64 = 1 << 20;

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
/// file, server key, helper), never the data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error(
        "image pull secret {namespace}/{name} has type {type_:?}; registry credentials need type \
         kubernetes.io/dockerconfigjson or kubernetes.io/dockercfg"
    )]
    SecretType { namespace: String, name: String, type_: String },
    #[error("image pull secret {namespace}/{name}: no {key:?} key")]
    SecretKey { namespace: String, name: String, key: String },
    #[error("image pull secret {namespace}/{name}: key {key:?} is not a docker config: {detail}")]
    SecretJson { namespace: String, name: String, key: String, detail: String },
    #[error("image pull secret {namespace}/{name}: the entry for {server:?}: `auth` is not base64 of user:password")]
    SecretAuth { namespace: String, name: String, server: String },
    #[error("docker config {path}: cannot read it: {detail}")]
    ConfigRead { path: String, detail: String },
    #[error("docker config {path}: not a docker config: {detail}")]
    ConfigJson { path: String, detail: String },
    #[error("docker config {path}: the entry for {server:?}: `auth` is not base64 of user:password")]
    ConfigAuth { path: String, server: String },
    #[error("credential helper {helper}: not found on PATH")]
    HelperMissing { helper: String },
    #[error("credential helper {helper}: cannot run it: {detail}")]
    HelperStart { helper: String, detail: String },
    #[error("credential helper {helper} failed ({status})")]
    HelperFailed { helper: String, status: String },
    #[error("credential helper {helper}: no answer within {seconds} s; killed")]
    HelperTimeout { helper: String, seconds: u64 },
    #[error("credential helper {helper}: unreadable answer: {detail}")]
    HelperOutput { helper: String, detail: String },
}

// ---------------------------------------------------------------------------------------------
// Image references

/// The registry host an image reference pulls from, normalised as Docker does:
/// `busybox` -> `docker.io`, `registry.k8s.io/busybox:1.27` -> `registry.k8s.io`,
/// `127.0.0.1:5000/x/y@sha256:..` -> `127.0.0.1:5000`, `localhost/x` -> `localhost`
/// (a first path component is a registry when it contains '.' or ':' or is `localhost`).
pub fn registry_of(image: &str) -> String {
    split_image(image).0.to_owned()
}

/// `splitDockerDomain` of `distribution/reference`, plus the tag and digest dropped from the
/// path: `(domain, repository path)`, e.g. `("docker.io", "library/busybox")`. This is the
/// kubelet's `repoToPull`, what its keyring matches keys against.
fn split_image(image: &str) -> (&str, String) {
    let (domain, path) = match image.split_once('/') {
        // A single component is always a Docker Hub name, even `localhost` or `example.com`
        // (reference's own FIXME): otherwise `name:tag` would read as `host:port`.
        None => (DOCKER_HUB, image),
        Some((first, rest)) if first == "localhost" => (first, rest),
        Some((LEGACY_HUB, rest)) => (DOCKER_HUB, rest),
        Some((first, rest)) if first.contains(['.', ':']) => (first, rest),
        // Repository names are lowercase, so an uppercase first component can only be a host.
        Some((first, rest)) if first.to_lowercase() != first => (first, rest),
        Some(_) => (DOCKER_HUB, image),
    };
    // The digest first: it holds a ':' of its own. The domain is gone, so a ':' left is a tag.
    let path = path.split_once('@').map_or(path, |(p, _)| p);
    let path = path.split_once(':').map_or(path, |(p, _)| p);
    let path = if domain == DOCKER_HUB && !path.contains('/') { format!("library/{path}") } else { path.to_owned() };
    (domain, path)
}

fn is_hub_alias(host: &str) -> bool {
    matches!(host, DOCKER_HUB | LEGACY_HUB | HUB_API)
}

// ---------------------------------------------------------------------------------------------
// Pull secrets and the kubelet's keyring

/// One entry of a docker config (`auths` value, or a `.dockercfg` map value). Every field is
/// optional and may be `null`, as Go's decoder allows.
#[derive(Debug, Default, Deserialize)]
struct AuthEntry {
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    auth: Option<String>,
    #[serde(default)]
    identitytoken: Option<String>,
}

type AuthMap = BTreeMap<String, Option<AuthEntry>>;

#[derive(Debug, Default, Deserialize)]
struct DockerConfigJson {
    #[serde(default)]
    auths: Option<AuthMap>,
}

/// `(username, password)` of an entry: `auth` when set (it wins, as in both the kubelet and
/// Docker), else the separate fields. `Err(())` for an `auth` that does not decode; the caller
/// names the entry.
fn user_and_password(entry: &AuthEntry) -> Result<(String, String), ()> {
    match entry.auth.as_deref().filter(|a| !a.is_empty()) {
        Some(auth) => decode_auth(auth),
        None => Ok((entry.username.clone().unwrap_or_default(), entry.password.clone().unwrap_or_default())),
    }
}

/// base64 of `user:password`. Padded and unpadded are both accepted (the kubelet chooses by a
/// trailing '='); NULs trailing the password are dropped as Docker does.
fn decode_auth(auth: &str) -> Result<(String, String), ()> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
    let auth = auth.trim();
    let decoded = if auth.ends_with('=') { STANDARD.decode(auth) } else { STANDARD_NO_PAD.decode(auth) };
    let decoded = String::from_utf8(decoded.map_err(|_| ())?).map_err(|_| ())?;
    let (user, password) = decoded.split_once(':').ok_or(())?;
    Ok((user.to_owned(), password.trim_matches('\0').to_owned()))
}

/// A JSON error by position and kind only: serde's own message may quote the offending value,
/// which may be a password.
pub(crate) fn json_problem(e: &serde_json::Error) -> String {
    let what = match e.classify() {
        serde_json::error::Category::Io => "unreadable",
        serde_json::error::Category::Syntax => "invalid JSON",
        serde_json::error::Category::Data => "unexpected JSON structure",
        serde_json::error::Category::Eof => "truncated JSON",
    };
    format!("{what} at line {} column {}", e.line(), e.column())
}

/// The kubelet's `BasicDockerKeyring`: credentials by key (host, or host and path), in the
/// order they were added.
#[derive(Default)]
struct Keyring {
    creds: BTreeMap<String, Vec<Credentials>>,
}

impl Keyring {
    /// `BasicDockerKeyring.Add` for one entry: the scheme is dropped, and a `/v1/` or `/v2/`
    /// path counts as no path (Docker's API prefixes, not repository paths).
    fn add(&mut self, server: &str, creds: Credentials) {
        let with_scheme = if server.starts_with("https://") || server.starts_with("http://") {
            server.to_owned()
        } else {
            format!("https://{server}")
        };
        let (host, path) = split_url(&with_scheme);
        let path = if path.starts_with("/v1/") || path.starts_with("/v2/") { &path[3..] } else { path };
        let key = if path.is_empty() || path == "/" { host.to_owned() } else { format!("{host}{path}") };
        self.creds.entry(key).or_default().push(creds);
    }

    /// `BasicDockerKeyring.Lookup`, first answer only: keys in reverse lexical order (so
    /// `quay.io/coreos` comes before `quay.io`, and `reg.example.com` before `*.example.com`),
    /// then, for a Docker Hub image that nothing matched, the `index.docker.io` entry (and,
    /// beyond the kubelet, a `registry-1.docker.io` one). `target` is `domain/path`.
    fn lookup(&self, target: &str) -> Option<&Credentials> {
        let direct = self.creds.iter().rev().filter(|(key, _)| urls_match(key, target)).flat_map(|(_, c)| c).next();
        if direct.is_some() {
            return direct;
        }
        // The kubelet's isDefaultRegistryMatch also says yes for `localhost/x` and for
        // uppercase hosts; handing Docker Hub credentials to another registry is worse than
        // pulling anonymously, so only a real Docker Hub image gets them.
        if target.split_once('/').map(|(domain, _)| domain) != Some(DOCKER_HUB) {
            return None;
        }
        [LEGACY_HUB, HUB_API].iter().filter_map(|k| self.creds.get(*k)).flatten().next()
    }
}

/// `https://host/path?query` -> `(host, /path)`: what Go's url.Parse yields for the parts the
/// keyring uses (user info dropped, query and fragment ignored).
fn split_url(url: &str) -> (&str, &str) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    (host, path)
}

/// Go's net.SplitHostPort, as the keyring uses it: `(host, port)`, or the whole string and no
/// port when it does not split.
fn split_host_port(hostport: &str) -> (&str, &str) {
    if let Some(inner) = hostport.strip_prefix('[') {
        // An IPv6 literal: `[::1]:5000`. Without a port Go fails, and the keyring then keeps
        // the whole, bracketed string as the host.
        if let Some((host, port)) = inner.split_once("]:") {
            if !host.contains([']', '[']) && !port.contains(':') {
                return (host, port);
            }
        }
        return (hostport, "");
    }
    match hostport.split_once(':') {
        Some((host, port)) if !port.contains(':') => (host, port),
        _ => (hostport, ""),
    }
}

/// The kubelet's URLsMatch: same port, same number of host labels with each label matching
/// as a glob, and the key's path a prefix of the image's path. Both are schemeless.
fn urls_match(key: &str, target: &str) -> bool {
    let (key_authority, key_path) = split_url(key);
    let (target_authority, target_path) = split_url(target);
    let (key_host, key_port) = split_host_port(key_authority);
    let (target_host, target_port) = split_host_port(target_authority);
    if key_port != target_port || !target_path.starts_with(key_path) {
        return false;
    }
    let key_labels: Vec<&str> = key_host.split('.').collect();
    let target_labels: Vec<&str> = target_host.split('.').collect();
    key_labels.len() == target_labels.len()
        && key_labels.iter().zip(&target_labels).all(|(pattern, label)| glob_match(pattern, label))
}

/// One token of a `filepath.Match` pattern.
#[derive(Debug, PartialEq)]
enum Glob {
    Star,
    AnyChar,
    Char(char),
    /// `[...]`: ranges (a single char is `(c, c)`), negated by a leading `^`.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Glob {
    fn matches(&self, c: char) -> bool {
        match self {
            Glob::Star => true,
            Glob::AnyChar => true,
            Glob::Char(p) => *p == c,
            Glob::Class { negated, ranges } => ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated,
        }
    }
}

/// Go's `filepath.Match` syntax (`*`, `?`, `[a-z]`, `[^x]`, `\` escapes), tokenised; `None`
/// for a malformed pattern, which matches nothing (Go returns ErrBadPattern, the keyring skips).
fn parse_glob(pattern: &str) -> Option<Vec<Glob>> {
    let mut chars = pattern.chars();
    let mut out = Vec::new();
    let escaped = |chars: &mut std::str::Chars, c: char| if c == '\\' { chars.next() } else { Some(c) };
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Glob::Star,
            '?' => Glob::AnyChar,
            '[' => {
                let mut negated = false;
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = chars.next()?;
                    if first && c == '^' {
                        negated = true;
                        first = false;
                        continue;
                    }
                    if c == ']' && !first {
                        break;
                    }
                    if c == ']' || c == '-' {
                        return None;
                    }
                    first = false;
                    let lo = escaped(&mut chars, c)?;
                    let mut lookahead = chars.clone();
                    let hi = if lookahead.next() == Some('-') {
                        chars.next();
                        let c = chars.next()?;
                        if c == ']' || c == '-' {
                            return None;
                        }
                        escaped(&mut chars, c)?
                    } else {
                        lo
                    };
                    ranges.push((lo, hi));
                }
                Glob::Class { negated, ranges }
            }
            '\\' => Glob::Char(chars.next()?),
            c => Glob::Char(c),
        });
    }
    Some(out)
}

/// Whether `name` matches the glob `pattern` as a whole. Only the last `*` is ever backtracked
/// to (O(pattern × name)), so a hostile key cannot make matching exponential.
fn glob_match(pattern: &str, name: &str) -> bool {
    let Some(tokens) = parse_glob(pattern) else { return false };
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    let mut last_star: Option<(usize, usize)> = None;
    while n < name.len() {
        match tokens.get(t) {
            Some(Glob::Star) => {
                last_star = Some((t, n));
                t += 1;
            }
            Some(token) if token.matches(name[n]) => {
                t += 1;
                n += 1;
            }
            _ => match last_star {
                // Let the last `*` swallow one more character and try again from there.
                Some((star, at)) => {
                    last_star = Some((star, at + 1));
                    t = star + 1;
                    n = at + 1;
                }
                None => return false,
            },
        }
    }
    tokens.get(t..).unwrap_or_default().iter().all(|token| *token == Glob::Star)
}

/// The docker config map in one pull Secret, by its type.
fn parse_pull_secret(
    namespace: &str,
    name: &str,
    type_: Option<&str>,
    entries: &BTreeMap<String, SecretBytes>,
) -> Result<AuthMap, AuthError> {
    let (key, wrapped) = match type_ {
        Some(TYPE_DOCKER_CONFIG_JSON) => (KEY_DOCKER_CONFIG_JSON, true),
        Some(TYPE_DOCKERCFG) => (KEY_DOCKERCFG, false),
        other => {
            let type_ = other.unwrap_or("Opaque").to_owned();
            return Err(AuthError::SecretType { namespace: namespace.to_owned(), name: name.to_owned(), type_ });
        }
    };
    let Some(data) = entries.get(key) else {
        return Err(AuthError::SecretKey {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            key: key.to_owned(),
        });
    };
    let parsed = if wrapped {
        serde_json::from_slice::<DockerConfigJson>(&data.0).map(|c| c.auths.unwrap_or_default())
    } else {
        serde_json::from_slice::<AuthMap>(&data.0)
    };
    parsed.map_err(|e| AuthError::SecretJson {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        key: key.to_owned(),
        detail: json_problem(&e),
    })
}

/// Credentials from the pod's `imagePullSecrets` (Secrets named there, looked up in `configs` in
/// `namespace`), of type `kubernetes.io/dockerconfigjson` (`.dockerconfigjson` key, `{"auths": {...}}`)
/// or `kubernetes.io/dockercfg` (`.dockercfg` key, the bare map), in the order listed; entries
/// with `auth` (base64 "user:pass") or `username`/`password`; server keys may be URLs
/// (`https://index.docker.io/v1/`, `http://127.0.0.1:5000`) — matched to the image the way the
/// kubelet's credential keyring does (docker.io aliases index.docker.io/registry-1.docker.io).
///
/// Of several matching entries the kubelet tries each in turn until a pull succeeds; this
/// returns the first it would try: the most specific key, and among entries for the same key,
/// the one from the Secret listed first.
///
/// A named Secret that is missing: the kubelet warns and goes on, so this returns a warning
/// for each. Every listed Secret is checked before matching (as the kubelet parses them all
/// first), so a broken one is an error even when an earlier one matches. Unlike the kubelet,
/// which silently skips them, a Secret of another type is an error: naming it in
/// `imagePullSecrets` is a mistake worth reporting.
pub fn from_pull_secrets(
    image: &str,
    secret_names: &[String],
    namespace: &str,
    configs: &ConfigStore,
) -> Result<(Option<Credentials>, Vec<String>), AuthError> {
    let mut warnings = Vec::new();
    let mut keyring = Keyring::default();
    for name in secret_names {
        // The API lets empty names through; the kubelet skips them without a word.
        if name.is_empty() {
            continue;
        }
        let Some(entries) = configs.secret(namespace, name) else {
            warnings
                .push(format!("image pull secret {namespace}/{name} not found; pulling without it, which may fail"));
            continue;
        };
        for (server, entry) in parse_pull_secret(namespace, name, configs.secret_type(namespace, name), entries)? {
            let Some(entry) = entry else { continue };
            let (username, password) = user_and_password(&entry).map_err(|()| AuthError::SecretAuth {
                namespace: namespace.to_owned(),
                name: name.clone(),
                server: server.clone(),
            })?;
            // An empty entry would only mean an anonymous pull, which needs no credentials;
            // skipping it lets a later, real one be used. The kubelet ignores identity tokens
            // in pull secrets, and so does this.
            if username.is_empty() && password.is_empty() {
                continue;
            }
            keyring.add(&server, Credentials { username, password, server: server.clone(), identity_token: None });
        }
    }
    let (domain, path) = split_image(image);
    Ok((keyring.lookup(&format!("{domain}/{path}")).cloned(), warnings))
}

// ---------------------------------------------------------------------------------------------
// The Docker CLI's config.json

#[derive(Debug, Default, Deserialize)]
struct DockerConfigFile {
    #[serde(default)]
    auths: Option<AuthMap>,
    #[serde(default, rename = "credsStore")]
    creds_store: Option<String>,
    #[serde(default, rename = "credHelpers")]
    cred_helpers: Option<BTreeMap<String, Option<String>>>,
}

/// Docker's ConvertToHostname: a config key without scheme and path.
fn key_hostname(key: &str) -> &str {
    let key = key.strip_prefix("https://").or_else(|| key.strip_prefix("http://")).unwrap_or(key);
    key.split('/').next().unwrap_or(key)
}

/// Whether a config key stands for `domain`, beyond Docker's exact key: its host is the
/// registry's (Docker's legacy-key rule), or both are Docker Hub under any of its names.
fn key_names(key: &str, domain: &str) -> bool {
    let host = key_hostname(key);
    host == domain || (domain == DOCKER_HUB && is_hub_alias(host))
}

/// Credentials from the user's Docker config: `$DOCKER_CONFIG/config.json`, else
/// `~/.docker/config.json` (HOME); `credHelpers[registry]` first, then `credsStore`, then
/// `auths` entries (as Docker does). A helper is the program `docker-credential-<name>`, run with the
/// argument `get`, the server URL on stdin, JSON `{"ServerURL","Username","Secret"}` on stdout
/// (Username `<token>` means Secret is an identity token). Bounded: kill the helper after 10 s.
/// No config file: Ok(None).
///
/// Blocking (it may run a helper): call it from `spawn_blocking` in async code.
pub fn from_docker_config(image: &str) -> Result<Option<Credentials>, AuthError> {
    let Some(dir) = docker_config_dir() else { return Ok(None) };
    from_docker_config_at(image, &dir, std::env::var_os("PATH").as_deref())
}

/// The Docker CLI's config directory (`cli/config.Dir`): `$DOCKER_CONFIG`, else `~/.docker`
/// (HOME). None when neither is set. Registry credentials and Docker contexts live there.
pub fn docker_config_dir() -> Option<PathBuf> {
    match std::env::var_os("DOCKER_CONFIG").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|home| Path::new(&home).join(".docker")),
    }
}

/// The same with an explicit config directory and helper search PATH (for tests). `path_env`
/// `None` searches the process's PATH.
pub fn from_docker_config_at(
    image: &str,
    dir: &Path,
    path_env: Option<&OsStr>,
) -> Result<Option<Credentials>, AuthError> {
    lookup_docker_config(image, dir, path_env, HELPER_TIMEOUT)
}

fn lookup_docker_config(
    image: &str,
    dir: &Path,
    path_env: Option<&OsStr>,
    helper_timeout: Duration,
) -> Result<Option<Credentials>, AuthError> {
    let path = dir.join("config.json");
    let shown = path.display().to_string();
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(AuthError::ConfigRead { path: shown, detail: e.to_string() }),
    };
    // Docker reads an empty file as an empty config.
    let config: DockerConfigFile = if text.iter().all(u8::is_ascii_whitespace) {
        DockerConfigFile::default()
    } else {
        serde_json::from_slice(&text)
            .map_err(|e| AuthError::ConfigJson { path: shown.clone(), detail: json_problem(&e) })?
    };

    let domain = registry_of(image);
    // The Docker CLI asks about Docker Hub by its v1 index URL, about others by host name.
    let server = if domain == DOCKER_HUB { INDEX_SERVER } else { domain.as_str() };

    // credHelpers by the exact key first (Docker), then by another spelling of the same
    // registry. A helper named "" there means "no helper" for that registry, even with a
    // credsStore (as in Docker).
    let helpers = config.cred_helpers.unwrap_or_default();
    let per_registry =
        helpers.get(server).or_else(|| helpers.iter().find(|(k, _)| key_names(k, &domain)).map(|(_, h)| h));
    let helper = match per_registry {
        Some(h) => h.clone().unwrap_or_default(),
        None => config.creds_store.unwrap_or_default(),
    };
    if !helper.is_empty() {
        // As in Docker, a helper's answer is final: "not found" means anonymous, not the
        // `auths` entries (which a store-backed config keeps empty anyway).
        return run_helper(&helper, server, path_env, helper_timeout);
    }

    let auths = config.auths.unwrap_or_default();
    let Some((key, entry)) = auths.get_key_value(server).or_else(|| auths.iter().find(|(k, _)| key_names(k, &domain)))
    else {
        return Ok(None);
    };
    let Some(entry) = entry else { return Ok(None) };
    let (username, password) =
        user_and_password(entry).map_err(|()| AuthError::ConfigAuth { path: shown, server: key.clone() })?;
    let identity_token = entry.identitytoken.clone().filter(|t| !t.is_empty());
    // Docker Desktop writes `{}` entries as markers of a login held elsewhere: nothing to use.
    if username.is_empty() && password.is_empty() && identity_token.is_none() {
        return Ok(None);
    }
    Ok(Some(Credentials { username, password, server: key.clone(), identity_token }))
}

/// The helper's `get` answer. Go decodes it by field name, case-insensitively; helpers write
/// these spellings.
#[derive(Deserialize)]
struct HelperAnswer {
    #[serde(rename = "Username", default)]
    username: String,
    #[serde(rename = "Secret", default)]
    secret: String,
}

/// `program` in one of `path_env`'s directories, as an executable file. Empty entries (the
/// current directory) are skipped, as Go's LookPath refuses them.
fn find_on_path(program: &str, path_env: Option<&OsStr>) -> Option<PathBuf> {
    let path_env = path_env.map(OsStr::to_os_string).or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path_env)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Runs `docker-credential-<name> get` with `server` on stdin (no newline, as Docker writes
/// it), killing it after `timeout`.
fn run_helper(
    name: &str,
    server: &str,
    path_env: Option<&OsStr>,
    timeout: Duration,
) -> Result<Option<Credentials>, AuthError> {
    let helper = format!("{HELPER_PREFIX}{name}");
    // A name is a suffix, never a path: a config must not run an arbitrary file.
    if name.contains(['/', '\0']) {
        return Err(AuthError::HelperMissing { helper });
    }
    let Some(program) = find_on_path(&helper, path_env) else {
        return Err(AuthError::HelperMissing { helper });
    };
    let (status, output) = run_bounded(&program, server.as_bytes(), timeout).map_err(|e| match e {
        RunError::Start(detail) => AuthError::HelperStart { helper: helper.clone(), detail },
        RunError::Timeout => AuthError::HelperTimeout { helper: helper.clone(), seconds: timeout.as_secs() },
    })?;
    if !status.success() {
        if String::from_utf8_lossy(&output).trim() == HELPER_NOT_FOUND {
            return Ok(None);
        }
        // Not the helper's output: a broken helper may echo anything, secrets included.
        return Err(AuthError::HelperFailed { helper, status: status.to_string() });
    }
    // Go's Decoder reads the first JSON value and ignores what follows; so does this.
    let answer = serde_json::Deserializer::from_slice(&output).into_iter::<HelperAnswer>().next();
    let answer = match answer {
        Some(Ok(answer)) => answer,
        Some(Err(e)) => return Err(AuthError::HelperOutput { helper, detail: json_problem(&e) }),
        None => return Err(AuthError::HelperOutput { helper, detail: "no output".to_owned() }),
    };
    let creds = if answer.username == TOKEN_USERNAME {
        Credentials {
            username: String::new(),
            password: String::new(),
            server: server.to_owned(),
            identity_token: Some(answer.secret),
        }
    } else {
        Credentials {
            username: answer.username,
            password: answer.secret,
            server: server.to_owned(),
            identity_token: None,
        }
    };
    let empty = creds.username.is_empty()
        && creds.password.is_empty()
        && creds.identity_token.as_deref().unwrap_or("").is_empty();
    Ok(if empty { None } else { Some(creds) })
}

enum RunError {
    Start(String),
    Timeout,
}

/// Runs `program get` with `input` on stdin; its exit status and stdout, unless it outlives
/// `timeout` (then it is killed).
fn run_bounded(program: &Path, input: &[u8], timeout: Duration) -> Result<(ExitStatus, Vec<u8>), RunError> {
    let deadline = Instant::now() + timeout;
    let mut child = spawn_helper(program).map_err(|e| RunError::Start(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A helper may exit without reading; the broken pipe is its business, its status tells.
        let _ = stdin.write_all(input);
    }
    // Read on a thread: a helper blocked on a full stdout pipe would otherwise never exit.
    let (tx, rx) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = stdout.take(HELPER_MAX_OUTPUT).read_to_end(&mut out);
            let _ = tx.send(out);
        });
    }
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::Timeout);
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::Start(e.to_string()));
            }
        }
    };
    // A child the helper left running may hold stdout open; the deadline bounds that too.
    let output = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).map_err(|_| RunError::Timeout)?;
    Ok((status, output))
}

fn spawn_helper(program: &Path) -> std::io::Result<std::process::Child> {
    let mut attempts = 0;
    loop {
        let spawned =
            Command::new(program).arg("get").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn();
        match spawned {
            // ETXTBSY: the helper was written a moment ago and a process forked elsewhere still
            // holds it open for writing (an install in progress, or a test writing its own).
            Err(e) if e.raw_os_error() == Some(26) && attempts < 5 => {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{ObjectMeta, Secret};

    const PASSWORD: &str = "hunter2-very-secret";

    fn b64(s: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(s)
    }

    fn secret(name: &str, type_: Option<&str>, key: &str, value: &str) -> Secret {
        Secret {
            metadata: ObjectMeta { name: name.into(), ..Default::default() },
            type_: type_.map(Into::into),
            string_data: [(key.to_owned(), value.to_owned())].into(),
            ..Default::default()
        }
    }

    /// A `kubernetes.io/dockerconfigjson` Secret with one `auth` entry per `(server, user)`.
    fn config_json_secret(name: &str, entries: &[(&str, &str)]) -> Secret {
        let auths: serde_json::Map<String, serde_json::Value> = entries
            .iter()
            .map(|(server, user)| {
                ((*server).to_owned(), serde_json::json!({ "auth": b64(&format!("{user}:{PASSWORD}")) }))
            })
            .collect();
        let json = serde_json::json!({ "auths": auths }).to_string();
        secret(name, Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json)
    }

    fn store(secrets: &[Secret]) -> ConfigStore {
        let mut store = ConfigStore::new();
        for s in secrets {
            store.add_secret("ns", s).unwrap();
        }
        store
    }

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    /// The user the pull secrets give for `image`, or None.
    fn user_for(image: &str, secret_names: &[&str], configs: &ConfigStore) -> Option<String> {
        let (creds, _) = from_pull_secrets(image, &names(secret_names), "ns", configs).unwrap();
        creds.map(|c| c.username)
    }

    #[test]
    fn registry_of_follows_docker_normalisation() {
        let cases = [
            ("busybox", "docker.io"),
            ("busybox:1.27", "docker.io"),
            ("busybox@sha256:7cc4b5aefd1d0cadf8d97d4350462ba51c694ebca145b08d7d41b41acc8db5aa", "docker.io"),
            ("library/busybox", "docker.io"),
            ("someuser/app:v1", "docker.io"),
            ("docker.io/busybox", "docker.io"),
            // The legacy Docker Index domain is Docker Hub.
            ("index.docker.io/library/busybox", "docker.io"),
            ("registry-1.docker.io/library/busybox", "registry-1.docker.io"),
            ("registry.k8s.io/busybox:1.27", "registry.k8s.io"),
            (
                "127.0.0.1:5000/x/y@sha256:7cc4b5aefd1d0cadf8d97d4350462ba51c694ebca145b08d7d41b41acc8db5aa",
                "127.0.0.1:5000",
            ),
            ("localhost/x", "localhost"),
            ("localhost:5000/x:tag", "localhost:5000"),
            ("myregistry:5000/x", "myregistry:5000"),
            ("[::1]:5000/x", "[::1]:5000"),
            ("gcr.io/project/sub/image:tag", "gcr.io"),
            // A single component is never a host, not even `localhost` (reference's FIXME).
            ("localhost", "docker.io"),
            ("example.com", "docker.io"),
            // Repository names are lowercase, so an uppercase first component is a host.
            ("Registry/x", "Registry"),
            ("", "docker.io"),
        ];
        for (image, registry) in cases {
            assert_eq!(registry_of(image), registry, "{image}");
        }
    }

    #[test]
    fn split_image_gives_the_repository_the_kubelet_matches() {
        assert_eq!(split_image("busybox"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split_image("docker.io/busybox:1"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split_image("index.docker.io/u/app"), ("docker.io", "u/app".to_owned()));
        assert_eq!(split_image("quay.io/coreos/etcd:v3@sha256:abc"), ("quay.io", "coreos/etcd".to_owned()));
        assert_eq!(split_image("localhost:5000/x"), ("localhost:5000", "x".to_owned()));
    }

    #[test]
    fn dockerconfigjson_secret_with_auth_wins_over_username_and_password() {
        let json = serde_json::json!({ "auths": { "registry.example.com": {
            "auth": b64(&format!("alice:{PASSWORD}")), "username": "ignored", "password": "ignored"
        }}});
        let configs =
            store(&[secret("pull", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
        let (creds, warnings) =
            from_pull_secrets("registry.example.com/team/app:1", &names(&["pull"]), "ns", &configs).unwrap();
        let creds = creds.unwrap();
        assert_eq!((creds.username.as_str(), creds.password.as_str()), ("alice", PASSWORD));
        assert_eq!(creds.server, "registry.example.com");
        assert_eq!(creds.identity_token, None);
        assert!(warnings.is_empty());
        // Another registry gets nothing from it.
        assert_eq!(user_for("quay.io/team/app", &["pull"], &configs), None);
    }

    #[test]
    fn dockercfg_secret_is_the_bare_map_with_username_and_password() {
        let json = serde_json::json!({ "https://index.docker.io/v1/": { "username": "bob", "password": PASSWORD, "email": "b@x" }});
        let configs = store(&[secret("cfg", Some(TYPE_DOCKERCFG), KEY_DOCKERCFG, &json.to_string())]);
        let (creds, _) = from_pull_secrets("busybox", &names(&["cfg"]), "ns", &configs).unwrap();
        let creds = creds.unwrap();
        assert_eq!((creds.username.as_str(), creds.password.as_str()), ("bob", PASSWORD));
        assert_eq!(creds.server, "https://index.docker.io/v1/");
    }

    #[test]
    fn unpadded_auth_and_colons_in_the_password_decode() {
        let unpadded = base64::engine::general_purpose::STANDARD_NO_PAD.encode("u:p:w");
        assert_eq!(decode_auth(&unpadded), Ok(("u".to_owned(), "p:w".to_owned())));
        assert_eq!(decode_auth(&b64("u:p:w")), Ok(("u".to_owned(), "p:w".to_owned())));
        assert_eq!(decode_auth(&b64("no-colon")), Err(()));
        assert_eq!(decode_auth("!!!"), Err(()));
    }

    #[test]
    fn url_shaped_keys_and_docker_hub_aliases() {
        let configs = store(&[
            config_json_secret("hub-v1", &[("https://index.docker.io/v1/", "hub-v1")]),
            config_json_secret("hub-bare", &[("docker.io", "hub-bare")]),
            config_json_secret("hub-api", &[("registry-1.docker.io", "hub-api")]),
            config_json_secret("local", &[("http://127.0.0.1:5000", "local")]),
            config_json_secret("v2", &[("https://registry.example.com/v2/", "v2")]),
        ]);
        // Every spelling of Docker Hub serves a Hub image.
        for s in ["hub-v1", "hub-bare", "hub-api"] {
            assert_eq!(user_for("busybox", &[s], &configs).as_deref(), Some(s));
            assert_eq!(user_for("docker.io/library/busybox:1", &[s], &configs).as_deref(), Some(s));
            assert_eq!(user_for("index.docker.io/someuser/app", &[s], &configs).as_deref(), Some(s));
            // ...and never another registry, `localhost` included (the kubelet would).
            assert_eq!(user_for("quay.io/x/y", &[s], &configs), None);
            assert_eq!(user_for("localhost/x", &[s], &configs), None);
        }
        // A direct match beats the index.docker.io fallback, as in the kubelet.
        assert_eq!(user_for("busybox", &["hub-v1", "hub-bare"], &configs).as_deref(), Some("hub-bare"));
        assert_eq!(user_for("127.0.0.1:5000/x/y@sha256:abcd", &["local"], &configs).as_deref(), Some("local"));
        // The port must match.
        assert_eq!(user_for("127.0.0.1:5001/x/y", &["local"], &configs), None);
        assert_eq!(user_for("127.0.0.1/x/y", &["local"], &configs), None);
        // `/v2/` (and `/v1/`) is the API prefix, not a repository path.
        assert_eq!(user_for("registry.example.com/a/b", &["v2"], &configs).as_deref(), Some("v2"));
    }

    #[test]
    fn the_most_specific_key_wins_and_globs_match_one_label() {
        let configs = store(&[
            config_json_secret("broad", &[("quay.io", "broad"), ("*.example.com", "glob")]),
            config_json_secret("narrow", &[("quay.io/coreos", "narrow"), ("reg.example.com", "exact")]),
        ]);
        let both = ["broad", "narrow"];
        // A path-scoped key beats the bare host, whichever Secret comes first.
        assert_eq!(user_for("quay.io/coreos/etcd:v3", &both, &configs).as_deref(), Some("narrow"));
        assert_eq!(user_for("quay.io/other/x", &both, &configs).as_deref(), Some("broad"));
        // An exact host beats a glob; a glob matches a single label only.
        assert_eq!(user_for("reg.example.com/x", &both, &configs).as_deref(), Some("exact"));
        assert_eq!(user_for("other.example.com/x", &both, &configs).as_deref(), Some("glob"));
        assert_eq!(user_for("a.b.example.com/x", &both, &configs), None);
        assert_eq!(user_for("example.com/x", &both, &configs), None);
    }

    #[test]
    fn glob_syntax_is_gos_filepath_match() {
        assert!(glob_match("*", "anything"));
        assert!(glob_match("reg*", "registry"));
        assert!(glob_match("r?g", "reg"));
        assert!(!glob_match("r?g", "reeg"));
        assert!(glob_match("k8s-[a-c]", "k8s-b"));
        assert!(!glob_match("k8s-[^a-c]", "k8s-b"));
        assert!(glob_match("a\\*", "a*"));
        assert!(!glob_match("a\\*", "ab"));
        assert!(glob_match("*a*b*c", "xxaxxbxxc"));
        // Malformed patterns match nothing, rather than everything.
        for bad in ["[", "[]", "[a-", "a\\", "[-a]"] {
            assert!(!glob_match(bad, "a"), "{bad}");
        }
        // Linear, not exponential.
        assert!(!glob_match(&format!("{}b", "*a".repeat(30)), &"a".repeat(10_000)));
    }

    #[test]
    fn secrets_are_used_in_the_order_listed() {
        let configs = store(&[
            config_json_secret("first", &[("registry.example.com", "first")]),
            // Another spelling of the same key: the same keyring slot, so list order decides.
            config_json_secret("second", &[("https://registry.example.com", "second")]),
        ]);
        let image = "registry.example.com/app";
        assert_eq!(user_for(image, &["first", "second"], &configs).as_deref(), Some("first"));
        assert_eq!(user_for(image, &["second", "first"], &configs).as_deref(), Some("second"));
    }

    #[test]
    fn a_missing_secret_is_a_warning_and_the_next_one_is_used() {
        let configs = store(&[config_json_secret("present", &[("registry.example.com", "present")])]);
        let (creds, warnings) =
            from_pull_secrets("registry.example.com/app", &names(&["gone", "", "present"]), "ns", &configs).unwrap();
        assert_eq!(creds.unwrap().username, "present");
        // One warning, for the missing Secret; the empty name is skipped silently.
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("ns/gone"), "{warnings:?}");
        // Secrets are looked up in the pod's namespace only.
        let (creds, warnings) =
            from_pull_secrets("registry.example.com/app", &names(&["present"]), "other", &configs).unwrap();
        assert!(creds.is_none() && warnings.len() == 1);
    }

    #[test]
    fn a_secret_of_another_type_is_an_error_naming_it_not_its_content() {
        let json = serde_json::json!({ "auths": { "registry.example.com": { "username": "u", "password": PASSWORD }}});
        for type_ in [None, Some("Opaque"), Some("kubernetes.io/basic-auth")] {
            let configs = store(&[secret("wrong", type_, KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
            let err = from_pull_secrets("registry.example.com/x", &names(&["wrong"]), "ns", &configs).unwrap_err();
            assert!(matches!(err, AuthError::SecretType { .. }), "{err:?}");
            let (shown, debug) = (err.to_string(), format!("{err:?}"));
            assert!(shown.contains("ns/wrong") && shown.contains(type_.unwrap_or("Opaque")), "{shown}");
            assert!(!shown.contains(PASSWORD) && !debug.contains(PASSWORD), "{shown} {debug}");
        }
    }

    #[test]
    fn broken_docker_config_json_is_an_error_naming_the_secret_not_its_content() {
        let cases = [
            // Not JSON; then JSON of the wrong shape quoting the password.
            format!("{{\"auths\": {{\"r.io\": {{\"password\": \"{PASSWORD}\""),
            format!("{{\"auths\": \"{PASSWORD}\"}}"),
            format!("{{\"auths\": {{\"r.io\": {{\"password\": [\"{PASSWORD}\"]}}}}}}"),
        ];
        for json in cases {
            let configs = store(&[secret("broken", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json)]);
            let err = from_pull_secrets("r.io/x", &names(&["broken"]), "ns", &configs).unwrap_err();
            assert!(matches!(err, AuthError::SecretJson { .. }), "{err:?}");
            let (shown, debug) = (err.to_string(), format!("{err:?}"));
            assert!(shown.contains("ns/broken") && shown.contains(".dockerconfigjson"), "{shown}");
            assert!(!shown.contains(PASSWORD) && !debug.contains(PASSWORD), "{shown} {debug}");
        }
        // An `auth` that is not base64 of user:password names its server.
        let json = serde_json::json!({ "auths": { "r.io": { "auth": b64(PASSWORD) }}});
        let configs =
            store(&[secret("badauth", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
        let err = from_pull_secrets("quay.io/x", &names(&["badauth"]), "ns", &configs).unwrap_err();
        assert_eq!(
            err,
            AuthError::SecretAuth { namespace: "ns".into(), name: "badauth".into(), server: "r.io".into() }
        );
        assert!(!format!("{err} {err:?}").contains(PASSWORD));
        // A broken Secret listed after a matching one still fails: the kubelet parses them all.
        let configs = store(&[
            config_json_secret("good", &[("r.io", "good")]),
            secret("broken", Some(TYPE_DOCKERCFG), KEY_DOCKERCFG, "nope"),
        ]);
        assert!(from_pull_secrets("r.io/x", &names(&["good", "broken"]), "ns", &configs).is_err());
    }

    #[test]
    fn empty_entries_and_null_values_are_skipped() {
        let json =
            r#"{"auths": {"r.io": {}, "q.io": null, "s.io": {"username": null, "auth": ""}}, "HttpHeaders": {}}"#;
        let configs = store(&[
            secret("empty", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, json),
            config_json_secret("real", &[("r.io", "real")]),
        ]);
        assert_eq!(user_for("r.io/x", &["empty", "real"], &configs).as_deref(), Some("real"));
        assert_eq!(user_for("q.io/x", &["empty"], &configs), None);
    }

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

    // --- Docker config ------------------------------------------------------------------------

    /// A Docker config directory (and a PATH directory for credential helpers).
    struct TempDir(crate::test_support::TempDir);

    impl TempDir {
        fn new(tag: &str) -> TempDir {
            TempDir(crate::test_support::TempDir::new(&format!("auth-{tag}")))
        }

        fn config(&self, json: &str) -> &Path {
            std::fs::write(self.0.join("config.json"), json).unwrap();
            &self.0
        }

        /// An executable `docker-credential-<name>` shell script in this directory.
        #[cfg(unix)]
        fn helper(&self, name: &str, body: &str) {
            use std::os::unix::fs::PermissionsExt;
            let path = self.0.join(format!("docker-credential-{name}"));
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }

        fn path_env(&self) -> Option<&OsStr> {
            Some(self.0.as_os_str())
        }
    }

    /// A helper that answers for `reg.example.com` with a password, for Docker Hub with an
    /// identity token, and "not found" otherwise; it checks it was asked `get`.
    const STORE_HELPER: &str = r#"[ "$1" = get ] || exit 9
server=$(cat)
case "$server" in
  reg.example.com) printf '{"ServerURL":"%s","Username":"alice-%s","Secret":"store-pw"}' "$server" "$1" ;;
  https://index.docker.io/v1/) printf '{"ServerURL":"%s","Username":"<token>","Secret":"tok-123"}\n' "$server" ;;
  *) echo "credentials not found in native keychain"; exit 1 ;;
esac"#;

    #[test]
    fn no_config_file_is_none_and_an_empty_one_too() {
        let dir = TempDir::new("none");
        assert_eq!(from_docker_config_at("busybox", &dir.0, dir.path_env()), Ok(None));
        assert_eq!(from_docker_config_at("busybox", &dir.0.join("absent"), dir.path_env()), Ok(None));
        let at = dir.config("  \n");
        assert_eq!(from_docker_config_at("busybox", at, dir.path_env()), Ok(None));
    }

    #[test]
    fn docker_config_auths_by_docker_keys() {
        let dir = TempDir::new("auths");
        let json = serde_json::json!({ "auths": {
            "https://index.docker.io/v1/": { "auth": b64(&format!("hub:{PASSWORD}")) },
            "https://registry.example.com/v2/": { "username": "reg", "password": PASSWORD },
            "127.0.0.1:5000": { "identitytoken": "tok-xyz" },
            "desktop.example.com": {},
        }});
        let at = dir.config(&json.to_string());
        let get = |image: &str| from_docker_config_at(image, at, dir.path_env()).unwrap();
        let hub = get("busybox").unwrap();
        assert_eq!((hub.username.as_str(), hub.password.as_str()), ("hub", PASSWORD));
        assert_eq!(hub.server, "https://index.docker.io/v1/");
        // A URL-shaped key serves its host (Docker's legacy-key rule).
        let reg = get("registry.example.com/team/app:1").unwrap();
        assert_eq!((reg.username.as_str(), reg.server.as_str()), ("reg", "https://registry.example.com/v2/"));
        let tok = get("127.0.0.1:5000/x").unwrap();
        assert_eq!(tok.identity_token.as_deref(), Some("tok-xyz"));
        // A `{}` marker (Docker Desktop's) and an unknown registry: nothing.
        assert_eq!(get("desktop.example.com/x"), None);
        assert_eq!(get("quay.io/x"), None);
    }

    #[test]
    fn docker_config_hub_aliases() {
        let dir = TempDir::new("alias");
        let at = dir
            .config(&serde_json::json!({ "auths": { "docker.io": { "username": "u", "password": "p" }}}).to_string());
        let hub = from_docker_config_at("library/busybox", at, dir.path_env()).unwrap().unwrap();
        assert_eq!((hub.username.as_str(), hub.server.as_str()), ("u", "docker.io"));
        assert_eq!(from_docker_config_at("localhost/busybox", at, dir.path_env()).unwrap(), None);
    }

    #[test]
    fn broken_docker_config_is_an_error_naming_the_file_not_its_content() {
        let dir = TempDir::new("broken");
        let at = dir.config(&format!("{{\"auths\": {{\"r.io\": {{\"password\": [\"{PASSWORD}\"]}}}}}}"));
        let err = from_docker_config_at("r.io/x", at, dir.path_env()).unwrap_err();
        assert!(matches!(err, AuthError::ConfigJson { .. }), "{err:?}");
        let shown = format!("{err} {err:?}");
        assert!(shown.contains("config.json") && !shown.contains(PASSWORD), "{shown}");

        let at = dir.config(&serde_json::json!({ "auths": { "r.io": { "auth": b64(PASSWORD) }}}).to_string());
        let err = from_docker_config_at("r.io/x", at, dir.path_env()).unwrap_err();
        assert!(matches!(&err, AuthError::ConfigAuth { server, .. } if server == "r.io"), "{err:?}");
        assert!(!format!("{err} {err:?}").contains(PASSWORD));
    }

    #[cfg(unix)]
    #[test]
    fn creds_store_runs_the_helper_with_the_server_on_stdin() {
        let dir = TempDir::new("store");
        dir.helper("fake", STORE_HELPER);
        let at = dir.config(
            r#"{"credsStore": "fake", "auths": {"reg.example.com": {"username": "file", "password": "file"}}}"#,
        );
        let creds = from_docker_config_at("reg.example.com/app:1", at, dir.path_env()).unwrap().unwrap();
        // The username echoes the argument: the helper was run as `get`.
        assert_eq!((creds.username.as_str(), creds.password.as_str()), ("alice-get", "store-pw"));
        assert_eq!(creds.server, "reg.example.com");
        // Docker Hub is asked about by its index URL; `<token>` makes the Secret a token.
        let hub = from_docker_config_at("busybox", at, dir.path_env()).unwrap().unwrap();
        assert_eq!(hub.identity_token.as_deref(), Some("tok-123"));
        assert_eq!((hub.username.as_str(), hub.password.as_str()), ("", ""));
        assert_eq!(hub.server, "https://index.docker.io/v1/");
        // "Not found" from the store is no credentials, not an error.
        assert_eq!(from_docker_config_at("quay.io/x", at, dir.path_env()), Ok(None));
    }

    #[cfg(unix)]
    #[test]
    fn cred_helpers_come_before_the_creds_store() {
        let dir = TempDir::new("helpers");
        dir.helper("fake", STORE_HELPER);
        dir.helper("special", r#"printf '{"ServerURL":"x","Username":"special","Secret":"special-pw"}'"#);
        let json = r#"{"credsStore": "fake", "credHelpers": {"reg.example.com": "special", "plain.example.com": ""},
                       "auths": {"plain.example.com": {"username": "plain", "password": "p"}}}"#;
        let at = dir.config(json);
        let get = |image: &str| from_docker_config_at(image, at, dir.path_env()).unwrap().map(|c| c.username);
        assert_eq!(get("reg.example.com/app").as_deref(), Some("special"));
        // Other registries still go to the store...
        assert_eq!(get("busybox"), Some(String::new()));
        // ...except one whose helper is "", which Docker reads from `auths`.
        assert_eq!(get("plain.example.com/app").as_deref(), Some("plain"));
    }

    #[cfg(unix)]
    #[test]
    fn a_failing_helper_is_an_error_naming_it_and_its_status_not_its_output() {
        let dir = TempDir::new("fail");
        dir.helper("broken", &format!("cat >/dev/null; echo 'leaked {PASSWORD}'; exit 3"));
        let at = dir.config(r#"{"credsStore": "broken"}"#);
        let err = from_docker_config_at("busybox", at, dir.path_env()).unwrap_err();
        assert!(matches!(err, AuthError::HelperFailed { .. }), "{err:?}");
        let shown = err.to_string();
        assert!(shown.contains("docker-credential-broken") && shown.contains('3'), "{shown}");
        assert!(!format!("{shown} {err:?}").contains(PASSWORD), "{shown}");

        // Output that is not the protocol's JSON: an error by position, without the content.
        dir.helper("garbled", &format!("echo '{{\"Username\": [\"{PASSWORD}\"]}}'"));
        let at = dir.config(r#"{"credsStore": "garbled"}"#);
        let err = from_docker_config_at("busybox", at, dir.path_env()).unwrap_err();
        assert!(matches!(err, AuthError::HelperOutput { .. }), "{err:?}");
        assert!(!format!("{err} {err:?}").contains(PASSWORD));
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_helper_is_an_error_and_a_helper_name_is_never_a_path() {
        let dir = TempDir::new("missing");
        let at = dir.config(r#"{"credsStore": "nowhere"}"#);
        let err = from_docker_config_at("busybox", at, dir.path_env()).unwrap_err();
        assert_eq!(err, AuthError::HelperMissing { helper: "docker-credential-nowhere".into() });
        // A script outside the search path, reached by a name with a slash: refused.
        std::fs::create_dir(dir.0.join("sub")).unwrap();
        dir.helper("x", "echo '{}'");
        std::fs::rename(dir.0.join("docker-credential-x"), dir.0.join("sub").join("docker-credential-x")).unwrap();
        let at = dir.config(r#"{"credsStore": "../sub/x"}"#);
        assert!(matches!(from_docker_config_at("busybox", at, dir.path_env()), Err(AuthError::HelperMissing { .. })));
    }

    #[cfg(unix)]
    #[test]
    fn a_helper_that_hangs_is_killed_at_the_deadline() {
        let dir = TempDir::new("hang");
        dir.helper("slow", "exec sleep 30");
        let at = dir.config(r#"{"credsStore": "slow"}"#);
        let started = Instant::now();
        let err = lookup_docker_config("busybox", at, dir.path_env(), Duration::from_secs(1)).unwrap_err();
        assert_eq!(err, AuthError::HelperTimeout { helper: "docker-credential-slow".into(), seconds: 1 });
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    }

    #[test]
    fn config_store_keeps_the_secret_type() {
        let configs = store(&[config_json_secret("a", &[]), secret("b", None, "k", "v")]);
        assert_eq!(configs.secret_type("ns", "a"), Some(TYPE_DOCKER_CONFIG_JSON));
        assert_eq!(configs.secret_type("ns", "b"), None);
        assert_eq!(configs.secret_type("ns", "absent"), None);
    }
}
