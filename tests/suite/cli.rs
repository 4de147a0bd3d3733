//! The command line itself: help, version, usage errors, and manifest checks that need no
//! engine (they run before podrun connects to one).

use crate::common::*;

const NO_ENGINE: &[(&str, &str)] = &[("DOCKER_HOST", "unix:///nonexistent/podrun.sock")];

#[test]
fn version_and_help() {
    let v = podrun(&["--version"], None);
    assert_eq!(code(&v), 0);
    assert_eq!(stdout(&podrun(&["-V"], None)), stdout(&v));
    let version = stdout(&v).trim().to_owned();
    let rest =
        version.strip_prefix(&format!("podrun {}", env!("CARGO_PKG_VERSION"))).unwrap_or_else(|| panic!("{version}"));
    // Built from a checkout: the commit it was built from (build.rs), which cargo keeps
    // current, so it is HEAD's (`-dirty` when src/ and the like differ from it).
    let head = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success() && std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".git").exists());
    match head {
        Some(head) => {
            let commit =
                rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')).map(|c| c.trim_end_matches("-dirty"));
            let commit = commit.unwrap_or_else(|| panic!("no commit in {version:?}"));
            assert!(
                commit.len() >= 7 && String::from_utf8_lossy(&head.stdout).starts_with(commit),
                "{version:?} is not HEAD"
            );
        }
        None => assert_eq!(rest, "", "{version:?}"),
    }
    let h = podrun(&["--help"], None);
    assert_eq!(code(&h), 0);
    for word in ["apply", "validate", "delete", "Exit codes", "--host", "--context"] {
        assert!(stdout(&h).contains(word), "{word} missing from --help");
    }
    let h = podrun(&["help", "apply"], None);
    assert_eq!(code(&h), 0);
    for word in [
        "--wait-for",
        "--timeout",
        "--retries",
        "--retry-delay",
        "--backoff",
        "--namespace",
        "--output",
        "--infra-image",
        "--strict",
        "--config",
        "--min-uptime",
    ] {
        assert!(stdout(&h).contains(word), "{word} missing from help apply");
    }
    let h = podrun(&["help", "validate"], None);
    assert_eq!(code(&h), 0);
    for word in ["--config", "--namespace", "--strict", "without a container engine"] {
        assert!(stdout(&h).contains(word), "{word} missing from help validate");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["apply"],
        vec!["apply", "x.yaml", "--timeout", "soon"],
        vec!["apply", "x.yaml", "--min-uptime", "a while"],
        vec!["frobnicate"],
    ] {
        let o = podrun(&args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
    }
    let o = podrun_env(&["delete", "Not_A_Pod"], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// clap's usage errors and suggestions quote the argument given: an ESC, a newline and a C1
/// CSI (U+009B) in it come out escaped, uncoloured (NO_COLOR) as coloured (clap's own colours
/// kept), as every other line podrun prints.
#[test]
fn usage_errors_quote_arguments_escaped_with_or_without_colours() {
    let hostile = "x\x1b]0;owned\x07\x1b[2J\nforged\u{9b}31m";
    let shown = r"x\x1b]0;owned\x07\x1b[2J\nforged\u{9b}31m";
    let flag = format!("--{hostile}");
    let cases = [
        vec!["apply", "x.yaml", flag.as_str()],
        vec!["apply", "x.yaml", "--timeout", hostile],
        vec![hostile],
        vec!["get", "pods", "-o", hostile],
    ];
    let coloured = [("NO_COLOR", ""), ("CLICOLOR_FORCE", "1")];
    for args in &cases {
        for (env, colours) in [(&[][..], false), (&coloured[..], true)] {
            let o = podrun_env(args, None, env);
            let err = stderr(&o);
            assert_eq!(code(&o), 2, "{args:?}: {err}");
            assert!(err.contains(shown), "{args:?}: the argument is not shown escaped:\n{err}");
            assert!(!err.lines().any(|l| l.starts_with("forged")), "{args:?}: a forged line:\n{err}");
            assert!(!o.stderr.windows(2).any(|w| w == [0xc2, 0x9b]), "{args:?}: a raw C1 CSI: {err:?}");
            let bare = err.replace("\x1b[", "");
            assert!(!bare.contains('\x1b') && !bare.contains('\x07'), "{args:?}: a raw escape: {err:?}");
            assert_eq!(err.contains("\x1b["), colours, "{args:?}: clap's colours: {err:?}");
        }
    }
}

#[test]
fn manifest_errors_exit_2_before_any_engine_is_contacted() {
    let typo = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: busybox, comand: [sh]}\n";
    let f = TempFile::new("typo.yaml", typo);
    let o = podrun_env(&["apply", f.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(f.path()), "the file is named: {}", stderr(&o));
    assert!(
        stderr(&o).contains("spec.containers[0].comand: unknown field \"comand\" (did you mean \"command\"?)"),
        "{}",
        stderr(&o)
    );

    let o = podrun_env(
        &["apply", "-"],
        Some("kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [}\n"),
        NO_ENGINE,
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("<stdin>:4:"), "{}", stderr(&o));

    let o = podrun_env(&["apply", "/nonexistent/pod.yaml"], None, NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("/nonexistent/pod.yaml"), "{}", stderr(&o));

    let o = podrun_env(&["apply", "-"], Some("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("no Pod"), "{}", stderr(&o));
}

#[test]
fn the_namespace_flag_must_agree_with_the_manifest() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  containers:\n  - {name: c, image: busybox}\n";
    let o = podrun_env(&["apply", "-", "-n", "b"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("does not match"), "{}", stderr(&o));
}

#[test]
fn a_namespace_flag_that_is_no_dns_label_is_refused_before_anything_is_created() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: busybox}\n";
    let f = TempFile::new("ns-pod.yaml", pod);
    let state = std::env::temp_dir().join(format!("podrun-cli-ns-{}", std::process::id()));
    let state_str = state.to_string_lossy().into_owned();
    let env = [("DOCKER_HOST", "unix:///nonexistent/podrun.sock"), ("PODRUN_STATE_DIR", state_str.as_str())];
    for ns in ["../../etc", "", "Bad_NS", "a.b", "-a"] {
        let flag = format!("--namespace={ns}");
        let ns = flag.as_str();
        for args in [
            vec!["apply", f.path(), ns],
            vec!["validate", f.path(), ns],
            vec!["delete", "p", ns],
            vec!["get", ns],
            vec!["logs", "p", ns],
            vec!["exec", ns, "p", "--", "true"],
        ] {
            let o = podrun_env(&args, None, &env);
            assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("--namespace"), "{args:?}: {}", stderr(&o));
        }
    }
    for ns in ["", "../../etc"] {
        let o = podrun_env(&["apply", f.path(), "-n", ns], None, &env);
        assert_eq!(code(&o), 2, "-n {ns:?}: {}", stderr(&o));
    }
    let o = podrun_env(&["validate", f.path(), "-n", "Bad_NS"], None, &env);
    assert!(
        stderr(&o).contains("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'"),
        "the API server's words: {}",
        stderr(&o)
    );
    assert!(!state.exists(), "nothing is created: {state:?}");
    // The same file with a valid namespace still validates.
    let o = podrun_env(&["validate", f.path(), "-n", "ok-ns"], None, &env);
    succeeded(&o);
}

#[test]
fn strict_refuses_what_podrun_would_ignore() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {disk: ssd}\n  containers:\n  - {name: c, image: busybox}\n";
    let o = podrun_env(&["apply", "-", "--strict"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("spec.nodeSelector"), "{}", stderr(&o));
    // Without --strict the same manifest passes the checks (and then needs the engine: 3).
    let o = podrun_env(&["apply", "-"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("spec.nodeSelector"), "the warning names the field: {}", stderr(&o));
}

const POD: &str =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    \
    envFrom: [{configMapRef: {name: conf}}]\n    env: [{name: PW, valueFrom: {secretKeyRef: {name: pw, key: p}}}]\n";
const CONFIGS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\ndata: {A: '1'}\n---\n\
    apiVersion: v1\nkind: Secret\nmetadata: {name: pw}\nstringData: {p: hunter2}\n";

#[test]
fn validate_checks_without_an_engine_and_prints_one_line_per_pod() {
    let pods = TempFile::new("pods.yaml", &format!("{POD}---\n{}", POD.replace("name: web", "name: api")));
    let configs = TempFile::new("configs.yaml", CONFIGS);
    let o = podrun_env(&["validate", pods.path(), "--config", configs.path(), "-n", "shop"], None, NO_ENGINE);
    succeeded(&o);
    assert_eq!(stdout(&o), "pod shop/web: valid\npod shop/api: valid\n");
    let o = podrun_env(&["-q", "validate", pods.path()], None, NO_ENGINE);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""), "{}", stderr(&o));

    let typo = TempFile::new("typo.yaml", &POD.replace("envFrom", "envfrom"));
    let o = podrun_env(&["validate", pods.path(), typo.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{}: invalid Pod \"default/web\" (1 error):", typo.path())), "{}", stderr(&o));
    assert!(stderr(&o).contains("unknown field \"envfrom\" (did you mean \"envFrom\"?)"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "nothing is called valid when the load fails");

    let o = podrun_env(&["validate", "-", "-"], Some(POD), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// A scratch directory of manifests, removed when dropped.
struct ManifestDir(std::path::PathBuf);

impl ManifestDir {
    fn new(name: &str, files: &[(&str, &str)]) -> ManifestDir {
        let dir = std::env::temp_dir().join(format!("podrun-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        ManifestDir(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for ManifestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn validate_takes_directories_and_standard_input_as_apply_does() {
    let dir = ManifestDir::new(
        "validate-dir",
        &[
            ("b.yml", &POD.replace("name: web", "name: two")),
            ("a.yaml", POD),
            (".disabled.yaml", "not: [a manifest"),
            ("notes.txt", "not: [a manifest"),
        ],
    );
    for args in [vec!["validate", dir.path()], vec!["validate", "-f", dir.path()]] {
        let o = podrun_env(&args, None, NO_ENGINE);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert_eq!(
            stdout(&o),
            "pod default/web: valid\npod default/two: valid\n",
            "sorted, hidden and other files left out"
        );
        assert!(!stderr(&o).contains("Is a directory"), "{}", stderr(&o));
    }
    let o = podrun_env(&["validate", "-"], Some(POD), NO_ENGINE);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "pod default/web: valid\n"), "{}", stderr(&o));
    let empty = ManifestDir::new("validate-empty", &[("README", "x")]);
    let o = podrun_env(&["validate", empty.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "as apply DIR: {}", stderr(&o));
    assert!(stderr(&o).contains("no manifest (*.yaml, *.yml, *.json) in this directory"), "{}", stderr(&o));
}

#[test]
fn validate_reports_every_bad_manifest_not_only_the_first() {
    let typo = POD.replace("envFrom", "envfrom").replace("name: web", "name: typo");
    let two_bad = format!("{}---\n{}", POD.replace("name: web", "name: Bad_Name"), POD.replace("name: c", "name: C"));
    let dir = ManifestDir::new(
        "validate-every",
        &[("a-good.yaml", POD), ("b-typo.yaml", &typo), ("c-two.yaml", &two_bad), ("d-syntax.yaml", "kind: [Pod\n")],
    );
    let missing = format!("{}/e-missing.yaml", dir.path());
    let o = podrun_env(&["validate", dir.path(), &missing], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let err = stderr(&o);
    let d = dir.path();
    for expected in [
        format!("{d}/b-typo.yaml: invalid Pod \"default/typo\" (1 error):\n  {d}/b-typo.yaml:8:5: spec.containers[0].envfrom: unknown field"),
        format!("{d}/c-two.yaml (document 1): invalid Pod \"default/Bad_Name\" (1 error):\n  metadata.name: Invalid value"),
        format!("{d}/c-two.yaml (document 2): invalid Pod \"default/web\" (2 errors):\n  spec.containers[0].name: Invalid value: \"C\""),
        format!("{d}/d-syntax.yaml:2:1: "),
        format!("{missing}: cannot read"),
    ] {
        assert!(err.contains(&expected), "{expected:?} not in:\n{err}");
    }
    let at = |s: &str| err.find(s).unwrap_or_else(|| panic!("{s} not in {err}"));
    assert!(at("b-typo.yaml:") < at("c-two.yaml (document 1)") && at("c-two.yaml (document 2)") < at("d-syntax"));
    assert_eq!(stdout(&o), "", "nothing is called valid when a manifest is not");
}

#[test]
fn validate_flag_refuses_warns_about_or_ignores_unknown_fields() {
    // As OpenShift's keepalived static pod writes a volume, and aks-engine its addon manager's metadata.
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: moved\n  version: v1\nspec:\n  containers:\n  \
                - name: c\n    image: busybox\n    volumeMounts: [{name: scratch, mountPath: /s}]\n  volumes:\n  \
                - name: scratch\n    empty-dir: {}\n  nodeName: n1\n";
    let f = TempFile::new("moved.yaml", text);
    let strict = podrun_env(&["validate", f.path()], None, NO_ENGINE);
    assert_eq!(code(&strict), 2, "{}", stderr(&strict));
    let p = f.path();
    for place in [format!("{p}:5:3: metadata.version: unknown field"), format!("{p}:13:5: spec.volumes[0].empty-dir")] {
        assert!(stderr(&strict).contains(&place), "{place} not in {}", stderr(&strict));
    }
    let warn = podrun_env(&["validate", f.path(), "--validate=warn"], None, NO_ENGINE);
    succeeded(&warn);
    assert_eq!(stdout(&warn), "pod default/moved: valid\n");
    assert!(
        stderr(&warn).contains(&format!(
            "{p}:13:5: spec.volumes[0].empty-dir: unknown field \"empty-dir\" (did you mean \"emptyDir\"?); dropped \
             (--validate=warn)"
        )),
        "{}",
        stderr(&warn)
    );
    assert!(stderr(&warn).contains("spec.nodeName"), "the cluster-only warning stays: {}", stderr(&warn));
    for ignore in ["--validate=ignore", "--validate=false"] {
        let o = podrun_env(&["validate", f.path(), ignore], None, NO_ENGINE);
        assert_eq!(code(&o), 0, "{ignore}: {}", stderr(&o));
        assert!(!stderr(&o).contains("unknown field"), "{ignore}: {}", stderr(&o));
    }
    // --strict is of the fields Kubernetes knows: it still refuses the cluster-only one.
    let o = podrun_env(&["validate", f.path(), "--validate=ignore", "--strict"], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("spec.nodeName: not supported by podrun (--strict)"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("empty-dir"), "{}", stderr(&o));
    let o = podrun_env(&["apply", f.path(), "--validate=loose"], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    // delete needs only the pods' names: the manifest loads whatever fields it has, and
    // podrun goes on to the engine (here unreachable, exit 3), as `kubectl delete -f` would.
    let state = ManifestDir::new("validate-delete-state", &[]);
    let env = [NO_ENGINE[0], ("PODRUN_STATE_DIR", state.path())];
    let o = podrun_env(&["delete", f.path()], None, &env);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(!stderr(&o).contains("unknown field"), "{}", stderr(&o));
}

#[test]
fn validate_says_what_the_api_server_says_of_leniencies_and_refusals() {
    let grace = POD.replace("spec:\n", "spec:\n  terminationGracePeriodSeconds: -1\n");
    let o = podrun_env(&["validate", "-"], Some(&grace), NO_ENGINE);
    assert_eq!(code(&o), 0, "accepted, as the API server accepts it: {}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ),
        "{}",
        stderr(&o)
    );
    let priority = POD.replace("spec:\n", "spec:\n  priority: 2147483648\n");
    let o = podrun_env(&["validate", "-"], Some(&priority), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("<stdin>:5:13: spec.priority: invalid value: integer `2147483648`"), "{}", stderr(&o));
    let generated = POD.replace("{name: web}", "{generateName: web-}");
    let o = podrun_env(&["validate", "-"], Some(&generated), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot use generate name with apply"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("metadata.name: Required value\n"), "{}", stderr(&o));
}

#[test]
fn config_files_hold_configs_only_and_keep_secrets_secret() {
    let pod = TempFile::new("pod.yaml", POD);
    let with_pod = TempFile::new("with-pod.yaml", &format!("{CONFIGS}---\n{POD}"));
    for cmd in ["validate", "apply"] {
        let o = podrun_env(&[cmd, pod.path(), "--config", with_pod.path()], None, NO_ENGINE);
        assert_eq!(code(&o), 2, "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{} (document 3): Pod \"web\" in a --config file", with_pod.path())),
            "{cmd}: {}",
            stderr(&o)
        );
    }
    let leaky =
        TempFile::new("leaky.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: pw}\nstringData: {p: 271828}\n");
    let o = podrun_env(&["validate", pod.path(), "--config", leaky.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{}:4:", leaky.path())) && !stderr(&o).contains("271828"), "{}", stderr(&o));
    let o = podrun_env(&["validate", pod.path(), "--config", "/nonexistent/configs.yaml"], None, NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("/nonexistent/configs.yaml: cannot read"), "{}", stderr(&o));
}

#[test]
fn apply_takes_config_files_before_it_needs_the_engine() {
    let pod = TempFile::new("pod.yaml", POD);
    let configs = TempFile::new("configs.yaml", CONFIGS);
    // Valid manifests get as far as the engine, which is not there: exit 3.
    let o = podrun_env(&["apply", pod.path(), "--config", configs.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
}

#[test]
fn two_projected_sources_writing_one_file_are_refused_by_validate_as_by_apply() {
    // The keys of ConfigMap a and of the Secret (given with --config, after the pod) both
    // write `k`; the downwardAPI item needs `k` to be a directory.
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    \
        volumeMounts: [{name: v, mountPath: /v}]\n  volumes:\n  - name: v\n    projected:\n      sources:\n      \
        - configMap: {name: a}\n      - downwardAPI: {items: [{path: k/x, fieldRef: {fieldPath: metadata.name}}]}\n      \
        - secret: {name: s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: one}\n";
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: hidden-value}\n";
    let f = TempFile::new("pod.yaml", pod);
    let configs = TempFile::new("secret.yaml", secret);
    for command in ["validate", "apply"] {
        // No engine: an apply that got past its checks would exit 3, not 2.
        let o = podrun_env(&[command, f.path(), "--config", configs.path()], None, NO_ENGINE);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{command}: {err}");
        assert!(
            err.contains(
                "spec.volumes[0].projected.sources[2].secret.name: Invalid value: \"k\": conflicting duplicate paths"
            ),
            "{command}: {err}"
        );
        assert!(
            err.contains(
                "spec.volumes[0].projected.sources[1].downwardAPI.items[0].path: Invalid value: \"k/x\": conflicts \
                 with the file \"k\""
            ),
            "{command}: {err}"
        );
        assert!(!err.contains("hidden-value"), "{command}: {err}");
    }
    // Without the Secret, the ConfigMap's `k` alone still clashes with the item.
    let o = podrun_env(&["validate", f.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!stderr(&o).contains("secret.name"), "{}", stderr(&o));
    // Without any clash the same pod is valid.
    let fine = TempFile::new("fine.yaml", &pod.replace("path: k/x", "path: other/x"));
    let o = podrun_env(&["validate", fine.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn workloads_and_refusals_through_the_binary() {
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  \
        selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      \
        containers: [{name: c, image: nginx}]\n";
    let o = podrun_env(&["validate", "-"], Some(deployment), NO_ENGINE);
    succeeded(&o);
    assert_eq!(stdout(&o), "pod default/web: valid\n");
    assert!(stderr(&o).contains("asks for replicas: 3; podrun runs one pod"), "{}", stderr(&o));
    // A user namespace is the engine's to give (checked when the pod is run); validation holds
    // only the API server's rule that such a pod shares none of the host's namespaces.
    let userns = POD.replace("spec:\n", "spec:\n  hostUsers: false\n");
    let o = podrun_env(&["validate", "-"], Some(&userns), NO_ENGINE);
    succeeded(&o);
    assert!(!stderr(&o).contains("hostUsers"), "{}", stderr(&o));
    let o = podrun_env(&["validate", "-"], Some(&userns.replace("spec:\n", "spec:\n  hostNetwork: true\n")), NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("spec.hostNetwork: Forbidden: when `hostUsers` is false"), "{}", stderr(&o));
}

#[test]
fn ignored_fields_and_workload_fields_are_still_validated() {
    let tolerating =
        POD.replace("spec:\n", "spec:\n  tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]\n");
    let o = podrun_env(&["validate", "-"], Some(&tolerating), NO_ENGINE);
    succeeded(&o);
    assert!(stderr(&o).contains("ignoring fields that only matter on a cluster: spec.tolerations"), "{}", stderr(&o));
    let bad = tolerating.replace("operator: Exists", "operator: Sometimes");
    let o = podrun_env(&["validate", "-"], Some(&bad), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "spec.tolerations[0].operator: Unsupported value: \"Sometimes\": supported values: \"Equal\", \"Exists\""
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");

    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: pi}\nspec:\n  backoffLimit: 4\n  template:\n    \
        spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}\n";
    let o = podrun_env(&["validate", "-"], Some(job), NO_ENGINE);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "pod default/pi: valid\n"), "{}", stderr(&o));
    let o = podrun_env(&["validate", "-"], Some(&job.replace("backoffLimit: 4", "backoffLimit: -1")), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("invalid Job \"default/pi\" (1 error):"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn lifecycle_http_get_hooks_validate_and_tcp_socket_ones_are_refused() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: c\n    \
        image: busybox:1.28\n    command: [httpd, -f, -p, '8080']\n    ports: [{name: http, containerPort: 8080}]\n    \
        lifecycle:\n      postStart: {httpGet: {path: /, port: 8080}}\n      \
        preStop: {httpGet: {path: /quit, port: http, httpHeaders: [{name: X-A, value: b}]}}\n";
    let o = podrun_env(&["validate", "--strict", "-"], Some(pod), NO_ENGINE);
    succeeded(&o);
    assert_eq!(stdout(&o), "pod default/web: valid\n");
    assert!(!stderr(&o).contains("lifecycle"), "no warning about the hooks: {}", stderr(&o));
    let tcp = pod.replace("preStop: {httpGet: {path: /quit, port: http,", "preStop: {tcpSocket: {port: http,");
    let tcp = tcp.replace(" httpHeaders: [{name: X-A, value: b}]", "");
    for cmd in ["validate", "apply"] {
        let o = podrun_env(&[cmd, "-"], Some(&tcp), NO_ENGINE);
        assert_eq!(code(&o), 2, "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(
                "spec.containers[0].lifecycle.preStop.tcpSocket: Unsupported value: tcpSocket is not supported as a \
                 lifecycle handler (the kubelet fails such a hook at runtime); use exec or httpGet"
            ),
            "{cmd}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("handler type"), "{cmd}: {}", stderr(&o));
    }
    let unknown = pod.replace("port: http,", "port: admin,");
    let o = podrun_env(&["validate", "-"], Some(&unknown), NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("spec.containers[0].lifecycle.preStop.httpGet.port: Not found: \"admin\""),
        "{}",
        stderr(&o)
    );
}

/// The project's own manifests (`tests/manifests`, see its README), validated with the
/// ConfigMaps and Secrets of its `config/`: those under `run/` are valid and warn only as their
/// `# expect-warning:` lines say; those under `refused/` and `invalid/` exit 2 with what their
/// `# expect-error:` lines say, and nothing on stdout.
#[test]
fn the_projects_own_manifests_validate_as_expected() {
    use crate::common::manifests::{expectations, owned, owned_config_args};

    let config = owned_config_args();
    let mut failures = Vec::new();
    let mut checked = 0;
    for class in ["run", "refused", "invalid"] {
        for path in owned(class) {
            checked += 1;
            let file = path.display().to_string();
            let mut args = vec!["validate", file.as_str()];
            args.extend(config.iter().map(String::as_str));
            let o = podrun_env(&args, None, NO_ENGINE);
            let (status, err) = (code(&o), stderr(&o));
            let errors = expectations(&path, "expect-error");
            if class == "run" {
                let warnings: Vec<&str> = err.lines().filter_map(|l| l.strip_prefix("warning: ")).collect();
                let expected = expectations(&path, "expect-warning");
                let unexpected: Vec<&&str> =
                    warnings.iter().filter(|w| !expected.iter().any(|e| w.contains(e.as_str()))).collect();
                let missing: Vec<&String> =
                    expected.iter().filter(|e| !warnings.iter().any(|w| w.contains(e.as_str()))).collect();
                if status != 0 || !errors.is_empty() || !unexpected.is_empty() || !missing.is_empty() {
                    failures.push(format!(
                        "{file}: expected exit 0 with the warnings {expected:?} (and an expect-error line only \
                         outside run/), got exit {status}:\n{err}"
                    ));
                }
            } else if errors.is_empty() {
                failures.push(format!("{file}: no `# expect-error:` line says what podrun must print"));
            } else if status != 2 || !stdout(&o).is_empty() || errors.iter().any(|e| !err.contains(e.as_str())) {
                failures.push(format!("{file}: expected exit 2 naming {errors:?}, got exit {status}:\n{err}"));
            }
        }
    }
    assert!(checked >= 20, "only {checked} manifests");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the acceptance corpus says of a `run-or-refuse` file podrun refuses, and the words the
/// refusal must contain. The others of that class pass validation for now.
const REFUSED: &[(&str, &str)] = &[
    ("dra__dra-device-metadata-pod.yaml", "dynamic resource allocation"),
    ("dra__dra-device-metadata-template-pod.yaml", "dynamic resource allocation"),
    ("pods__commands.yaml", "KUBERNETES_PORT, which the kubelet sets for the Kubernetes API server's Service"),
    ("pods__restart-policy__restart-all-containers.yaml", "restartPolicyRules[0].onExit: unknown field"),
    ("pods__storage__projected-podcertificate.yaml", "podCertificate: Forbidden: pod certificate projections"),
    ("pods__storage__projected-service-account-token.yaml", "serviceAccountToken: Forbidden: service account token"),
];

/// Every file of the Kubernetes documentation corpus (`../shared/k8s-examples`, see its
/// README), validated with its companion ConfigMaps and Secrets, ends as its INDEX.tsv says.
/// Prints a table of file, exit code and first message line (`cargo test --test suite cli::corpus --
/// --nocapture`). An extra suite: without the corpus it says it skipped.
#[test]
fn the_kubernetes_documentation_corpus_validates_as_indexed() {
    let Some(dir) = crate::common::manifests::k8s_examples("the_kubernetes_documentation_corpus_validates_as_indexed")
    else {
        return;
    };
    let index = std::fs::read_to_string(dir.join("INDEX.tsv"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("INDEX.tsv").display()));
    let mut table = Vec::new();
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in index.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let columns: Vec<&str> = line.split('\t').collect();
        assert_eq!(columns.len(), 7, "INDEX.tsv row with {} columns: {line}", columns.len());
        let (file, companions, expected) = (columns[0], columns[5], columns[6]);
        rows += 1;
        let path = dir.join(file);
        assert!(path.is_file(), "{} is indexed but missing", path.display());
        let mut args = vec!["validate".to_owned(), path.display().to_string()];
        for c in companions.split_whitespace() {
            let companion = dir.join("companions").join(c);
            assert!(companion.is_file(), "{}: companion {} missing", file, companion.display());
            args.extend(["--config".to_owned(), companion.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = podrun_env(&args, None, NO_ENGINE);
        let (status, err) = (code(&o), stderr(&o));
        // The error's first line names the document; the second names the problem.
        let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with("warning:")).collect();
        let first = match errors.as_slice() {
            [] => stdout(&o).lines().next().unwrap_or("").to_owned(),
            [only] => only.to_string(),
            [_, problem, ..] => problem.trim().to_owned(),
        };
        table.push(format!("{file:<66} {status}  {first}"));
        let class = expected.split(' ').next().unwrap_or("");
        let problem = if class == "run" && expected.contains("warn and ignore") {
            // The note names the field that must be warned about.
            (status != 0 || !err.contains("ignoring fields that only matter on a cluster: spec.priorityClassName"))
                .then(|| "expected to validate with a warning about priorityClassName".to_owned())
        } else if class == "run" {
            (status != 0).then(|| "expected to validate".to_owned())
        } else if expected.starts_with("invalid (not valid YAML") {
            let at = format!("{}:", path.display());
            let located = err.lines().any(|l| {
                l.strip_prefix("podrun: ").and_then(|l| l.strip_prefix(&at)).is_some_and(|rest| {
                    let mut parts = rest.splitn(3, ':');
                    parts.next().is_some_and(|n| n.parse::<usize>().is_ok())
                        && parts.next().is_some_and(|n| n.parse::<usize>().is_ok())
                })
            });
            (status != 2 || !located).then(|| "expected exit 2 with file:line:col".to_owned())
        } else if expected.starts_with("invalid (volumeMount token-vol") {
            (status != 2 || !err.contains("volumeMounts[0].name: Not found: \"token-vol\""))
                .then(|| "expected exit 2 naming the missing volume token-vol".to_owned())
        } else if class == "run-or-refuse" {
            match REFUSED.iter().find(|(f, _)| *f == file) {
                Some((_, words)) => {
                    (status != 2 || !err.contains(words)).then(|| format!("expected a refusal naming {words:?}"))
                }
                None => (status != 0).then(|| "expected to validate (podrun refuses it later, if at all)".to_owned()),
            }
        } else {
            Some(format!("unknown expectation {expected:?}"))
        };
        if let Some(p) = problem {
            failures.push(format!("{file}: {p}, got exit {status}:\n{err}"));
        }
    }
    println!("{}", table.join("\n"));
    assert!(rows >= 40, "only {rows} rows in INDEX.tsv");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The completion scripts and the man page committed under `completions/`, with the arguments
/// that print each.
const GENERATED: &[(&[&str], &str)] = &[
    (&["completions", "bash"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/podrun.bash")),
    (&["completions", "zsh"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/_podrun")),
    (&["completions", "fish"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/podrun.fish")),
    (&["completions", "elvish"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/podrun.elv")),
    (&["completions", "powershell"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/_podrun.ps1")),
    (&["man"], concat!(env!("CARGO_MANIFEST_DIR"), "/completions/podrun.1")),
];

/// How to bring the committed files up to date (also in docs/commands.md).
const REGENERATE: &str = "PODRUN_REGENERATE=1 cargo test --test suite cli::committed_completions_and_man_page";

#[test]
fn committed_completions_and_man_page_match_the_binary() {
    let regenerate = std::env::var_os("PODRUN_REGENERATE").is_some_and(|v| !v.is_empty());
    let mut stale = Vec::new();
    for (args, path) in GENERATED {
        let o = podrun(args, None);
        assert_eq!(code(&o), 0, "podrun {}: {}", args.join(" "), stderr(&o));
        assert!(!o.stdout.is_empty(), "podrun {} printed nothing", args.join(" "));
        if std::fs::read(path).ok().as_deref() == Some(&o.stdout[..]) {
            continue;
        }
        if regenerate {
            std::fs::write(path, &o.stdout).unwrap_or_else(|e| panic!("write {path}: {e}"));
        } else {
            stale.push(format!("{path} (podrun {})", args.join(" ")));
        }
    }
    assert!(
        stale.is_empty(),
        "out of date with the command line, regenerate them with `{REGENERATE}`:\n  {}",
        stale.join("\n  ")
    );
}

#[test]
fn completions_take_a_known_shell() {
    let o = podrun(&["completions", "tcsh"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = podrun(&["completions", "bash"], None);
    assert!(stdout(&o).contains("--exit-code-from"), "{}", stdout(&o));
    let o = podrun(&["man"], None);
    assert!(stdout(&o).starts_with(".ie") && stdout(&o).contains(".TH podrun 1"), "{}", stdout(&o));
}

#[test]
fn help_is_short_with_h_and_names_every_engine_and_the_state_directory() {
    let long = stdout(&podrun(&["--help"], None));
    for engine in ["Docker", "Podman", "containerd", "CRI-O", "PODRUN_STATE_DIR", "podrun man"] {
        assert!(long.contains(engine), "--help does not name {engine}:\n{long}");
    }
    let short = stdout(&podrun(&["apply", "-h"], None));
    let full = stdout(&podrun(&["apply", "--help"], None));
    assert!(short.lines().count() * 2 < full.lines().count(), "apply -h is not short:\n{short}");
    for heading in ["Manifests:", "Waiting and retries:", "Supervision:", "Output:", "Engine connection:"] {
        assert!(short.contains(heading), "apply -h has no {heading:?}:\n{short}");
    }
    // The TLS flags and --context are in --help only.
    assert!(!short.contains("--tlscacert") && full.contains("--tlscacert"), "{short}");
    // The hidden completion helper is not offered anywhere.
    assert!(!long.contains("__complete") && !stdout(&podrun(&["man"], None)).contains("__complete"));
}

#[test]
fn the_man_page_has_exit_status_environment_files_and_examples() {
    let page = stdout(&podrun(&["man"], None));
    for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
        assert!(page.contains(&format!(".SH \"{section}\"\n")), "no {section} in podrun(1)");
    }
    for said in ["PODRUN_STATE_DIR", "CONTAINER_RUNTIME_ENDPOINT", "/var/lib/podrun", "podrun apply pod.yaml"] {
        assert!(page.contains(&said.replace('-', "\\-")), "podrun(1) does not say {said}");
    }
}

#[test]
fn completion_offers_nothing_without_an_engine_or_a_place_for_a_name() {
    // No engine: nothing, at once, exit 0 (a shell's Tab must not print errors).
    let o = podrun_env(&["__complete", "--", "podrun", "logs", ""], None, NO_ENGINE);
    assert_eq!((code(&o), stdout(&o).as_str(), stderr(&o).as_str()), (0, "", ""));
    let o = podrun(&["__complete", "--", "podrun", "apply", ""], None);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""));
}

#[test]
fn inputs_are_bounded_and_every_refusal_names_its_input() {
    // /dev/zero as a file, as standard input and as --config stops at the cap.
    let pod = TempFile::new("bounded-pod.yaml", POD);
    for (args, name) in [
        (vec!["validate", "/dev/zero"], "/dev/zero"),
        (vec!["validate", pod.path(), "--config", "/dev/zero"], "/dev/zero"),
    ] {
        let o = podrun_env(&args, None, NO_ENGINE);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{name}: larger than 64 MiB, the most podrun reads from one input")),
            "{}",
            stderr(&o)
        );
    }
    let big = "#".repeat(64 * 1024 * 1024 + 1);
    let o = podrun_env(&["validate", "-"], Some(&big), NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("<stdin>: larger than 64 MiB"), "{}", stderr(&o));

    let deep = TempFile::new("deep.yaml", &format!("a: {}", "[".repeat(100_000)));
    let o = podrun_env(&["validate", deep.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains(&format!("{}:1:103: nesting deeper than 100 levels", deep.path())), "{}", stderr(&o));

    let dir = std::env::temp_dir().join(format!("podrun-empty-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = podrun_env(&["apply", dir.to_str().unwrap()], None, NO_ENGINE);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(&format!("{}: no manifest (*.yaml, *.yml, *.json) in this directory", dir.display())),
        "{}",
        stderr(&o)
    );
}

/// 34 variables, each the one before twice over: 2^33 bytes at the last, from 3 KiB; and the
/// same doubling through `args`.
fn doubling_manifest(through_args: bool) -> String {
    let mut m = String::from("apiVersion: v1\nkind: Pod\nmetadata: {name: bomb}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    env:\n    - {name: A1, value: x}\n");
    let last = if through_args { 20 } else { 34 };
    for i in 2..=last {
        m.push_str(&format!("    - {{name: A{i}, value: '$(A{})$(A{})'}}\n", i - 1, i - 1));
    }
    if through_args {
        m.push_str("    args: ['$(A20)', '$(A20)', '$(A20)', '$(A20)', '$(A20)$(A20)$(A20)$(A20)$(A20)']\n");
    }
    m
}

#[test]
fn var_expansion_past_the_bound_is_refused_by_validate_and_dry_run_naming_the_field() {
    // Under 1 GiB of address space and a minute: an expansion without a bound would end in an
    // allocation failure (or the timeout's 124), not exit 2.
    let run = |args: &[&str]| {
        let mut all = vec!["60", "prlimit", "--as=1073741824", PODRUN];
        all.extend_from_slice(args);
        let out = std::process::Command::new("timeout").args(&all).env("DOCKER_HOST", NO_ENGINE[0].1).output();
        out.expect("run podrun under timeout and prlimit")
    };
    let env = TempFile::new("bomb.yaml", &doubling_manifest(false));
    let args = TempFile::new("bomb-args.yaml", &doubling_manifest(true));
    for (f, field, why) in [
        (&env, "spec.containers[0].env[21].value:", "the container's environment comes to more than 4194304 bytes"),
        (&args, "spec.containers[0].args[4]:", "makes more than 2097152 bytes"),
    ] {
        for cmd in [vec!["validate", f.path()], vec!["apply", "--dry-run", f.path()], vec!["apply", f.path()]] {
            let o = run(&cmd);
            assert_eq!(code(&o), 2, "{cmd:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(field) && stderr(&o).contains(why), "{cmd:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(f.path()), "the file is named: {}", stderr(&o));
        }
    }
}
