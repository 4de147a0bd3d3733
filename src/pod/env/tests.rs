//! The environment as the kubelet builds it: order, references, sources and expansion.

use super::*;
use crate::manifest::types::{ConfigMap, ObjectMeta, Secret};
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::absent::SUPPLY;
use base64::Engine;
use serde::Deserialize;

use crate::test_support::manifests::{owned, owned_file};

fn facts() -> PodFacts {
    PodFacts {
        pod_ip: Some("10.88.0.7".into()),
        host_ip: Some("10.88.0.1".into()),
        node_name: "host-1".into(),
        host_cpus: 2,
        host_memory: 1 << 30,
    }
}

/// The one Pod of one of the project's manifests (`tests/manifests/run/`).
fn manifest_pod(file: &str) -> Pod {
    let path = owned_file("run", file);
    let source = Source::read(&path.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
    let mut loaded = load(&source, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.pods.len(), 1, "{file}");
    loaded.pods.remove(0).pod
}

/// A store holding every ConfigMap and Secret of the manifests' `config/` files, in the
/// default namespace, as `--config` would load them.
fn configs() -> ConfigStore {
    let mut store = ConfigStore::new();
    for path in owned("config") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for doc in serde_yaml::Deserializer::from_str(&text) {
            let value = serde_yaml::Value::deserialize(doc).unwrap();
            match value.get("kind").and_then(serde_yaml::Value::as_str) {
                Some("ConfigMap") => {
                    let cm: ConfigMap = serde_yaml::from_value(value).unwrap();
                    store.add_config_map("default", &cm).unwrap();
                }
                Some("Secret") => {
                    let secret: Secret = serde_yaml::from_value(value).unwrap();
                    store.add_secret("default", &secret).unwrap();
                }
                other => panic!("{}: unexpected kind {other:?}", path.display()),
            }
        }
    }
    store
}

fn pod_in(namespace: &str, containers: &str) -> Pod {
    let text = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: {namespace}}}\nspec:\n  containers:\n{containers}"
    );
    load(&Source::from_text("t.yaml", &text), &LoadOptions::default()).unwrap().pods.remove(0).pod
}

fn inline_pod(containers: &str) -> Pod {
    pod_in("ns", containers)
}

fn config_map(name: &str, data: &[(&str, &str)]) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta { name: name.into(), ..Default::default() },
        data: data.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
        ..Default::default()
    }
}

fn secret(name: &str, data: &[(&str, &[u8])]) -> Secret {
    let b64 = |v: &[u8]| base64::engine::general_purpose::STANDARD.encode(v);
    Secret {
        metadata: ObjectMeta { name: name.into(), ..Default::default() },
        data: data.iter().map(|(k, v)| ((*k).to_owned(), b64(v))).collect(),
        ..Default::default()
    }
}

fn resolve_first(pod: &Pod, configs: &ConfigStore) -> Result<ResolvedEnv, EnvError> {
    resolve(pod, &pod.spec.containers[0], "spec.containers[0]", configs, &facts())
}

fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

fn strings(list: &[&str]) -> Option<Vec<String>> {
    Some(list.iter().map(|s| (*s).to_owned()).collect())
}

