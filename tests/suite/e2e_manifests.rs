//! The project's own manifests (tests/manifests, see its README) end to end. Each one under
//! `run/` is applied to the real engine with the ConfigMaps and Secrets of `config/`; its
//! containers must show what the manifest is about (SHOWS, HIDES, STATES and ENGINE below), and
//! deleting it must leave nothing behind. Those under `refused/` and `invalid/` must exit 2
//! with what their `# expect-error:` lines say, and create nothing. On Docker, then on Podman,
//! then run by an ordinary user on its rootless Podman (`scripts/test` makes both), where
//! `ROOTLESS` says what differs.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::manifests::{expectations, owned, owned_config_args};
use crate::common::*;

/// Manifests whose apply must end with another exit code than 0.
const EXITS: &[(&str, i32)] = &[("termination-message.yaml", 6)];

/// What containers print: (file, container, text its output holds). `{ns}` stands for the
/// namespace the test applies the manifest in.
const SHOWS: &[(&str, &str, &str)] = &[
    ("env-downward.yaml", "show", "GREETING=hello"),
    ("env-downward.yaml", "show", "POD_NAME=env-downward"),
    ("env-downward.yaml", "show", "POD_NAMESPACE={ns}"),
    ("env-downward.yaml", "show", "POD_TIER=backend"),
    ("env-downward.yaml", "show", "SERVICE_ACCOUNT=default"),
    ("env-downward.yaml", "show", "CPU_LIMIT=2"),
    ("env-downward.yaml", "show", "CPU_REQUEST_MILLICORES=250"),
    ("env-downward.yaml", "show", "MEMORY_REQUEST=33554432"),
    ("env-downward.yaml", "show", "MEMORY_LIMIT_MI=64"),
    ("env-dependent.yaml", "show", "EARLY_URL=$(SCHEME)://127.0.0.1:8080"),
    ("env-dependent.yaml", "show", "URL=http://127.0.0.1:8080"),
    ("env-dependent.yaml", "show", "LITERAL=$(URL) is not expanded"),
    ("env-dependent.yaml", "show", "UNDEFINED=$(NOT_DEFINED_ANYWHERE)"),
    ("env-dependent.yaml", "show", "arg: http://127.0.0.1:8080"),
    ("env-config.yaml", "show", "APP_COLOR=green"),
    ("env-config.yaml", "show", "APP_LOG_LEVEL=debug"),
    ("env-config.yaml", "show", "TOKEN=t0k3n-for-tests"),
    ("env-config.yaml", "show", "MODE=demo"),
    ("env-config.yaml", "show", "DB_USER=ada.lovelace"),
    ("volumes-config.yaml", "show", "440 mode\n440 greeting.txt\n440 app.properties\n440 blob.bin\n"),
    ("volumes-config.yaml", "show", "hello from a configmap"),
    ("volumes-config.yaml", "show", " 00 01 02 ff"),
    ("volumes-config.yaml", "show", "600 /etc/picked/conf/app.properties\n644 /etc/picked/mode-copy\n"),
    ("volumes-config.yaml", "show", "retries=3\ncolor=blue\n"),
    ("volumes-config.yaml", "show", "400 /etc/creds/username\n400 /etc/creds/password\n"),
    ("volumes-config.yaml", "show", "user: ada.lovelace"),
    ("volumes-config.yaml", "show", "optional entries: 0"),
    ("volumes-config.yaml", "show", "settings: read-only"),
    ("volumes-downward-projected.yaml", "show", "podinfo/labels: app=\"reporter\"\nzone=\"eu-north\"\n"),
    ("volumes-downward-projected.yaml", "show", "podinfo/annotations: owner=\"team-a\""),
    ("volumes-downward-projected.yaml", "show", "podinfo/name: volumes-downward-projected"),
    ("volumes-downward-projected.yaml", "show", "podinfo/cpu_limit_millis: 500"),
    ("volumes-downward-projected.yaml", "show", "podinfo/mem_request_mi: 16"),
    ("volumes-downward-projected.yaml", "show", "projected/my-group/user 400: ada.lovelace"),
    ("volumes-downward-projected.yaml", "show", "projected/my-group/settings/mode 444: demo"),
    ("volumes-downward-projected.yaml", "show", "projected/labels 444: app=\"reporter\""),
    ("volumes-downward-projected.yaml", "show", "projected/cpu_limit 444: 1"),
    ("secret-dotfile.yaml", "show", "visible: 0\n.hidden-token\ndotfile contents\n"),
    ("host-aliases.yaml", "show", "app.local"),
    ("host-aliases.yaml", "show", "db.local"),
    ("host-aliases.yaml", "show", "cache.remote"),
    ("host-aliases.yaml", "show", "hostname: api"),
    ("init-emptydir.yaml", "app", "step 1\nstep 2\ncached\nstep 3 in work\n"),
    ("logging-sidecar.yaml", "stream-events", "event 0\nevent 1\n"),
    ("logging-sidecar.yaml", "stream-audit", "audit 0\naudit 1\n"),
    ("termination-message.yaml", "falls-back", "something went wrong"),
    ("liveness-exec.yaml", "liveness", "second run"),
    ("security-context.yaml", "show", "uid=1000 gid=3000 groups=2000 3000 4000 \n"),
    ("security-context.yaml", "show", "CapEff:\t0000000000000000"),
    ("security-context.yaml", "show", "NoNewPrivs:\t1"),
    ("security-context.yaml", "show", "root filesystem: read-only"),
    ("security-context.yaml", "show", "data: writable, group 2000"),
];

