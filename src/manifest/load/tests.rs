//! The load's behaviour, end to end from text.

use super::*;

const POD: &str =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - {name: c, image: busybox}\n";

fn load_text(text: &str, opts: &LoadOptions) -> Result<Loaded, ManifestError> {
    load(&Source::from_text("f.yaml", text), opts)
}

#[test]
fn several_documents_with_other_kinds_and_empty_ones() {
    let text = format!(
        "---\n{POD}---\napiVersion: v1\nkind: Service\nmetadata: {{name: s}}\n---\n{}---\n",
        POD.replace("name: a", "name: b")
    );
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    let names: Vec<&str> = l.pods.iter().map(|p| p.name()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(l.pods[1].doc.to_string(), "f.yaml (document 3)");
    assert_eq!(l.warnings.len(), 1);
    assert!(l.warnings[0].contains("ignoring Service \"s\""), "{:?}", l.warnings);
    assert_eq!(l.pods[1].doc.item, None);
}

#[test]
fn a_single_document_is_named_by_file_alone() {
    let l = load_text(POD, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].doc.to_string(), "f.yaml");
    assert_eq!(l.pods[0].namespace(), "default");
}

#[test]
fn the_namespace_option_fills_in_and_must_agree() {
    let opts = LoadOptions { namespace: Some("x".into()), ..LoadOptions::default() };
    assert_eq!(load_text(POD, &opts).unwrap().pods[0].namespace(), "x");
    let with_ns = POD.replace("{name: a}", "{name: a, namespace: y}");
    assert!(matches!(load_text(&with_ns, &opts), Err(ManifestError::NamespaceMismatch { .. })));
}

#[test]
fn the_same_pod_twice_is_an_error() {
    let text = format!("{POD}---\n{POD}");
    let e = load_text(&text, &LoadOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "f.yaml (document 1) and f.yaml (document 2): both define Pod default/a");
}

#[test]
fn kind_and_api_version_are_checked() {
    let e = load_text("metadata: {name: a}\n", &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("kind: Required value"), "{e}");
    let e = load_text(&POD.replace("apiVersion: v1", "apiVersion: apps/v1"), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("apiVersion: Unsupported value: \"apps/v1\""), "{e}");
    assert!(matches!(load_text("", &LoadOptions::default()), Err(ManifestError::NoPod { .. })));
}

#[test]
fn syntax_errors_carry_line_and_column_once() {
    let e = load_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a\n", &LoadOptions::default()).unwrap_err();
    let ManifestError::Syntax { line, column, message, .. } = &e else { panic!("{e}") };
    assert!(*line >= 3 && *column > 0, "{e}");
    assert!(!message.contains(&format!("at line {line} column {column}")), "{e}");
    assert!(e.to_string().starts_with(&format!("f.yaml:{line}:{column}: ")), "{e}");
}

#[test]
fn unimplemented_and_cluster_fields_warn_and_strict_refuses_them() {
    let text = POD.replace("spec:\n", "spec:\n  nodeSelector: {a: b}\n").replace(
        "image: busybox}",
        "image: busybox, volumeDevices: [{name: d, devicePath: /dev/xvda}]}\n  volumes: [{name: d, persistentVolumeClaim: {claimName: c}}]",
    );
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert!(l
        .warnings
        .iter()
        .any(|w| w.contains("spec.containers[0].volumeDevices") && w.contains("does not implement")));
    assert!(l.warnings.iter().any(|w| w.contains("spec.nodeSelector") && w.contains("cluster")));
    let e = load_text(&text, &LoadOptions { strict: true, ..LoadOptions::default() }).unwrap_err();
    assert!(e.to_string().contains("volumeDevices") && e.to_string().contains("spec.nodeSelector"), "{e}");
}

#[test]
fn fields_of_gates_off_by_default_are_dropped_with_a_warning_even_under_strict() {
    let text = POD
        .replace("spec:\n", "spec:\n  volumes: [{name: d, emptyDir: {mode: 0700}}]\n")
        .replace("image: busybox}", "image: busybox, lifecycle: {stopSignal: SIGUSR1}}");
    for opts in [LoadOptions::default(), LoadOptions { strict: true, ..LoadOptions::default() }] {
        let l = load_text(&text, &opts).unwrap();
        assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
        let w = &l.warnings[0];
        assert!(w.contains("off by default in Kubernetes 1.37"), "{w}");
        assert!(w.contains("spec.volumes[0].emptyDir.mode (EmptyDirVolumeMode)"), "{w}");
        assert!(w.contains("spec.containers[0].lifecycle.stopSignal (ContainerStopSignals)"), "{w}");
    }
}

