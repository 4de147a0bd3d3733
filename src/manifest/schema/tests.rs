//! The walk against the table, finding by finding, and the table against the types.

use super::field::Shape::{Object, Objects};
use super::*;

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).expect("test YAML parses")
}

/// The steps of a path such as `spec.containers[1].comand`.
fn trail_of(path: &str) -> Trail {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let mut pieces = part.split('[');
        steps.push(Step::Key(pieces.next().unwrap_or_default().to_owned()));
        for index in pieces {
            steps.push(Step::Index(index.trim_end_matches(']').parse().expect("an index")));
        }
    }
    steps
}

fn unknown(path: &str, suggestion: Option<&str>) -> Finding {
    let suggestion = suggestion.map(str::to_string);
    Finding::Unknown { path: path.to_string(), suggestion, trail: trail_of(path) }
}

fn not_yet_at(path: &str) -> Finding {
    Finding::NotYet { path: path.to_string() }
}

fn gated_at(path: &str, gate: &'static str) -> Finding {
    Finding::Gated { path: path.to_string(), gate }
}

fn cluster_only_at(path: &str) -> Finding {
    Finding::ClusterOnly { path: path.to_string() }
}

fn wrong_shape(path: &str, expected: &'static str) -> Finding {
    Finding::WrongShape { path: path.to_string(), expected }
}

#[test]
fn implemented_fields_are_silent() {
    let doc = yaml(
        r#"
apiVersion: v1
kind: Pod
metadata:
  name: hello
  namespace: default
  uid: 1234
  labels: {app: hello}
  annotations: {note: hi}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 5
  containers:
  - name: main
    image: busybox
    imagePullPolicy: IfNotPresent
    command: [sh, -c]
    args: ["echo $GREETING"]
    workingDir: /tmp
    env:
    - name: GREETING
      value: hello
"#,
    );
    assert_eq!(check_pod(&doc), vec![]);
}

#[test]
fn typos_at_several_depths_name_the_path_and_the_likely_field() {
    let doc = yaml(
        r#"
apiVersion: v1
kind: Pod
metadata:
  name: typo
  lables: {app: x}
spec:
  contianers: []
  containers:
  - name: a
    image: busybox
  - name: b
    image: busybox
    comand: [sleep, "1"]
    imagePullpolicy: Always
    livenessProbe:
      httpGet:
        paht: /healthz
        port: 8080
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![
            unknown("metadata.lables", Some("labels")),
            unknown("spec.contianers", Some("containers")),
            unknown("spec.containers[1].comand", Some("command")),
            unknown("spec.containers[1].imagePullpolicy", Some("imagePullPolicy")),
            unknown("spec.containers[1].livenessProbe.httpGet.paht", Some("path")),
        ]
    );
}

#[test]
fn probes_are_implemented_but_their_gated_fields_are_dropped() {
    let doc = yaml(
        r#"
spec:
  containers:
  - name: a
    image: b
    ports: [{name: http, containerPort: 80}]
    livenessProbe: {httpGet: {path: /, port: http, httpHeaders: [{name: X, value: y}], protocol: HTTP2}}
    readinessProbe: {tcpSocket: {port: 80, host: h}, periodSeconds: 5, successThreshold: 2}
    startupProbe: {exec: {command: [true]}, failureThreshold: 30, timeoutSeconds: 2}
    lifecycle: {preStop: {httpGet: {path: /quit, port: http, scheme: HTTPS, httpHeaders: [{name: X, value: y}]}}}
  - name: b
    image: b
    lifecycle: {postStart: {httpGet: {port: 80, protocol: HTTP2}}, preStop: {tcpSocket: {port: 80, hots: h}}}
"#,
    );
    // A lifecycle hook's httpGet is implemented; its tcpSocket is refused by validation,
    // so only a typo below it is reported.
    assert_eq!(
        check_pod(&doc),
        vec![
            gated_at("spec.containers[0].livenessProbe.httpGet.protocol", "H2CContainerProbe"),
            gated_at("spec.containers[1].lifecycle.postStart.httpGet.protocol", "H2CContainerProbe"),
            unknown("spec.containers[1].lifecycle.preStop.tcpSocket.hots", Some("host")),
        ]
    );
}

