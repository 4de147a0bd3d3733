//! The Kubernetes API server's validation rules for the fields podrun implements, and the
//! refusal of the features podrun cannot provide on one host.
//!
//! Messages follow the API server's wording (`Required value`, `Invalid value: "x": ...`,
//! `Unsupported value`, `Duplicate value`, `Not found`, `Forbidden`), so they read the same as
//! `kubectl apply` would print them. Rules are grouped by area in the submodules; this one
//! holds the shared vocabulary (field errors, name rules) and walks a Pod in the API server's
//! order. Where podrun is stricter than Kubernetes (absolute paths the engine needs, say), the
//! message says "podrun" so nobody mistakes it for a Kubernetes rule.

mod checked_volumes;
mod claim;
mod config;
mod downward;
mod env;
mod labels;
mod network;
mod probe;
mod raw;
mod refused;
mod resources;
mod restart;
mod scheduling;
mod security;
mod unread;
mod volumes;
mod workload;

use std::collections::{BTreeMap, BTreeSet};

pub use checked_volumes::{check_volumes, CheckedMount, CheckedSource, CheckedSubPath, CheckedVolume, Medium};
pub use config::{config_key_problems, validate_claim, validate_config_map, validate_secret, validate_secret_type};
pub use resources::aggregate_requests;
pub use unread::validate_unread;
pub(crate) use workload::apps_selector_problems;

use super::config_store::ConfigStore;
pub use super::field_error::FieldError;
pub use super::names::{dns1123_label_problems, is_dns1123_label, is_dns1123_subdomain};
use super::names::{is_dns1123_subdomain_with_underscore, is_qualified_name, label_msg, qualified_msg, subdomain_msg};
use super::types::{Container, ContainerRestartPolicy, ObjectMeta, Pod, Volume};

const ANNOTATIONS_MAX_BYTES: usize = 256 * 1024;

/// `IsRelaxedEnvVarName`'s message (apimachinery util/validation).
const ENV_NAME_MSG: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";
const IP_MSG: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
/// Docker refuses relative paths where Kubernetes (which also serves Windows) takes them.
const ABSOLUTE_PATH_MSG: &str = "podrun needs an absolute path (the container engine refuses relative ones)";

fn is_ip(s: &str) -> bool {
    s.parse::<std::net::IpAddr>().is_ok()
}

/// The one environment variable name rule, for `env[].name`, `envFrom[].prefix` and the keys
/// envFrom imports: `IsRelaxedEnvVarName` (any printable ASCII but '='). Kubernetes 1.34 made
/// the RelaxedEnvironmentVariableValidation gate GA and locked it on, so in 1.36 the API server
/// validates names with it (ValidateEnv, ValidateEnvFrom) and the kubelet imports every key
/// (makeEnvironmentVariables no longer skips any). `IsEnvVarName` (no leading digit, only
/// `[-._a-zA-Z0-9]`, not `.`/`..`/`..x`) is what older servers used.
pub fn is_env_var_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b'=')
}

/// What a container's checks need to know of its pod.
struct PodContext<'a> {
    /// The volumes that passed their own checks, by name: a mount of any other is "Not found",
    /// as in the API server.
    volumes: BTreeMap<&'a str, &'a Volume>,
    /// False only under `hostUsers: false` (which decides what the security context may say).
    host_users: bool,
    /// Every container's name, for resourceFieldRef.containerName.
    container_names: BTreeSet<&'a str>,
}

