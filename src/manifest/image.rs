//! Image references as `distribution/reference` reads them: the registry an image is pulled
//! from, the repository path the kubelet's keyring matches credential keys against, and the tag
//! or digest that says which image of the repository is meant (none: [`DEFAULT_TAG`]).

/// Docker Hub's canonical domain in image references.
pub const DOCKER_HUB: &str = "docker.io";
/// Docker Hub's legacy ("Docker Index") domain; the kubelet's fallback key for Hub images.
pub const LEGACY_HUB: &str = "index.docker.io";
/// The host Docker Hub's registry API actually answers on; users copy it into configs.
pub const HUB_API: &str = "registry-1.docker.io";
/// The tag an image reference without a tag or digest means.
pub const DEFAULT_TAG: &str = "latest";

/// One image reference, in its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference<'a> {
    /// The registry host, normalised as Docker does (`docker.io` for Docker Hub).
    pub domain: &'a str,
    /// The repository path in that registry (`library/busybox` for Hub's `busybox`): the
    /// kubelet's `repoToPull`.
    pub repository: String,
    /// The tag written after the last `/`'s `:` (a `:` before that is a registry port).
    pub tag: Option<&'a str>,
    /// What follows `@` (`sha256:...`).
    pub digest: Option<&'a str>,
}

impl<'a> Reference<'a> {
    /// `splitDockerDomain` of `distribution/reference`, with the tag and digest taken off the
    /// path: `busybox` is `docker.io`, `library/busybox`; `registry.k8s.io/busybox:1.27` is
    /// `registry.k8s.io`, `busybox`, tag `1.27`; `127.0.0.1:5000/x/y@sha256:..` is
    /// `127.0.0.1:5000`, `x/y` and the digest (a first path component is a registry when it
    /// contains '.' or ':' or is `localhost`).
    pub fn parse(image: &'a str) -> Reference<'a> {
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
        let repository =
            if domain == DOCKER_HUB && !path.contains('/') { format!("library/{path}") } else { path.to_owned() };
        let (name, digest) = match image.split_once('@') {
            Some((name, digest)) => (name, Some(digest)),
            None => (image, None),
        };
        let last = name.rsplit('/').next().unwrap_or(name);
        let tag = last.rsplit_once(':').map(|(_, tag)| tag);
        Reference { domain, repository, tag, digest }
    }

    /// Whether the reference means the newest image of its repository: no digest, and no tag
    /// or [`DEFAULT_TAG`].
    pub fn means_latest(&self) -> bool {
        self.digest.is_none() && self.tag.is_none_or(|t| t == DEFAULT_TAG)
    }
}

/// The registry host an image reference pulls from, normalised as Docker does:
/// `busybox` -> `docker.io`, `localhost/x` -> `localhost` (see [`Reference::parse`]).
pub fn registry_of(image: &str) -> String {
    Reference::parse(image).domain.to_owned()
}

/// Docker pulls every tag of a repository when given none; Kubernetes means [`DEFAULT_TAG`].
pub fn pull_reference(image: &str) -> String {
    let r = Reference::parse(image);
    if r.digest.is_some() || r.tag.is_some() {
        image.to_owned()
    } else {
        format!("{image}:{DEFAULT_TAG}")
    }
}

/// Whether `host` is one of the names Docker Hub goes by in credential keys.
pub fn is_hub_alias(host: &str) -> bool {
    matches!(host, DOCKER_HUB | LEGACY_HUB | HUB_API)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_repository_is_the_one_the_kubelet_matches() {
        let split = |image| {
            let r = Reference::parse(image);
            (r.domain, r.repository)
        };
        assert_eq!(split("busybox"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split("docker.io/busybox:1"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split("index.docker.io/u/app"), ("docker.io", "u/app".to_owned()));
        assert_eq!(split("quay.io/coreos/etcd:v3@sha256:abc"), ("quay.io", "coreos/etcd".to_owned()));
        assert_eq!(split("localhost:5000/x"), ("localhost:5000", "x".to_owned()));
    }

    #[test]
    fn the_tag_follows_the_last_component_and_the_digest_the_at() {
        let parts = |image| {
            let r = Reference::parse(image);
            (r.tag, r.digest, r.means_latest())
        };
        assert_eq!(parts("busybox"), (None, None, true));
        assert_eq!(parts("busybox:latest"), (Some("latest"), None, true));
        assert_eq!(parts("busybox:1.28"), (Some("1.28"), None, false));
        assert_eq!(parts("localhost:5000/busybox"), (None, None, true));
        assert_eq!(parts("localhost:5000/busybox:1"), (Some("1"), None, false));
        assert_eq!(parts("busybox@sha256:abcd"), (None, Some("sha256:abcd"), false));
        assert_eq!(parts("busybox:latest@sha256:abcd"), (Some("latest"), Some("sha256:abcd"), false));
    }

    #[test]
    fn pull_reference_adds_latest_only_when_needed() {
        assert_eq!(pull_reference("busybox"), "busybox:latest");
        assert_eq!(pull_reference("busybox:1.28"), "busybox:1.28");
        assert_eq!(pull_reference("127.0.0.1:5000/x"), "127.0.0.1:5000/x:latest");
        assert_eq!(pull_reference("127.0.0.1:5000/x:2"), "127.0.0.1:5000/x:2");
        assert_eq!(pull_reference("x@sha256:ab"), "x@sha256:ab");
    }
}
