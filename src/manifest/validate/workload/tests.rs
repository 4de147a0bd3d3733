//! A workload's own fields, checked as the API server checks them.

use super::*;

fn check(kind: WorkloadKind, yaml: &str) -> Vec<String> {
    let doc: Value = serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
    let mut errors = Vec::new();
    check_workload(kind, &doc, &mut errors);
    errors.iter().map(|e| e.to_string()).collect()
}

const NONE: [&str; 0] = [];

fn deployment(spec: &str) -> Vec<String> {
    check(WorkloadKind::Deployment, &format!("metadata: {{name: web}}\nspec: {{{spec}}}"))
}

// TestValidateDeployment (apps validation_test.go): strategies and their numbers.
#[test]
fn deployments() {
    for ok in [
        "",
        "strategy: {type: Recreate}",
        "strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
        "strategy: {rollingUpdate: {maxUnavailable: 0}}",
        "strategy: {rollingUpdate: {maxSurge: '100%', maxUnavailable: '100%'}}",
        "minReadySeconds: 10, progressDeadlineSeconds: 11, revisionHistoryLimit: 0",
        "paused: true",
    ] {
        assert_eq!(deployment(ok), NONE, "{ok}");
    }
    assert_eq!(
            deployment("strategy: {type: Bogus}"),
            ["spec.strategy: Unsupported value: {\"Type\":\"Bogus\",\"RollingUpdate\":null}: supported values: \"Recreate\", \"RollingUpdate\""]
        );
    assert_eq!(
        deployment("strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}"),
        ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]
    );
    assert_eq!(
        deployment("strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}"),
        ["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"]
    );
    assert_eq!(
        deployment("strategy: {rollingUpdate: {maxSurge: -1, maxUnavailable: '110%'}}"),
        [
            "spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0",
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%",
        ]
    );
    assert_eq!(
        deployment("strategy: {rollingUpdate: {maxSurge: 'a%'}}"),
        ["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"a%\": a valid percent string must be a numeric \
              string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]
    );
    assert_eq!(
        deployment("minReadySeconds: -1, revisionHistoryLimit: -2"),
        [
            "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
            "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
        ]
    );
    assert_eq!(
        deployment("minReadySeconds: 10, progressDeadlineSeconds: 10"),
        ["spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds"]
    );
    // The default deadline is 600 s.
    assert_eq!(
        deployment("minReadySeconds: 600"),
        ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"]
    );
    assert_eq!(
        deployment("template: {spec: {activeDeadlineSeconds: 5}}"),
        ["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"]
    );
    assert_eq!(
            deployment("template: {spec: {tolerations: [{key: a, operator: Sometimes}]}}"),
            ["spec.template.spec.tolerations[0].operator: Unsupported value: \"Sometimes\": supported values: \"Equal\", \"Exists\""]
        );
    assert!(deployment("minReadySeconds: x")[0].starts_with("spec.minReadySeconds: Invalid value: invalid type"));
}