const CONFIGS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\ndata: {a: '1'}\nbinaryData: {b: aGk=}\n\
        ---\napiVersion: v1\nkind: Secret\nmetadata: {name: pw, namespace: other}\ntype: Opaque\ndata: {p: aHVudGVyMg==}\n\
        stringData: {u: admin}\nimmutable: true\n";

#[test]
fn config_maps_and_secrets_are_decoded_by_namespace() {
    let text = format!("{CONFIGS}---\n{POD}");
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods.len(), 1);
    assert_eq!(l.configs.config_map("default", "conf").unwrap()["b"], b"hi");
    let secret = l.configs.secret("other", "pw").unwrap();
    assert_eq!(secret["p"].0, b"hunter2");
    assert_eq!(secret["u"].0, b"admin");
    assert!(!format!("{l:?}").contains("hunter2") && !format!("{l:?}").contains("aHVudGVy"), "Debug hides values");
    let ns = LoadOptions { namespace: Some("team".into()), ..LoadOptions::default() };
    let text = format!("{}---\n{POD}", CONFIGS.split("---").next().unwrap());
    assert!(load_text(&text, &ns).unwrap().configs.config_map("team", "conf").is_some());
}

#[test]
fn secrets_never_show_their_values() {
    let bad64 = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {token: 'hunter2!!'}\n";
    let e = load_text(&format!("{bad64}---\n{POD}"), &LoadOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "f.yaml:4:15: data[token]: illegal base64 data at input byte 7");
    let number = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {pin: 123456}\n";
    let e = load_text(&format!("{number}---\n{POD}"), &LoadOptions::default()).unwrap_err();
    let ManifestError::Syntax { line, .. } = &e else { panic!("{e}") };
    assert_eq!(*line, 4);
    assert!(!e.to_string().contains("123456") && e.to_string().contains("invalid type: integer"), "{e}");
    let typo = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringdata: {pin: hunter2}\n";
    let e = load_text(&format!("{typo}---\n{POD}"), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("stringdata: unknown field") && !e.to_string().contains("hunter2"), "{e}");
    let tls = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/tls\nstringData: {tls.crt: c}\n";
    let e = load_text(&format!("{tls}---\n{POD}"), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("invalid Secret \"s\" (1 error):\n  data[tls.key]: Required value"), "{e}");
}

#[test]
fn config_maps_are_validated() {
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Conf}\ndata: {a/b: x}\n";
    let e = load_text(&format!("{cm}---\n{POD}"), &LoadOptions::default()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("f.yaml (document 1): invalid ConfigMap \"Conf\" (2 errors):\n  metadata.name: Invalid value"),
        "{text}"
    );
    assert!(text.contains("data[a/b]: Invalid value: \"a/b\": a valid config key"), "{text}");
}

#[test]
fn lists_are_read_item_by_item_with_locations() {
    let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n\
            - apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: a}\n    \
            spec: {containers: [{name: c, image: b}]}\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n";
    let l = load_text(list, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].doc.to_string(), "f.yaml (items[1].items[0])");
    assert!(l.configs.config_map("default", "c").is_some());
    assert_eq!(l.warnings.len(), 1);
    assert!(l.warnings[0].starts_with("f.yaml (items[2]): ignoring Service \"s\""), "{:?}", l.warnings);
    let typed = list.replace("image: b", "image: 5");
    let ManifestError::Syntax { line, .. } = load_text(&typed, &LoadOptions::default()).unwrap_err() else {
        panic!("not a syntax error")
    };
    assert_eq!(line, 13, "the error points into the item");
    let typo = list.replace("image: b", "image: b, comand: [x]");
    let e = load_text(&typo, &LoadOptions::default()).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "f.yaml (items[1].items[0]): invalid Pod \"default/a\" (1 error):\n  f.yaml:13:45: spec.containers[0].comand: unknown field"
        ),
        "placed in the file, not the item: {e}"
    );
}

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  \
        replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    \
        spec:\n      containers: [{name: c, image: nginx}]\n";