// The cases of the kubelet's expand_test.go (doExpansionTest), input and expected output.
#[test]
fn expand_matches_the_kubernetes_expansion_tests() {
    let context = vars(&[("VAR_A", "A"), ("VAR_B", "B"), ("VAR_C", "C"), ("VAR_REF", "$(VAR_A)"), ("VAR_EMPTY", "")]);
    let cases = [
        ("$(VAR_A)", "A"),
        ("$(VAR_A)-$(VAR_A)", "A-A"),
        ("$(VAR_A)-1", "A-1"),
        ("___$(VAR_B)___", "___B___"),
        ("___$(VAR_C)", "___C"),
        ("$(VAR_A)_$(VAR_B)_$(VAR_C)", "A_B_C"),
        ("$$(VAR_B)_$(VAR_A)", "$(VAR_B)_A"),
        ("$$(VAR_A)_$$(VAR_B)", "$(VAR_A)_$(VAR_B)"),
        ("f000-$$VAR_A", "f000-$VAR_A"),
        ("foo\\$(VAR_C)bar", "foo\\Cbar"),
        ("foo\\\\$(VAR_C)bar", "foo\\\\Cbar"),
        ("foo\\\\\\\\$(VAR_A)bar", "foo\\\\\\\\Abar"),
        ("$(VAR_A$(VAR_B))", "$(VAR_A$(VAR_B))"),
        ("$(VAR_A$(VAR_B)", "$(VAR_A$(VAR_B)"),
        ("$(VAR_REF)", "$(VAR_A)"),
        ("%%$(VAR_REF)--$(VAR_REF)%%", "%%$(VAR_A)--$(VAR_A)%%"),
        ("foo$(VAR_EMPTY)bar", "foobar"),
        ("foo$(VAR_Awhoops!", "foo$(VAR_Awhoops!"),
        ("f00__(VAR_A)__", "f00__(VAR_A)__"),
        ("$?_boo_$!", "$?_boo_$!"),
        ("$VAR_A", "$VAR_A"),
        ("$(VAR_DNE)", "$(VAR_DNE)"),
        ("$$$$$$(BIG_MONEY)", "$$$(BIG_MONEY)"),
        ("$$$$$$(VAR_A)", "$$$(VAR_A)"),
        ("$$$$$$$(GOOD_ODDS)", "$$$$(GOOD_ODDS)"),
        ("$$$$$$$(VAR_A)", "$$$A"),
        ("$VAR_A)", "$VAR_A)"),
        ("${VAR_A}", "${VAR_A}"),
        ("$(VAR_B)_______$(A", "B_______$(A"),
        ("$(VAR_C)_______$(", "C_______$("),
        ("$(VAR_A)foobarzab$", "Afoobarzab$"),
        ("foo-\\$(VAR_A", "foo-\\$(VAR_A"),
        ("--$($($($($--", "--$($($($($--"),
        ("$($($($($--foo$(", "$($($($($--foo$("),
        ("foo0--$($($($(", "foo0--$($($($("),
        ("$(foo$$var)", "$(foo$$var)"),
        ("\n", "\n"),
    ];
    for (input, expected) in cases {
        assert_eq!(expand(input, &context).unwrap(), expected, "input {input:?}");
    }
}

#[test]
fn expand_later_entries_win_and_non_ascii_is_kept() {
    let context = vars(&[("A", "first"), ("É", "é"), ("A", "second")]);
    assert_eq!(expand("$(A)", &context).unwrap(), "second");
    assert_eq!(expand("ü$ü$(É)€$", &context).unwrap(), "ü$üé€$");
    assert_eq!(expand("$()", &context).unwrap(), "$()", "an empty name is just undefined");
}

#[test]
fn values_see_only_what_is_defined_before_them() {
    let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - {name: A, value: one}\n    - {name: B, value: '$(A)-$(C)'}\n    - {name: A, value: two}\n    - {name: C, value: '$(A)$(A)'}\n    - {name: D, value: '$$(A)'}\n",
        );
    let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
    // A keeps its first position and takes its last value; B saw A's value at the time.
    assert_eq!(env.vars, vars(&[("A", "two"), ("B", "one-$(C)"), ("C", "twotwo"), ("D", "$(A)")]));
    assert!(env.warnings.is_empty());
}

#[test]
fn an_empty_value_defers_to_value_from_and_nothing_at_all_is_empty() {
    let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - name: A\n      value: ''\n      valueFrom: {fieldRef: {fieldPath: metadata.name}}\n    - {name: B}\n    - {name: C, value: ''}\n",
        );
    let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
    assert_eq!(env.vars, vars(&[("A", "p"), ("B", ""), ("C", "")]));
}

