//! Workloads (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job): podrun runs one pod from
//! each one's `spec.template`, named after the workload, in the workload's namespace.
//!
//! Only what decides that pod is read: the template, the replica counts (to warn that podrun
//! runs one), the selector (which the API server requires to match the template's labels) and
//! a StatefulSet's claim templates (which become the pod's volumes). The other fields of a
//! workload (strategy, backoffLimit, updateStrategy, ...) are about a controller podrun does not
//! have: they are not read here, but their values are checked as the API server checks them
//! (`validate/workload.rs`, on the document), and the template is checked as thoroughly as a Pod.

use super::types::{ObjectMeta, PersistentVolumeClaimVolumeSource, Pod, RestartPolicy, Volume, Workload, WorkloadKind};
use super::validate::{apps_selector_problems, FieldError};

/// The one pod podrun runs for a workload, and what else that takes.
#[derive(Debug)]
pub struct TemplatePod {
    pub pod: Pod,
    /// The workload's own problems (the pod's are found when it is validated as a Pod).
    pub problems: Vec<FieldError>,
    /// Said to the user; the workload's document is prefixed by the caller.
    pub warnings: Vec<String>,
    /// The PersistentVolumeClaims a StatefulSet's claim templates would create for its pod.
    pub claims: Vec<String>,
}

/// The pod for `w`. Paths in `problems` are the workload's (`spec.template.spec...`).
pub fn template_pod(kind: WorkloadKind, w: Workload) -> TemplatePod {
    let Workload { metadata, spec } = w;
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let name = metadata.name.clone();
    let subject = format!("{kind} {name:?}");

    for (field, value) in
        [("replicas", spec.replicas), ("parallelism", spec.parallelism), ("completions", spec.completions)]
    {
        match value {
            Some(n) if n < 0 => problems.push(FieldError::new(
                format!("spec.{field}"),
                format!("Invalid value: {n}: must be greater than or equal to 0"),
            )),
            Some(n) if n != 1 => warnings.push(format!(
                "{subject} asks for {field}: {n}; podrun runs one pod from its template (named {name:?})"
            )),
            _ => {}
        }
    }

    let template = spec.template.unwrap_or_default();
    // A Job's selector is the API server's to generate (checked with the Job's other fields).
    if kind != WorkloadKind::Job {
        problems.extend(apps_selector_problems(kind, spec.selector.as_ref(), &template.metadata.labels));
    }
    // Controllers restart pods their own way: apps/v1 pods always restart, a Job's never do.
    let restart = template.spec.restart_policy;
    let path = "spec.template.spec.restartPolicy";
    match kind {
        // Unset is defaulted to Always first, so both read the same.
        WorkloadKind::Job if !matches!(restart, Some(RestartPolicy::OnFailure | RestartPolicy::Never)) => {
            problems.push(FieldError::new(path, "Required value: valid values: \"OnFailure\", \"Never\""));
        }
        WorkloadKind::Job => {}
        _ if restart.is_some_and(|r| r != RestartPolicy::Always) => {
            let value = restart.map_or("", RestartPolicy::as_str);
            problems.push(FieldError::new(path, format!("Unsupported value: {value:?}: supported values: \"Always\"")));
        }
        _ => {}
    }

    let mut pod_spec = template.spec;
    let mut claims = Vec::new();
    // The StatefulSet controller gives each pod a claim per template, `<template>-<set>-<ordinal>`,
    // mounted as the volume named after the template (in place of a volume of that name).
    for t in &spec.volume_claim_templates {
        let claim = format!("{}-{name}-0", t.metadata.name);
        pod_spec.volumes.retain(|v| v.name != t.metadata.name);
        pod_spec.volumes.push(Volume {
            name: t.metadata.name.clone(),
            persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                claim_name: claim.clone(),
                read_only: None,
            }),
            ..Default::default()
        });
        claims.push(claim);
    }

    let pod = Pod {
        api_version: "v1".into(),
        kind: "Pod".into(),
        metadata: ObjectMeta {
            name,
            namespace: metadata.namespace,
            uid: None,
            labels: template.metadata.labels,
            annotations: template.metadata.annotations,
        },
        spec: pod_spec,
    };
    TemplatePod { pod, problems, warnings, claims }
}