#[test]
fn workloads_run_one_pod_from_their_template() {
    let l = load_text(DEPLOYMENT, &LoadOptions::default()).unwrap();
    let p = &l.pods[0];
    assert_eq!((p.namespace(), p.name()), ("shop", "web"));
    assert_eq!(p.pod.metadata.labels["app"], "web");
    assert_eq!(p.pod.spec.restart_policy, Some(crate::manifest::types::RestartPolicy::Always), "defaulted");
    assert_eq!(l.warnings.len(), 1);
    assert!(l.warnings[0].contains("asks for replicas: 2; podrun runs one pod"), "{:?}", l.warnings);

    let typo = DEPLOYMENT.replace("image: nginx", "image: nginx, comand: [x]");
    let e = load_text(&typo, &LoadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("spec.template.spec.containers[0].comand: unknown field \"comand\""), "{e}");
    let invalid = DEPLOYMENT.replace("name: c,", "name: C_,");
    let e = load_text(&invalid, &LoadOptions::default()).unwrap_err().to_string();
    assert!(
        e.starts_with("f.yaml: invalid Deployment \"shop/web\" (1 error):\n  spec.template.spec.containers[0].name: Invalid value"),
        "{e}"
    );
    let no_template = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n";
    let e = load_text(no_template, &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(e, "f.yaml: invalid Deployment \"default/web\" (1 error):\n  spec.template: Required value");
    let old = DEPLOYMENT.replace("apps/v1", "extensions/v1beta1");
    let e = load_text(&old, &LoadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("apiVersion: Unsupported value: \"extensions/v1beta1\": supported values: \"apps/v1\""), "{e}");
    let clash = format!("{DEPLOYMENT}---\n{}", POD.replace("{name: a}", "{name: web, namespace: shop}"));
    assert!(matches!(load_text(&clash, &LoadOptions::default()), Err(ManifestError::Duplicate { .. })));
}

#[test]
fn jobs_and_stateful_sets() {
    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: once}\nspec:\n  backoffLimit: 2\n  template:\n    \
            spec: {restartPolicy: Never, containers: [{name: c, image: b}]}\n";
    let l = load_text(job, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].name(), "once");
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  \
            selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      \
            containers: [{name: c, image: b, volumeMounts: [{name: data, mountPath: /data}]}]\n  \
            volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n---\n\
            apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: logs}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
    let l = load_text(sts, &LoadOptions::default()).unwrap();
    assert_eq!(l.claims, [("default".to_owned(), "data-db-0".to_owned()), ("default".to_owned(), "logs".to_owned())]);
}

#[test]
fn other_kinds_warn_by_kind_and_name() {
    let claim = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: gpu}\nspec: {}\n";
    let l = load_text(&format!("{claim}---\n{POD}"), &LoadOptions::default()).unwrap();
    assert!(l.warnings[0].starts_with("f.yaml (document 1): ignoring ResourceClaim \"gpu\""), "{:?}", l.warnings);
}

#[test]
fn several_sources_and_config_files() {
    let pods = Source::from_text("pods.yaml", POD);
    let configs = Source::from_text("conf.yaml", CONFIGS);
    let l = load_all(std::slice::from_ref(&pods), std::slice::from_ref(&configs), &LoadOptions::default()).unwrap();
    assert!(l.configs.config_map("default", "conf").is_some() && l.configs.secret("other", "pw").is_some());

    let pod_in_config = Source::from_text("conf.yaml", &format!("{CONFIGS}---\n{POD}"));
    let e = load_all(std::slice::from_ref(&pods), &[pod_in_config], &LoadOptions::default()).unwrap_err();
    assert_eq!(
            e.to_string(),
            "conf.yaml (document 3): Pod \"a\" in a --config file, which may hold only ConfigMap, Secret and List documents"
        );
    let again = Source::from_text("more.yaml", CONFIGS);
    let e = load_all(std::slice::from_ref(&pods), &[configs.clone(), again], &LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "conf.yaml (document 1) and more.yaml (document 1): both define ConfigMap default/conf\n\
             conf.yaml (document 2) and more.yaml (document 2): both define Secret other/pw",
        "every clash is said"
    );

    let only_configs = Source::from_text("c.yaml", CONFIGS);
    let other = Source::from_text("b.yaml", &POD.replace("name: a", "name: b"));
    let l = load_all(&[only_configs.clone(), other, pods.clone()], &[], &LoadOptions::default()).unwrap();
    assert_eq!(l.pods.len(), 2, "pods come from every source; configs may share a file with them");
    let e = load_all(&[only_configs], &[], &LoadOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "c.yaml: no Pod in this manifest (podrun runs Pods, and the pod templates of workloads)");
}