/// What containers must not print: (file, container, text).
const HIDES: &[(&str, &str, &str)] = &[
    // Optional references to what does not exist set nothing.
    ("env-config.yaml", "show", "ABSENT"),
    ("env-config.yaml", "show", "no-such"),
];

/// What `apply -o json` reports of a container: (file, container, JSON pointer into its status,
/// the value). Strings need only start with the text given; other values are compared whole.
const STATES: &[(&str, &str, &str, &str)] = &[
    ("termination-message.yaml", "writes-file", "/state/terminated/message", "all done\n"),
    ("termination-message.yaml", "writes-file", "/state/terminated/exitCode", "0"),
    ("termination-message.yaml", "falls-back", "/state/terminated/message", "something went wrong\n"),
    ("termination-message.yaml", "falls-back", "/state/terminated/exitCode", "3"),
    ("liveness-exec.yaml", "liveness", "/restartCount", "1"),
    // Then the reason: the command's exit code, or a timeout where exec is slow (Podman).
    ("liveness-exec.yaml", "liveness", "/lastState/terminated/message", "killed: liveness probe failed: "),
    ("liveness-exec.yaml", "liveness", "/state/terminated/exitCode", "0"),
    ("init-emptydir.yaml", "first", "/state/terminated/reason", "Completed"),
    ("init-emptydir.yaml", "second", "/state/terminated/reason", "Completed"),
    // The native sidecar keeps running beside the app containers.
    ("logging-sidecar.yaml", "stream-events", "/state/running/startedAt", ""),
    ("logging-sidecar.yaml", "writer", "/restartCount", "0"),
];

/// What the engine was told to do with a container: (file, container, `docker inspect`
/// format, the value).
const RESOURCES: &str = "{{.HostConfig.Memory}} {{.HostConfig.MemoryReservation}} {{.HostConfig.CpuQuota}} \
                         {{.HostConfig.CpuPeriod}} {{.HostConfig.CpuShares}}";
const ENGINE: &[(&str, &str, &str, &str)] = &[
    // Memory limit and request in bytes; a CPU limit as a quota per 100 ms; a CPU request as
    // shares (1024 a core), the limit standing in for a missing request, 2 without either.
    ("resources.yaml", "both", RESOURCES, "104857600 52428800 50000 100000 102"),
    ("resources.yaml", "requests-only", RESOURCES, "0 20000000 0 0 256"),
    ("resources.yaml", "limits-only", RESOURCES, "1073741824 0 100000 100000 1024"),
    ("resources.yaml", "none", RESOURCES, "0 0 0 0 2"),
    // The capabilities dropped show in the container (CapEff above): Podman lists them one by
    // one where Docker says ALL.
    ("security-context.yaml", "show", "{{.HostConfig.ReadonlyRootfs}}", "true"),
];

/// Where a rootless engine differs (see src/pod/rootless.rs): (file, container, text in SHOWS
/// it replaces, the text instead). fsGroup's ownership of volume files is dropped: the emptyDir
/// stays its creator's, root in the container.
const ROOTLESS_SHOWS: &[(&str, &str, &str, &str)] =
    &[("security-context.yaml", "show", "data: writable, group 2000", "data: writable, group 0")];

