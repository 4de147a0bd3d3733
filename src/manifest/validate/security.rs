//! Security contexts (container and pod), sysctls, seccomp and AppArmor profiles, and the
//! AppArmor annotations that predate the `appArmorProfile` field. Whether the host can apply
//! a profile is the runtime's question; these are only the API server's rules.

use std::collections::BTreeSet;

use super::volumes::local_descending_path;
use super::FieldError;
use crate::manifest::types::{Pod, PodSpec, ProcMount, Profile, SecurityContext};

const ID_RANGE_MSG: &str = "must be between 0 and 2147483647, inclusive";
const PROFILE_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
const SYSCTL_MAX: usize = 253;
/// `spec.securityContext.supplementalGroupsPolicy`, as the API server lists them.
pub(crate) const SUPPLEMENTAL_GROUPS_POLICIES: &[&str] = &["Merge", "Strict"];
const SYSCTL_MSG: &str = "must have at most 253 characters and match regex \
    ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
/// `container.apparmor.security.beta.kubernetes.io/<container>: <profile>`.
pub(crate) const APPARMOR_ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";
/// The longest localhost profile name (PATH_MAX - 1).
const LOCALHOST_PROFILE_MAX: usize = 4095;

fn id(value: Option<i64>, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(v) = value.filter(|v| !(0..=i64::from(i32::MAX)).contains(v)) {
        errors.push(FieldError::invalid_raw(path, v, ID_RANGE_MSG));
    }
}

