//! The API server's rules for the pod fields that only a cluster acts on (scheduling,
//! priority, service account, OS, readiness and scheduling gates) and for the ones podrun does
//! not implement yet (`resizePolicy`, `ephemeralContainers`), and for `activeDeadlineSeconds`
//! (which podrun enforces; it reads it from its type). podrun ignores the others (with a
//! warning), but a value Kubernetes refuses is still refused: what podrun accepts, `kubectl
//! apply` accepts.
//!
//! Ported from `ValidatePodSpec` and what it calls in Kubernetes 1.35
//! (pkg/apis/core/validation/validation.go). The fields are read from the document itself
//! (`raw.rs`), one by one into their types (`types/scheduling.rs`), since the Pod's own type
//! leaves them out.

use std::collections::BTreeMap;

use serde_yaml::Value;

use super::labels::{
    validate_label_name, validate_label_selector, validate_labels, validate_name, validate_qualified_name,
};
use super::raw::{child, field, get, has, items, Text};
use super::FieldError;
use crate::manifest::names::{dns1123_label_problems, dns_subdomain_problems, label_value_problems};
use crate::manifest::types::{
    Affinity, ContainerResizePolicy, NodeSelectorTerm, PodAffinityTerm, ReadinessGate, SchedulingGate, Toleration,
    TopologySpreadConstraint,
};

/// Where a pod spec is: a Pod's, or a workload's pod template (some rules differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    Pod,
    Template,
}

const MAX_INT32: i64 = i32::MAX as i64;

/// A string field, when it is one (`None` when absent; a non-string is reported).
fn string(spec: &Value, key: &str, path: &str, errors: &mut Vec<FieldError>) -> Option<String> {
    field::<Text>(spec, key, path, errors).map(|s| s.0)
}

