//! The ids of a container in its status, named as a kubelet on the container's runtime names
//! them (kuberuntime's toKubeContainerStatus, kubelet_pods.go's convertToAPIContainerStatuses):
//! `containerID` is `<runtime>://<id>`; `imageID` is the CRI's image ref as the runtime gives
//! it, and on Docker the `docker-pullable://` or `docker://` form cri-dockerd gives.

use crate::runtime::{IdScheme, Observed};

/// The container's `containerID`: `docker://…`, `podman://…`, `containerd://…`, `cri-o://…`.
pub fn container_id(c: &Observed) -> String {
    format!("{}://{}", c.scheme.name(), c.id)
}

/// The engine's own id in a status's `containerID` ([`container_id`]'s inverse), whichever
/// runtime's scheme it has (a record written on another engine, or before the scheme was the
/// runtime's, says `docker://`); an id without a scheme is taken as it is. Engine ids never
/// hold `://`.
pub fn engine_id(container_id: &str) -> &str {
    container_id.split_once("://").map_or(container_id, |(_, id)| id)
}

/// The container's `imageID`. Docker: `docker-pullable://repo@sha256:…` for an image from a
/// registry, `docker://sha256:…` for one built or imported locally, as cri-dockerd reports it.
/// Elsewhere the reference as the runtime gives it (`docker.io/library/busybox@sha256:…`, or
/// `sha256:…`), as a kubelet on a CRI runtime reports its image ref.
pub fn image_id(c: &Observed) -> String {
    match (&c.scheme, c.image_id.as_str()) {
        (_, "") => String::new(),
        (IdScheme::Docker, id) if id.contains('@') => format!("docker-pullable://{id}"),
        (IdScheme::Docker, id) => format!("docker://{id}"),
        (IdScheme::Podman | IdScheme::Cri(_), id) => id.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::fixtures::engine_container;

    fn on(scheme: IdScheme, image_id: &str) -> Observed {
        let mut c = engine_container("ns", "p", "app", "app", "2024-01-01T00:00:00Z");
        c.id = "0123abc".into();
        c.image_id = image_id.into();
        c.scheme = scheme;
        c
    }

    #[test]
    fn a_container_is_named_with_its_runtimes_scheme() {
        let cases = [
            (IdScheme::Docker, "docker://0123abc"),
            (IdScheme::Podman, "podman://0123abc"),
            (IdScheme::cri("containerd"), "containerd://0123abc"),
            (IdScheme::cri("cri-o"), "cri-o://0123abc"),
        ];
        for (scheme, want) in cases {
            let c = on(scheme, "");
            assert_eq!(container_id(&c), want);
            assert_eq!(engine_id(&container_id(&c)), "0123abc");
        }
    }

    #[test]
    fn every_scheme_reads_back_to_the_engines_id() {
        for id in ["docker://abc", "containerd://abc", "cri-o://abc", "podman://abc", "abc"] {
            assert_eq!(engine_id(id), "abc", "{id}");
        }
    }

    #[test]
    fn image_ids_are_the_runtimes_refs_and_dockers_keep_their_scheme() {
        let digest = "docker.io/library/busybox@sha256:5acba";
        let cases = [
            (IdScheme::Docker, digest, format!("docker-pullable://{digest}")),
            (IdScheme::Docker, "sha256:9f1", "docker://sha256:9f1".to_owned()),
            (IdScheme::Podman, digest, digest.to_owned()),
            (IdScheme::cri("containerd"), digest, digest.to_owned()),
            (IdScheme::cri("containerd"), "sha256:9f1", "sha256:9f1".to_owned()),
            (IdScheme::cri("cri-o"), "", String::new()),
            (IdScheme::Docker, "", String::new()),
        ];
        for (scheme, image, want) in cases {
            assert_eq!(image_id(&on(scheme.clone(), image)), want, "{scheme:?} {image}");
        }
    }
}