#[test]
fn case_only_differences_are_unknown_but_suggested() {
    // The API server decodes case-sensitively, so `imagepullpolicy` is dropped there too.
    let doc = yaml("spec: {containers: [{name: a, image: b, imagepullpolicy: Never}]}");
    assert_eq!(check_pod(&doc), vec![unknown("spec.containers[0].imagepullpolicy", Some("imagePullPolicy"))]);
}

#[test]
fn far_fetched_keys_get_no_suggestion() {
    let doc = yaml("spec: {containers: [{name: a, image: b, frobnicate: 1}], xyz: 2}");
    assert_eq!(check_pod(&doc), vec![unknown("spec.containers[0].frobnicate", None), unknown("spec.xyz", None),]);
}

#[test]
fn unimplemented_fields_are_reported_once_not_per_child() {
    let doc = yaml(
        r#"
metadata:
  generateName: web-
spec:
  imagePullSecrets: [{name: reg}]
  volumes:
  - name: data
    emptyDir: {medium: Memory, mode: 01777}
  - name: share
    nfs: {server: nas, path: /export, readOnly: true}
  - name: conf
    configMap: {name: conf, items: [{key: a, path: b}]}
  containers:
  - name: main
    image: busybox
    env:
    - name: POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: FILE
      valueFrom: {fileKeyRef: {volumeName: data, path: p, key: k}}
    volumeMounts: [{name: data, mountPath: /data}]
    livenessProbe: {exec: {command: [true]}, periodSeconds: 5}
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![cluster_only_at("metadata.generateName"), gated_at("spec.volumes[0].emptyDir.mode", "EmptyDirVolumeMode"),],
        "a volume source podrun cannot provide is validation's to refuse (`refused.rs`)"
    );
}

#[test]
fn refused_fields_are_left_to_validation_but_typos_below_them_are_not() {
    let doc = yaml(
        r#"
spec:
  hostUsers: false
  resourceClaims: [{name: gpu, resourceClaimName: c}]
  containers:
  - name: a
    image: b
    resources: {claims: [{name: gpu}]}
    restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1]}}]
  volumes:
  - name: v
    image: {reference: alpine, pullPolicy: IfNotPresent}
  - name: e
    ephemeral: {volumeClaimTemplate: {spec: {}}}
  - name: p
    projected:
      sources:
      - serviceAccountToken: {path: token, audiance: api}
      - clusterTrustBundle: {name: x, path: p}
      - podCertificate: {signerName: s, keyType: ED25519, credentialBundlePath: b}
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![unknown("spec.volumes[2].projected.sources[0].serviceAccountToken.audiance", Some("audience"))]
    );
}

#[test]
fn cluster_only_fields_are_reported() {
    let doc = yaml(
        r#"
metadata:
  name: x
  resourceVersion: "42"
  ownerReferences: [{apiVersion: v1, kind: Node, name: n, uid: u, controller: true}]
spec:
  nodeSelector: {disktype: ssd}
  serviceAccountName: builder
  priorityClassName: high
  tolerations: [{key: k, operator: Exists, effect: NoSchedule}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
  containers: [{name: a, image: b}]
status:
  phase: Running
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![
            cluster_only_at("metadata.resourceVersion"),
            cluster_only_at("metadata.ownerReferences"),
            cluster_only_at("spec.nodeSelector"),
            cluster_only_at("spec.serviceAccountName"),
            cluster_only_at("spec.priorityClassName"),
            cluster_only_at("spec.tolerations"),
            cluster_only_at("spec.affinity"),
            cluster_only_at("status"),
        ]
    );
}

#[test]
fn invalid_values_give_way_to_wrong_shapes() {
    let mut findings = vec![Finding::WrongShape { path: "spec.nodeSelector[a]".into(), expected: "a scalar" }];
    let problem = |p: &str| FieldError::new(p, "Invalid value: x");
    add_invalid(&mut findings, vec![problem("spec.nodeSelector"), problem("spec.node"), problem("spec.tolerations")]);
    assert_eq!(findings.len(), 3);
    assert_eq!(findings[1], Finding::Invalid(problem("spec.node")));
    assert_eq!(findings[2], Finding::Invalid(problem("spec.tolerations")));
}

#[test]
fn typos_below_unimplemented_fields_are_still_errors() {
    let doc = yaml(
        r#"
spec:
  volumes:
  - name: data
    emptyDir: {mediun: Memory}
  tolerations:
  - {key: k, operator: Exists, efect: NoSchedule}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpresions: []}]
  containers: [{name: a, image: b}]
"#,
    );
    let path = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution\
                    .nodeSelectorTerms[0].matchExpresions";
    assert_eq!(
        check_pod(&doc),
        vec![
            unknown("spec.volumes[0].emptyDir.mediun", Some("medium")),
            cluster_only_at("spec.tolerations"),
            unknown("spec.tolerations[0].efect", Some("effect")),
            cluster_only_at("spec.affinity"),
            unknown(path, Some("matchExpressions")),
        ]
    );
}

