//! The kubelet's credential keyring (`pkg/credentialprovider/keyring.go`): keys may be URLs,
//! may carry a path (`quay.io/coreos`) or globs in the host (`*.example.com`); the most specific
//! key wins, and Docker Hub images fall back to the `index.docker.io` entry.

use std::collections::BTreeMap;

use super::glob::glob_match;
use super::Credentials;
use crate::manifest::image::{DOCKER_HUB, HUB_API, LEGACY_HUB};

/// The kubelet's `BasicDockerKeyring`: credentials by key (host, or host and path), in the
/// order they were added.
#[derive(Default)]
pub(super) struct Keyring {
    creds: BTreeMap<String, Vec<Credentials>>,
}

impl Keyring {
    /// `BasicDockerKeyring.Add` for one entry: the scheme is dropped, and a `/v1/` or `/v2/`
    /// path counts as no path (Docker's API prefixes, not repository paths).
    pub(super) fn add(&mut self, server: &str, creds: Credentials) {
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
    pub(super) fn lookup(&self, target: &str) -> Option<&Credentials> {
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
