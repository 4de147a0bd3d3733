//! The acceptance corpus end to end: every manifest from the Kubernetes documentation in
//! ../shared/k8s-examples (see its INDEX.tsv) is applied to the real engine. `run` ones must run
//! and do what the example says; `invalid` ones are refused (exit 2); `run-or-refuse` ones either
//! run or are refused up front with a message naming the feature. Nothing may be left behind.
//! An extra suite: without the corpus it says it skipped (tests/suite/e2e_manifests.rs is the
//! project's own). On Docker, then on Podman, and run by an ordinary user on its rootless
//! Podman, where an example that needs what rootless cannot give may instead be refused up
//! front, saying so (see src/pod/rootless.rs).

use std::path::PathBuf;
use std::time::Duration;

use crate::common::*;

fn corpus() -> PathBuf {
    PathBuf::from(crate::common::manifests::K8S_EXAMPLES)
}

struct Case {
    file: String,
    companions: Vec<String>,
    expected: String,
}

fn cases() -> Vec<Case> {
    let path = corpus().join("INDEX.tsv");
    let index = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = index.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (file, companions, expected) = (col("file"), col("companions"), col("expected"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                file: f[file].to_owned(),
                companions: f.get(companions).unwrap_or(&"").split_whitespace().map(str::to_owned).collect(),
                expected: f[expected].split_whitespace().next().unwrap_or("").to_owned(),
            }
        })
        .collect()
}

/// What some examples must be seen doing: (file, text one of its containers prints).
const SHOWS: &[(&str, &str)] = &[
    ("configmap__env-configmap.yaml", "GREETING=hello"),
    ("pods__pod-configmap-envFrom.yaml", "SPECIAL_LEVEL=very"),
    ("pods__pod-configmap-env-var-valueFrom.yaml", "very charm"),
    ("pods__pod-single-configmap-env-variable.yaml", "SPECIAL_LEVEL_KEY=very"),
    ("pods__pod-multiple-configmap-env-variable.yaml", "LOG_LEVEL=INFO"),
    ("pods__pod-configmap-volume.yaml", "SPECIAL_TYPE"),
    ("pods__pod-configmap-volume-specific-key.yaml", "very"),
    ("pods__inject__dependent-envars.yaml", "SERVICE_ADDRESS=https://172.17.0.1:80"),
    ("pods__inject__dependent-envars.yaml", "UNCHANGED_REFERENCE=$(PROTOCOL)://172.17.0.1:80"),
    ("pods__inject__dapi-volume.yaml", "zone=\"us-est-coast\""),
    ("pods__inject__dapi-envars-pod.yaml", "dapi-envars-fieldref"),
    ("pods__inject__dapi-volume-resources.yaml", "32"),
    ("service__networking__hostaliases-pod.yaml", "foo.remote"),
    // `ls -l` hides the dotfile, as the example explains; an empty listing is what it prints.
    ("secret__dotfile-secret.yaml", "total 0"),
    ("admin__logging__two-files-counter-pod-streaming-sidecar.yaml", "0:"),
];

/// Examples whose containers finish at once though their restartPolicy is Always: on a cluster
/// they end in CrashLoopBackOff too, so "running" can never be reached. They are applied with
/// `--wait-for none` and judged by what they print.
const ONE_SHOT: &[&str] = &["configmap__env-configmap.yaml", "secret__dotfile-secret.yaml"];

/// Whether the manifest names its namespace (then `-n` must not name another, as with kubectl).
fn names_namespace(case: &Case) -> bool {
    std::fs::read_to_string(corpus().join(&case.file)).is_ok_and(|t| t.contains("namespace:"))
}

fn logs_of_pod(ns: &Namespace) -> String {
    ns.containers().iter().filter(|(_, n)| !n.contains("_POD_")).map(|(id, _)| ns.logs(id)).collect()
}

/// What podrun says when it refuses a pod a rootless engine cannot run.
const ROOTLESS_REFUSAL: &str = "the engine is rootless";

/// Removes, when dropped, the engine volumes left in a namespace of the test's own: a claim's
/// volume outlives the pod's delete, as a PersistentVolumeClaim outlives its pods. One label
/// filter only (Podman 4.3 ORs several), and the namespace is unique to this run.
struct NamespaceVolumes<'a>(Target<'a>, String);

impl Drop for NamespaceVolumes<'_> {
    fn drop(&mut self) {
        if let Target::Cri(_) = self.0 {
            // On a CRI runtime a claim's volume is a folder of podrun's state directory.
            crate::common::cri::remove_volumes(&self.1);
            return;
        }
        let host = self.0.host();
        let filter = format!("label=io.kubernetes.pod.namespace={}", self.1);
        let out = docker_on(host, &["volume", "ls", "-q", "--filter", &filter]);
        for v in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            let _ = docker_on(host, &["volume", "rm", "-f", v]);
        }
    }
}