#[test]
fn free_form_map_keys_are_never_checked() {
    let doc = yaml(
        r#"
metadata:
  labels: {app.kubernetes.io/name: web, comand: x}
  annotations: {"example.com/anything": "goes", containers: y}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers:
  - name: a
    image: b
    resources:
      limits: {cpu: 500m, memory: 128Mi, nvidia.com/gpu: 1}
      requests: {cpu: 250m}
"#,
    );
    assert_eq!(check_pod(&doc), vec![cluster_only_at("spec.nodeSelector")]);
}

#[test]
fn wrong_shapes_are_reported() {
    let doc = yaml(
        r#"
metadata:
  name: [not, a, string]
  labels: [app]
  annotations: {nested: {no: pe}}
spec:
  containers:
  - name: a
    image: b
    command: sleep 3600
    env: {FOO: bar}
  - just a string
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![
            wrong_shape("metadata.name", "a scalar"),
            wrong_shape("metadata.labels", "a map"),
            wrong_shape("metadata.annotations[nested]", "a scalar"),
            wrong_shape("spec.containers[0].command", "a list"),
            wrong_shape("spec.containers[0].env", "a list"),
            wrong_shape("spec.containers[1]", "an object"),
        ]
    );
    assert_eq!(check_pod(&yaml("spec: {containers: {name: a}}")), vec![wrong_shape("spec.containers", "a list")]);
    assert_eq!(check_pod(&yaml("just text")), vec![wrong_shape("<root>", "an object")]);
}

#[test]
fn null_values_are_absent() {
    let doc = yaml(
        r#"
metadata:
  name: x
  creationTimestamp: null
  labels: ~
spec:
  nodeSelector: null
  volumes: ~
  containers:
  - name: a
    image: b
    command: null
    livenessProbe: ~
status: null
"#,
    );
    assert_eq!(check_pod(&doc), vec![]);
    assert_eq!(check_pod(&Value::Null), vec![]);
}

#[test]
fn kubectl_run_output_only_warns_about_what_it_asks_for() {
    // `kubectl run nginx --image=nginx --dry-run=client -o yaml`
    let doc = yaml(
        r#"
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    run: nginx
  name: nginx
spec:
  containers:
  - image: nginx
    name: nginx
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {}
"#,
    );
    assert_eq!(check_pod(&doc), vec![]);
}

#[test]
fn keys_that_are_not_strings_are_unknown() {
    let doc = yaml("spec: {containers: [{name: a, image: b, 1: x, true: y}]}");
    assert_eq!(check_pod(&doc), vec![unknown("spec.containers[0].1", None), unknown("spec.containers[0].true", None),]);
}

#[test]
fn findings_follow_document_order() {
    let doc = yaml(
        r#"
spec:
  ephemeralContainers: [{name: e, image: b}]
  containers: [{name: a, image: b, startupProbe: {exec: {command: [x]}}, ttyy: true}]
  nodeName: n1
  volumes: [{name: v, emptyDir: {mode: 0700}}]
metadata:
  nmae: x
"#,
    );
    assert_eq!(
        check_pod(&doc),
        vec![
            not_yet_at("spec.ephemeralContainers"),
            unknown("spec.containers[0].ttyy", Some("tty")),
            cluster_only_at("spec.nodeName"),
            gated_at("spec.volumes[0].emptyDir.mode", "EmptyDirVolumeMode"),
            unknown("metadata.nmae", Some("name")),
        ]
    );
}

#[test]
fn pod_spec_paths_take_the_prefix() {
    let spec = yaml("{containers: [{name: a, image: b, comand: [x]}], nodeSelector: {a: b}}");
    assert_eq!(
        check_pod_spec(&spec, "spec.template.spec"),
        vec![
            unknown("spec.template.spec.containers[0].comand", Some("command")),
            cluster_only_at("spec.template.spec.nodeSelector"),
        ]
    );
    assert_eq!(
        check_pod_spec(&spec, ""),
        vec![unknown("containers[0].comand", Some("command")), cluster_only_at("nodeSelector"),]
    );
}