#[test]
fn env_from_comes_first_with_prefixes_and_env_overrides_it_in_place() {
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &config_map("one", &[("B", "b1"), ("A", "a1"), ("SELF", "s")])).unwrap();
    store.add_config_map("ns", &config_map("two", &[("A", "a2")])).unwrap();
    store.add_secret("ns", &secret("s", &[("TOKEN", b"t0k")])).unwrap();
    let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: one}\n    - configMapRef: {name: two}\n    - {prefix: P_, configMapRef: {name: two}}\n    - secretRef: {name: s}\n    env:\n    - {name: B, value: '$(A)+$(P_A)'}\n    - {name: SELF, value: '$(SELF)-more'}\n    - name: FROM_CM\n      valueFrom: {configMapKeyRef: {name: one, key: B}}\n",
        );
    let env = resolve_first(&pod, &store).unwrap();
    assert_eq!(
        env.vars,
        vars(&[("A", "a2"), ("B", "a2+a2"), ("SELF", "s-more"), ("P_A", "a2"), ("TOKEN", "t0k"), ("FROM_CM", "b1"),])
    );
}

#[test]
fn objects_are_looked_up_in_the_pods_namespace_only() {
    let mut store = ConfigStore::new();
    store.add_config_map("default", &config_map("cm", &[("A", "1")])).unwrap();
    let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n");
    let e = resolve_first(&pod, &store).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("spec.containers[0].envFrom[0].configMapRef: ConfigMap ns/cm not found ({SUPPLY})")
    );
}

#[test]
fn a_config_maps_binary_data_is_not_in_the_environment() {
    let mut cm = config_map("cm", &[("A", "1")]);
    cm.binary_data.insert("BIN".into(), "aGk=".into());
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &cm).unwrap();
    let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n");
    assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("A", "1")]));
    let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - name: B\n      valueFrom: {configMapKeyRef: {name: cm, key: BIN}}\n",
        );
    let e = resolve_first(&pod, &store).unwrap_err();
    assert_eq!(e.message, format!("ConfigMap ns/cm has no key \"BIN\" ({SUPPLY})"));
}

#[test]
fn missing_env_from_sources_fail_unless_optional() {
    let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: true}\n    - secretRef: {name: gone, optional: true}\n    - secretRef: {name: gone}\n",
        );
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    assert_eq!(e.path, "spec.containers[0].envFrom[2].secretRef");
    assert_eq!(e.message, format!("Secret ns/gone not found ({SUPPLY})"));
    let pod =
        inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: false}\n");
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    assert_eq!(e.message, format!("ConfigMap ns/gone not found ({SUPPLY})"));
    let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: true}\n");
    assert_eq!(resolve_first(&pod, &ConfigStore::new()).unwrap(), ResolvedEnv::default());
}

#[test]
fn env_from_imports_every_key_as_the_kubelet_does() {
    // The kubelet's e2e "ConfigMap should be consumable via the environment" (and its Secret
    // twin): data-1..3 with and without the prefix "p-".
    let mut store = ConfigStore::new();
    let data = [("data-1", "value-1"), ("data-2", "value-2"), ("data-3", "value-3")];
    store.add_config_map("ns", &config_map("cm", &data)).unwrap();
    let odd = [("1badkey", b"v-one".as_slice()), ("..x", b"v-two"), ("config.yaml", b"v-three")];
    store.add_secret("ns", &secret("s", &odd)).unwrap();
    let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n    - {prefix: p-, configMapRef: {name: cm}}\n    - secretRef: {name: s}\n",
        );
    let env = resolve_first(&pod, &store).unwrap();
    assert_eq!(
        env.vars,
        vars(&[
            ("data-1", "value-1"),
            ("data-2", "value-2"),
            ("data-3", "value-3"),
            ("p-data-1", "value-1"),
            ("p-data-2", "value-2"),
            ("p-data-3", "value-3"),
            ("..x", "v-two"),
            ("1badkey", "v-one"),
            ("config.yaml", "v-three"),
        ])
    );
    assert!(env.warnings.is_empty(), "{:?}", env.warnings);
}

