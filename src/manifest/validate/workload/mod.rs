//! The API server's rules for the workload kinds podrun takes its pod from (apps/v1
//! Deployment, ReplicaSet, StatefulSet, DaemonSet; batch/v1 Job).
//! podrun runs one pod and has no controller, so these fields change nothing here; but a
//! manifest Kubernetes refuses is refused here too.
//!
//! Ported from Kubernetes 1.35: pkg/apis/apps/validation (`ValidateDeploymentSpec`,
//! `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`, `ValidateDaemonSetSpec`), pkg/apis/batch/
//! validation (`validateJobSpec`, `validateGeneratedSelector`). A StatefulSet's claim templates
//! are checked as the claims they stand for (`claim.rs`).
//! As there, the workload is checked after the API server's defaults (apps/v1 and batch/v1
//! `SetDefaults_*`): an unset strategy is a RollingUpdate with 25% (Deployment) or 1 and 0
//! (DaemonSet), an unset progressDeadlineSeconds is 600. Values the API server prints as Go
//! structs are printed as it prints them (`{"Type":"Bogus","RollingUpdate":null}`).

use std::collections::BTreeMap;

use serde_yaml::Value;

use super::claim::check_claim_spec;
use super::labels::{
    json, selector_converts, selector_json, validate_label_selector, validate_name, validate_qualified_name,
};
use super::raw::{child, field, get, has, items, Text};
use super::scheduling::{check_pod_spec, Owner};
use super::FieldError;
use crate::manifest::names::{dns1123_label_problems, dns_subdomain_problems, regex_error};
use crate::manifest::types::{
    IntOrString, LabelSelector, OnExitCodes, Ordinals, PodFailurePolicy, RetentionPolicy, RollingUpdate, Strategy,
    SuccessPolicy, WorkloadKind,
};

const NEGATIVE: &str = "must be greater than or equal to 0";

/// What validation reads of an `IntOrString` that is a count or a percentage (`maxSurge: 1`,
/// `maxSurge: 25%`).
impl IntOrString {
    pub(super) fn json(&self) -> String {
        match self {
            IntOrString::Int(i) => i.to_string(),
            IntOrString::String(s) => json(s),
        }
    }

    /// The percentage, for a valid percent string.
    fn percent(&self) -> Option<i64> {
        match self {
            IntOrString::String(s) => s.strip_suffix('%').filter(|d| is_digits(d)).and_then(|d| d.parse().ok()),
            IntOrString::Int(_) => None,
        }
    }