#[test]
fn merge_keys_are_applied_at_every_level_before_the_schema_walk() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  \
                    - &c {name: c, image: busybox, env: [{name: A, value: a}], resources: {limits: &l {cpu: 1}}}\n  \
                    - <<: *c\n    name: d\n    resources:\n      limits: {<<: *l, memory: 1Gi}\n";
    let l = load_text(text, &LoadOptions::default()).unwrap();
    let d = &l.pods[0].pod.spec.containers[1];
    assert_eq!((d.name.as_str(), d.image.as_str(), d.env.len()), ("d", "busybox", 1));
    let limits = &d.resources.as_ref().unwrap().limits;
    assert_eq!(limits.len(), 2, "{limits:?}");
    let bad = text.replace("<<: *c", "<<: 5");
    let e = load_text(&bad, &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(
            e,
            "f.yaml: invalid Pod \"default/a\" (1 error):\n  spec.containers[1].<<: Invalid value: map merge requires map or sequence of maps as the value"
        );
}

#[test]
fn byte_order_marks_are_read_as_kubectl_reads_them() {
    assert_eq!(load_text(&format!("\u{FEFF}{POD}"), &LoadOptions::default()).unwrap().pods.len(), 1);
    let dir = std::env::temp_dir().join(format!("podrun-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let le = dir.join("le.yaml");
    let bytes: Vec<u8> = [0xFF, 0xFE].into_iter().chain(POD.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    std::fs::write(&le, bytes).unwrap();
    let source = Source::read(le.to_str().unwrap()).unwrap();
    assert_eq!(load(&source, &LoadOptions::default()).unwrap().pods[0].name(), "a");
    let latin1 = dir.join("latin1.yaml");
    let mut bytes = b"# caf\xE9\n".to_vec();
    bytes.extend_from_slice(POD.as_bytes());
    std::fs::write(&latin1, bytes).unwrap();
    let l = load(&Source::read(latin1.to_str().unwrap()).unwrap(), &LoadOptions::default()).unwrap();
    assert!(
        l.warnings[0].ends_with(
            "latin1.yaml:1:6: not UTF-8 text; read with U+FFFD in place of the bytes that are not, as kubectl reads it"
        ),
        "{:?}",
        l.warnings
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inputs_past_the_cap_are_refused_naming_them() {
    let e = Source::read("/dev/zero").unwrap_err();
    assert_eq!(e.to_string(), "/dev/zero: larger than 64 MiB, the most podrun reads from one input");
}

#[test]
fn deep_nesting_is_refused_at_its_place_before_serde_yaml() {
    for depth in [101, 129, 1000, 100_000] {
        let text = format!("{POD}    args: {}", "[".repeat(depth));
        let e = load_text(&text, &LoadOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "f.yaml:7:107: nesting deeper than 100 levels", "depth {depth}");
    }
    let block: String = (0..150).map(|i| format!("{}- k:\n", "  ".repeat(i))).collect();
    let e = load_text(&block, &LoadOptions::default()).unwrap_err().to_string();
    assert!(e.starts_with("f.yaml:51:") && e.ends_with("nesting deeper than 100 levels"), "{e}");
}

#[test]
fn errors_serde_yaml_cannot_place_are_placed_at_their_document() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (name, prev) in ["b", "c", "d", "e", "f", "g"].iter().zip(["a", "b", "c", "d", "e", "f"]) {
        bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 10].join(", ")));
    }
    let e = load_text(&format!("{POD}---\n# the bomb\n{bomb}"), &LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "f.yaml:7:1: the aliases of the document starting here repeat its values more than 100 times over; \
             refused, as kubectl refuses excessive aliasing"
    );
}

#[test]
fn aliases_may_not_make_values_without_bound() {
    let text = format!("a: &a [{}]\nb: [{}]\n", vec!["x"; 10_000].join(","), vec!["*a"; 1000].join(","));
    let e = load_text(&text, &LoadOptions::default()).unwrap_err();
    let ManifestError::Syntax { line, message, .. } = &e else { panic!("{e}") };
    assert_eq!(*line, 1, "where the repeated values are");
    assert_eq!(
        message,
        "aliases here make more than 400000 values beyond those written in the input; \
             refused, as kubectl refuses excessive aliasing"
    );
}

#[test]
fn an_empty_key_is_named_with_the_mapping_holding_it_and_placed() {
    let e = load_text(&format!("\"\": x\n{POD}"), &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(
        e,
        "f.yaml: invalid Pod \"default/a\" (1 error):\n  f.yaml:1:1: <root>: unknown field \"\": an empty key"
    );
    let e = load_text(&POD.replace("{name: a}", "{name: a, '': x}"), &LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "f.yaml: invalid Pod \"default/a\" (1 error):\n  f.yaml:3:21: metadata: unknown field \"\": an empty key"
    );
}

/// As kubectl's `--validate` (the API server's field validation) has it, for the case of
/// kubernetes' TestFieldValidation: a typo at several depths, and a known field beside.
#[test]
fn unknown_fields_are_refused_dropped_with_a_warning_or_dropped() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a, version: '1'}\nspec:\n  containers:\n  \
                    - name: c\n    image: busybox\n    comand: [sh]\n  volumes:\n  - name: v\n    empty-dir: {}\n";
    let strict = load_text(text, &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(
        strict,
        "f.yaml: invalid Pod \"default/a\" (3 errors):\n  \
             f.yaml:3:21: metadata.version: unknown field \"version\"\n  \
             f.yaml:8:5: spec.containers[0].comand: unknown field \"comand\" (did you mean \"command\"?)\n  \
             f.yaml:11:5: spec.volumes[0].empty-dir: unknown field \"empty-dir\" (did you mean \"emptyDir\"?)"
    );
    let warn = LoadOptions { unknown_fields: FieldValidation::Warn, ..LoadOptions::default() };
    let l = load_text(text, &warn).unwrap();
    assert_eq!(
        l.warnings,
        [
            "f.yaml:3:21: metadata.version: unknown field \"version\"; dropped (--validate=warn)",
            "f.yaml:8:5: spec.containers[0].comand: unknown field \"comand\" (did you mean \"command\"?); \
                 dropped (--validate=warn)",
            "f.yaml:11:5: spec.volumes[0].empty-dir: unknown field \"empty-dir\" (did you mean \"emptyDir\"?); \
                 dropped (--validate=warn)",
        ]
    );
    let pod = &l.pods[0].pod;
    assert_eq!(pod.spec.containers[0].command, None, "dropped, not read as command");
    assert!(pod.spec.volumes[0].other_sources.is_empty(), "not taken for a volume source");
    assert!(pod.spec.volumes[0].empty_dir.is_some(), "a volume without a source is an emptyDir");
    let ignore = LoadOptions { unknown_fields: FieldValidation::Ignore, ..LoadOptions::default() };
    let l = load_text(text, &ignore).unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.pods[0].pod.spec.containers[0].image, "busybox");
}