#[test]
fn a_key_no_environment_can_hold_is_skipped_with_a_warning_naming_keys_not_values() {
    // Validation refuses such keys in a ConfigMap or Secret; the store itself does not.
    let mut store = ConfigStore::new();
    store.add_secret("ns", &secret("s", &[("a=b", b"hidden-value"), ("ok", b"fine")])).unwrap();
    let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - secretRef: {name: s}\n");
    let env = resolve_first(&pod, &store).unwrap();
    assert_eq!(env.vars, vars(&[("ok", "fine")]));
    assert_eq!(
        env.warnings,
        ["spec.containers[0].envFrom[0].secretRef: keys [a=b] from the EnvFrom secret ns/s were skipped since \
              they are considered invalid environment variable names"]
    );
    assert!(!env.warnings.join("\n").contains("hidden"));
}

#[test]
fn key_refs_fail_with_the_kubelets_messages_unless_optional() {
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &config_map("cm", &[("present", "x")])).unwrap();
    store.add_secret("ns", &secret("s", &[("present", b"y")])).unwrap();
    let case = |source: &str| {
        let pod = inline_pod(&format!(
                "  - name: c\n    image: x\n    env:\n    - {{name: FIRST, value: '1'}}\n    - name: V\n      valueFrom: {{{source}}}\n"
            ));
        resolve_first(&pod, &store)
    };
    let message = |source: &str| {
        let e = case(source).unwrap_err();
        assert!(e.path.starts_with("spec.containers[0].env[1].valueFrom."), "{e}");
        e.to_string()
    };
    assert_eq!(
        message("configMapKeyRef: {name: nope, key: k}"),
        format!("spec.containers[0].env[1].valueFrom.configMapKeyRef: ConfigMap ns/nope not found ({SUPPLY})")
    );
    assert_eq!(
        message("configMapKeyRef: {name: cm, key: k}"),
        format!("spec.containers[0].env[1].valueFrom.configMapKeyRef: ConfigMap ns/cm has no key \"k\" ({SUPPLY})")
    );
    assert_eq!(
        message("secretKeyRef: {name: nope, key: k}"),
        format!("spec.containers[0].env[1].valueFrom.secretKeyRef: Secret ns/nope not found ({SUPPLY})")
    );
    assert_eq!(
        message("secretKeyRef: {name: s, key: k}"),
        format!("spec.containers[0].env[1].valueFrom.secretKeyRef: Secret ns/s has no key \"k\" ({SUPPLY})")
    );
    // Optional and absent: the variable is not set at all.
    for source in [
        "configMapKeyRef: {name: nope, key: k, optional: true}",
        "configMapKeyRef: {name: cm, key: k, optional: true}",
        "secretKeyRef: {name: nope, key: k, optional: true}",
        "secretKeyRef: {name: s, key: k, optional: true}",
    ] {
        assert_eq!(case(source).unwrap().vars, vars(&[("FIRST", "1")]), "{source}");
    }
    assert_eq!(case("secretKeyRef: {name: s, key: present}").unwrap().vars, vars(&[("FIRST", "1"), ("V", "y")]));
}

#[test]
fn an_optional_absent_key_leaves_an_env_from_value_alone() {
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &config_map("cm", &[("V", "from-env-from")])).unwrap();
    let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n    env:\n    - name: V\n      valueFrom: {configMapKeyRef: {name: cm, key: absent, optional: true}}\n",
        );
    assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("V", "from-env-from")]));
}