/// Checks a Pod as written (before defaults). Returns every problem found, in the API server's
/// order, then the refusals of what podrun cannot provide; and warnings that do not stop the
/// pod (the API server also only warns about these).
pub fn validate_pod(pod: &Pod) -> (Vec<FieldError>, Vec<String>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    validate_meta(&pod.metadata, &mut errors);
    security::validate_apparmor_annotations(pod, &mut errors);

    let spec = &pod.spec;
    let container_names: BTreeSet<&str> =
        spec.init_containers.iter().chain(&spec.containers).map(|c| c.name.as_str()).collect();
    let ctx = PodContext {
        volumes: volumes::validate_volumes(&spec.volumes, &container_names, &mut errors),
        host_users: spec.host_users != Some(false),
        container_names,
    };
    if spec.containers.is_empty() {
        errors.push(FieldError::required("spec.containers"));
    }
    // Names are unique across init and app containers: they share one namespace in the API.
    let mut names = BTreeSet::new();
    for (path, c, init) in spec.all_containers() {
        validate_container(c, &path, &ctx, &mut errors, &mut warnings);
        validate_lifecycle(c, &path, init, &mut errors);
        probe::validate_probes(c, &path, init, &mut errors);
        if !c.name.is_empty() && !names.insert(c.name.as_str()) {
            errors.push(FieldError::duplicate(format!("{path}.name"), &c.name));
        }
        if init {
            // Init containers run one at a time, so only each one's own ports can clash.
            network::host_port_conflicts([(path.clone(), c)], &mut errors);
        }
    }
    let app = spec.containers.iter().enumerate().map(|(i, c)| (format!("spec.containers[{i}]"), c));
    network::host_port_conflicts(app, &mut errors);
    resources::validate_pod_resources(spec, &mut errors);
    network::validate_pod_network(spec, &mut errors);
    network::validate_fqdn(pod, &mut errors);
    security::validate_pod_security(spec, &mut errors);
    // The API server takes a negative period (kubernetes#115606, which kept old manifests
    // working), warns, and has it treated as 1 (`defaults::apply` stores that).
    if spec.termination_grace_period_seconds.is_some_and(|g| g < 0) {
        warnings.push(
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
                .to_owned(),
        );
    }
    security::validate_apparmor_fields_match(pod, &mut errors);
    refused::refuse(pod, &mut errors);
    (errors, warnings)
}

/// Checks what a Pod (defaulted, in `namespace`) makes of the ConfigMaps and Secrets loaded
/// with it: the files the keys of those a projected volume takes whole write, which must not
/// clash with the volume's other files.
pub fn validate_config_refs(pod: &Pod, namespace: &str, configs: &ConfigStore) -> Vec<FieldError> {
    volumes::projected_keys(&pod.spec.volumes, namespace, configs)
}

fn validate_lifecycle(c: &Container, path: &str, init: bool, errors: &mut Vec<FieldError>) {
    let sidecar = c.restart_policy == Some(ContainerRestartPolicy::Always);
    restart::validate_container_restart(c, path, init, errors);
    if let Some(lc) = &c.lifecycle {
        if init && !sidecar {
            errors.push(FieldError::new(
                format!("{path}.lifecycle"),
                "Forbidden: may not be set for init containers without restartPolicy=Always",
            ));
        }
        for (name, handler) in [("postStart", &lc.post_start), ("preStop", &lc.pre_stop)] {
            let Some(h) = handler else { continue };
            probe::validate_lifecycle_handler(h, &format!("{path}.lifecycle.{name}"), c, errors);
        }
    }
    if c.termination_message_path.as_deref() == Some("") {
        errors.push(FieldError::required(format!("{path}.terminationMessagePath")));
    }
}

/// An object's metadata: Pods, ConfigMaps, Secrets and claims share these rules.
fn validate_meta(meta: &ObjectMeta, errors: &mut Vec<FieldError>) {
    if meta.name.is_empty() {
        errors.push(FieldError::required("metadata.name"));
    } else if !is_dns1123_subdomain(&meta.name) {
        errors.push(FieldError::invalid("metadata.name", &meta.name, &subdomain_msg()));
    }
    if let Some(ns) = &meta.namespace {
        if !is_dns1123_label(ns) {
            errors.push(FieldError::invalid("metadata.namespace", ns, &label_msg()));
        }
    }
    // `ValidateLabels` and `ValidateAnnotations`: every problem at the map's path, in the API
    // server's words.
    labels::validate_labels(&meta.labels, "metadata.labels", errors);
    let mut total = 0;
    for (k, v) in &meta.annotations {
        for m in super::names::label_key_problems(&k.to_ascii_lowercase()) {
            errors.push(FieldError::invalid("metadata.annotations", k, &m));
        }
        total += k.len() + v.len();
    }
    if total > ANNOTATIONS_MAX_BYTES {
        errors.push(FieldError::new(
            "metadata.annotations",
            format!("Too long: may not be more than {ANNOTATIONS_MAX_BYTES} bytes"),
        ));
    }
}