/// A path in the template pod, as a path in its workload: the pod's own metadata is the
/// workload's, except labels and annotations, which are the template's.
pub fn workload_path(pod_path: &str) -> String {
    if let Some(rest) = pod_path.strip_prefix("spec") {
        if rest.is_empty() || rest.starts_with('.') {
            return format!("spec.template.spec{rest}");
        }
    }
    if pod_path.starts_with("metadata.labels") || pod_path.starts_with("metadata.annotations") {
        return format!("spec.template.{pod_path}");
    }
    pod_path.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload(yaml: &str) -> Workload {
        serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"))
    }

    fn strings(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(|e| e.to_string()).collect()
    }

    const DEPLOYMENT: &str = "metadata: {name: web, namespace: shop, labels: {tier: x}}\nspec:\n  replicas: 3\n  \
        selector: {matchLabels: {app: web}}\n  strategy: {type: Recreate}\n  template:\n    metadata: {labels: {app: web}, \
        annotations: {note: hi}}\n    spec: {containers: [{name: c, image: nginx}]}\n";

    #[test]
    fn a_deployment_gives_one_pod_named_after_it() {
        let t = template_pod(WorkloadKind::Deployment, workload(DEPLOYMENT));
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.pod.metadata.name, "web");
        assert_eq!(t.pod.metadata.namespace.as_deref(), Some("shop"));
        assert_eq!(
            t.pod.metadata.labels,
            [("app".to_owned(), "web".to_owned())].into(),
            "the template's, not the workload's"
        );
        assert_eq!(t.pod.metadata.annotations["note"], "hi");
        assert_eq!(t.pod.spec.containers[0].image, "nginx");
        assert_eq!(
            t.warnings,
            ["Deployment \"web\" asks for replicas: 3; podrun runs one pod from its template (named \"web\")"]
        );
    }

    #[test]
    fn selectors_must_exist_and_match() {
        let missing = DEPLOYMENT.replace("  selector: {matchLabels: {app: web}}\n", "");
        assert_eq!(
            strings(&template_pod(WorkloadKind::ReplicaSet, workload(&missing)).problems),
            [
                "spec.selector: Required value",
                "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"
            ]
        );
        let other = DEPLOYMENT.replace("matchLabels: {app: web}", "matchLabels: {app: api}");
        assert_eq!(
            strings(&template_pod(WorkloadKind::Deployment, workload(&other)).problems),
            ["spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"]
        );
        let exprs = DEPLOYMENT.replace(
            "matchLabels: {app: web}",
            "matchExpressions: [{key: app, operator: In, values: [web, api]}, {key: gone, operator: DoesNotExist}]",
        );
        assert!(template_pod(WorkloadKind::DaemonSet, workload(&exprs)).problems.is_empty());
        let bad = DEPLOYMENT.replace("matchLabels: {app: web}", "matchExpressions: [{key: app, operator: Like}]");
        assert_eq!(
            strings(&template_pod(WorkloadKind::Deployment, workload(&bad)).problems),
            [
                "spec.selector.matchExpressions[0].operator: Invalid value: \"Like\": not a valid selector operator",
                "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Like\"}]}: invalid label selector"
            ]
        );
        let empty = DEPLOYMENT.replace("matchLabels: {app: web}", "matchLabels: {}");
        assert!(strings(&template_pod(WorkloadKind::StatefulSet, workload(&empty)).problems)[0]
            .ends_with("empty selector is invalid for statefulset"));
    }

    #[test]
    fn restart_policies_follow_the_controller() {
        let never = DEPLOYMENT.replace("spec: {containers", "spec: {restartPolicy: Never, containers");
        assert_eq!(
            strings(&template_pod(WorkloadKind::Deployment, workload(&never)).problems),
            ["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""]
        );
        let job = "metadata: {name: once}\nspec:\n  parallelism: 2\n  backoffLimit: 4\n  template:\n    spec: {containers: [{name: c, image: b}]}\n";
        let t = template_pod(WorkloadKind::Job, workload(job));
        assert_eq!(
            strings(&t.problems),
            ["spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""]
        );
        assert_eq!(t.warnings.len(), 1);
        assert!(t.warnings[0].contains("parallelism: 2"));
        let ok = job.replace("spec: {containers", "spec: {restartPolicy: OnFailure, containers");
        assert!(template_pod(WorkloadKind::Job, workload(&ok)).problems.is_empty());
    }

    #[test]
    fn stateful_set_claim_templates_become_volumes() {
        let sts = "metadata: {name: db}\nspec:\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    \
            spec:\n      containers: [{name: c, image: b, volumeMounts: [{name: data, mountPath: /data}]}]\n  \
            volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n";
        let t = template_pod(WorkloadKind::StatefulSet, workload(sts));
        assert!(t.problems.is_empty());
        assert_eq!(t.claims, ["data-db-0"]);
        let v = &t.pod.spec.volumes[0];
        assert_eq!(
            (v.name.as_str(), v.persistent_volume_claim.as_ref().unwrap().claim_name.as_str()),
            ("data", "data-db-0")
        );
    }

    #[test]
    fn paths_move_into_the_template() {
        assert_eq!(workload_path("spec.containers[0].name"), "spec.template.spec.containers[0].name");
        assert_eq!(workload_path("spec"), "spec.template.spec");
        assert_eq!(workload_path("metadata.labels[app]"), "spec.template.metadata.labels[app]");
        assert_eq!(workload_path("metadata.name"), "metadata.name");
        assert_eq!(workload_path("specific"), "specific");
    }
}