#[test]
fn a_missing_secret_key_error_shows_no_secret_value_nor_base64() {
    let mut store = configs();
    let binary: &[u8] = b"s3cr3t-binary-value-\x01\x02";
    store.add_secret("default", &secret("inline", &[("token", binary), ("other", b"another-s3cr3t")])).unwrap();
    let mut values: Vec<Vec<u8>> = vec![b"ada.lovelace".to_vec(), b"not-a-real-password-7".to_vec()];
    values.extend([binary.to_vec(), b"another-s3cr3t".to_vec()]);
    for name in ["app-credentials", "inline"] {
        let pod = pod_in(
                "default",
                &format!(
                    "  - name: c\n    image: x\n    env:\n    - name: X\n      valueFrom: {{secretKeyRef: {{name: {name}, key: missing}}}}\n"
                ),
            );
        let e = resolve_first(&pod, &store).unwrap_err();
        let shown = format!("{e} {e:?}");
        assert!(shown.contains(&format!("Secret default/{name} has no key \"missing\"")), "{shown}");
        for v in &values {
            let b64 = base64::engine::general_purpose::STANDARD.encode(v);
            assert!(!shown.contains(&String::from_utf8_lossy(v).into_owned()), "{shown}");
            assert!(!shown.contains(b64.trim_end_matches('=')), "{shown}");
        }
        // Nor anything shaped like encoded data: the longest run of base64 characters is a
        // `namespace/name`, far shorter than the base64 of any value above.
        let longest =
            shown.split(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '=')).map(str::len).max();
        assert!(longest <= Some("default/mysecret".len()), "{shown}");
    }
}

#[test]
fn values_from_sources_are_not_expanded() {
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &config_map("cm", &[("k", "$(A)")])).unwrap();
    let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - {name: A, value: a}\n    - name: B\n      valueFrom: {configMapKeyRef: {name: cm, key: k}}\n",
        );
    assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("A", "a"), ("B", "$(A)")]));
}

#[test]
fn non_utf8_values_are_converted_lossily_with_a_warning_that_hides_them() {
    let mut store = ConfigStore::new();
    store.add_secret("ns", &secret("s", &[("BIN", b"ab\xffcd")])).unwrap();
    let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - secretRef: {name: s}\n    env:\n    - name: K\n      valueFrom: {secretKeyRef: {name: s, key: BIN}}\n",
        );
    let env = resolve_first(&pod, &store).unwrap();
    assert_eq!(env.vars, vars(&[("BIN", "ab\u{fffd}cd"), ("K", "ab\u{fffd}cd")]));
    assert_eq!(env.warnings.len(), 2, "{:?}", env.warnings);
    assert!(env.warnings[0].starts_with("spec.containers[0].envFrom[0].secretRef: the value of BIN from secret ns/s"));
    assert!(env.warnings[1].contains("env[0].valueFrom.secretKeyRef: the value of K from Secret ns/s key BIN"));
    assert!(env.warnings.iter().all(|w| !w.contains("ab") && w.contains("not valid UTF-8")), "{:?}", env.warnings);
}

#[test]
fn downward_api_errors_carry_the_field_path() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers:\n  - name: i\n    image: x\n    env:\n    - name: CPU\n      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}\n    - name: NODE\n      valueFrom: {fieldRef: {fieldPath: spec.nodeName}}\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {cpu: 500m}}\n    env:\n    - name: OTHER\n      valueFrom: {resourceFieldRef: {containerName: nope, resource: limits.cpu}}\n";
    // Not validated: the manifest layer refuses an unknown containerName first; this is the
    // resolver's own defence.
    let mut pod: Pod = serde_yaml::from_str(text).unwrap();
    crate::manifest::defaults::apply(&mut pod, "default");
    let init = resolve(&pod, &pod.spec.init_containers[0], "spec.initContainers[0]", &ConfigStore::new(), &facts());
    assert_eq!(init.unwrap().vars, vars(&[("CPU", "2000"), ("NODE", "host-1")]));
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    assert_eq!(e.path, "spec.containers[0].env[0].valueFrom.resourceFieldRef");
    assert!(e.message.contains("nope"), "{e}");
    let mut pod = pod;
    pod.spec.containers[0].env[0].value_from =
        serde_yaml::from_str("{fieldRef: {fieldPath: metadata.labels}}").unwrap();
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    assert_eq!(e.path, "spec.containers[0].env[0].valueFrom.fieldRef");
}