#[test]
fn pod_templates_check_metadata_and_spec_under_the_prefix() {
    let template = yaml(
        "{metadata: {labels: {app: x}, lables: {}, creationTimestamp: null}, \
             spec: {containers: [{name: a, image: b, comand: [x]}], nodeSelector: {a: b}}}",
    );
    assert_eq!(
        check_pod_template(&template, "spec.template"),
        vec![
            unknown("spec.template.metadata.lables", Some("labels")),
            unknown("spec.template.spec.containers[0].comand", Some("command")),
            cluster_only_at("spec.template.spec.nodeSelector"),
        ]
    );
}

#[test]
fn config_maps_and_secrets_are_checked_by_field_never_by_value() {
    let cm = yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '1'}, binarydata: {}}");
    assert_eq!(check_config_map(&cm), vec![unknown("binarydata", Some("binaryData"))]);
    let secret = yaml(
        "{apiVersion: v1, kind: Secret, metadata: {name: s}, type: Opaque, stringdata: {p: hunter2}, \
             data: {k: [hunter3]}, immutable: true}",
    );
    let findings = check_secret(&secret);
    assert_eq!(findings, vec![unknown("stringdata", Some("stringData")), wrong_shape("data[k]", "a scalar")]);
    assert!(!format!("{findings:?}").contains("hunter"));
}

#[test]
fn newer_fields_are_known() {
    let doc = yaml(
        r#"
spec:
  hostUsers: false
  hostnameOverride: box
  schedulingGroup: {podGroupName: workers}
  evictionResponders: [{name: example.com/drain, priority: 10000}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
  ephemeralContainers: [{name: dbg, image: busybox, targetContainerName: a}]
  initContainers:
  - name: sidecar
    image: b
    restartPolicy: Always
    restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]
    resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]
    lifecycle: {stopSignal: SIGUSR1, preStop: {sleep: {seconds: 5}}}
  containers:
  - name: a
    image: b
    env:
    - name: X
      valueFrom: {fileKeyRef: {volumeName: v, path: p, key: k, optional: false}}
    volumeMounts: [{name: v, mountPath: /v, readOnly: true, recursiveReadOnly: Enabled}]
    readinessProbe: {grpc: {port: 9000, mode: TLS}}
    livenessProbe: {httpGet: {port: 80, protocol: HTTP2}}
  - name: b
    image: b
    volumeMounts: [{name: scratch, mountPath: /s, bindMountOptions: [noexec]}]
  volumes:
  - name: scratch
    emptyDir: {mode: 01777}
  - name: conf
    configMap: {name: c, defaultUser: 1000, items: [{key: k, path: p, user: 1001}]}
  - name: v
    image: {reference: quay.io/x:1, pullPolicy: IfNotPresent}
  - name: certs
    projected:
      defaultUser: 1000
      sources:
      - podCertificate: {signerName: s, keyType: ED25519, credentialBundlePath: b.pem}
      - serviceAccountToken: {path: token, user: 1000}
      - clusterTrustBundle: {signerName: s, labelSelector: {matchLabels: {a: b}}, path: p}
"#,
    );
    let unknowns: Vec<_> = check_pod(&doc)
        .into_iter()
        .filter(|f| matches!(f, Finding::Unknown { .. } | Finding::WrongShape { .. }))
        .collect();
    assert_eq!(unknowns, vec![]);
}

#[test]
fn edit_distance_counts_transpositions_once_and_ignores_case() {
    assert_eq!(edit_distance("contianers", "containers"), 1);
    assert_eq!(edit_distance("comand", "command"), 1);
    assert_eq!(edit_distance("imagepullpolicy", "imagePullPolicy"), 0);
    assert_eq!(edit_distance("", "tty"), 3);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
}

/// Every object table reachable from the Pod root, each once.
fn all_tables() -> Vec<&'static [Field]> {
    fn visit(fields: &'static [Field], seen: &mut Vec<&'static [Field]>) {
        if seen.iter().any(|t| std::ptr::eq(*t, fields)) {
            return;
        }
        seen.push(fields);
        for field in fields {
            if let Object(inner) | Objects(inner) = field.shape {
                visit(inner, seen);
            }
        }
    }
    let mut seen = Vec::new();
    visit(POD, &mut seen);
    seen
}

