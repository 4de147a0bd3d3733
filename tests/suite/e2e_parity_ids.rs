//! Container and image ids in a pod's status with the scheme of the runtime that runs it, as a
//! kubelet on that runtime names them, and the id after the scheme one the engine knows.

use crate::common::*;

fn podrun_ok(target: Target, args: &[&str]) -> String {
    let o = target.run(args);
    assert_eq!(code(&o), 0, "{}: {args:?}: {}", target.name(), stderr(&o));
    stdout(&o)
}

/// The scheme a kubelet on the target's runtime gives a container id (podrun's for Podman).
fn scheme_of(target: Target) -> &'static str {
    match target {
        Target::Cri(_) => "containerd://",
        Target::Engine(Some(_)) | Target::Rootless(_) => "podman://",
        Target::Engine(None) => "docker://",
    }
}

/// Whether the engine knows `id` as a container of namespace `ns`.
fn engine_knows(target: Target, ns: &Namespace, id: &str) -> bool {
    match target {
        Target::Cri(endpoint) => cri::containers(endpoint, ns.name()).iter().any(|c| c.id == id && !c.is_sandbox()),
        _ => stdout(&docker_on(target.host(), &["inspect", "--format", "{{.Id}}", id])).trim() == id,
    }
}

/// `containerID` starts with the runtime's scheme (`docker://`, `podman://`, `containerd://`)
/// and names a container the engine has; `imageID` is Docker's `docker-pullable://` form on
/// Docker and the runtime's own reference elsewhere; exec and logs still find the container.
fn ids_have_the_runtimes_scheme(target: Target) {
    let ns = Namespace::for_target(target, "parity-ids");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: ids}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers: [{{name: c, image: busybox:1.28, command: [sh, -c, 'echo hello-ids; {LOOP}']}}]\n"
    );
    let f = TempFile::new("pod.yaml", &pod);
    podrun_ok(target, &["apply", "-n", ns.name(), f.path(), "--timeout", "90s"]);
    let get = |path: &str| {
        let jsonpath = format!("jsonpath={{.status.containerStatuses[0].{path}}}");
        podrun_ok(target, &["get", "-n", ns.name(), "ids", "-o", &jsonpath])
    };
    let container_id = get("containerID");
    let id =
        container_id.strip_prefix(scheme_of(target)).unwrap_or_else(|| panic!("{}: {container_id}", target.name()));
    assert!(engine_knows(target, &ns, id), "{}: the engine has no container {id}", target.name());
    let image_id = get("imageID");
    match target {
        Target::Engine(None) => {
            assert!(image_id.starts_with("docker-pullable://") || image_id.starts_with("docker://"), "{image_id}");
        }
        _ => assert!(
            !image_id.contains("://") && (image_id.contains("@sha256:") || image_id.starts_with("sha256:")),
            "{}: {image_id}",
            target.name()
        ),
    }
    assert_eq!(podrun_ok(target, &["exec", "-n", ns.name(), "ids", "--", "echo", "in-ids"]), "in-ids\n");
    wait_until("the container's output in its logs", std::time::Duration::from_secs(20), || {
        let logs = podrun_ok(target, &["logs", "-n", ns.name(), "ids"]);
        if logs.contains("hello-ids") {
            Ok(())
        } else {
            Err(logs)
        }
    });
}

#[test]
fn e2e_docker_ids_have_the_runtimes_scheme() {
    require_engine!();
    ids_have_the_runtimes_scheme(Target::Engine(None));
}

#[test]
fn e2e_podman_ids_have_the_runtimes_scheme() {
    require_podman!(host);
    ids_have_the_runtimes_scheme(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_ids_have_the_runtimes_scheme() {
    require_cri!(endpoint);
    ids_have_the_runtimes_scheme(Target::Cri(&endpoint));
}