#[test]
fn priority_is_an_int32_refused_at_its_place_beyond_it() {
    let text = POD.replace("spec:\n", "spec:\n  priority: 2147483648\n");
    let e = load_text(&text, &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(
        e,
        "f.yaml:5:13: spec.priority: invalid value: integer `2147483648`, expected an int32 (a whole number \
             from -2147483648 to 2147483647)"
    );
    let l = load_text(&POD.replace("spec:\n", "spec:\n  priority: -2147483648\n"), &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].pod.spec.priority, Some(-2_147_483_648));
    assert_eq!(l.warnings, ["f.yaml: ignoring fields that only matter on a cluster: spec.priority"]);
}

#[test]
fn a_negative_grace_period_loads_with_the_api_servers_warning_as_one() {
    let text = POD.replace("spec:\n", "spec:\n  terminationGracePeriodSeconds: -1\n");
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].pod.spec.termination_grace_period_seconds, Some(1));
    assert_eq!(
        l.warnings,
        ["f.yaml: spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be \
              treated as 1"]
    );
    let deployment = DEPLOYMENT.replace("    spec:\n", "    spec:\n      terminationGracePeriodSeconds: -5\n");
    let l = load_text(&deployment, &LoadOptions::default()).unwrap();
    assert!(
        l.warnings
            .iter()
            .any(|w| w.starts_with("f.yaml: spec.template.spec.terminationGracePeriodSeconds: must be >= 0")),
        "{:?}",
        l.warnings
    );
}