fn validate_container(
    c: &Container,
    path: &str,
    ctx: &PodContext,
    errors: &mut Vec<FieldError>,
    warnings: &mut Vec<String>,
) {
    if c.name.is_empty() {
        errors.push(FieldError::required(format!("{path}.name")));
    } else if !is_dns1123_label(&c.name) {
        errors.push(FieldError::invalid(format!("{path}.name"), &c.name, &label_msg()));
    }
    if c.image.is_empty() {
        errors.push(FieldError::required(format!("{path}.image")));
    } else if c.image.trim() != c.image {
        errors.push(FieldError::invalid(
            format!("{path}.image"),
            &c.image,
            "must not have leading or trailing whitespace",
        ));
    }
    if let Some(dir) = &c.working_dir {
        if !dir.is_empty() && !dir.starts_with('/') {
            // Kubernetes allows a relative workingDir; Docker refuses it at create time.
            errors.push(FieldError::invalid(
                format!("{path}.workingDir"),
                dir,
                "podrun needs an absolute path (the container engine refuses relative ones)",
            ));
        }
    }
    network::validate_ports(&c.ports, path, errors);
    env::validate_env(&c.env, path, ctx, errors, warnings);
    env::validate_env_from(&c.env_from, path, errors);
    env::validate_expansion(c, path, errors);
    volumes::validate_mounts(c, path, ctx, errors);
    if let Some(r) = &c.resources {
        resources::validate_container_resources(r, &format!("{path}.resources"), errors);
    }
    if let Some(sc) = &c.security_context {
        security::validate_container_security(sc, &format!("{path}.securityContext"), ctx.host_users, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{EnvVar, PodSpec};

    fn pod(name: &str, containers: Vec<Container>) -> Pod {
        Pod {
            api_version: "v1".into(),
            kind: "Pod".into(),
            metadata: ObjectMeta { name: name.into(), ..Default::default() },
            spec: PodSpec { containers, ..Default::default() },
        }
    }

    fn c(name: &str, image: &str) -> Container {
        Container { name: name.into(), image: image.into(), ..Default::default() }
    }

    fn paths(p: &Pod) -> Vec<String> {
        validate_pod(p).0.into_iter().map(|e| e.path).collect()
    }

    #[test]
    fn names() {
        assert!(is_dns1123_label("web-1"));
        assert!(!is_dns1123_label("Web"));
        assert!(!is_dns1123_label("-a"));
        assert!(!is_dns1123_label(&"a".repeat(64)));
        assert!(is_dns1123_subdomain("a.b-c.d"));
        assert!(!is_dns1123_subdomain("a..b"));
        assert!(is_qualified_name("app.kubernetes.io/name"));
        assert!(is_qualified_name("Tier_1"));
        assert!(!is_qualified_name("/x"));
        assert!(!is_qualified_name("a/b/c"));
        assert!(is_env_var_name("MY_VAR.x-1"));
        assert!(is_env_var_name("1A"));
        assert!(!is_env_var_name("A=B"));
    }

    #[test]
    fn env_var_names_as_in_kubernetes_tests() {
        // TestIsRelaxedEnvVarName (apimachinery util/validation, Kubernetes 1.36).
        for good in [
            "-", ":", "_", "+a", ">a", "<a", "a.", "a..", "*a", "%a", "?a", "a:a", "a_a", "aAz", "~a", "|a", "a0a",
            "a9", "/a", "a ", "#a", "0a", "0 a", "'a", "(a", "@a",
        ] {
            assert!(is_env_var_name(good), "{good:?}");
        }
        // Names only the older IsEnvVarName refused.
        for good in ["..", "..a", ".", "1A", "data-1", "p-data-1"] {
            assert!(is_env_var_name(good), "{good:?}");
        }
        let (control, high) = (format!("{}abc", char::from(1)), format!("{}abc", char::from(130)));
        for bad in ["", "=", "a=", "1=a", "a=b", "#%=&&", &control, &high, "Ç ç", "Ä ä", "Ñ ñ", "Ø ø", "a\tb"] {
            assert!(!is_env_var_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_good_pod_passes() {
        assert!(paths(&pod("web", vec![c("a", "busybox"), c("b", "busybox")])).is_empty());
    }

    #[test]
    fn every_problem_is_named_by_path() {
        let mut bad = c("Bad_Name", "");
        bad.env = vec![EnvVar { name: "x=9".into(), ..Default::default() }];
        let p = pod("", vec![c("a", "x"), c("a", "x"), bad]);
        assert_eq!(
            paths(&p),
            vec![
                "metadata.name",
                "spec.containers[1].name",
                "spec.containers[2].name",
                "spec.containers[2].image",
                "spec.containers[2].env[0].name",
            ]
        );
    }

    /// pkg/api/pod/warnings.go (TestWarnings, "negative terminationGracePeriodSeconds"): a
    /// warning, not an error, for any negative value; none for 0 or more.
    #[test]
    fn a_negative_grace_period_is_a_warning_as_the_api_server_gives_it() {
        for (period, warned) in
            [(Some(-1), true), (Some(i64::MIN), true), (Some(0), false), (Some(30), false), (None, false)]
        {
            let mut p = pod("p", vec![c("a", "x")]);
            p.spec.termination_grace_period_seconds = period;
            let (errors, warnings) = validate_pod(&p);
            assert!(errors.is_empty(), "{period:?}: {errors:?}");
            let expected: &[&str] = if warned {
                &["spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"]
            } else {
                &[]
            };
            assert_eq!(warnings, expected, "{period:?}");
        }
    }

    #[test]
    fn no_containers_is_required() {
        let errs = validate_pod(&pod("p", vec![])).0;
        assert_eq!(errs[0].to_string(), "spec.containers: Required value");
    }

    #[test]
    fn duplicate_env_is_a_warning() {
        let mut a = c("a", "x");
        a.env = vec![
            EnvVar { name: "A".into(), value: Some("1".into()), ..Default::default() },
            EnvVar { name: "A".into(), value: Some("2".into()), ..Default::default() },
        ];
        let (errs, warns) = validate_pod(&pod("p", vec![a]));
        assert!(errs.is_empty());
        assert_eq!(warns.len(), 1);
        assert!(warns[0].contains("spec.containers[0].env[1].name"));
    }

    #[test]
    fn dns1123_labels_as_in_kubernetes_tests() {
        // TestIsDNS1123Label (apimachinery util/validation, Kubernetes 1.36).
        let long = "a".repeat(63);
        for good in ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", &long] {
            assert!(dns1123_label_problems(good).is_empty(), "{good:?}");
        }
        let too_long = "a".repeat(64);
        for bad in [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1",
            "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", &too_long,
        ] {
            assert!(!dns1123_label_problems(bad).is_empty(), "{bad:?}");
        }
        assert_eq!(dns1123_label_problems("a.b"), ["must not contain dots"]);
        assert_eq!(dns1123_label_problems(&too_long), ["must be no more than 63 characters"]);
        assert_eq!(dns1123_label_problems("Bad_NS"), [label_msg()]);
        assert!(label_msg().contains("(e.g. 'my-name',  or '123-abc', regex"), "RegexError's two spaces");
    }

    #[test]
    fn labels_and_namespace() {
        let mut p = pod("p", vec![c("a", "x")]);
        p.metadata.namespace = Some("Bad".into());
        p.metadata.labels.insert("ok/key".into(), "bad value".into());
        assert_eq!(paths(&p), vec!["metadata.namespace", "metadata.labels"]);
    }
}