#[test]
fn command_and_args_are_expanded_against_the_final_environment() {
    let pod = inline_pod(
            "  - name: a\n    image: x\n    command: [echo, '$(A)', '$$(A)', '$(NOPE)']\n    env:\n    - {name: A, value: one}\n    - {name: A, value: two}\n  - name: b\n    image: x\n    args: ['$(A)']\n  - name: c\n    image: x\n    command: []\n    args: []\n",
        );
    let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
    let (command, args) = expand_command(&pod.spec.containers[0], &env, "c").unwrap();
    assert_eq!(command, strings(&["echo", "two", "$(A)", "$(NOPE)"]));
    assert_eq!(args, None);
    let (command, args) = expand_command(&pod.spec.containers[1], &ResolvedEnv::default(), "c").unwrap();
    assert_eq!((command, args), (None, strings(&["$(A)"])));
    // The kubelet treats an empty list as no list at all.
    assert_eq!(expand_command(&pod.spec.containers[2], &env, "c"), Ok((None, None)));
}

#[test]
fn manifest_env_downward() {
    let pod = manifest_pod("env-downward.yaml");
    let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
    // CPU in whole cores rounded up unless a divisor says otherwise; memory in bytes.
    assert_eq!(
        env.vars,
        vars(&[
            ("GREETING", "hello"),
            ("POD_NAME", "env-downward"),
            ("POD_NAMESPACE", "default"),
            ("POD_TIER", "backend"),
            ("NODE_NAME", "host-1"),
            ("SERVICE_ACCOUNT", "default"),
            ("POD_IP", "10.88.0.7"),
            ("HOST_IP", "10.88.0.1"),
            ("CPU_LIMIT", "2"),
            ("CPU_REQUEST_MILLICORES", "250"),
            ("MEMORY_REQUEST", "33554432"),
            ("MEMORY_LIMIT_MI", "64"),
        ])
    );
    assert!(env.warnings.is_empty(), "{:?}", env.warnings);
    let (command, args) = expand_command(&pod.spec.containers[0], &env, "c").unwrap();
    assert_eq!((command, args), (strings(&["sh", "-c", "env | sort"]), None), "no $( in the command");
}

#[test]
fn manifest_env_dependent() {
    let pod = manifest_pod("env-dependent.yaml");
    let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
    assert_eq!(
        env.vars,
        vars(&[
            ("HOST", "127.0.0.1"),
            ("PORT", "8080"),
            // SCHEME is defined after it: the reference stays as written.
            ("EARLY_URL", "$(SCHEME)://127.0.0.1:8080"),
            ("SCHEME", "http"),
            ("URL", "http://127.0.0.1:8080"),
            ("LITERAL", "$(URL) is not expanded"),
            ("UNDEFINED", "$(NOT_DEFINED_ANYWHERE)"),
        ])
    );
    let (command, args) = expand_command(&pod.spec.containers[0], &env, "c").unwrap();
    assert_eq!(command, strings(&["sh", "-c"]));
    let script = args.and_then(|a| a.into_iter().next()).unwrap_or_default();
    assert!(script.ends_with("echo \"arg: http://127.0.0.1:8080\"\n"), "{script:?}");
    assert!(!script.contains("$("), "{script:?}");
}

#[test]
fn manifest_env_config() {
    let pod = manifest_pod("env-config.yaml");
    let env = resolve_first(&pod, &configs()).unwrap();
    // envFrom first, in its order and each object's key order; env after it, replacing
    // APP_COLOR in place; the optional references to what is missing add nothing.
    assert_eq!(
        env.vars,
        vars(&[
            ("APP_COLOR", "green"),
            ("APP_LOG_LEVEL", "debug"),
            ("TOKEN", "t0k3n-for-tests"),
            ("MODE", "demo"),
            ("DB_USER", "ada.lovelace"),
        ])
    );
    assert!(env.warnings.is_empty(), "{:?}", env.warnings);
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("spec.containers[0].envFrom[0].configMapRef: ConfigMap default/app-env not found ({SUPPLY})")
    );
}

