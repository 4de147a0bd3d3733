//! kubectl's output forms of `podrun get` and `wait --for=jsonpath` on Docker, Podman and
//! containerd (CRI): pods applied from files, read back with `-o name`, `-o jsonpath` (the Pod
//! for one name, the List otherwise, a range over it), `-o jsonpath-file`, `-o custom-columns`
//! and `custom-columns-file`, `--sort-by`; a template kubectl refuses is refused with its
//! words, and one that does not fit the pod fails with them; `wait --for=jsonpath='{.status.phase}'=Succeeded` ends when a pod completes, and at
//! the deadline with what the path finds.

use crate::common::*;

fn pod(name: &str, policy: &str, script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {{app: out}}}}\nspec:\n  \
         restartPolicy: {policy}\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: app\n    \
         image: busybox\n    command: [sh, -c, '{script}']\n"
    )
}

fn get(target: Target, ns: &Namespace, args: &[&str]) -> String {
    let mut all = vec!["get".to_owned(), "-n".to_owned(), ns.name().to_owned()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let out = target.podrun(&all);
    assert_eq!(code(&out), 0, "{}: get {args:?}: {}", target.name(), stderr(&out));
    stdout(&out)
}

fn apply_on(target: Target, ns: &Namespace, manifest: &str, extra: &[&str]) {
    let file = TempFile::new("pod.yaml", manifest);
    let mut args = vec!["apply".to_owned(), file.path().to_owned(), "-n".to_owned(), ns.name().to_owned()];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    let out = target.podrun(&args);
    assert_eq!(code(&out), 0, "{}: {}", target.name(), stderr(&out));
}

fn output_forms(target: Target) {
    let ns = Namespace::for_target(target, "get-output");
    for name in ["web", "db"] {
        apply_on(target, &ns, &pod(name, "Always", LOOP), &["--wait-for", "running", "--timeout", "90s"]);
    }
    let sorted = ["--sort-by", ".metadata.name"];
    assert_eq!(get(target, &ns, &["-o", "name", sorted[0], sorted[1]]), "pod/db\npod/web\n");
    assert_eq!(get(target, &ns, &["web", "-o", "name"]), "pod/web\n");
    // One name: the Pod; none: the List.
    assert_eq!(get(target, &ns, &["web", "-o", "jsonpath={.metadata.name} {.kind}"]), "web Pod");
    assert_eq!(get(target, &ns, &["-o", "jsonpath={.items[*].metadata.name}", sorted[0], sorted[1]]), "db web");
    let range = r#"jsonpath={range .items[*]}{.metadata.name}{"\t"}{.status.phase}{"\n"}{end}"#;
    assert_eq!(get(target, &ns, &["-o", range, "--sort-by", "{.metadata.name}"]), "db\tRunning\nweb\tRunning\n");
    let filter = r#"jsonpath={.items[?(@.metadata.name=="web")].status.phase}"#;
    assert_eq!(get(target, &ns, &["-o", filter]), "Running");
    let template = TempFile::new("t.jsonpath", "{.status.containerStatuses[0].name}");
    assert_eq!(get(target, &ns, &["db", "-o", &format!("jsonpath-file={}", template.path())]), "app");

    let columns = "custom-columns=NAME:.metadata.name,PHASE:{.status.phase},NOTHING:.status.nothing";
    assert_eq!(
        get(target, &ns, &["-o", columns, sorted[0], sorted[1]]),
        "NAME   PHASE     NOTHING\ndb     Running   <none>\nweb    Running   <none>\n"
    );
    let file = TempFile::new("cols", "NAME RESTARTS\n.metadata.name .status.containerStatuses[0].restartCount\n");
    assert_eq!(
        get(target, &ns, &["web", "-o", &format!("custom-columns-file={}", file.path())]),
        "NAME   RESTARTS\nweb    0\n"
    );
    // The table follows --sort-by too.
    let table = get(target, &ns, &["--sort-by", ".metadata.name"]);
    let names: Vec<&str> = table.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names, ["db", "web"], "{table}");

    let bad =
        target.podrun(&["get".into(), "-n".into(), ns.name().into(), "-o".into(), "jsonpath={.metadata.name".into()]);
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
    assert!(stderr(&bad).contains("error parsing jsonpath {.metadata.name, unclosed action"), "{}", stderr(&bad));
    assert!(stdout(&bad).is_empty());
    let past = target.podrun(&[
        "get".into(),
        "web".into(),
        "-n".into(),
        ns.name().into(),
        "-o".into(),
        "jsonpath={.spec.containers[5]}".into(),
    ]);
    assert_eq!(code(&past), 1, "{}", stderr(&past));
    assert!(stderr(&past).contains("array index out of bounds: index 5, length 1"), "{}", stderr(&past));
    let unknown = target.podrun(&["get".into(), "-o".into(), "go-template={{.a}}".into()]);
    assert!(stderr(&unknown).contains("unable to match a printer"), "{}", stderr(&unknown));
    let nowhere =
        target.podrun(&["get".into(), "-n".into(), ns.name().into(), "--sort-by".into(), ".spec.nothing".into()]);
    assert!(stderr(&nowhere).contains("couldn't find any field with path \"{.spec.nothing}\""), "{}", stderr(&nowhere));
}