/// Applies one example on `target`, checks what it must show, and deletes it.
fn run_case(target: Target, i: usize, case: &Case) -> Result<(), String> {
    let own_ns = names_namespace(case);
    let ns = if own_ns {
        Namespace::existing_for(target, "default")
    } else {
        Namespace::for_target(target, &format!("k{i}"))
    };
    let _volumes = (!own_ns).then(|| NamespaceVolumes(target, ns.name().to_owned()));
    let path = corpus().join(&case.file).to_string_lossy().into_owned();
    let wait = if ONE_SHOT.contains(&case.file.as_str()) { "none" } else { "running" };
    let mut args: Vec<String> =
        ["apply", &path, "--wait-for", wait, "--timeout", "90s"].iter().map(|s| s.to_string()).collect();
    let mut del_args: Vec<String> = ["delete", &path, "--grace-period", "1"].iter().map(|s| s.to_string()).collect();
    if !own_ns {
        for a in [&mut args, &mut del_args] {
            a.extend(["-n".to_owned(), ns.name().to_owned()]);
        }
    }
    for c in &case.companions {
        args.push("--config".into());
        args.push(corpus().join("companions").join(c).to_string_lossy().into_owned());
    }
    let out = target.podrun(&args);
    let (code, err) = (code(&out), stderr(&out));
    let first = err.lines().find(|l| l.starts_with("podrun:")).unwrap_or("").to_owned();
    let rootless_refused = matches!(target, Target::Rootless(_)) && code == 2 && first.contains(ROOTLESS_REFUSAL);
    let ok = match case.expected.as_str() {
        "run" => code == 0 || rootless_refused,
        "invalid" => code == 2 && !first.is_empty(),
        "run-or-refuse" => code == 0 || (code == 2 && !first.is_empty()),
        other => return Err(format!("{}: unknown expectation {other:?}", case.file)),
    };
    if !ok {
        return Err(format!("{}: expected {}, got exit {code}:\n{err}", case.file, case.expected));
    }
    if code == 2 && !ns.containers().is_empty() {
        return Err(format!("{}: refused, yet containers exist", case.file));
    }
    if code == 0 {
        for (_, text) in SHOWS.iter().filter(|(f, _)| *f == case.file) {
            // Bounded: the example's containers print soon after they start.
            let printed = poll(Duration::from_secs(20), Duration::from_millis(200), || {
                let logs = logs_of_pod(&ns);
                if logs.contains(text) {
                    Ok(())
                } else {
                    Err(logs)
                }
            });
            if let Err(logs) = printed {
                return Err(format!("{}: never printed {text:?}; logs:\n{logs}", case.file));
            }
        }
        let del = target.podrun(&del_args);
        if crate::common::code(&del) != 0 || !ns.containers().is_empty() {
            return Err(format!("{}: delete left {:?}: {}", case.file, ns.containers(), stderr(&del)));
        }
    }
    eprintln!("{:<8} {:<70} {:<14} exit {code} {first}", target.name(), case.file, case.expected);
    Ok(())
}

/// Every example on `target`: the failures.
fn run_all(target: Target, cases: &[Case]) -> Vec<String> {
    // Examples that name their namespace share it: they run one after another, after the rest.
    type Numbered<'a> = Vec<(usize, &'a Case)>;
    let (shared, own): (Numbered, Numbered) = cases.iter().enumerate().partition(|(_, c)| names_namespace(c));
    // The rest a few at a time: two cores, and the engine serialises network setup.
    let mut failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|k| {
                let chunk: Vec<(usize, &Case)> = own.iter().copied().filter(|(i, _)| i % 3 == k).collect();
                s.spawn(move || chunk.into_iter().filter_map(|(i, c)| run_case(target, i, c).err()).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a corpus thread panicked")).collect()
    });
    failures.extend(shared.into_iter().filter_map(|(i, c)| run_case(target, i, c).err()));
    failures
}

/// Fails with the examples' names first (what a truncated CI page keeps), then why each failed.
fn judge(engine: &str, failures: &[String], total: usize) {
    let names: Vec<&str> = failures.iter().map(|f| f.split(':').next().unwrap_or(f)).collect();
    assert!(
        failures.is_empty(),
        "on {engine}, {} of {total} examples failed: {}\n\n{}",
        failures.len(),
        names.join(", "),
        failures.join("\n\n")
    );
}

#[test]
fn e2e_the_kubernetes_documentation_corpus() {
    require_engine!();
    if crate::common::manifests::k8s_examples("e2e_the_kubernetes_documentation_corpus").is_none() {
        return;
    }
    let cases = cases();
    assert!(cases.len() >= 40, "the corpus holds {} files", cases.len());
    judge("Docker", &run_all(Target::Engine(None), &cases), cases.len());
    // Then on Podman, after Docker rather than beside it: pods of the same name on both engines
    // would share podrun's files on the host.
    if let Some(host) = podman(test_name!()) {
        judge("Podman", &run_all(Target::Engine(Some(&host)), &cases), cases.len());
    }
    // And on containerd, after both, for the same reason.
    if let Some(endpoint) = crate::common::cri::cri(test_name!()) {
        judge("containerd", &run_all(Target::Cri(&endpoint), &cases), cases.len());
    }
}

/// The corpus run by an ordinary user on its rootless Podman (its own test, beside the others:
/// the engine and podrun's files are the user's alone).
#[test]
fn e2e_the_kubernetes_documentation_corpus_on_rootless_podman() {
    if crate::common::manifests::k8s_examples("e2e_the_kubernetes_documentation_corpus_on_rootless_podman").is_none() {
        return;
    }
    require_rootless!(rootless);
    let cases = cases();
    judge("rootless Podman", &run_all(Target::Rootless(&rootless), &cases), cases.len());
}