#[test]
fn manifest_env_config_names_a_missing_key() {
    let mut pod = manifest_pod("env-config.yaml");
    // Without `optional`, the absent key is an error naming the ConfigMap.
    let absent = pod.spec.containers[0].env.iter_mut().find(|e| e.name == "ABSENT_KEY").unwrap();
    let source = absent.value_from.as_mut().and_then(|v| v.config_map_key_ref.as_mut()).unwrap();
    source.optional = None;
    let e = resolve_first(&pod, &configs()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "spec.containers[0].env[3].valueFrom.configMapKeyRef: ConfigMap default/app-files has no key \
             \"no-such-key\" ({SUPPLY})"
        )
    );
}

/// `count` variables, each the one before twice over (`A1: x`, `A2: $(A1)$(A1)`, ...): 2^33
/// bytes at the last, from a few lines.
fn doubling(count: usize, first: &str) -> String {
    let mut env = format!("    - {first}\n");
    for i in 2..=count {
        env.push_str(&format!("    - {{name: A{i}, value: '$(A{})$(A{})'}}\n", i - 1, i - 1));
    }
    env
}

#[test]
fn a_doubling_chain_stops_at_the_bound_naming_the_variable() {
    // Validation refuses it first (`validate/env.rs`); the environment refuses it too, for a
    // pod that reached it some other way.
    let text = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns}}\nspec:\n  containers:\n  - name: c\n    image: x\n    env:\n{}",
        doubling(34, "{name: A1, value: x}")
    );
    let pod: Pod = serde_yaml::from_str(&text).unwrap();
    let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
    // A2..A21 come to 4 MiB - 2 B, which A22 passes.
    assert_eq!(e.path, "spec.containers[0].env[21].value");
    assert!(e.message.contains("4194304 bytes"), "{e}");
    let pod = inline_pod(&format!("  - name: c\n    image: x\n    env:\n{}", doubling(20, "{name: A1, value: x}")));
    assert_eq!(resolve_first(&pod, &ConfigStore::new()).unwrap().vars[19].1.len(), 1 << 19, "a shorter one is fine");
}

#[test]
fn values_from_sources_count_against_the_bound_without_showing_them() {
    let big = "s".repeat(1 << 20);
    let mut store = ConfigStore::new();
    store.add_secret("ns", &secret("s", &[("BIG", big.as_bytes())])).unwrap();
    let first = "name: A1\n      valueFrom: {secretKeyRef: {name: s, key: BIG}}";
    let pod = inline_pod(&format!("  - name: c\n    image: x\n    env:\n{}", doubling(4, first)));
    let e = resolve_first(&pod, &store).unwrap_err();
    assert_eq!(e.path, "spec.containers[0].env[2].value", "A3 would be 4 MiB");
    assert!(e.message.contains("4194304 bytes") && !e.message.contains("sss"), "{e}");
}

#[test]
fn command_and_args_are_bounded_as_a_whole() {
    let mut env = ResolvedEnv::default();
    env.vars.push(("M".into(), "m".repeat(1 << 20)));
    let pod = inline_pod("  - name: c\n    image: x\n    command: ['$(M)', '$(M)', '$(M)']\n    args: ['$(M)', '$(M)']\n  - name: d\n    image: x\n    args: ['$(M)$(M)$(M)']\n");
    let e = expand_command(&pod.spec.containers[0], &env, "spec.containers[0]").unwrap_err();
    assert_eq!(e.path, "spec.containers[0].args[1]");
    let e = expand_command(&pod.spec.containers[1], &env, "spec.containers[1]").unwrap_err();
    assert_eq!(e.path, "spec.containers[1].args[0]");
    assert!(e.message.contains("one value"), "{e}");
}