#[test]
fn schema_tables_are_well_formed() {
    let tables = all_tables();
    for table in &tables {
        for (i, field) in table.iter().enumerate() {
            assert!(field.name.chars().all(|c| c.is_ascii_alphanumeric()), "odd field name {:?}", field.name);
            assert!(table[..i].iter().all(|other| other.name != field.name), "duplicate field {:?}", field.name);
        }
    }
    let fields: usize = tables.iter().map(|t| t.len()).sum();
    println!("schema: {} object types, {fields} fields", tables.len());
    assert!(fields > 300, "schema shrank to {fields} fields");
}

/// The typo and shape findings for every Pod document of `files`; files that are not YAML
/// are an error unless `not_yaml` names them.
fn unknown_fields_in(files: &[std::path::PathBuf], not_yaml: &[&str]) -> Vec<String> {
    use serde::Deserialize;

    let mut problems = Vec::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let docs: Result<Vec<Value>, _> = serde_yaml::Deserializer::from_str(&text).map(Value::deserialize).collect();
        let docs = match docs {
            Ok(docs) => docs,
            Err(_) if not_yaml.contains(&name.as_str()) => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let pods: Vec<&Value> = docs.iter().filter(|doc| doc["kind"] == "Pod").collect();
        // Every manifest holds a Pod; finding none means the loader, not the schema, is off.
        assert!(!pods.is_empty(), "{name}: no Pod document");
        for doc in pods {
            for finding in check_pod(doc) {
                if matches!(finding, Finding::Unknown { .. } | Finding::WrongShape { .. }) {
                    problems.push(format!("{name}: {finding:?}"));
                }
            }
        }
    }
    problems
}

/// Every Pod the project's own manifests hold that Kubernetes accepts (`run/`, and
/// `refused/`, which podrun refuses for what it asks, not for its shape) must pass without
/// a typo or shape error: a false "unknown field" on a real manifest is the worst mistake
/// this module can make. The typo among the invalid ones must be caught.
#[test]
fn the_projects_own_manifests_have_no_unknown_fields() {
    use crate::test_support::manifests::{owned, owned_file};

    let files: Vec<_> = owned("run").into_iter().chain(owned("refused")).collect();
    let problems = unknown_fields_in(&files, &[]);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let typo = unknown_fields_in(&[owned_file("invalid", "unknown-field.yaml")], &[]);
    assert_eq!(typo.len(), 1, "{typo:?}");
    assert!(typo[0].contains("comand"), "{typo:?}");
}

/// The same for every Pod of the Kubernetes documentation corpus, when it is there (an
/// extra suite: without it the test says it skipped).
#[test]
fn kubernetes_documentation_examples_have_no_unknown_fields() {
    let Some(dir) =
        crate::test_support::manifests::k8s_examples("kubernetes_documentation_examples_have_no_unknown_fields")
    else {
        return;
    };
    let index = std::fs::read_to_string(dir.join("INDEX.tsv"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("INDEX.tsv").display()));
    // The corpus deliberately holds files that are not valid YAML; the index says which.
    let not_yaml: Vec<&str> = index
        .lines()
        .filter_map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            let expected = columns.last()?;
            expected.starts_with("invalid (not valid YAML").then_some(columns[0])
        })
        .collect();

    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    let problems = unknown_fields_in(&files, &not_yaml);
    assert!(files.len() >= 40, "only {} examples in {}", files.len(), dir.display());
    // Examples that shipped with a field the API does not have, each found where it is.
    let (known, problems): (Vec<String>, Vec<String>) = problems
        .into_iter()
        .partition(|p| KNOWN_UNKNOWN.iter().any(|(file, path)| p.starts_with(file) && p.contains(path)));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(known.len(), KNOWN_UNKNOWN.len(), "{known:?}");
}

/// The documentation's restart-all-containers.yaml wrote its rule as `onExit: {exitCodes: ..}`,
/// which the API server refuses (kubernetes/website#54001 fixed the page); copies of it exist.
const KNOWN_UNKNOWN: &[(&str, &str)] =
    &[("pods__restart-policy__restart-all-containers.yaml", "restartPolicyRules[0].onExit")];