pub(super) fn validate_container_security(
    sc: &SecurityContext,
    path: &str,
    host_users: bool,
    errors: &mut Vec<FieldError>,
) {
    id(sc.run_as_user, &format!("{path}.runAsUser"), errors);
    id(sc.run_as_group, &format!("{path}.runAsGroup"), errors);
    if sc.proc_mount == Some(ProcMount::Unmasked) && host_users {
        errors.push(FieldError::invalid(
            format!("{path}.procMount"),
            "Unmasked",
            "`hostUsers` must be false to use `Unmasked`",
        ));
    }
    if let Some(p) = &sc.seccomp_profile {
        seccomp(p, &format!("{path}.seccompProfile"), errors);
    }
    if sc.allow_privilege_escalation == Some(false) {
        if sc.privileged == Some(true) {
            errors.push(FieldError::invalid(
                path,
                "privileged: true",
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let caps = sc.capabilities.iter().flat_map(|c| &c.add);
        if caps.into_iter().any(|c| c == "CAP_SYS_ADMIN") {
            errors.push(FieldError::invalid(
                path,
                "capabilities.add: CAP_SYS_ADMIN",
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ));
        }
    }
    if let Some(p) = &sc.app_armor_profile {
        app_armor(p, &format!("{path}.appArmorProfile"), errors);
    }
}

pub(super) fn validate_pod_security(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    if spec.share_process_namespace == Some(true) && spec.host_pid == Some(true) {
        errors.push(FieldError::invalid_raw(
            "spec.shareProcessNamespace",
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    validate_host_users(spec, errors);
    let Some(sc) = &spec.security_context else { return };
    let path = "spec.securityContext";
    id(sc.fs_group, &format!("{path}.fsGroup"), errors);
    id(sc.run_as_user, &format!("{path}.runAsUser"), errors);
    id(sc.run_as_group, &format!("{path}.runAsGroup"), errors);
    for (i, g) in sc.supplemental_groups.iter().enumerate() {
        id(Some(*g), &format!("{path}.supplementalGroups[{i}]"), errors);
    }
    if let Some(policy) = sc.supplemental_groups_policy.as_deref().filter(|p| !SUPPLEMENTAL_GROUPS_POLICIES.contains(p))
    {
        errors.push(FieldError::unsupported(
            format!("{path}.supplementalGroupsPolicy"),
            policy,
            SUPPLEMENTAL_GROUPS_POLICIES,
        ));
    }
    let mut names = BTreeSet::new();
    for (i, s) in sc.sysctls.iter().enumerate() {
        let p = format!("{path}.sysctls[{i}].name");
        if s.name.is_empty() {
            errors.push(FieldError::required(&p));
        } else if !is_sysctl_name(&s.name) {
            errors.push(FieldError::invalid(&p, &s.name, SYSCTL_MSG));
        } else if names.contains(s.name.as_str()) {
            errors.push(FieldError::duplicate(&p, &s.name));
        }
        names.insert(s.name.as_str());
        // Namespaced sysctls would change the host's own settings when its namespace is shared.
        match sysctl_namespace(&s.name) {
            Some(SysctlNamespace::Net) if spec.host_network == Some(true) => {
                errors.push(FieldError::invalid(p, &s.name, "may not be specified when 'hostNetwork' is true"))
            }
            Some(SysctlNamespace::Ipc) if spec.host_ipc == Some(true) => {
                errors.push(FieldError::invalid(p, &s.name, "may not be specified when 'hostIPC' is true"))
            }
            _ => {}
        }
    }
    if let Some(p) = &sc.seccomp_profile {
        seccomp(p, &format!("{path}.seccompProfile"), errors);
    }
    if let Some(p) = &sc.app_armor_profile {
        app_armor(p, &format!("{path}.appArmorProfile"), errors);
    }
}

/// The API server's validateHostUsers: a pod in a user namespace of its own shares none of
/// the host's other namespaces (the paths' capitals are the API server's own).
fn validate_host_users(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    if spec.host_users != Some(false) {
        return;
    }
    let because = "when `hostUsers` is false";
    for (set, path) in
        [(spec.host_network, "spec.hostNetwork"), (spec.host_pid, "spec.HostPID"), (spec.host_ipc, "spec.HostIPC")]
    {
        if set == Some(true) {
            errors.push(FieldError::forbidden(path, because));
        }
    }
}

/// `[a-z0-9]([-_a-z0-9]*[a-z0-9])?` segments joined by '.' or '/'.
fn is_sysctl_name(name: &str) -> bool {
    let segment = |s: &str| {
        let b = s.as_bytes();
        let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty() && alnum(b[0]) && alnum(b[b.len() - 1]) && b.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
    };
    name.len() <= SYSCTL_MAX && name.split(['.', '/']).all(segment)
}

enum SysctlNamespace {
    Net,
    Ipc,
}

fn sysctl_namespace(name: &str) -> Option<SysctlNamespace> {
    // `net/ipv4/ip_forward` is the same sysctl as `net.ipv4.ip_forward`.
    let name = crate::manifest::sysctl_name::dotted(name);
    if name.starts_with("net.") {
        Some(SysctlNamespace::Net)
    } else if name == "kernel.sem"
        || name.starts_with("kernel.shm")
        || name.starts_with("kernel.msg")
        || name.starts_with("fs.mqueue.")
    {
        Some(SysctlNamespace::Ipc)
    } else {
        None
    }
}

fn seccomp(p: &Profile, path: &str, errors: &mut Vec<FieldError>) {
    match p.type_.as_str() {
        "" => errors
            .push(FieldError::required_because(format!("{path}.type"), "type is required when seccompProfile is set")),
        t if !PROFILE_TYPES.contains(&t) => {
            errors.push(FieldError::unsupported(format!("{path}.type"), t, PROFILE_TYPES))
        }
        _ => {}
    }
    let lp = format!("{path}.localhostProfile");
    match (p.type_.as_str(), &p.localhost_profile) {
        ("Localhost", None) => {
            errors.push(FieldError::required_because(lp, "must be set when seccomp type is Localhost"))
        }
        ("Localhost", Some(profile)) => local_descending_path(profile, &lp, errors),
        (_, Some(profile)) => {
            errors.push(FieldError::invalid(lp, profile, "can only be set when seccomp type is Localhost"))
        }
        (_, None) => {}
    }
}

fn app_armor(p: &Profile, path: &str, errors: &mut Vec<FieldError>) {
    let lp = format!("{path}.localhostProfile");
    match p.type_.as_str() {
        "Localhost" => match p.localhost_profile.as_deref() {
            None => errors.push(FieldError::required_because(lp, "must be set when AppArmor type is Localhost")),
            Some(profile) => {
                if profile.trim() != profile {
                    errors.push(FieldError::invalid(&lp, profile, "must not be padded with whitespace"));
                } else if profile.is_empty() {
                    errors.push(FieldError::required_because(&lp, "must be set when AppArmor type is Localhost"));
                }
                if profile.len() > LOCALHOST_PROFILE_MAX {
                    errors.push(FieldError::too_long(lp, LOCALHOST_PROFILE_MAX));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(profile) = &p.localhost_profile {
                errors.push(FieldError::invalid(lp, profile, "can only be set when AppArmor type is Localhost"));
            }
        }
        "" => errors
            .push(FieldError::required_because(format!("{path}.type"), "type is required when appArmorProfile is set")),
        t => errors.push(FieldError::unsupported(format!("{path}.type"), t, PROFILE_TYPES)),
    }
}

/// The pre-1.30 annotations: each must name a container of the pod and a profile spelled as
/// the annotation spells them (`runtime/default`, `unconfined`, `localhost/<name>`).
pub(super) fn validate_apparmor_annotations(pod: &Pod, errors: &mut Vec<FieldError>) {
    let spec = &pod.spec;
    for (key, value) in &pod.metadata.annotations {
        let Some(container) = key.strip_prefix(APPARMOR_ANNOTATION_PREFIX) else { continue };
        let path = format!("metadata.annotations[{key}]");
        if !spec.init_containers.iter().chain(&spec.containers).any(|c| c.name == container) {
            errors.push(FieldError::invalid(&path, container, "container not found"));
        }
        if !matches!(value.as_str(), "" | "runtime/default" | "unconfined") && !value.starts_with("localhost/") {
            errors.push(FieldError::invalid(path, value, &format!("invalid AppArmor profile name: {value:?}")));
        }
    }
}

/// Where a container has both an annotation and a profile field (its own, or the pod's), they
/// must say the same.
pub(super) fn validate_apparmor_fields_match(pod: &Pod, errors: &mut Vec<FieldError>) {
    let spec = &pod.spec;
    let pod_profile = spec.security_context.as_ref().and_then(|s| s.app_armor_profile.as_ref());
    let containers = spec.all_containers().map(|(path, c, _)| (path, c));
    for (path, c) in containers {
        let own = c.security_context.as_ref().and_then(|s| s.app_armor_profile.as_ref());
        let Some(profile) = own.or(pod_profile) else { continue };
        let Some(annotation) = pod.metadata.annotations.get(&format!("{APPARMOR_ANNOTATION_PREFIX}{}", c.name)) else {
            continue;
        };
        let path = format!("{path}.securityContext.appArmorProfile");
        let type_mismatch =
            FieldError::forbidden(format!("{path}.type"), "apparmor type in annotation and field must match");
        match profile.type_.as_str() {
            "Unconfined" if annotation != "unconfined" => errors.push(type_mismatch),
            "RuntimeDefault" if annotation != "runtime/default" => errors.push(type_mismatch),
            "Localhost" => match annotation.strip_prefix("localhost/") {
                None => errors.push(type_mismatch),
                Some(name) if profile.localhost_profile.as_deref() != Some(name) => errors.push(FieldError::forbidden(
                    format!("{path}.localhostProfile"),
                    "apparmor profile in annotation and field must match",
                )),
                Some(_) => {}
            },
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{Capabilities, Container, ObjectMeta, PodSecurityContext, Sysctl};

    fn strings(errors: Vec<FieldError>) -> Vec<String> {
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    fn profile(t: &str, localhost: Option<&str>) -> Profile {
        Profile { type_: t.into(), localhost_profile: localhost.map(Into::into) }
    }

    fn container(sc: SecurityContext, host_users: bool) -> Vec<String> {
        let mut errors = Vec::new();
        validate_container_security(&sc, "c.securityContext", host_users, &mut errors);
        strings(errors)
    }

    #[test]
    fn container_contexts() {
        let ok = SecurityContext {
            run_as_user: Some(1000),
            run_as_group: Some(0),
            privileged: Some(true),
            proc_mount: Some(ProcMount::Default),
            seccomp_profile: Some(profile("RuntimeDefault", None)),
            app_armor_profile: Some(profile("Localhost", Some("k8s-deny-write"))),
            ..Default::default()
        };
        assert!(container(ok, true).is_empty());
        let bad = SecurityContext {
            run_as_user: Some(-1),
            run_as_group: Some(1 << 31),
            allow_privilege_escalation: Some(false),
            privileged: Some(true),
            capabilities: Some(Capabilities { add: vec!["CAP_SYS_ADMIN".into()], drop: vec![] }),
            proc_mount: Some(ProcMount::Unmasked),
            ..Default::default()
        };
        assert_eq!(
            container(bad.clone(), true),
            [
                "c.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
                "c.securityContext.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
                "c.securityContext.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`",
                "c.securityContext: Invalid value: \"privileged: true\": cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
                "c.securityContext: Invalid value: \"capabilities.add: CAP_SYS_ADMIN\": cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ]
        );
        assert_eq!(container(bad, false).len(), 4, "Unmasked is fine in a user namespace");
    }

    #[test]
    fn profiles() {
        let seccomp = |p: Profile| {
            let mut errors = Vec::new();
            super::seccomp(&p, "s", &mut errors);
            strings(errors)
        };
        assert!(seccomp(profile("Localhost", Some("profiles/audit.json"))).is_empty());
        assert_eq!(seccomp(profile("", None)), ["s.type: Required value: type is required when seccompProfile is set"]);
        assert_eq!(
            seccomp(profile("Default", None)),
            ["s.type: Unsupported value: \"Default\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""]
        );
        assert_eq!(
            seccomp(profile("Localhost", None)),
            ["s.localhostProfile: Required value: must be set when seccomp type is Localhost"]
        );
        assert_eq!(
            seccomp(profile("Localhost", Some("/etc/p.json"))),
            ["s.localhostProfile: Invalid value: \"/etc/p.json\": must be a relative path"]
        );
        assert!(seccomp(profile("Unconfined", Some("x")))[0].contains("can only be set when seccomp type is Localhost"));

        let app_armor = |p: Profile| {
            let mut errors = Vec::new();
            super::app_armor(&p, "a", &mut errors);
            strings(errors)
        };
        assert!(app_armor(profile("RuntimeDefault", None)).is_empty());
        assert!(app_armor(profile("Localhost", Some("profiles/k8s-apparmor-deny-writes"))).is_empty());
        assert_eq!(
            app_armor(profile("Localhost", None)),
            ["a.localhostProfile: Required value: must be set when AppArmor type is Localhost"]
        );
        assert_eq!(
            app_armor(profile("Localhost", Some(" x"))),
            ["a.localhostProfile: Invalid value: \" x\": must not be padded with whitespace"]
        );
        assert_eq!(
            app_armor(profile("", None)),
            ["a.type: Required value: type is required when appArmorProfile is set"]
        );
        assert!(app_armor(profile("unconfined", None))[0].starts_with("a.type: Unsupported value: \"unconfined\""));
        assert!(
            app_armor(profile("Unconfined", Some("x")))[0].contains("can only be set when AppArmor type is Localhost")
        );
    }

    #[test]
    fn host_users_false_shares_no_host_namespace() {
        let spec = |host: bool| PodSpec {
            host_users: Some(false),
            host_network: Some(host),
            host_pid: Some(host),
            host_ipc: Some(host),
            ..Default::default()
        };
        let mut errors = Vec::new();
        validate_pod_security(&spec(true), &mut errors);
        assert_eq!(
            strings(errors),
            [
                "spec.hostNetwork: Forbidden: when `hostUsers` is false",
                "spec.HostPID: Forbidden: when `hostUsers` is false",
                "spec.HostIPC: Forbidden: when `hostUsers` is false",
            ]
        );
        let mut errors = Vec::new();
        validate_pod_security(&spec(false), &mut errors);
        validate_pod_security(&PodSpec { host_users: Some(true), ..spec(true) }, &mut errors);
        assert_eq!(strings(errors), Vec::<String>::new());
    }

    #[test]
    fn supplemental_groups_policy_is_merge_or_strict() {
        let with = |policy: &str| {
            let spec = PodSpec {
                security_context: Some(PodSecurityContext {
                    supplemental_groups_policy: Some(policy.into()),
                    ..Default::default()
                }),
                ..Default::default()
            };
            let mut errors = Vec::new();
            validate_pod_security(&spec, &mut errors);
            strings(errors)
        };
        assert_eq!(with("Merge"), Vec::<String>::new());
        assert_eq!(with("Strict"), Vec::<String>::new());
        assert_eq!(
            with("strict"),
            [
                "spec.securityContext.supplementalGroupsPolicy: Unsupported value: \"strict\": supported values: \"Merge\", \"Strict\""
            ]
        );
    }

    #[test]
    fn pod_contexts_and_sysctls() {
        let sysctl = |name: &str| Sysctl { name: name.into(), value: "1".into() };
        let spec = PodSpec {
            host_network: Some(true),
            host_ipc: Some(true),
            host_pid: Some(true),
            share_process_namespace: Some(true),
            security_context: Some(PodSecurityContext {
                fs_group: Some(-5),
                supplemental_groups: vec![1, -2],
                sysctls: vec![
                    sysctl("kernel.shm_rmid_forced"),
                    sysctl("net.ipv4.ip_unprivileged_port_start"),
                    sysctl("net/core/somaxconn"),
                    sysctl("vm.overcommit_memory"),
                    sysctl("vm.overcommit_memory"),
                    sysctl("Bad..name"),
                    sysctl(""),
                ],
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut errors = Vec::new();
        validate_pod_security(&spec, &mut errors);
        assert_eq!(
            strings(errors),
            [
                "spec.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
                "spec.securityContext.fsGroup: Invalid value: -5: must be between 0 and 2147483647, inclusive",
                "spec.securityContext.supplementalGroups[1]: Invalid value: -2: must be between 0 and 2147483647, inclusive",
                "spec.securityContext.sysctls[0].name: Invalid value: \"kernel.shm_rmid_forced\": may not be specified when 'hostIPC' is true",
                "spec.securityContext.sysctls[1].name: Invalid value: \"net.ipv4.ip_unprivileged_port_start\": may not be specified when 'hostNetwork' is true",
                "spec.securityContext.sysctls[2].name: Invalid value: \"net/core/somaxconn\": may not be specified when 'hostNetwork' is true",
                "spec.securityContext.sysctls[4].name: Duplicate value: \"vm.overcommit_memory\"",
                &format!("spec.securityContext.sysctls[5].name: Invalid value: \"Bad..name\": {SYSCTL_MSG}"),
                "spec.securityContext.sysctls[6].name: Required value",
            ]
        );
    }

    fn pod(annotations: &[(&str, &str)], sc: Option<SecurityContext>) -> Pod {
        Pod {
            metadata: ObjectMeta {
                name: "p".into(),
                annotations: annotations.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
                ..Default::default()
            },
            spec: PodSpec {
                containers: vec![Container { name: "hello".into(), security_context: sc, ..Default::default() }],
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn apparmor_annotations() {
        let key = |c: &str| format!("{APPARMOR_ANNOTATION_PREFIX}{c}");
        let check = |p: &Pod| {
            let mut errors = Vec::new();
            validate_apparmor_annotations(p, &mut errors);
            validate_apparmor_fields_match(p, &mut errors);
            strings(errors)
        };
        assert!(check(&pod(&[(&key("hello"), "localhost/k8s-apparmor-example-deny-write")], None)).is_empty());
        assert_eq!(
            check(&pod(&[(&key("nope"), "enforce")], None)),
            [
                format!("metadata.annotations[{}]: Invalid value: \"nope\": container not found", key("nope")),
                format!(
                    "metadata.annotations[{}]: Invalid value: \"enforce\": invalid AppArmor profile name: \"enforce\"",
                    key("nope")
                ),
            ]
        );
        let with = |t, l| Some(SecurityContext { app_armor_profile: Some(profile(t, l)), ..Default::default() });
        assert!(check(&pod(&[(&key("hello"), "runtime/default")], with("RuntimeDefault", None))).is_empty());
        assert_eq!(
            check(&pod(&[(&key("hello"), "unconfined")], with("RuntimeDefault", None))),
            ["spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match"]
        );
        assert_eq!(
            check(&pod(&[(&key("hello"), "localhost/a")], with("Localhost", Some("b")))),
            ["spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match"]
        );
    }
}