/// What apply must warn of on a rootless engine: (file, text its standard error holds).
const ROOTLESS_WARNS: &[(&str, &str)] =
    &[("security-context.yaml", "spec.securityContext.fsGroup: volume files are not given group 2000")];

/// And on a rootless engine on a cgroup v1 host, which drops CPU and memory settings: what
/// the engine shows then replaces ENGINE's RESOURCES rows.
const ROOTLESS_V1_WARNS: &[(&str, &str)] = &[(
    "resources.yaml",
    "spec.containers[0].resources, spec.containers[1].resources, spec.containers[2].resources: not enforced: \
     the engine is rootless on a cgroup v1 host",
)];
const ROOTLESS_V1_RESOURCES: &str = "0 0 0 0 0";

/// Pods a rootless engine cannot run, refused up front: (name, manifest, the error).
const ROOTLESS_REFUSED: &[(&str, &str, &str)] = &[
    (
        "low-port",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: low-port}\nspec:\n  containers:\n  - {name: web, image: busybox:1.28, \
         command: [sleep, '60'], ports: [{containerPort: 80, hostPort: 80}]}\n",
        "spec.containers[0].ports[0].hostPort: Invalid value: 80: the engine is rootless",
    ),
    (
        "host-network",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: host-network}\nspec:\n  hostNetwork: true\n  containers:\n  - \
         {name: c, image: busybox:1.28, command: [sleep, '60']}\n",
        "spec.hostNetwork: Unsupported value: true: the engine is rootless",
    ),
    (
        "unmapped-user",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: unmapped-user}\nspec:\n  securityContext: {runAsUser: 4000000}\n  \
         containers:\n  - {name: c, image: busybox:1.28, command: [sleep, '60']}\n",
        "spec.securityContext.runAsUser: Invalid value: 4000000: the engine is rootless",
    ),
];

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The ids of a container's instances in the namespace, by the names podrun gives them.
fn instances(ns: &Namespace, pod: &str, container: &str) -> Vec<String> {
    let infix = format!("_{}_{pod}_{container}_", ns.name());
    ns.containers().into_iter().filter(|(_, name)| name.contains(&infix)).map(|(id, _)| id).collect()
}

fn output_of(ns: &Namespace, pod: &str, container: &str) -> String {
    instances(ns, pod, container).iter().map(|id| ns.logs(id)).collect()
}

/// A container's status in apply's `-o json` output (init containers' too).
fn status_of<'a>(json: &'a serde_json::Value, container: &str) -> Option<&'a serde_json::Value> {
    let status = &json["items"][0]["status"];
    ["initContainerStatuses", "containerStatuses"]
        .iter()
        .filter_map(|list| status[list].as_array())
        .flatten()
        .find(|c| c["name"] == container)
}