#[test]
fn a_pod_with_only_a_generated_name_is_told_that_apply_needs_a_name() {
    let text = POD.replace("{name: a}", "{generateName: web-}");
    let e = load_text(&text, &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(
        e,
        "f.yaml: invalid Pod (1 error):\n  metadata.name: Required value: apply needs a name, and metadata.generateName \
             \"web-\" does not give one (kubectl apply refuses it too: \"from web-: cannot use generate name with \
             apply\"); set metadata.name"
    );
}

#[test]
fn dropping_unknown_fields_leaves_every_other_problem() {
    let warn = LoadOptions { unknown_fields: FieldValidation::Warn, ..LoadOptions::default() };
    let shape = POD.replace("image: busybox}", "image: busybox, typo: 1, ports: 80}");
    let e = load_text(&shape, &warn).unwrap_err().to_string();
    assert_eq!(
        e,
        "f.yaml: invalid Pod \"default/a\" (1 error):\n  spec.containers[0].ports: Invalid value: must be a list"
    );
    let typed = POD.replace("image: busybox}", "image: 5, typo: 1}");
    let ManifestError::Syntax { line, column, .. } = load_text(&typed, &warn).unwrap_err() else {
        panic!("not a type error")
    };
    assert_eq!((line, column), (6, 22), "the pruned reading keeps places");
    let strict = LoadOptions { strict: true, unknown_fields: FieldValidation::Ignore, ..LoadOptions::default() };
    let cluster = POD.replace("spec:\n", "spec:\n  nodeName: n\n  nodeNmae: m\n");
    let e = load_text(&cluster, &strict).unwrap_err().to_string();
    assert!(e.contains("spec.nodeName: not supported by podrun (--strict)") && !e.contains("nodeNmae"), "{e}");
}

#[test]
fn merged_documents_and_list_items_drop_their_unknown_fields_too() {
    let warn = LoadOptions { unknown_fields: FieldValidation::Warn, ..LoadOptions::default() };
    let merged = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  \
                      - &c {name: c, image: busybox, comand: [x]}\n  - {<<: *c, name: d}\n";
    let l = load_text(merged, &warn).unwrap();
    assert_eq!(l.pods[0].pod.spec.containers.len(), 2);
    assert!(l.pods[0].pod.spec.containers.iter().all(|c| c.command.is_none()));
    assert!(l.warnings[0].starts_with("f.yaml: spec.containers[0].comand: unknown field"), "{:?}", l.warnings);
    let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  \
                    spec: {containers: [{name: c, image: b, tyop: 1}]}\n";
    let l = load_text(list, &warn).unwrap();
    assert_eq!(l.warnings, ["f.yaml:7:43: spec.containers[0].tyop: unknown field \"tyop\"; dropped (--validate=warn)"]);
}

#[test]
fn every_bad_document_of_every_file_is_said_and_nothing_loads() {
    let bad = |name: &str, what: &str| POD.replace("name: a", &format!("name: {name}")).replace("busybox}", what);
    let first = Source::from_text("a.yaml", &format!("{}---\n{}", bad("a1", "''}"), bad("a2", "busybox}")));
    let second = Source::from_text("b.yaml", &format!("{}---\n{}", bad("b1", "b, tty: 5}"), bad("b2", "b, x: 1}")));
    let broken = Source::from_text("c.yaml", "kind: [");
    let e = load_all(&[first, second, broken], &[], &LoadOptions::default()).unwrap_err();
    let ManifestError::Many { errors } = &e else { panic!("{e}") };
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 4, "{text:#?}");
    assert!(text[0].starts_with(
        "a.yaml (document 1): invalid Pod \"default/a1\" (1 error):\n  spec.containers[0].image: Required"
    ));
    assert!(text[1].starts_with("b.yaml:6:"), "{}", text[1]);
    assert!(text[2].contains("b.yaml:13:25: spec.containers[0].x: unknown field"), "{}", text[2]);
    assert!(text[3].starts_with("c.yaml:2:1: did not find expected node content"), "{}", text[3]);
    assert_eq!(e.to_string(), text.join("\n"));
    assert!(ManifestError::of(Vec::new()).is_none());
    let nested = ManifestError::of(vec![e, ManifestError::NoPod { file: "d".into() }]).unwrap();
    let ManifestError::Many { errors } = nested else { panic!("not several") };
    assert_eq!(errors.len(), 5, "kept flat");
}

