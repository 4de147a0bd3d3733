//! Image references as `distribution/reference` reads them: which registry an image is pulled
//! from, and the repository path the kubelet's keyring matches credential keys against.

/// Docker Hub's canonical domain in image references.
pub(super) const DOCKER_HUB: &str = "docker.io";
/// Docker Hub's legacy ("Docker Index") domain; the kubelet's fallback key for Hub images.
pub(super) const LEGACY_HUB: &str = "index.docker.io";
/// The host Docker Hub's registry API actually answers on; users copy it into configs.
pub(super) const HUB_API: &str = "registry-1.docker.io";

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
pub(super) fn split_image(image: &str) -> (&str, String) {
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

pub(super) fn is_hub_alias(host: &str) -> bool {
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
    fn split_image_gives_the_repository_the_kubelet_matches() {
        assert_eq!(split_image("busybox"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split_image("docker.io/busybox:1"), ("docker.io", "library/busybox".to_owned()));
        assert_eq!(split_image("index.docker.io/u/app"), ("docker.io", "u/app".to_owned()));
        assert_eq!(split_image("quay.io/coreos/etcd:v3@sha256:abc"), ("quay.io", "coreos/etcd".to_owned()));
        assert_eq!(split_image("localhost:5000/x"), ("localhost:5000", "x".to_owned()));
    }
}