/// `ValidatePodSpec`'s checks of the fields podrun does not act on, for the spec at `path`
/// (`spec`, or `spec.template.spec` in a workload).
pub(super) fn check_pod_spec(spec: &Value, path: &str, owner: Owner, errors: &mut Vec<FieldError>) {
    check_resize_policies(spec, path, errors);
    if let Some(selector) = field::<BTreeMap<String, Text>>(spec, "nodeSelector", path, errors) {
        let selector = selector.into_iter().map(|(k, v)| (k, v.0)).collect();
        validate_labels(&selector, &child(path, "nodeSelector"), errors);
    }
    if let Some(affinity) = field::<Affinity>(spec, "affinity", path, errors) {
        validate_affinity(&affinity, &child(path, "affinity"), errors);
    }
    if let Some(gates) = field::<Vec<ReadinessGate>>(spec, "readinessGates", path, errors) {
        for (i, g) in gates.iter().enumerate() {
            validate_qualified_name(&g.condition_type, &format!("{path}.readinessGates[{i}].conditionType"), errors);
        }
    }
    let gates = field::<Vec<SchedulingGate>>(spec, "schedulingGates", path, errors).unwrap_or_default();
    validate_scheduling_gates(&gates, &child(path, "schedulingGates"), errors);
    if let Some(constraints) = field::<Vec<TopologySpreadConstraint>>(spec, "topologySpreadConstraints", path, errors) {
        validate_topology_spread(&constraints, &child(path, "topologySpreadConstraints"), errors);
    }
    // The deprecated `serviceAccount` stands in for an empty `serviceAccountName` (conversion
    // copies it over), so it is checked under the new name.
    let account = string(spec, "serviceAccountName", path, errors).filter(|s| !s.is_empty());
    let account = account.or_else(|| string(spec, "serviceAccount", path, errors));
    if let Some(name) = account.filter(|s| !s.is_empty()) {
        validate_name(&name, dns_subdomain_problems(&name), &child(path, "serviceAccountName"), errors);
    }
    let node_name = string(spec, "nodeName", path, errors).unwrap_or_default();
    if !node_name.is_empty() {
        validate_name(&node_name, dns_subdomain_problems(&node_name), &child(path, "nodeName"), errors);
    }
    if let Some(seconds) = field::<i64>(spec, "activeDeadlineSeconds", path, errors) {
        if !(1..=MAX_INT32).contains(&seconds) {
            errors.push(FieldError::invalid_raw(
                child(path, "activeDeadlineSeconds"),
                seconds,
                &format!("must be between 1 and {MAX_INT32}, inclusive"),
            ));
        }
    }
    if let Some(tolerations) = field::<Vec<Toleration>>(spec, "tolerations", path, errors) {
        validate_tolerations(&tolerations, &child(path, "tolerations"), errors);
    }
    if let Some(class) = string(spec, "priorityClassName", path, errors).filter(|s| !s.is_empty()) {
        validate_name(&class, dns_subdomain_problems(&class), &child(path, "priorityClassName"), errors);
    }
    if let Some(class) = string(spec, "runtimeClassName", path, errors) {
        validate_name(&class, dns_subdomain_problems(&class), &child(path, "runtimeClassName"), errors);
    }
    if let Some(policy) = string(spec, "preemptionPolicy", path, errors) {
        let p = child(path, "preemptionPolicy");
        match policy.as_str() {
            "PreemptLowerPriority" | "Never" => {}
            "" => errors.push(FieldError::required(p)),
            other => errors.push(FieldError::unsupported(p, other, &["PreemptLowerPriority", "Never"])),
        }
    }
    if let Some(os) = get(spec, "os") {
        validate_os(spec, os, path, errors);
    }
    // `ValidatePodCreate` and `ValidatePodTemplateSpec`.
    if !items(spec, "ephemeralContainers").is_empty() {
        let p = child(path, "ephemeralContainers");
        errors.push(match owner {
            Owner::Pod => FieldError::forbidden(p, "cannot be set on create"),
            Owner::Template => FieldError::forbidden(p, "ephemeral containers not allowed in pod template"),
        });
    }
    if owner == Owner::Pod && !node_name.is_empty() && !gates.is_empty() {
        errors.push(FieldError::forbidden(
            child(path, "nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
}

/// `validateContainerResizePolicy` for every container; a pod that never restarts may only resize in place.
fn check_resize_policies(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let never = matches!(get(spec, "restartPolicy"), Some(Value::String(s)) if s == "Never");
    for list in ["initContainers", "containers"] {
        for (i, c) in items(spec, list).iter().enumerate() {
            let cpath = format!("{path}.{list}[{i}]");
            let Some(policies) = field::<Vec<ContainerResizePolicy>>(c, "resizePolicy", &cpath, errors) else {
                continue;
            };
            let p = child(&cpath, "resizePolicy");
            let mut seen = Vec::new();
            for (j, r) in policies.iter().enumerate() {
                if seen.contains(&r.resource_name.as_str()) {
                    errors.push(FieldError::duplicate(format!("{p}[{j}]"), &r.resource_name));
                }
                seen.push(&r.resource_name);
                match r.resource_name.as_str() {
                    "cpu" | "memory" => {}
                    "" => errors.push(FieldError::required(&p)),
                    other => errors.push(FieldError::unsupported(&p, other, &["cpu", "memory"])),
                }
                match r.restart_policy.as_str() {
                    "NotRequired" | "RestartContainer" => {}
                    "" => errors.push(FieldError::required(&p)),
                    other => errors.push(FieldError::unsupported(&p, other, &["NotRequired", "RestartContainer"])),
                }
                if never && r.restart_policy != "NotRequired" {
                    errors.push(FieldError::invalid(
                        &p,
                        &r.restart_policy,
                        "must be 'NotRequired' when `restartPolicy` is 'Never'",
                    ));
                }
            }
        }
    }
}

/// `ValidateTolerations`.
fn validate_tolerations(tolerations: &[Toleration], path: &str, errors: &mut Vec<FieldError>) {
    for (i, t) in tolerations.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if !t.key.is_empty() {
            validate_label_name(&t.key, &format!("{p}.key"), errors);
        }
        // An empty key with Exists (and no value) tolerates every taint.
        if t.key.is_empty() && t.operator != "Exists" {
            errors.push(FieldError::invalid(
                format!("{p}.operator"),
                &t.operator,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != "NoExecute" {
            errors.push(FieldError::invalid(
                format!("{p}.effect"),
                &t.effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match t.operator.as_str() {
            // An empty operator means Equal.
            "Equal" | "" => {
                let problems = label_value_problems(&t.value);
                if !problems.is_empty() {
                    errors.push(FieldError::invalid(format!("{p}.operator"), &t.value, &problems.join(";")));
                }
            }
            "Exists" => {
                if !t.value.is_empty() {
                    errors.push(FieldError::invalid(
                        format!("{p}.operator"),
                        &t.value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errors.push(FieldError::unsupported(format!("{p}.operator"), other, &["Equal", "Exists"])),
        }
        // An empty effect matches every effect.
        if !matches!(t.effect.as_str(), "" | "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
            errors.push(FieldError::unsupported(
                format!("{p}.effect"),
                &t.effect,
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
}

/// `validateAffinity`.
fn validate_affinity(a: &Affinity, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(na) = &a.node_affinity {
        let path = format!("{path}.nodeAffinity");
        if let Some(required) = &na.required_during_scheduling_ignored_during_execution {
            let p = format!("{path}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
            if required.node_selector_terms.is_empty() {
                errors.push(FieldError::required_because(&p, "must have at least one node selector term"));
            }
            for (i, term) in required.node_selector_terms.iter().enumerate() {
                validate_node_selector_term(term, false, &format!("{p}[{i}]"), errors);
            }
        }
        for (i, t) in na.preferred_during_scheduling_ignored_during_execution.iter().enumerate() {
            let p = format!("{path}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            check_weight(t.weight, &p, errors);
            // Preferred terms may name label values that are invalid: they can still match.
            validate_node_selector_term(&t.preference, true, &format!("{p}.preference"), errors);
        }
    }
    for (name, pa) in [("podAffinity", &a.pod_affinity), ("podAntiAffinity", &a.pod_anti_affinity)] {
        let Some(pa) = pa else { continue };
        let path = format!("{path}.{name}");
        for (i, t) in pa.required_during_scheduling_ignored_during_execution.iter().enumerate() {
            validate_pod_affinity_term(
                t,
                &format!("{path}.requiredDuringSchedulingIgnoredDuringExecution[{i}]"),
                errors,
            );
        }
        for (i, t) in pa.preferred_during_scheduling_ignored_during_execution.iter().enumerate() {
            let p = format!("{path}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            check_weight(t.weight, &p, errors);
            validate_pod_affinity_term(&t.pod_affinity_term, &format!("{p}.podAffinityTerm"), errors);
        }
    }
}

fn check_weight(weight: i32, path: &str, errors: &mut Vec<FieldError>) {
    if !(1..=100).contains(&weight) {
        errors.push(FieldError::invalid_raw(format!("{path}.weight"), weight, "must be in the range 1-100"));
    }
}

/// `ValidateNodeSelectorTerm`: label requirements, and field requirements (only
/// `metadata.name`, with one node name).
fn validate_node_selector_term(
    term: &NodeSelectorTerm,
    allow_invalid_values: bool,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    for (j, r) in term.match_expressions.iter().enumerate() {
        let p = format!("{path}.matchExpressions[{j}]");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.is_empty() => errors.push(FieldError::required_because(
                format!("{p}.values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !r.values.is_empty() => errors.push(FieldError::forbidden(
                format!("{p}.values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "Gt" | "Lt" if r.values.len() != 1 => errors.push(FieldError::required_because(
                format!("{p}.values"),
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
            other => errors.push(FieldError::invalid(format!("{p}.operator"), other, "not a valid selector operator")),
        }
        validate_label_name(&r.key, &format!("{p}.key"), errors);
        if !allow_invalid_values {
            for (k, v) in r.values.iter().enumerate() {
                for m in label_value_problems(v) {
                    errors.push(FieldError::invalid(format!("{p}.values[{k}]"), v, &m));
                }
            }
        }
    }
    for (j, r) in term.match_fields.iter().enumerate() {
        let p = format!("{path}.matchFields[{j}]");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.len() != 1 => errors.push(FieldError::required_because(
                format!("{p}.values"),
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )),
            "In" | "NotIn" => {}
            other => errors.push(FieldError::invalid(format!("{p}.operator"), other, "not a valid selector operator")),
        }
        if r.key != "metadata.name" {
            errors.push(FieldError::invalid(format!("{p}.key"), &r.key, "not a valid field selector key"));
        } else {
            for (k, v) in r.values.iter().enumerate() {
                validate_name(v, dns_subdomain_problems(v), &format!("{p}.values[{k}]"), errors);
            }
        }
    }
}

/// `validatePodAffinityTerm`.
fn validate_pod_affinity_term(t: &PodAffinityTerm, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(s) = &t.label_selector {
        validate_label_selector(s, false, &format!("{path}.labelSelector"), errors);
    }
    if let Some(s) = &t.namespace_selector {
        validate_label_selector(s, false, &format!("{path}.namespaceSelector"), errors);
    }
    for ns in &t.namespaces {
        // The API server reports these at `namespace` (sic).
        validate_name(ns, dns1123_label_problems(ns), &format!("{path}.namespace"), errors);
    }
    for (name, keys) in [("matchLabelKeys", &t.match_label_keys), ("mismatchLabelKeys", &t.mismatch_label_keys)] {
        if keys.is_empty() {
            continue;
        }
        if t.label_selector.is_none() {
            errors.push(FieldError::forbidden(
                format!("{path}.{name}"),
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (i, key) in keys.iter().enumerate() {
            validate_label_name(key, &format!("{path}.{name}[{i}]"), errors);
        }
    }
    for (i, key) in t.match_label_keys.iter().enumerate() {
        if t.mismatch_label_keys.contains(key) {
            errors.push(FieldError::invalid(
                format!("{path}.matchLabelKeys[{i}]"),
                key,
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
    if t.topology_key.is_empty() {
        errors.push(FieldError::required_because(format!("{path}.topologyKey"), "can not be empty"));
    }
    validate_label_name(&t.topology_key, &format!("{path}.topologyKey"), errors);
}

/// `validateSchedulingGates`: qualified names, no duplicates.
fn validate_scheduling_gates(gates: &[SchedulingGate], path: &str, errors: &mut Vec<FieldError>) {
    let mut seen = Vec::new();
    for (i, g) in gates.iter().enumerate() {
        validate_qualified_name(&g.name, &format!("{path}[{i}]"), errors);
        if seen.contains(&g.name.as_str()) {
            errors.push(FieldError::duplicate(format!("{path}[{i}]"), &g.name));
        }
        seen.push(&g.name);
    }
}

/// `validateTopologySpreadConstraints`.
fn validate_topology_spread(constraints: &[TopologySpreadConstraint], path: &str, errors: &mut Vec<FieldError>) {
    for (i, c) in constraints.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if c.max_skew <= 0 {
            errors.push(FieldError::invalid_raw(format!("{p}.maxSkew"), c.max_skew, "must be greater than zero"));
        }
        if c.topology_key.is_empty() {
            errors.push(FieldError::required_because(format!("{p}.topologyKey"), "can not be empty"));
        }
        if !matches!(c.when_unsatisfiable.as_str(), "DoNotSchedule" | "ScheduleAnyway") {
            errors.push(FieldError::unsupported(
                format!("{p}.whenUnsatisfiable"),
                &c.when_unsatisfiable,
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        // {topologyKey, whenUnsatisfiable} names one kind of constraint.
        if constraints[i + 1..]
            .iter()
            .any(|o| o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable)
        {
            errors.push(FieldError::duplicate(
                format!("{p}.{{topologyKey, whenUnsatisfiable}}"),
                &format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable),
            ));
        }
        if let Some(min) = c.min_domains {
            if min <= 0 {
                errors.push(FieldError::invalid_raw(format!("{p}.minDomains"), min, "must be greater than zero"));
            }
            if c.when_unsatisfiable != "DoNotSchedule" {
                errors.push(FieldError::invalid_raw(
                    format!("{p}.minDomains"),
                    min,
                    &format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        c.when_unsatisfiable
                    ),
                ));
            }
        }
        for (name, policy) in
            [("nodeAffinityPolicy", &c.node_affinity_policy), ("nodeTaintsPolicy", &c.node_taints_policy)]
        {
            if let Some(policy) = policy.as_deref().filter(|p| !matches!(*p, "Honor" | "Ignore")) {
                errors.push(FieldError::unsupported(format!("{p}.{name}"), policy, &["Honor", "Ignore"]));
            }
        }
        if !c.match_label_keys.is_empty() {
            let keys_path = format!("{p}.matchLabelKeys");
            let selector_keys: Vec<&str> = match &c.label_selector {
                Some(s) => s
                    .match_labels
                    .keys()
                    .map(String::as_str)
                    .chain(s.match_expressions.iter().map(|r| r.key.as_str()))
                    .collect(),
                None => {
                    errors
                        .push(FieldError::forbidden(&keys_path, "must not be specified when labelSelector is not set"));
                    Vec::new()
                }
            };
            for (j, key) in c.match_label_keys.iter().enumerate() {
                validate_label_name(key, &format!("{keys_path}[{j}]"), errors);
                if selector_keys.contains(&key.as_str()) {
                    errors.push(FieldError::invalid(
                        format!("{keys_path}[{j}]"),
                        key,
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
        }
        if let Some(s) = &c.label_selector {
            validate_label_selector(s, false, &format!("{p}.labelSelector"), errors);
        }
    }
}

/// `validateOS`, then the fields the chosen OS cannot have (`validateLinux`, `validateWindows`).
fn validate_os(spec: &Value, os: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let os_path = child(path, "os");
    let name = string(os, "name", &os_path, errors).unwrap_or_default();
    match name.as_str() {
        "" => errors.push(FieldError::required_because(format!("{os_path}.name"), "cannot be empty")),
        "linux" => {
            let msg = "windows options cannot be set for a linux pod";
            if get(spec, "securityContext").is_some_and(|sc| has(sc, "windowsOptions")) {
                errors.push(FieldError::forbidden(format!("{path}.securityContext.windowsOptions"), msg));
            }
            for (cpath, c) in containers(spec, path) {
                if get(c, "securityContext").is_some_and(|sc| has(sc, "windowsOptions")) {
                    errors.push(FieldError::forbidden(format!("{cpath}.securityContext.windowsOptions"), msg));
                }
            }
        }
        "windows" => validate_windows(spec, path, errors),
        other => errors.push(FieldError::unsupported(&os_path, other, &["linux", "windows"])),
    }
}

/// Every container with its path, in the order `VisitContainersWithPath` visits them.
fn containers<'v>(spec: &'v Value, path: &str) -> Vec<(String, &'v Value)> {
    ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|list| items(spec, list).iter().enumerate().map(move |(i, c)| (format!("{path}.{list}[{i}]"), c)))
        .collect()
}

/// `validateWindows`: the Linux-only fields a Windows pod may not set.
fn validate_windows(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let msg = "cannot be set for a windows pod";
    let true_at = |key: &str| matches!(get(spec, key), Some(Value::Bool(true)));
    // In the internal API these pod fields live in the security context; the paths are the
    // pod spec's.
    let sc_path = child(path, "securityContext");
    if let Some(sc) = get(spec, "securityContext") {
        for key in ["appArmorProfile", "seLinuxOptions"] {
            if has(sc, key) {
                errors.push(FieldError::forbidden(format!("{sc_path}.{key}"), msg));
            }
        }
    }
    if has(spec, "hostUsers") {
        errors.push(FieldError::forbidden(child(path, "hostUsers"), msg));
    }
    for key in ["hostPID", "hostIPC"] {
        if true_at(key) {
            errors.push(FieldError::forbidden(child(path, key), msg));
        }
    }
    if let Some(sc) = get(spec, "securityContext") {
        for key in ["seccompProfile", "fsGroup", "fsGroupChangePolicy"] {
            if has(sc, key) {
                errors.push(FieldError::forbidden(format!("{sc_path}.{key}"), msg));
            }
        }
        if !items(sc, "sysctls").is_empty() {
            errors.push(FieldError::forbidden(format!("{sc_path}.sysctls"), msg));
        }
    }
    if has(spec, "shareProcessNamespace") {
        errors.push(FieldError::forbidden(child(path, "shareProcessNamespace"), msg));
    }
    if let Some(sc) = get(spec, "securityContext") {
        for key in ["runAsUser", "runAsGroup", "supplementalGroups", "supplementalGroupsPolicy", "seLinuxChangePolicy"]
        {
            if has(sc, key) {
                errors.push(FieldError::forbidden(format!("{sc_path}.{key}"), msg));
            }
        }
    }
    for (cpath, c) in containers(spec, path) {
        let Some(sc) = get(c, "securityContext") else { continue };
        for key in [
            "appArmorProfile",
            "seLinuxOptions",
            "seccompProfile",
            "capabilities",
            "readOnlyRootFilesystem",
            "privileged",
            "allowPrivilegeEscalation",
            "procMount",
            "runAsUser",
            "runAsGroup",
        ] {
            if has(sc, key) {
                errors.push(FieldError::forbidden(format!("{cpath}.securityContext.{key}"), msg));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(yaml: &str, owner: Owner) -> Vec<String> {
        let spec: Value = serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
        let mut errors = Vec::new();
        check_pod_spec(&spec, "spec", owner, &mut errors);
        errors.iter().map(|e| e.to_string()).collect()
    }

    fn pod(yaml: &str) -> Vec<String> {
        check(yaml, Owner::Pod)
    }

    #[track_caller]
    fn ok(yaml: &str) {
        assert_eq!(pod(yaml), Vec::<String>::new(), "{yaml}");
    }

    #[track_caller]
    fn refused(yaml: &str, expected: &[&str]) {
        assert_eq!(pod(yaml), expected, "{yaml}");
    }

    // TestValidateTolerations (validation_test.go): accepted and refused tolerations.
    #[test]
    fn tolerations() {
        ok("tolerations: [{key: foo, operator: Exists, effect: NoSchedule}]");
        ok("tolerations: [{key: foo, operator: Equal, value: bar, effect: NoSchedule}]");
        ok("tolerations: [{key: foo, value: bar, effect: NoSchedule}]");
        ok("tolerations: [{key: foo, operator: Equal, value: bar, effect: NoExecute, tolerationSeconds: 60}]");
        ok("tolerations: [{operator: Exists}]");
        ok("tolerations: [{operator: Exists, effect: NoExecute}]");
        ok("tolerations: [{key: foo, operator: Equal, value: bar}]");
        ok("tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}]");
        refused(
            "tolerations: [{key: foo, operator: Sometimes}]",
            &["spec.tolerations[0].operator: Unsupported value: \"Sometimes\": supported values: \"Equal\", \"Exists\""],
        );
        refused(
            "tolerations: [{operator: Equal, value: bar}]",
            &["spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, \
               which means \"match all values and all keys\""],
        );
        refused(
            "tolerations: [{key: foo, operator: Exists, value: bar}]",
            &["spec.tolerations[0].operator: Invalid value: \"bar\": value must be empty when `operator` is 'Exists'"],
        );
        refused(
            "tolerations: [{key: foo, operator: Exists, effect: NoSchedule, tolerationSeconds: 20}]",
            &["spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when \
               `tolerationSeconds` is set"],
        );
        refused(
            "tolerations: [{key: foo, operator: Exists, effect: Never}]",
            &["spec.tolerations[0].effect: Unsupported value: \"Never\": supported values: \"NoSchedule\", \
               \"PreferNoSchedule\", \"NoExecute\""],
        );
        let bad_key = pod("tolerations: [{key: 'nospecialchars^=@', operator: Exists}]");
        assert!(bad_key[0].starts_with("spec.tolerations[0].key: Invalid value: \"nospecialchars^=@\": name part"));
        let bad_value = pod("tolerations: [{key: foo, operator: Equal, value: 'no spaces'}]");
        assert!(bad_value[0].starts_with("spec.tolerations[0].operator: Invalid value: \"no spaces\": a valid label"));
        assert!(pod("tolerations: [{key: foo, operator: 5}]")[0]
            .starts_with("spec.tolerations: Invalid value: invalid type"));
    }

    #[test]
    fn node_selectors_are_labels() {
        ok("nodeSelector: {disktype: ssd, kubernetes.io/os: linux, empty: ''}");
        let errs = pod("nodeSelector: {'bad key': ssd, zone: 'a b'}");
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs[0].starts_with("spec.nodeSelector: Invalid value: \"bad key\": name part must consist"));
        assert!(errs[1].starts_with("spec.nodeSelector: Invalid value: \"a b\": a valid label must be"));
        assert!(
            pod("nodeSelector: {zone: 1}")[0].starts_with("spec.nodeSelector: Invalid value: invalid type: integer")
        );
    }

    // TestValidateAffinity: the shapes of node selector terms and pod affinity terms.
    #[test]
    fn affinity() {
        ok("affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions: [{key: key2, operator: In, values: [value1, value2]}, {key: n, operator: Gt, values: ['5']}]
      - matchFields: [{key: metadata.name, operator: NotIn, values: [host-1]}]
    preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 10
      preference: {matchExpressions: [{key: foo, operator: In, values: ['not a label value']}]}
  podAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
    - labelSelector: {matchExpressions: [{key: key2, operator: NotIn, values: [value1]}]}
      namespaces: [ns]
      topologyKey: zone
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname, matchLabelKeys: [pod-template-hash]}
");
        refused(
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}",
            &["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required \
               value: must have at least one node selector term"],
        );
        let p = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
        refused(
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [
               {matchExpressions: [{key: k, operator: Like}, {key: k, operator: In}, {key: k, operator: Exists, values: [a]},
               {key: k, operator: Gt, values: ['1', '2']}], matchFields: [{key: metadata.uid, operator: In, values: [a, b]}]}]}}}",
            &[
                &format!("{p}.matchExpressions[0].operator: Invalid value: \"Like\": not a valid selector operator"),
                &format!("{p}.matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
                &format!("{p}.matchExpressions[2].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                &format!("{p}.matchExpressions[3].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
                &format!("{p}.matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
                &format!("{p}.matchFields[0].key: Invalid value: \"metadata.uid\": not a valid field selector key"),
            ],
        );
        refused(
            "affinity: {podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, podAffinityTerm: {topologyKey: ''}}]}}",
            &[
                "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
                "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty",
                "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must be non-empty",
                "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ],
        );
        let errs = pod("affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: z, namespaces: [Bad], matchLabelKeys: [a]}]}}");
        assert!(errs[0].starts_with("spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: \"Bad\""), "{errs:?}");
        assert_eq!(errs[1], "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set");
    }

    #[test]
    fn gates_and_names() {
        ok("readinessGates: [{conditionType: www.example.com/feature-1}]\nschedulingGates: [{name: example.com/foo}, {name: bar}]");
        let errs = pod("readinessGates: [{conditionType: 'bad/gate/x'}]");
        assert!(errs[0]
            .starts_with("spec.readinessGates[0].conditionType: Invalid value: \"bad/gate/x\": a valid label key"));
        let errs = pod("schedulingGates: [{name: foo}, {name: foo}, {name: 'a b'}]");
        assert_eq!(errs[0], "spec.schedulingGates[1]: Duplicate value: \"foo\"");
        assert!(errs[1].starts_with("spec.schedulingGates[2]: Invalid value: \"a b\""));
        ok("serviceAccountName: build-robot\nnodeName: node-1.example.com\npriorityClassName: high-priority\nruntimeClassName: gvisor");
        assert!(pod("serviceAccountName: Robot")[0]
            .starts_with("spec.serviceAccountName: Invalid value: \"Robot\": a lowercase RFC 1123 subdomain"));
        assert!(pod("serviceAccount: robot_1")[0].starts_with("spec.serviceAccountName: Invalid value: \"robot_1\""));
        assert!(pod("nodeName: Node_1")[0].starts_with("spec.nodeName: Invalid value: \"Node_1\""));
        assert!(pod("priorityClassName: High")[0].starts_with("spec.priorityClassName: Invalid value: \"High\""));
        assert!(pod("runtimeClassName: ''")[0].starts_with("spec.runtimeClassName: Invalid value: \"\""));
        ok("preemptionPolicy: Never");
        refused(
            "preemptionPolicy: Sometimes",
            &["spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""],
        );
        refused(
            "nodeName: node-1\nschedulingGates: [{name: foo}]",
            &["spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"],
        );
        assert!(check("nodeName: node-1\nschedulingGates: [{name: foo}]", Owner::Template).is_empty());
    }

    #[test]
    fn active_deadline_seconds() {
        ok("activeDeadlineSeconds: 1");
        ok("activeDeadlineSeconds: 2147483647");
        refused(
            "activeDeadlineSeconds: -1",
            &["spec.activeDeadlineSeconds: Invalid value: -1: must be between 1 and 2147483647, inclusive"],
        );
        refused(
            "activeDeadlineSeconds: 0",
            &["spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"],
        );
        refused(
            "activeDeadlineSeconds: 2147483648",
            &["spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive"],
        );
    }

    // TestValidateTopologySpreadConstraints.
    #[test]
    fn topology_spread() {
        ok("topologySpreadConstraints: [{maxSkew: 1, topologyKey: k8s.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 3, nodeAffinityPolicy: Honor, nodeTaintsPolicy: Ignore, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [pod-template-hash]}, {maxSkew: 2, topologyKey: k8s.io/zone, whenUnsatisfiable: ScheduleAnyway}]");
        let p = "spec.topologySpreadConstraints";
        refused(
            "topologySpreadConstraints: [{maxSkew: 0, topologyKey: '', whenUnsatisfiable: N/A, minDomains: 0, nodeTaintsPolicy: Bogus}]",
            &[
                &format!("{p}[0].maxSkew: Invalid value: 0: must be greater than zero"),
                &format!("{p}[0].topologyKey: Required value: can not be empty"),
                &format!("{p}[0].whenUnsatisfiable: Unsupported value: \"N/A\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""),
                &format!("{p}[0].minDomains: Invalid value: 0: must be greater than zero"),
                &format!("{p}[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not N/A"),
                &format!("{p}[0].nodeTaintsPolicy: Unsupported value: \"Bogus\": supported values: \"Honor\", \"Ignore\""),
            ],
        );
        refused(
            "topologySpreadConstraints: [{maxSkew: 1, topologyKey: z, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 1, topologyKey: z, whenUnsatisfiable: DoNotSchedule}]",
            &[&format!("{p}[0].{{topologyKey, whenUnsatisfiable}}: Duplicate value: \"{{z, DoNotSchedule}}\"")],
        );
        refused(
            "topologySpreadConstraints: [{maxSkew: 1, topologyKey: z, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [app], labelSelector: {matchLabels: {app: x}}}]",
            &[&format!("{p}[0].matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector")],
        );
    }

    #[test]
    fn os() {
        ok("os: {name: linux}\nsecurityContext: {runAsUser: 1}");
        ok("os: {name: windows}\nsecurityContext: {windowsOptions: {runAsUserName: x}}");
        refused(
            "os: {name: plan9}",
            &["spec.os: Unsupported value: \"plan9\": supported values: \"linux\", \"windows\""],
        );
        refused("os: {}", &["spec.os.name: Required value: cannot be empty"]);
        refused(
            "os: {name: linux}\ncontainers: [{name: c, securityContext: {windowsOptions: {hostProcess: true}}}]",
            &["spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod"],
        );
        refused(
            "os: {name: windows}\nhostPID: true\nsecurityContext: {runAsUser: 1}\ncontainers: [{name: c, securityContext: {privileged: false}}]",
            &[
                "spec.hostPID: Forbidden: cannot be set for a windows pod",
                "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
                "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
            ],
        );
    }

    // validateContainerResizePolicy: resource names, policies, and Never pods.
    #[test]
    fn resize_policies() {
        ok("containers: [{name: c, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: RestartContainer}]}]");
        ok("restartPolicy: Never\ncontainers: [{name: c, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]}]");
        refused(
            "containers: [{name: c, resizePolicy: [{resourceName: gpu, restartPolicy: Sometimes}, {resourceName: cpu, restartPolicy: NotRequired}, {resourceName: cpu, restartPolicy: NotRequired}]}]",
            &[
                "spec.containers[0].resizePolicy: Unsupported value: \"gpu\": supported values: \"cpu\", \"memory\"",
                "spec.containers[0].resizePolicy: Unsupported value: \"Sometimes\": supported values: \"NotRequired\", \"RestartContainer\"",
                "spec.containers[0].resizePolicy[2]: Duplicate value: \"cpu\"",
            ],
        );
        refused(
            "restartPolicy: Never\ninitContainers: [{name: c, resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]}]",
            &["spec.initContainers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"],
        );
        refused(
            "containers: [{name: c, resizePolicy: [{}]}]",
            &["spec.containers[0].resizePolicy: Required value", "spec.containers[0].resizePolicy: Required value"],
        );
    }

    #[test]
    fn ephemeral_containers_come_later() {
        refused(
            "ephemeralContainers: [{name: debug, image: busybox}]",
            &["spec.ephemeralContainers: Forbidden: cannot be set on create"],
        );
        assert_eq!(
            check("ephemeralContainers: [{name: debug, image: busybox}]", Owner::Template),
            ["spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"]
        );
    }
}