    /// `getIntOrPercentValue`: the number, or the percentage; 0 for anything else.
    fn value(&self) -> i64 {
        match self {
            IntOrString::Int(i) => *i,
            IntOrString::String(s) => self.percent().unwrap_or_else(|| s.parse().unwrap_or(0)),
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn opt_json(v: Option<&IntOrString>) -> String {
    v.map_or_else(|| "null".to_owned(), IntOrString::json)
}

/// Go's JSON of an internal rolling update (no JSON tags there, so the field names are Go's).
fn rolling_json(kind: WorkloadKind, r: Option<&RollingUpdate>) -> String {
    match r {
        None => "null".to_owned(),
        Some(r) if kind == WorkloadKind::StatefulSet => {
            format!(
                "{{\"Partition\":{},\"MaxUnavailable\":{}}}",
                r.partition.unwrap_or(0),
                opt_json(r.max_unavailable.as_ref())
            )
        }
        Some(r) => {
            format!(
                "{{\"MaxUnavailable\":{},\"MaxSurge\":{}}}",
                opt_json(r.max_unavailable.as_ref()),
                opt_json(r.max_surge.as_ref())
            )
        }
    }
}

impl Strategy {
    /// Go's JSON of the internal strategy type.
    fn internal_json(&self, kind: WorkloadKind) -> String {
        format!(
            "{{\"Type\":{},\"RollingUpdate\":{}}}",
            json(&self.type_),
            rolling_json(kind, self.rolling_update.as_ref())
        )
    }
}

/// An int32 field that must not be negative (`ValidateNonnegativeField`).
fn nonnegative(spec: &Value, key: &str, path: &str, errors: &mut Vec<FieldError>) -> Option<i64> {
    let v = field::<i32>(spec, key, path, errors).map(i64::from);
    nonnegative_value(v, &child(path, key), errors);
    v
}

fn nonnegative_value(v: Option<i64>, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(n) = v.filter(|n| *n < 0) {
        errors.push(FieldError::invalid_raw(path, n, NEGATIVE));
    }
}

/// `ValidatePositiveIntOrPercent`.
fn int_or_percent(v: &IntOrString, path: &str, errors: &mut Vec<FieldError>) {
    match v {
        IntOrString::String(s) if v.percent().is_none() => errors.push(FieldError::invalid(
            path,
            s,
            &regex_error(
                "a valid percent string must be a numeric string followed by an ending '%'",
                "[0-9]+%",
                &["1%", "93%"],
            ),
        )),
        IntOrString::Int(i) if *i < 0 => errors.push(FieldError::invalid_raw(path, i, NEGATIVE)),
        _ => {}
    }
}

/// `IsNotMoreThan100Percent`.
fn not_over_100(v: &IntOrString, path: &str, errors: &mut Vec<FieldError>) {
    if v.percent().is_some_and(|p| p > 100) {
        errors.push(FieldError::new(path, format!("Invalid value: {}: must not be greater than 100%", v.json())));
    }
}

/// The checks of `kind`'s own fields and of what its pod template may not hold, for a
/// workload document. The template's pod is checked as a Pod elsewhere.
pub(super) fn check_workload(kind: WorkloadKind, doc: &Value, errors: &mut Vec<FieldError>) {
    let name = get(doc, "metadata").and_then(|m| get(m, "name")).and_then(Value::as_str).unwrap_or("");
    if kind == WorkloadKind::StatefulSet && !name.is_empty() {
        // A StatefulSet's name becomes its pods' hostnames (`<name>-0`): a DNS label.
        validate_name(name, dns1123_label_problems(name), "metadata.name", errors);
    }
    let Some(spec) = get(doc, "spec") else { return };
    let template_spec = get(spec, "template").and_then(|t| get(t, "spec"));
    if let Some(pod) = template_spec {
        check_pod_spec(pod, "spec.template.spec", Owner::Template, errors);
        if kind != WorkloadKind::Job && has(pod, "activeDeadlineSeconds") {
            // Deployments are checked as their ReplicaSets, message included.
            let owner = if kind == WorkloadKind::Deployment { "ReplicaSet" } else { kind.as_str() };
            errors.push(FieldError::forbidden(
                "spec.template.spec.activeDeadlineSeconds",
                &format!("activeDeadlineSeconds in {owner} is not Supported"),
            ));
        }
    }
    match kind {
        WorkloadKind::Deployment => check_deployment(spec, errors),
        WorkloadKind::ReplicaSet => {
            nonnegative(spec, "minReadySeconds", "spec", errors);
        }
        WorkloadKind::DaemonSet => check_daemon_set(spec, errors),
        WorkloadKind::StatefulSet => check_stateful_set(spec, errors),
        WorkloadKind::Job => check_job(spec, name, template_spec, errors),
    }
}

/// `ValidateDeploymentSpec` (after `SetDefaults_Deployment`).
fn check_deployment(spec: &Value, errors: &mut Vec<FieldError>) {
    let strategy = field::<Strategy>(spec, "strategy", "spec", errors).unwrap_or_default();
    match strategy.type_.as_str() {
        "Recreate" => {
            if strategy.rolling_update.is_some() {
                errors.push(FieldError::forbidden(
                    "spec.strategy.rollingUpdate",
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "" | "RollingUpdate" => {
            let r = strategy.rolling_update.clone().unwrap_or_default();
            let quarter = || IntOrString::String("25%".into());
            let unavailable = r.max_unavailable.unwrap_or_else(quarter);
            let surge = r.max_surge.unwrap_or_else(quarter);
            let path = "spec.strategy.rollingUpdate";
            int_or_percent(&unavailable, &format!("{path}.maxUnavailable"), errors);
            int_or_percent(&surge, &format!("{path}.maxSurge"), errors);
            if unavailable.value() == 0 && surge.value() == 0 {
                errors.push(FieldError::new(
                    format!("{path}.maxUnavailable"),
                    format!("Invalid value: {}: may not be 0 when `maxSurge` is 0", unavailable.json()),
                ));
            }
            not_over_100(&unavailable, &format!("{path}.maxUnavailable"), errors);
        }
        _ => errors.push(FieldError::new(
            "spec.strategy",
            format!(
                "Unsupported value: {}: supported values: \"Recreate\", \"RollingUpdate\"",
                strategy.internal_json(WorkloadKind::Deployment)
            ),
        )),
    }
    let min_ready = nonnegative(spec, "minReadySeconds", "spec", errors).unwrap_or(0);
    nonnegative(spec, "revisionHistoryLimit", "spec", errors);
    let deadline = nonnegative(spec, "progressDeadlineSeconds", "spec", errors).unwrap_or(600);
    if deadline <= min_ready {
        errors.push(FieldError::invalid_raw(
            "spec.progressDeadlineSeconds",
            deadline,
            "must be greater than minReadySeconds",
        ));
    }
    field::<bool>(spec, "paused", "spec", errors);
}

/// `ValidateDaemonSetSpec` and `ValidateDaemonSetUpdateStrategy` (after `SetDefaults_DaemonSet`).
fn check_daemon_set(spec: &Value, errors: &mut Vec<FieldError>) {
    nonnegative(spec, "minReadySeconds", "spec", errors);
    let strategy = field::<Strategy>(spec, "updateStrategy", "spec", errors).unwrap_or_default();
    match strategy.type_.as_str() {
        "OnDelete" => {}
        "" | "RollingUpdate" => {
            let r = strategy.rolling_update.clone().unwrap_or_default();
            let unavailable = r.max_unavailable.unwrap_or(IntOrString::Int(1));
            let surge = r.max_surge.unwrap_or(IntOrString::Int(0));
            let path = "spec.updateStrategy.rollingUpdate";
            int_or_percent(&unavailable, &format!("{path}.maxUnavailable"), errors);
            int_or_percent(&surge, &format!("{path}.maxSurge"), errors);
            not_over_100(&unavailable, &format!("{path}.maxUnavailable"), errors);
            not_over_100(&surge, &format!("{path}.maxSurge"), errors);
            match (unavailable.value() != 0, surge.value() != 0) {
                (true, true) => errors.push(FieldError::new(
                    format!("{path}.maxSurge"),
                    format!("Invalid value: {}: may not be set when maxUnavailable is non-zero", surge.json()),
                )),
                (false, false) => errors.push(FieldError::required_because(
                    format!("{path}.maxUnavailable"),
                    "cannot be 0 when maxSurge is 0",
                )),
                _ => {}
            }
        }
        _ => errors.push(FieldError::new(
            "spec.updateStrategy",
            format!(
                "Unsupported value: {}: supported values: \"RollingUpdate\", \"OnDelete\"",
                strategy.internal_json(WorkloadKind::DaemonSet)
            ),
        )),
    }
    nonnegative(spec, "revisionHistoryLimit", "spec", errors);
}

/// `ValidateStatefulSetSpec` (after `SetDefaults_StatefulSet`), and the claims its claim
/// templates stand for: the StatefulSet controller creates them, and the pod cannot start on
/// a cluster if they are refused.
fn check_stateful_set(spec: &Value, errors: &mut Vec<FieldError>) {
    if let Some(policy) = field::<Text>(spec, "podManagementPolicy", "spec", errors) {
        if !matches!(policy.0.as_str(), "" | "OrderedReady" | "Parallel") {
            errors.push(FieldError::invalid(
                "spec.podManagementPolicy",
                &policy.0,
                "must be 'OrderedReady' or 'Parallel'",
            ));
        }
    }
    let strategy = field::<Strategy>(spec, "updateStrategy", "spec", errors).unwrap_or_default();
    let path = "spec.updateStrategy.rollingUpdate";
    match strategy.type_.as_str() {
        "OnDelete" => {
            if strategy.rolling_update.is_some() {
                errors.push(FieldError::new(
                    path,
                    format!(
                        "Invalid value: {}: only allowed for updateStrategy 'RollingUpdate'",
                        rolling_json(WorkloadKind::StatefulSet, strategy.rolling_update.as_ref())
                    ),
                ));
            }
        }
        "" | "RollingUpdate" => {
            if let Some(r) = &strategy.rolling_update {
                nonnegative_value(r.partition.map(i64::from), &format!("{path}.partition"), errors);
                if let Some(u) = &r.max_unavailable {
                    let p = format!("{path}.maxUnavailable");
                    int_or_percent(u, &p, errors);
                    if u.value() == 0 {
                        errors.push(FieldError::new(&p, format!("Invalid value: {}: cannot be 0", u.json())));
                    }
                    not_over_100(u, &p, errors);
                }
            }
        }
        _ => errors.push(FieldError::new(
            "spec.updateStrategy",
            format!(
                "Invalid value: {}: must be 'RollingUpdate' or 'OnDelete'",
                strategy.internal_json(WorkloadKind::StatefulSet)
            ),
        )),
    }
    if let Some(policy) = field::<RetentionPolicy>(spec, "persistentVolumeClaimRetentionPolicy", "spec", errors) {
        for (name, v) in [("whenDeleted", &policy.when_deleted), ("whenScaled", &policy.when_scaled)] {
            if !matches!(v.as_str(), "" | "Retain" | "Delete") {
                errors.push(FieldError::unsupported(
                    format!("spec.persistentVolumeClaimRetentionPolicy.{name}"),
                    v,
                    &["Retain", "Delete"],
                ));
            }
        }
    }
    nonnegative(spec, "minReadySeconds", "spec", errors);
    if let Some(o) = field::<Ordinals>(spec, "ordinals", "spec", errors) {
        // The API server names this path with a dot inside one segment.
        nonnegative_value(Some(i64::from(o.start)), "spec.ordinals.start", errors);
    }
    field::<Text>(spec, "serviceName", "spec", errors);
    for (i, t) in items(spec, "volumeClaimTemplates").iter().enumerate() {
        let empty = Value::Mapping(Default::default());
        check_claim_spec(get(t, "spec").unwrap_or(&empty), &format!("spec.volumeClaimTemplates[{i}].spec"), errors);
    }
}

fn too_many(path: &str, actual: usize, max: usize) -> FieldError {
    FieldError::new(path, format!("Too many: {actual}: must have at most {max} items"))
}

/// `validateJobSpec`, `ValidateJobSpec`'s selector rules and `validateGeneratedSelector`
/// (after `SetDefaults_Job`), and the name an Indexed Job's last pod would get.
fn check_job(spec: &Value, name: &str, template: Option<&Value>, errors: &mut Vec<FieldError>) {
    let counts = job_counts(spec, errors);
    if let Some(managed_by) = field::<Text>(spec, "managedBy", "spec", errors) {
        check_domain_prefixed_path(&managed_by.0, "spec.managedBy", errors);
        if managed_by.0.len() > 63 {
            errors.push(FieldError::new("spec.managedBy", "Too long: may not be more than 63 bytes"));
        }
    }
    let indexed = check_completion_mode(spec, name, counts, errors);
    let failure_policy = field::<PodFailurePolicy>(spec, "podFailurePolicy", "spec", errors);
    if let Some(fp) = &failure_policy {
        check_pod_failure_policy(fp, counts.per_index.is_some(), template, errors);
    }
    if let Some(sp) = field::<SuccessPolicy>(spec, "successPolicy", "spec", errors) {
        if !indexed {
            errors.push(FieldError::new("spec.successPolicy", "Invalid value: requires indexed completion mode"));
        } else {
            check_success_policy(&sp, counts.completions.unwrap_or(0), errors);
        }
    }
    check_pod_replacement_policy(spec, failure_policy.is_some(), errors);
    let restart = template.and_then(|t| get(t, "restartPolicy")).and_then(Value::as_str);
    if failure_policy.is_some() && restart == Some("OnFailure") {
        errors.push(FieldError::invalid(
            "spec.template.spec.restartPolicy",
            "OnFailure",
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
    check_job_selector(spec, name, errors);
}

/// A Job's counts, which its other rules compare with each other.
#[derive(Clone, Copy)]
struct JobCounts {
    parallelism: Option<i32>,
    /// With `SetDefaults_Job`'s default.
    completions: Option<i32>,
    per_index: Option<i64>,
    max_failed: Option<i64>,
}

/// A Job's counts and limits, each checked on its own.
fn job_counts(spec: &Value, errors: &mut Vec<FieldError>) -> JobCounts {
    let parallelism = field::<i32>(spec, "parallelism", "spec", errors);
    let completions = field::<i32>(spec, "completions", "spec", errors);
    // Unset both, both are 1; an unset parallelism alone is 1.
    let completions = completions.or(if parallelism.is_none() { Some(1) } else { None });
    let deadline = field::<i64>(spec, "activeDeadlineSeconds", "spec", errors);
    nonnegative_value(deadline, "spec.activeDeadlineSeconds", errors);
    nonnegative(spec, "backoffLimit", "spec", errors);
    nonnegative(spec, "ttlSecondsAfterFinished", "spec", errors);
    let per_index = nonnegative(spec, "backoffLimitPerIndex", "spec", errors);
    let max_failed = nonnegative(spec, "maxFailedIndexes", "spec", errors);
    if max_failed.is_some() && per_index.is_none() {
        errors.push(FieldError::required_because("spec.backoffLimitPerIndex", "when maxFailedIndexes is specified"));
    }
    JobCounts { parallelism, completions, per_index, max_failed }
}

/// `completionMode` and the rules that depend on it; whether the Job is Indexed.
fn check_completion_mode(spec: &Value, name: &str, counts: JobCounts, errors: &mut Vec<FieldError>) -> bool {
    let mode = field::<Text>(spec, "completionMode", "spec", errors).map(|m| m.0);
    let indexed = mode.as_deref() == Some("Indexed");
    if let Some(mode) = mode.as_deref().filter(|m| !matches!(*m, "NonIndexed" | "Indexed")) {
        errors.push(FieldError::unsupported("spec.completionMode", mode, &["NonIndexed", "Indexed"]));
    }
    if indexed {
        check_indexed_job(name, counts, errors);
    } else {
        if let Some(b) = counts.per_index {
            errors.push(FieldError::invalid_raw("spec.backoffLimitPerIndex", b, "requires indexed completion mode"));
        }
        if let Some(m) = counts.max_failed {
            errors.push(FieldError::invalid_raw("spec.maxFailedIndexes", m, "requires indexed completion mode"));
        }
    }
    indexed
}

/// The limits of an Indexed Job, and the name its last pod would get.
fn check_indexed_job(name: &str, counts: JobCounts, errors: &mut Vec<FieldError>) {
    let JobCounts { parallelism, completions, max_failed, .. } = counts;
    if completions.is_none() {
        errors.push(FieldError::required_because("spec.completions", "when completion mode is Indexed"));
    }
    if let Some(p) = parallelism.filter(|p| *p > 100_000) {
        errors.push(FieldError::invalid_raw(
            "spec.parallelism",
            p,
            "must be less than or equal to 100000 when completion mode is Indexed",
        ));
    }
    if let (Some(c), Some(m)) = (completions, max_failed) {
        if m > i64::from(c) {
            errors.push(FieldError::invalid_raw(
                "spec.maxFailedIndexes",
                m,
                "must be less than or equal to completions",
            ));
        }
    }
    if let Some(m) = max_failed.filter(|m| *m > 100_000) {
        errors.push(FieldError::invalid_raw("spec.maxFailedIndexes", m, "must be less than or equal to 100000"));
    }
    if let Some(c) = completions.filter(|c| *c > 0) {
        // The controller names the last pod's hostname `<name>-<completions-1>`.
        let last = format!("{name}-{}", c - 1);
        if !dns1123_label_problems(&last).is_empty() {
            errors.push(FieldError::invalid(
                "metadata.name",
                name,
                &format!("will not able to create pod with invalid DNS label: {last}"),
            ));
        }
    }
}

/// `podReplacementPolicy`: only `Failed` with a pod failure policy.
fn check_pod_replacement_policy(spec: &Value, failure_policy: bool, errors: &mut Vec<FieldError>) {
    if let Some(policy) = field::<Text>(spec, "podReplacementPolicy", "spec", errors) {
        let p = "spec.podReplacementPolicy";
        if failure_policy {
            if policy.0 != "Failed" {
                errors.push(FieldError::unsupported(p, &policy.0, &["Failed"]));
            }
        } else if !matches!(policy.0.as_str(), "Failed" | "TerminatingOrFailed") {
            errors.push(FieldError::unsupported(p, &policy.0, &["Failed", "TerminatingOrFailed"]));
        }
    }
}

/// `IsDomainPrefixedPath`.
fn check_domain_prefixed_path(value: &str, path: &str, errors: &mut Vec<FieldError>) {
    if value.is_empty() {
        errors.push(FieldError::required(path));
        return;
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        errors.push(FieldError::invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
        return;
    };
    for m in dns_subdomain_problems(host) {
        errors.push(FieldError::invalid(path, host, &m));
    }
    let http_path = |c: char| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c);
    if !rest.chars().all(http_path) {
        errors.push(FieldError::invalid(
            path,
            rest,
            &regex_error("Invalid path", "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+", &[]),
        ));
    }
}

/// `validatePodFailurePolicy` (onPodConditions' status defaults to True).
fn check_pod_failure_policy(
    fp: &PodFailurePolicy,
    per_index: bool,
    template: Option<&Value>,
    errors: &mut Vec<FieldError>,
) {
    let rules_path = "spec.podFailurePolicy.rules";
    if fp.rules.len() > 20 {
        errors.push(too_many(rules_path, fp.rules.len(), 20));
    }
    let names: Vec<&str> = ["initContainers", "containers"]
        .iter()
        .flat_map(|list| template.map_or(&[][..], |t| items(t, list)))
        .filter_map(|c| get(c, "name").and_then(Value::as_str))
        .collect();
    for (i, rule) in fp.rules.iter().enumerate() {
        let p = format!("{rules_path}[{i}]");
        check_rule_action(&rule.action, &p, per_index, errors);
        if let Some(ec) = &rule.on_exit_codes {
            check_on_exit_codes(ec, &format!("{p}.onExitCodes"), &names, errors);
        }
        if rule.on_pod_conditions.len() > 20 {
            errors.push(too_many(&format!("{p}.onPodConditions"), rule.on_pod_conditions.len(), 20));
        }
        for (j, c) in rule.on_pod_conditions.iter().enumerate() {
            let cp = format!("{p}.onPodConditions[{j}]");
            validate_qualified_name(&c.type_, &format!("{cp}.type"), errors);
            if !matches!(c.status.as_str(), "" | "True" | "False" | "Unknown") {
                errors.push(FieldError::unsupported(format!("{cp}.status"), &c.status, &["False", "True", "Unknown"]));
            }
        }
        match (rule.on_exit_codes.is_some(), !rule.on_pod_conditions.is_empty()) {
            (true, true) => errors.push(FieldError::new(
                &p,
                "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported",
            )),
            (false, false) => errors.push(FieldError::new(
                &p,
                "Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
            )),
            _ => {}
        }
    }
}

/// A pod failure policy rule's `action`, at rule path `p`.
fn check_rule_action(action: &str, p: &str, per_index: bool, errors: &mut Vec<FieldError>) {
    let actions = ["Count", "FailIndex", "FailJob", "Ignore"];
    match action {
        "" => errors.push(FieldError::required_because(
            format!("{p}.action"),
            "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]",
        )),
        "FailIndex" if !per_index => errors.push(FieldError::invalid(
            format!("{p}.action"),
            "FailIndex",
            "requires the backoffLimitPerIndex to be set",
        )),
        a if !actions.contains(&a) => errors.push(FieldError::unsupported(format!("{p}.action"), a, &actions)),
        _ => {}
    }
}

/// A pod failure policy rule's `onExitCodes`, at `ep`; `names` are the template's containers.
fn check_on_exit_codes(ec: &OnExitCodes, ep: &str, names: &[&str], errors: &mut Vec<FieldError>) {
    match ec.operator.as_str() {
        "" => errors.push(FieldError::required_because(format!("{ep}.operator"), "valid values: [\"In\" \"NotIn\"]")),
        "In" | "NotIn" => {}
        other => errors.push(FieldError::unsupported(format!("{ep}.operator"), other, &["In", "NotIn"])),
    }
    if let Some(c) = ec.container_name.as_deref().filter(|c| !names.contains(c)) {
        errors.push(FieldError::invalid(
            format!("{ep}.containerName"),
            c,
            "must be one of the container or initContainer names in the pod template",
        ));
    }
    let values = ec.values.as_deref().unwrap_or_default();
    let vp = format!("{ep}.values");
    if values.is_empty() {
        let shown = if ec.values.is_some() { "[]" } else { "null" };
        errors.push(FieldError::new(&vp, format!("Invalid value: {shown}: at least one value is required")));
    } else if values.len() > 255 {
        errors.push(too_many(&vp, values.len(), 255));
    }
    let mut seen = Vec::new();
    for (j, v) in values.iter().enumerate() {
        if ec.operator == "In" && *v == 0 {
            errors.push(FieldError::invalid_raw(format!("{vp}[{j}]"), v, "must not be 0 for the In operator"));
        }
        if seen.contains(v) {
            errors.push(FieldError::new(format!("{vp}[{j}]"), format!("Duplicate value: {v}")));
        }
        seen.push(*v);
    }
    if values.windows(2).any(|w| w[0] > w[1]) {
        errors.push(FieldError::new(&vp, format!("Invalid value: {}: must be ordered", json(values))));
    }
}

/// `validateSuccessPolicy`, but for the syntax of `succeededIndexes`.
fn check_success_policy(sp: &SuccessPolicy, completions: i32, errors: &mut Vec<FieldError>) {
    let rules_path = "spec.successPolicy.rules";
    if sp.rules.is_empty() {
        errors.push(FieldError::required_because(
            rules_path,
            "at least one rules must be specified when the successPolicy is specified",
        ));
    }
    if sp.rules.len() > 20 {
        errors.push(too_many(rules_path, sp.rules.len(), 20));
    }
    for (i, rule) in sp.rules.iter().enumerate() {
        let p = format!("{rules_path}[{i}]");
        if rule.succeeded_count.is_none() && rule.succeeded_indexes.is_none() {
            errors.push(FieldError::required_because(
                &p,
                "at least one of succeededCount or succeededIndexes must be specified",
            ));
        }
        if let Some(count) = rule.succeeded_count {
            let cp = format!("{p}.succeededCount");
            nonnegative_value(Some(i64::from(count)), &cp, errors);
            if count > completions {
                errors.push(FieldError::invalid_raw(
                    &cp,
                    count,
                    &format!("must be less than or equal to {completions} (the number of specified completions)"),
                ));
            }
        }
    }
}

/// A Job's selector: generated by the API server unless `manualSelector: true`, in which case
/// it must be given and match the template's labels.
fn check_job_selector(spec: &Value, name: &str, errors: &mut Vec<FieldError>) {
    let manual = field::<bool>(spec, "manualSelector", "spec", errors) == Some(true);
    let selector = field::<LabelSelector>(spec, "selector", "spec", errors);
    // Wrong label types are the pod's problems, reported with it.
    let labels: BTreeMap<String, String> = get(spec, "template")
        .and_then(|t| get(t, "metadata"))
        .and_then(|m| field::<BTreeMap<String, Text>>(m, "labels", "", &mut Vec::new()))
        .map(|l| l.into_iter().map(|(k, v)| (k, v.0)).collect())
        .unwrap_or_default();
    let labels_json = if labels.is_empty() { "null".to_owned() } else { json(&labels) };
    if manual {
        match &selector {
            None => errors.push(FieldError::required("spec.selector")),
            Some(s) => {
                validate_label_selector(s, false, "spec.selector", errors);
                if selector_converts(s) && s.matches(&labels) == Some(false) {
                    errors.push(FieldError::new(
                        "spec.template.metadata.labels",
                        format!("Invalid value: {labels_json}: `selector` does not match template `labels`"),
                    ));
                }
            }
        }
        return;
    }
    // The API server adds the job-name labels the template lacks; one set to another name stays.
    for key in ["job-name", "batch.kubernetes.io/job-name"] {
        if labels.get(key).is_some_and(|v| v != name) {
            errors.push(FieldError::new(
                format!("spec.template.metadata.labels[{key}]"),
                format!("Invalid value: {labels_json}: must be '{name}'"),
            ));
        }
    }
    if let Some(s) = &selector {
        validate_label_selector(s, false, "spec.selector", errors);
        // The generated selector is the given one plus the Job's uid, which the manifest
        // cannot know: it must select the labels the API server gives the Job's pods.
        let mut expected = BTreeMap::new();
        for key in ["job-name", "batch.kubernetes.io/job-name"] {
            expected.insert(key.to_owned(), name.to_owned());
        }
        for key in ["controller-uid", "batch.kubernetes.io/controller-uid"] {
            expected.insert(key.to_owned(), "<the Job's uid>".to_owned());
        }
        if !selector_converts(s) {
            return;
        }
        if s.matches(&expected) != Some(true) {
            errors.push(FieldError::new(
                "spec.selector",
                format!("Invalid value: {}: `selector` not auto-generated", selector_json(s)),
            ));
        }
        // The template gets the labels it lacks of those, and must still be selected.
        let mut generated = labels.clone();
        for (k, v) in expected {
            generated.entry(k).or_insert(v);
        }
        if s.matches(&generated) == Some(false) {
            errors.push(FieldError::new(
                "spec.template.metadata.labels",
                format!("Invalid value: {}: `selector` does not match template `labels`", json(&generated)),
            ));
        }
    }
}

/// The selector rules of the apps/v1 kinds, and whether the selector selects the template's
/// labels (`ValidateDeploymentSpec`, `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`,
/// `ValidateDaemonSetSpec`). A missing selector selects nothing.
pub(crate) fn apps_selector_problems(
    kind: WorkloadKind,
    selector: Option<&LabelSelector>,
    template_labels: &BTreeMap<String, String>,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let labels_json = if template_labels.is_empty() { "null".to_owned() } else { json(template_labels) };
    let mismatch = FieldError::new(
        "spec.template.metadata.labels",
        format!("Invalid value: {labels_json}: `selector` does not match template `labels`"),
    );
    // The ReplicaSet message says "deployment": both share it in Kubernetes.
    let noun = match kind {
        WorkloadKind::StatefulSet => "statefulset",
        WorkloadKind::DaemonSet => "daemonset",
        _ => "deployment",
    };
    let empty = |s: &LabelSelector| {
        FieldError::new(
            "spec.selector",
            format!("Invalid value: {}: empty selector is invalid for {noun}", selector_json(s)),
        )
    };
    let Some(s) = selector else {
        if kind != WorkloadKind::DaemonSet {
            errors.push(FieldError::required("spec.selector"));
        }
        errors.push(mismatch);
        return errors;
    };
    validate_label_selector(s, false, "spec.selector", &mut errors);
    if kind == WorkloadKind::DaemonSet {
        if selector_converts(s) && s.matches(template_labels) == Some(false) {
            errors.push(mismatch);
        }
        if s.is_empty() {
            errors.push(empty(s));
        }
        return errors;
    }
    if s.is_empty() {
        errors.push(empty(s));
    }
    if !selector_converts(s) {
        let why = if kind == WorkloadKind::StatefulSet { String::new() } else { ": invalid label selector".to_owned() };
        errors.push(FieldError::new("spec.selector", format!("Invalid value: {}{why}", selector_json(s))));
    } else if !s.is_empty() && s.matches(template_labels) == Some(false) {
        errors.push(mismatch);
    }
    errors
}

#[cfg(test)]
mod tests;
