//! Shell completion of pod and container names, on Docker, Podman and containerd (CRI): bash
//! runs podrun's own completion script, as a user's Tab does, with the engine named on the line;
//! names come from the engine, places that take no name fall back to clap's static completion.

use std::process::Command;

use crate::common::bounded;
use crate::common::*;

const POD: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: tab-web}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: app, image: busybox, command: [sleep, "300"]}
  - {name: side, image: busybox, command: [sleep, "300"]}
"#;

/// What bash's completion of `line` (the words typed, the last being completed) offers.
fn completed(target: Target, line: &[&str]) -> Vec<String> {
    let script = podrun(&["completions", "bash"], None);
    assert_eq!(code(&script), 0, "{}", stderr(&script));
    let script_file = TempFile::new("podrun.bash", &stdout(&script));
    let mut words = vec!["podrun".to_owned()];
    match target {
        Target::Engine(Some(host)) => words.extend(["--host".to_owned(), host.to_owned()]),
        Target::Cri(endpoint) => words.extend(["--runtime-endpoint".to_owned(), endpoint.to_owned()]),
        Target::Engine(None) | Target::Rootless(_) => {}
    }
    words.extend(line.iter().map(|w| (*w).to_owned()));
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source {}; COMP_WORDS=({}); COMP_CWORD={}; \
         _podrun_names podrun \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script_file.path(),
        quoted.join(" "),
        words.len() - 1
    );
    let dir = std::path::Path::new(PODRUN).parent().expect("podrun's directory");
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut bash = Command::new("bash");
    bash.args(["-c", &program]).env("PATH", path).env("NO_COLOR", "1");
    let o = bounded::output(&mut bash, None, bounded::LIMIT);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o).lines().filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

fn names_complete(target: Target, ns: &Namespace) {
    let f = TempFile::new("tab.yaml", POD);
    let args = ["apply", f.path(), "-n", ns.name(), "--timeout", "120s"];
    let o = target.podrun(&args.map(str::to_owned));
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(completed(target, &["logs", "-n", ns.name(), "tab"]), ["tab-web"], "{}", target.name());
    assert_eq!(completed(target, &["get", "-n", ns.name(), "tab-web", ""]), ["tab-web"], "{}", target.name());
    assert_eq!(
        completed(target, &["exec", "-n", ns.name(), "tab-web", "-c", ""]),
        ["app", "side"],
        "{}",
        target.name()
    );
    // A place that takes no pod: clap's static completion (flags here).
    assert!(completed(target, &["logs", "-n", ns.name(), "--ta"]).contains(&"--tail".to_owned()), "{}", target.name());
    // Another namespace's pods are not offered.
    assert_eq!(completed(target, &["logs", "-n", "tab-elsewhere", "tab"]), Vec::<String>::new(), "{}", target.name());
}

#[test]
fn docker_completes_pod_and_container_names() {
    require_engine!();
    let ns = Namespace::new("tab-docker");
    names_complete(Target::Engine(None), &ns);
}

#[test]
fn podman_completes_pod_and_container_names() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "tab-podman");
    names_complete(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_completes_pod_and_container_names() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "tab-cri");
    names_complete(Target::Cri(&endpoint), &ns);
}
