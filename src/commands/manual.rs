//! The sections of podrun(1) that clap does not generate: EXAMPLES, ENVIRONMENT, FILES and EXIT
//! STATUS, in roff. They say in the manual what README.md and docs/ say for a user who reads
//! only `man podrun`.

/// The extra sections, in the order man-pages(7) gives them, after the commands.
pub const SECTIONS: &[(&str, &[Entry])] =
    &[("EXIT STATUS", EXIT_STATUS), ("ENVIRONMENT", ENVIRONMENT), ("FILES", FILES), ("EXAMPLES", EXAMPLES)];

/// One tagged paragraph: the tag in bold, then its text.
pub type Entry = (&'static str, &'static str);

const EXIT_STATUS: &[Entry] = &[
    ("0", "Success: every pod runs (or completed, or is ready), or there was nothing to do."),
    ("1", "An internal error, or what kubectl calls an error from the server: no such pod."),
    ("2", "Invalid usage or manifest; nothing was created."),
    ("3", "The container engine is unreachable."),
    ("4", "An image is unavailable: not found, denied, or ErrImageNeverPull."),
    ("5", "The pods did not get there before --timeout."),
    ("6", "A container failed (exited non-zero and will not be restarted, or kept crashing)."),
    ("7", "A pod was deleted while apply or wait ran."),
    ("8", "delete left containers that are another state directory's to touch."),
    ("130, 143", "Interrupted by SIGINT or SIGTERM."),
    ("141", "Standard output was closed (as SIGPIPE)."),
];

const ENVIRONMENT: &[Entry] = &[
    ("DOCKER_HOST", "The Docker or Podman engine address, when -H is not given."),
    ("DOCKER_CONTEXT", "The Docker context, when --context is not given."),
    ("DOCKER_TLS, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH", "TLS to a tcp:// engine, as docker takes them."),
    ("DOCKER_CONFIG", "Where Docker's config.json is: contexts and registry credentials."),
    ("CONTAINER_RUNTIME_ENDPOINT", "The CRI socket of containerd or CRI-O, as crictl takes it."),
    (
        "PODRUN_STATE_DIR",
        "podrun's state directory (see FILES). Every command must see the same one: get, wait, \
         logs and delete claim only the pods this state directory made.",
    ),
    ("XDG_STATE_HOME", "The parent of the state directory when podrun runs as another user than root."),
    ("PODRUN_LOG", "Log filter directives (podrun=debug, bollard=trace), beyond -v and -vv."),
    ("PODRUN_AUTO_UPDATE, PODRUN_AUTO_UPDATE_SETTLE", "Defaults of apply's --auto-update flags."),
    ("SSL_CERT_FILE", "The CA bundle for https:// manifests and registries, before the system's."),
    ("SSL_CERT_DIR", "Directories (colon-separated) of more CA certificates, one or more a file."),
    (
        "NOTIFY_SOCKET, WATCHDOG_USEC",
        "systemd's notification socket and watchdog: apply --supervise says READY=1 there, never \
         waiting on it, and WATCHDOG=1 at half WATCHDOG_USEC while it is healthy.",
    ),
    ("NO_COLOR", "When set and not empty, no colours on a terminal."),
];

const FILES: &[Entry] = &[
    (
        "/var/lib/podrun",
        "The state directory as root ($PODRUN_STATE_DIR overrides it; $XDG_STATE_HOME/podrun for \
         other users). Private (0700), podrun's own.",
    ),
    ("/var/lib/podrun/seal.key", "The key that proves a container is this state directory's."),
    (
        "/var/lib/podrun/pods/UID/",
        "Per pod: record.json (what podrun last saw and ran), the pod's events, termination \
         logs, etc-hosts, and its emptyDir, ConfigMap, Secret and projected volumes. Removed with \
         the pod.",
    ),
    ("/etc/podrun/pods/", "The static pods podrun-static-pods.service of the Debian package keeps running."),
];

const EXAMPLES: &[Entry] = &[
    ("podrun apply pod.yaml", "Run a pod and wait until its containers run (or complete)."),
    ("podrun apply --wait-for ready --timeout 2m -f web.yaml", "Wait until the readiness probes pass."),
    ("podrun apply --rm --exit-code-from test ci.yaml", "A CI job: its exit code is the test container's."),
    ("podrun apply --supervise /etc/podrun/pods", "Keep a directory of static pods running, as a kubelet."),
    ("podrun get pods -A", "List podrun's pods of every namespace, as kubectl get pods."),
    ("podrun get pod web -o jsonpath='{.status.podIP}'", "Read one field of the Pod object."),
    ("podrun describe pod web", "The pod's containers, conditions, volumes and events."),
    ("podrun logs web -c app --previous", "The output of the container's instance before its restart."),
    ("podrun exec -it web -- sh", "A shell in the pod's default container."),
    ("podrun cp web:/var/log/app ./logs", "Copy a directory out of a container."),
    ("podrun wait --for=condition=Ready pod/web", "Wait as kubectl wait does."),
    ("podrun delete web db", "Stop and remove two pods."),
    ("podrun --runtime-endpoint unix:///run/containerd/containerd.sock get pods", "The same, on containerd."),
];