#[test]
fn typed_quoted_scalars_read_as_kubernetes_reads_them() {
    let text = POD.replace("image: busybox}", "image: busybox, ports: [{containerPort: !!int \"80\"}]}");
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    assert_eq!(l.pods[0].pod.spec.containers[0].ports[0].container_port, 80);
    let text = POD.replace("image: busybox}", "image: busybox, ports: [{containerPort: '80'}]}");
    let e = load_text(&text, &LoadOptions::default()).unwrap_err().to_string();
    assert!(
        e.starts_with("f.yaml:6:55: ")
            && e.ends_with("expected an int32 (a whole number from -2147483648 to 2147483647)"),
        "{e}"
    );
}

#[test]
fn many_pods_load_and_a_duplicate_is_found_by_name() {
    let many: String =
        (0..2000).map(|i| format!("---\n{}", POD.replace("name: a}", &format!("name: p{i}}}")))).collect();
    assert_eq!(load_text(&many, &LoadOptions::default()).unwrap().pods.len(), 2000);
    let e = load_text(&format!("{many}---\n{}", POD.replace("name: a}", "name: p7}")), &LoadOptions::default());
    assert_eq!(
        e.unwrap_err().to_string(),
        "f.yaml (document 8) and f.yaml (document 2001): both define Pod default/p7"
    );
}

#[test]
fn file_modes_written_octal_load_as_kubernetes_reads_them() {
    let text = POD.replace(
            "spec:\n",
            "spec:\n  volumes: [{name: s, projected: {sources: [{secret: {name: x, items: [{key: p, path: p, mode: 0644}]}}]}}]\n",
        );
    let l = load_text(&text, &LoadOptions::default()).unwrap();
    let v = &l.pods[0].pod.spec.volumes;
    assert_eq!(v[0].projected.as_ref().unwrap().sources[0].secret.as_ref().unwrap().items[0].mode, Some(0o644));
}

/// As the API server: every error of a pod at once (an unknown field and what validation finds
/// in the rest), counted, under the pod's namespace and name.
#[test]
fn every_error_of_a_pod_is_said_at_once_with_its_name() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n  \
                - name: C_\n    comand: [sh]\n  activeDeadlineSeconds: 0\n";
    let e = load_text(text, &LoadOptions::default()).unwrap_err().to_string();
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines[0], "f.yaml: invalid Pod \"shop/web\" (4 errors):", "{e}");
    assert!(lines[1].starts_with("  f.yaml:7:5: spec.containers[0].comand: unknown field \"comand\""), "{e}");
    assert!(lines[2..].iter().any(|l| l.starts_with("  spec.containers[0].name: Invalid value: \"C_\"")), "{e}");
    assert!(lines[2..].iter().any(|l| l.starts_with("  spec.containers[0].image: Required value")), "{e}");
    assert!(lines[2..].iter().any(|l| l.starts_with("  spec.activeDeadlineSeconds: Invalid value: 0")), "{e}");
    assert_eq!(lines.len(), 5, "{e}");
    // --namespace names the pod's namespace where the manifest gives none.
    let opts = LoadOptions { namespace: Some("ci".into()), ..LoadOptions::default() };
    let e = load_text(&text.replace(", namespace: shop", ""), &opts).unwrap_err().to_string();
    assert!(e.starts_with("f.yaml: invalid Pod \"ci/web\" (4 errors):"), "{e}");
}

/// `Kind:` or `KIND:` where `kind` is missing: the key is pointed at, with `kind` suggested.
#[test]
fn a_kind_key_in_another_case_is_pointed_at() {
    for key in ["Kind", "KIND"] {
        let text = POD.replace("kind: Pod", &format!("{key}: Pod"));
        let e = load_text(&text, &LoadOptions::default()).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "f.yaml: invalid object (2 errors):\n  f.yaml:2:1: {key}: unknown field \"{key}\" (did you mean \"kind\"?)\n  \
                 kind: Required value"
            )
        );
    }
    let e = load_text(&POD.replace("kind: Pod\n", ""), &LoadOptions::default()).unwrap_err().to_string();
    assert_eq!(e, "f.yaml: invalid object (1 error):\n  kind: Required value");
}