fn wait_for_jsonpath(target: Target) {
    let ns = Namespace::for_target(target, "wait-jsonpath");
    apply_on(target, &ns, &pod("job", "Never", "sleep 3"), &["--wait-for", "none", "--timeout", "90s"]);
    let wait = |args: &[&str]| {
        let mut all = vec!["wait".to_owned(), "-n".to_owned(), ns.name().to_owned()];
        all.extend(args.iter().map(|a| (*a).to_owned()));
        target.podrun(&all)
    };
    let running = wait(&["job", "--for=jsonpath={.status.phase}=Succeeded", "--timeout", "1s"]);
    assert_eq!(code(&running), 5, "not yet: {}", stderr(&running));
    assert!(stderr(&running).contains("the path finds "), "{}: {}", target.name(), stderr(&running));
    let quoted = wait(&["job", "--for=jsonpath='{.status.phase}'=Succeeded", "--timeout", "60s"]);
    assert_eq!(code(&quoted), 2, "kubectl's relaxed path takes no quotes: {}", stderr(&quoted));
    assert!(stderr(&quoted).contains("unexpected path string"), "{}", stderr(&quoted));
    let done = wait(&["job", "--for=jsonpath={.status.phase}=Succeeded", "--timeout", "60s"]);
    assert_eq!(code(&done), 0, "{}: {}", target.name(), stderr(&done));
    assert_eq!(get(target, &ns, &["job", "-o", "jsonpath={.status.phase}"]), "Succeeded");
    let exists = wait(&["job", "--for=jsonpath=.status.containerStatuses[0].state.terminated", "--timeout", "10s"]);
    assert_eq!(code(&exists), 0, "{}", stderr(&exists));
    let refused = wait(&["job", "--for=jsonpath={.status.phase}=", "--timeout", "10s"]);
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(stderr(&refused).contains("jsonpath wait has to have a value after equal sign"), "{}", stderr(&refused));
}

#[test]
fn e2e_get_output_forms() {
    require_engine!();
    output_forms(Target::Engine(None));
}

#[test]
fn e2e_get_output_forms_podman() {
    require_podman!(host);
    output_forms(Target::Engine(Some(&host)));
}

#[test]
fn e2e_get_output_forms_cri() {
    require_cri!(endpoint);
    output_forms(Target::Cri(&endpoint));
}

#[test]
fn e2e_get_output_wait_for_jsonpath() {
    require_engine!();
    wait_for_jsonpath(Target::Engine(None));
}

#[test]
fn e2e_get_output_wait_for_jsonpath_podman() {
    require_podman!(host);
    wait_for_jsonpath(Target::Engine(Some(&host)));
}

#[test]
fn e2e_get_output_wait_for_jsonpath_cri() {
    require_cri!(endpoint);
    wait_for_jsonpath(Target::Cri(&endpoint));
}