/// Applies one manifest of `run/` on `target`, checks what it must show, and deletes it.
fn run_case(target: Target, path: &Path) -> Result<(), String> {
    let file = file_name(path);
    let stem = file.trim_end_matches(".yaml");
    let ns = Namespace::for_target(target, &format!("own-{stem}"));
    let rootless = match target {
        Target::Rootless(r) => Some(r.cgroup_version()),
        Target::Engine(_) | Target::Cri(_) => None,
    };
    let mut args: Vec<String> =
        ["apply", &path.display().to_string(), "-n", ns.name(), "--timeout", "90s", "-o", "json"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    args.extend(owned_config_args());
    let out = target.podrun(&args);
    let expected = EXITS.iter().find(|(f, _)| *f == file).map_or(0, |(_, c)| *c);
    if code(&out) != expected {
        return Err(format!("{file}: expected exit {expected}, got {}:\n{}", code(&out), stderr(&out)));
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{file}: apply -o json printed no JSON ({e}):\n{}", stdout(&out)))?;
    let pod = json["items"][0]["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let mut problems = Vec::new();

    let warns = match rootless {
        Some(1) => ROOTLESS_WARNS.iter().chain(ROOTLESS_V1_WARNS).collect(),
        Some(_) => ROOTLESS_WARNS.iter().collect(),
        None => Vec::new(),
    };
    for (_, text) in warns.into_iter().filter(|(f, _)| *f == file) {
        if !stderr(&out).contains(text) {
            problems.push(format!("apply did not warn {text:?}:\n{}", stderr(&out)));
        }
    }
    for (_, container, pointer, want) in STATES.iter().filter(|(f, ..)| *f == file) {
        let value = status_of(&json, container).and_then(|s| s.pointer(pointer));
        let matches = match value {
            Some(serde_json::Value::String(s)) => s.starts_with(want),
            Some(other) => other.to_string().as_str() == *want,
            None => false,
        };
        if !matches {
            let got = value.map_or("(absent)".to_owned(), ToString::to_string);
            problems.push(format!("{container}{pointer}: expected {want:?}, got {got:?}"));
        }
    }
    // What the Docker API shows of a container's settings; a CRI runtime's are checked from
    // inside the container (SHOWS).
    let engine_checks = if matches!(target, Target::Cri(_)) { &[][..] } else { ENGINE };
    for (_, container, format, want) in engine_checks.iter().filter(|(f, ..)| *f == file) {
        let want = if rootless == Some(1) && *format == RESOURCES { ROOTLESS_V1_RESOURCES } else { want };
        let ids = instances(&ns, &pod, container);
        let got = ids.first().map(|id| ns.inspect(id, format)).unwrap_or_else(|| "(no container)".to_owned());
        if got != *want {
            problems.push(format!("{container} {format}: expected {want:?}, got {got:?}"));
        }
    }
    for (_, container, text) in SHOWS.iter().filter(|(f, ..)| *f == file) {
        let instead = ROOTLESS_SHOWS.iter().find(|(f, c, t, _)| *f == file && c == container && t == text);
        let text = match instead {
            Some((.., other)) if rootless.is_some() => other,
            _ => text,
        };
        let text = text.replace("{ns}", ns.name());
        // Bounded: the containers print soon after they start (those still running too).
        let printed = poll(Duration::from_secs(20), Duration::from_millis(200), || {
            let output = output_of(&ns, &pod, container);
            if output.contains(&text) {
                Ok(())
            } else {
                Err(output)
            }
        });
        if let Err(output) = printed {
            problems.push(format!("{container} never printed {text:?}; it printed:\n{output}"));
        }
    }
    for (_, container, text) in HIDES.iter().filter(|(f, ..)| *f == file) {
        let output = output_of(&ns, &pod, container);
        if output.contains(text) {
            problems.push(format!("{container} printed {text:?}:\n{output}"));
        }
    }

    let del: Vec<String> = ["delete", &path.display().to_string(), "-n", ns.name(), "--grace-period", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let deleted = target.podrun(&del);
    if code(&deleted) != 0 || !ns.containers().is_empty() {
        problems.push(format!("delete left {:?}: {}", ns.containers(), stderr(&deleted)));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{file}:\n  {}", problems.join("\n  ")))
    }
}

/// Applies one manifest of `refused/` or `invalid/`: exit 2 with its expected error, and
/// nothing created.
fn refuse_case(target: Target, path: &Path) -> Result<(), String> {
    let file = file_name(path);
    let errors = expectations(path, "expect-error");
    refused(target, path, &file, &errors)
}

/// Applies `path`: exit 2 naming every one of `errors`, and nothing created.
fn refused(target: Target, path: &Path, file: &str, errors: &[String]) -> Result<(), String> {
    let ns = Namespace::for_target(target, &format!("own-{}", file.trim_end_matches(".yaml")));
    let mut args: Vec<String> = ["apply", &path.display().to_string(), "-n", ns.name(), "--timeout", "30s"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(owned_config_args());
    let out = target.podrun(&args);
    let (status, err) = (code(&out), stderr(&out));
    if status != 2 || errors.is_empty() || errors.iter().any(|e| !err.contains(e.as_str())) {
        return Err(format!("{file}: expected exit 2 naming {errors:?}, got exit {status}:\n{err}"));
    }
    if !ns.containers().is_empty() {
        return Err(format!("{file}: refused, yet containers exist: {:?}", ns.containers()));
    }
    Ok(())
}

/// Every manifest on `target`: the failures.
fn run_all(target: Target) -> Vec<String> {
    let run = owned("run");
    let rest: Vec<PathBuf> = owned("refused").into_iter().chain(owned("invalid")).collect();
    // Two at a time: two cores, and the engine serialises network setup.
    let mut failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let chunk: Vec<&PathBuf> = run.iter().skip(k).step_by(2).collect();
                s.spawn(move || chunk.into_iter().filter_map(|p| run_case(target, p).err()).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a manifest thread panicked")).collect()
    });
    failures.extend(rest.iter().filter_map(|p| refuse_case(target, p).err()));
    failures
}

#[test]
fn e2e_the_projects_own_manifests() {
    require_engine!();
    let failures = run_all(Target::Engine(None));
    assert!(failures.is_empty(), "{} manifests failed:\n\n{}", failures.len(), failures.join("\n\n"));
    // Then on Podman, after Docker rather than beside it: pods of the same name on both engines
    // would share podrun's files on the host.
    if let Some(host) = podman(test_name!()) {
        let failures = run_all(Target::Engine(Some(&host)));
        assert!(failures.is_empty(), "on Podman, {} manifests failed:\n\n{}", failures.len(), failures.join("\n\n"));
    }
}

/// The same manifests run by an ordinary user on its rootless Podman, with podrun's state under
/// the user's XDG directories; and what rootless cannot do is refused up front. Its own test, so
/// it runs beside the others: its engine and files are the user's alone.
#[test]
fn e2e_the_projects_own_manifests_on_containerd() {
    require_cri!(endpoint);
    let failures = run_all(Target::Cri(&endpoint));
    assert!(failures.is_empty(), "{} manifests failed on containerd:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn e2e_the_projects_own_manifests_on_rootless_podman() {
    require_rootless!(rootless);
    let target = Target::Rootless(&rootless);
    let mut failures = run_all(target);
    for (name, yaml, error) in ROOTLESS_REFUSED {
        let file = TempFile::new(&format!("{name}.yaml"), yaml);
        let errors = [(*error).to_owned()];
        failures.extend(refused(target, &file.0, &format!("rootless-{name}.yaml"), &errors).err());
    }
    // podrun kept its state under the user's XDG directories (termination-message.yaml's
    // termination-log files at least), as the user's.
    let uid = |p: &Path| std::fs::metadata(p).map(|m| std::os::unix::fs::MetadataExt::uid(&m)).ok();
    let state = Path::new(&rootless.home).join(".local/state/podrun/pods");
    if uid(&state).is_none() || uid(&state) != uid(Path::new(&rootless.home)) {
        failures.push(format!("podrun's state {} is missing or not the user's", state.display()));
    }
    assert!(
        failures.is_empty(),
        "on rootless Podman, {} manifests failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The tables above name only manifests of `run/`, and each of those has something to show,
/// so a new manifest does not run unchecked.
#[test]
fn every_run_manifest_is_checked() {
    let files: Vec<String> = owned("run").iter().map(|p| file_name(p)).collect();
    for (file, container, text, _) in ROOTLESS_SHOWS {
        assert!(SHOWS.contains(&(file, container, text)), "ROOTLESS_SHOWS replaces {text:?}, which SHOWS lacks");
    }
    let named: Vec<&str> = SHOWS
        .iter()
        .map(|(f, ..)| *f)
        .chain(HIDES.iter().map(|(f, ..)| *f))
        .chain(STATES.iter().map(|(f, ..)| *f))
        .chain(ENGINE.iter().map(|(f, ..)| *f))
        .chain(EXITS.iter().map(|(f, _)| *f))
        .collect();
    for name in &named {
        assert!(files.iter().any(|f| f == name), "{name} is not in tests/manifests/run");
    }
    for file in &files {
        assert!(named.contains(&file.as_str()), "{file} has nothing to show in tests/suite/e2e_manifests.rs");
    }
}

/// The manifests of `run/` name only images that `scripts/build-test-images` tags (no registry
/// is reachable in the tests, so any other name would fail to pull).
#[test]
fn run_manifests_use_only_the_test_images() {
    let script = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/build-test-images"))
        .expect("scripts/build-test-images");
    let tags: Vec<&str> = script
        .split_once("TAGS=(")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(list, _)| list.split_whitespace().collect())
        .unwrap_or_default();
    assert!(tags.contains(&"busybox:1.28"), "no TAGS list in scripts/build-test-images: {tags:?}");
    for path in owned("run") {
        let text = std::fs::read_to_string(&path).expect("readable manifest");
        let images: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().trim_start_matches("- ").strip_prefix("image:"))
            .map(|v| v.trim().trim_end_matches(',').trim_matches('"'))
            .collect();
        assert!(!images.is_empty(), "{}: no image found", path.display());
        for image in images {
            assert!(tags.contains(&image), "{}: image {image} is not one of {tags:?}", path.display());
        }
    }
}