#[test]
fn daemon_sets_and_stateful_sets() {
    let ds = |spec: &str| check(WorkloadKind::DaemonSet, &format!("spec: {{{spec}}}"));
    assert_eq!(ds("updateStrategy: {type: OnDelete}"), NONE);
    assert_eq!(ds("updateStrategy: {rollingUpdate: {maxUnavailable: '10%'}}"), NONE);
    assert_eq!(ds("updateStrategy: {rollingUpdate: {maxUnavailable: 0, maxSurge: 1}}"), NONE);
    assert_eq!(
        ds("updateStrategy: {rollingUpdate: {maxUnavailable: 0}}"),
        ["spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"]
    );
    assert_eq!(
            ds("updateStrategy: {rollingUpdate: {maxSurge: 1}}"),
            ["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"]
        );
    assert_eq!(
            ds("updateStrategy: {type: Sometimes}"),
            ["spec.updateStrategy: Unsupported value: {\"Type\":\"Sometimes\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\""]
        );
    assert_eq!(
        ds("template: {spec: {activeDeadlineSeconds: 5}}"),
        ["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"]
    );

    let sts = |spec: &str| check(WorkloadKind::StatefulSet, &format!("metadata: {{name: db}}\nspec: {{{spec}}}"));
    assert_eq!(
            sts("podManagementPolicy: Parallel, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2, maxUnavailable: '50%'}}, \
                 persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}, ordinals: {start: 1}, serviceName: db"),
            NONE
        );
    assert_eq!(
        sts("podManagementPolicy: Random"),
        ["spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"]
    );
    assert_eq!(
            sts("updateStrategy: {type: Bogus}"),
            ["spec.updateStrategy: Invalid value: {\"Type\":\"Bogus\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'"]
        );
    assert_eq!(
            sts("updateStrategy: {type: OnDelete, rollingUpdate: {partition: 1}}"),
            ["spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":1,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'"]
        );
    assert_eq!(
        sts("updateStrategy: {rollingUpdate: {partition: -1, maxUnavailable: 0}}"),
        [
            "spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0",
            "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
        ]
    );
    assert_eq!(
            sts("persistentVolumeClaimRetentionPolicy: {whenDeleted: Keep}, ordinals: {start: -1}"),
            [
                "spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\"",
                "spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
    assert_eq!(
            sts("volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [Sometimes], resources: {requests: {storage: 1Gi}}}}]"),
            ["spec.volumeClaimTemplates[0].spec.accessModes: Unsupported value: \"Sometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""]
        );
    assert_eq!(
        check(WorkloadKind::StatefulSet, "metadata: {name: db.v1}\nspec: {}"),
        ["metadata.name: Invalid value: \"db.v1\": must not contain dots"]
    );
}

fn job(spec: &str) -> Vec<String> {
    check(WorkloadKind::Job, &format!("metadata: {{name: pi}}\nspec: {{{spec}}}"))
}

// TestValidateJob (batch validation_test.go).
#[test]
fn jobs() {
    for ok in [
            "",
            "backoffLimit: 0, activeDeadlineSeconds: 0, ttlSecondsAfterFinished: 0, parallelism: 2, completions: 5",
            "completionMode: Indexed, completions: 3, backoffLimitPerIndex: 1, maxFailedIndexes: 2",
            "completionMode: NonIndexed, podReplacementPolicy: TerminatingOrFailed, managedBy: example.com/custom",
            "manualSelector: true, selector: {matchLabels: {app: pi}}, template: {metadata: {labels: {app: pi}}}",
            "selector: {matchLabels: {batch.kubernetes.io/job-name: pi}}",
            "selector: {matchLabels: {job-name: pi}}, manualSelector: false, template: {metadata: {labels: {app: pi}}}",
            "podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {containerName: c, operator: In, values: [1, 42]}}, \
             {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}, template: {spec: {restartPolicy: Never, containers: [{name: c}]}}",
            "completionMode: Indexed, completions: 5, successPolicy: {rules: [{succeededCount: 2}]}",
        ] {
            assert_eq!(job(ok), NONE, "{ok}");
        }
    assert_eq!(job("backoffLimit: -1"), ["spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"]);
    assert_eq!(
        job("activeDeadlineSeconds: -1, ttlSecondsAfterFinished: -1"),
        [
            "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
            "spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0",
        ]
    );
    assert_eq!(
        job("completionMode: Sometimes"),
        ["spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", \"Indexed\""]
    );
    assert_eq!(
        job("completionMode: Indexed, parallelism: 2"),
        ["spec.completions: Required value: when completion mode is Indexed"]
    );
    assert_eq!(
        job("backoffLimitPerIndex: 1, maxFailedIndexes: 1"),
        [
            "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
            "spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode",
        ]
    );
    assert_eq!(
            job("podReplacementPolicy: Always"),
            ["spec.podReplacementPolicy: Unsupported value: \"Always\": supported values: \"Failed\", \"TerminatingOrFailed\""]
        );
    assert_eq!(
        job("selector: {matchLabels: {app: pi}}, template: {metadata: {labels: {app: pi}}}"),
        ["spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"pi\"}}: `selector` not auto-generated"]
    );
    assert_eq!(
            job("selector: {matchLabels: {job-name: pi, app: pi}}"),
            [
                "spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"pi\",\"job-name\":\"pi\"}}: `selector` not auto-generated",
                "spec.template.metadata.labels: Invalid value: {\"batch.kubernetes.io/controller-uid\":\"<the Job's uid>\",\
                 \"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"<the Job's uid>\",\"job-name\":\"pi\"}: \
                 `selector` does not match template `labels`",
            ]
        );
    assert_eq!(
            job("manualSelector: true, selector: {matchLabels: {app: pi}}, template: {metadata: {labels: {app: other}}}"),
            ["spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"]
        );
    assert_eq!(job("manualSelector: true"), ["spec.selector: Required value"]);
    assert_eq!(
        job("template: {metadata: {labels: {job-name: other}}}"),
        ["spec.template.metadata.labels[job-name]: Invalid value: {\"job-name\":\"other\"}: must be 'pi'"]
    );
    assert_eq!(
            job("podFailurePolicy: {rules: [{action: Retry, onExitCodes: {operator: In, values: [2, 0, 2]}}]}, template: {spec: {restartPolicy: OnFailure}}"),
            [
                "spec.podFailurePolicy.rules[0].action: Unsupported value: \"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
                "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator",
                "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 2",
                "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [2,0,2]: must be ordered",
                "spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified",
            ]
        );
    assert_eq!(
            job("podFailurePolicy: {rules: [{action: Count}]}"),
            ["spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"]
        );
    assert_eq!(
        job("successPolicy: {rules: [{succeededCount: 1}]}"),
        ["spec.successPolicy: Invalid value: requires indexed completion mode"]
    );
    assert_eq!(
        check(
            WorkloadKind::Job,
            &format!("metadata: {{name: {}}}\nspec: {{completionMode: Indexed, completions: 10}}", "a".repeat(62))
        ),
        [format!(
            "metadata.name: Invalid value: \"{0}\": will not able to create pod with invalid DNS label: {0}-9",
            "a".repeat(62)
        )]
    );
    assert_eq!(
        job("managedBy: custom"),
        ["spec.managedBy: Invalid value: \"custom\": must be a domain-prefixed path (such as \"acme.io/foo\")"]
    );
    // Templates of Jobs may have a deadline; the pod's own range still applies.
    assert_eq!(job("template: {spec: {activeDeadlineSeconds: 5}}"), NONE);
    assert_eq!(
        job("template: {spec: {activeDeadlineSeconds: 0}}"),
        ["spec.template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"]
    );
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn selector(yaml: &str) -> LabelSelector {
    serde_yaml::from_str(yaml).unwrap()
}

fn strings(errors: Vec<FieldError>) -> Vec<String> {
    errors.iter().map(|e| e.to_string()).collect()
}

#[test]
fn apps_selectors() {
    let web = labels(&[("app", "web")]);
    let s = selector("{matchLabels: {app: web}}");
    for kind in [WorkloadKind::Deployment, WorkloadKind::ReplicaSet, WorkloadKind::StatefulSet, WorkloadKind::DaemonSet]
    {
        assert_eq!(strings(apps_selector_problems(kind, Some(&s), &web)), NONE);
    }
    assert_eq!(
            strings(apps_selector_problems(WorkloadKind::ReplicaSet, None, &web)),
            [
                "spec.selector: Required value",
                "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
            ]
        );
    assert_eq!(
        strings(apps_selector_problems(WorkloadKind::ReplicaSet, Some(&selector("{}")), &web)),
        ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
    );
    assert_eq!(
            strings(apps_selector_problems(WorkloadKind::DaemonSet, None, &web)),
            ["spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"]
        );
    assert_eq!(
            strings(apps_selector_problems(WorkloadKind::Deployment, Some(&selector("{matchExpressions: [{key: app, operator: Like}]}")), &web)),
            [
                "spec.selector.matchExpressions[0].operator: Invalid value: \"Like\": not a valid selector operator",
                "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Like\"}]}: invalid label selector",
            ]
        );
}