#[test]
fn env_from_sources_count_against_the_environments_bound() {
    let mut store = ConfigStore::new();
    store.add_config_map("ns", &config_map("big", &[("V", &"v".repeat(1 << 20))])).unwrap();
    let again = "    - configMapRef: {name: big}\n".repeat(3);
    let prefixed: String = (0..5).map(|i| format!("    - {{prefix: P{i}_, configMapRef: {{name: big}}}}\n")).collect();
    let pod = inline_pod(&format!("  - name: c\n    image: x\n    envFrom:\n{again}{prefixed}"));
    let e = resolve_first(&pod, &store).unwrap_err();
    // The same names set again hold no more; the fourth name (envFrom[5]) passes 4 MiB.
    assert_eq!(e.path, "spec.containers[0].envFrom[5]");
}

fn file_pod(optional: &str) -> Pod {
    inline_pod(&format!(
        "  - name: c\n    image: x\n    env:\n    - {{name: DB, valueFrom: {{fileKeyRef: {{volumeName: data, path: config.env, key: DB_HOST{optional}}}}}}}\n    - {{name: URL, value: 'db://$(DB)'}}\n  volumes:\n  - {{name: data, emptyDir: {{}}}}\n"
    ))
}

fn with_file(pod: &Pod, file: EnvFile) -> Result<ResolvedEnv, EnvError> {
    let files = EnvFiles::Read([(("data".to_owned(), "config.env".to_owned()), file)].into());
    resolve_with_files(pod, &pod.spec.containers[0], "spec.containers[0]", &ConfigStore::new(), &facts(), &files)
}

/// The kubelet's makeEnvironmentVariables for fileKeyRef, and the e2e test "should be able to
/// populate environment variables from a file" (test/e2e/common/node).
#[test]
fn a_file_key_is_read_from_the_env_file_and_expanded_into_later_values() {
    let pod = file_pod("");
    let env = with_file(&pod, EnvFile::Content(b"# made by init\nDB_HOST='db.local'\nOTHER='x'\n".to_vec())).unwrap();
    assert_eq!(env.vars, vars(&[("DB", "db.local"), ("URL", "db://db.local")]));
    // Before creation (a check of the whole pod), a file's variable counts as empty.
    let env = resolve(&pod, &pod.spec.containers[0], "spec.containers[0]", &ConfigStore::new(), &facts()).unwrap();
    assert_eq!(env.vars, vars(&[("DB", ""), ("URL", "db://")]));
}

#[test]
fn a_missing_key_fails_unless_optional_and_an_empty_value_counts_as_missing() {
    for content in [&b"OTHER='x'\n"[..], b"DB_HOST=''\n"] {
        let e = with_file(&file_pod(""), EnvFile::Content(content.to_vec())).unwrap_err();
        assert_eq!(e.path, "spec.containers[0].env[0].valueFrom.fileKeyRef");
        assert_eq!(
            e.message,
            "environment variable key \"DB_HOST\" not found in file \"config.env\" in volume \"data\""
        );
        let env = with_file(&file_pod(", optional: true"), EnvFile::Content(content.to_vec())).unwrap();
        assert_eq!(env.vars, vars(&[("URL", "db://$(DB)")]), "an optional missing key leaves it unset");
    }
}

#[test]
fn a_file_that_cannot_be_read_or_parsed_fails_even_when_optional() {
    for optional in ["", ", optional: true"] {
        let e = with_file(&file_pod(optional), EnvFile::Unreadable("no such file".into())).unwrap_err();
        assert_eq!(e.message, "couldn't parse env file \"config.env\" in volume \"data\": no such file");
        let e = with_file(&file_pod(optional), EnvFile::Content(b"DB_HOST=canary-secret\n".to_vec())).unwrap_err();
        assert_eq!(
            e.message,
            "couldn't parse env file \"config.env\" in volume \"data\": invalid environment variable format at line \
             1: value must be enclosed in single quotes"
        );
        assert!(!e.to_string().contains("canary"));
    }
}
