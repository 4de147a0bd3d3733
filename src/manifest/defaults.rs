//! Defaults as the Kubernetes API server applies them, plus podrun's stable pod uid.

use super::image::Reference;
use super::types::{
    EmptyDirVolumeSource, HttpGetAction, Pod, Probe, PullPolicy, RestartPolicy, TerminationMessagePolicy, Volume,
};

pub const DEFAULT_NAMESPACE: &str = "default";
pub const DEFAULT_GRACE_PERIOD_SECONDS: i64 = 30;
pub const DEFAULT_TERMINATION_MESSAGE_PATH: &str = "/dev/termination-log";
pub const DEFAULT_PROBE_TIMEOUT_SECONDS: i64 = 1;
pub const DEFAULT_PROBE_PERIOD_SECONDS: i64 = 10;
pub const DEFAULT_PROBE_SUCCESS_THRESHOLD: i64 = 1;
pub const DEFAULT_PROBE_FAILURE_THRESHOLD: i64 = 3;
pub const DEFAULT_HTTP_GET_PATH: &str = "/";
pub const DEFAULT_HTTP_GET_SCHEME: &str = "HTTP";

/// The API server's rule: no tag, or the tag `latest`, means Always; a tag or digest means
/// IfNotPresent.
pub fn default_pull_policy(image: &str) -> PullPolicy {
    if Reference::parse(image).means_latest() {
        PullPolicy::Always
    } else {
        PullPolicy::IfNotPresent
    }
}

/// The defaults that change what validation sees, which the API server applies while decoding,
/// before it validates. (Other defaults wait until after validation, so that a missing field
/// is reported as the user wrote it.)
pub fn apply_before_validation(pod: &mut Pod) {
    for v in &mut pod.spec.volumes {
        default_volume(v);
    }
}

/// `SetDefaults_Volume` (pkg/apis/core/v1/defaults.go, Kubernetes 1.36): a volume with no
/// source at all (every source field absent or null) is an emptyDir.
fn default_volume(v: &mut Volume) {
    let no_source = v.empty_dir.is_none()
        && v.host_path.is_none()
        && v.config_map.is_none()
        && v.secret.is_none()
        && v.downward_api.is_none()
        && v.projected.is_none()
        && v.persistent_volume_claim.is_none()
        && v.image.is_none()
        && v.ephemeral.as_ref().is_none_or(serde_yaml::Value::is_null)
        && v.other_sources.values().all(serde_yaml::Value::is_null);
    // `SetDefaults_ImageVolumeSource`: as a container's image (Always for `latest` or no tag).
    if let Some(image) = &mut v.image {
        if image.pull_policy.is_none() {
            image.pull_policy = Some(default_pull_policy(&image.reference));
        }
    }
    if no_source {
        v.other_sources.clear();
        v.ephemeral = None;
        v.empty_dir = Some(EmptyDirVolumeSource::default());
    }
}

/// Fills in what the API server would, and the namespace and uid podrun needs. The uid is
/// always podrun's own (`derive_uid`), as the API server assigns its own on create: a uid
/// taken from the manifest would let two pods share one directory (see `uid_warning`).
pub fn apply(pod: &mut Pod, namespace: &str) {
    if pod.metadata.namespace.as_deref().unwrap_or("").is_empty() {
        pod.metadata.namespace = Some(namespace.to_owned());
    }
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    pod.metadata.uid = Some(derive_uid(&ns, &pod.metadata.name));
    let spec = &mut pod.spec;
    spec.restart_policy.get_or_insert(RestartPolicy::Always);
    let grace = spec.termination_grace_period_seconds.get_or_insert(DEFAULT_GRACE_PERIOD_SECONDS);
    // What the API server warns of (validation says so): a negative period is treated as 1.
    if *grace < 0 {
        *grace = 1;
    }
    for c in spec.init_containers.iter_mut().chain(&mut spec.containers) {
        if c.image_pull_policy.is_none() {
            c.image_pull_policy = Some(default_pull_policy(&c.image));
        }
        c.termination_message_path.get_or_insert_with(|| DEFAULT_TERMINATION_MESSAGE_PATH.to_owned());
        c.termination_message_policy.get_or_insert(TerminationMessagePolicy::File);
        for probe in [&mut c.liveness_probe, &mut c.readiness_probe, &mut c.startup_probe].into_iter().flatten() {
            default_probe(probe);
        }
        if let Some(lc) = &mut c.lifecycle {
            for h in [&mut lc.post_start, &mut lc.pre_stop].into_iter().flatten() {
                if let Some(http) = &mut h.http_get {
                    default_http_get(http);
                }
            }
        }
    }
}

/// The API server's probe defaults. Its fields are plain integers, so 0 is indistinguishable
/// from unset there and is defaulted too: `periodSeconds: 0` means every 10 seconds.
fn default_probe(p: &mut Probe) {
    fn or(field: &mut Option<i64>, default: i64) {
        if field.unwrap_or(0) == 0 {
            *field = Some(default);
        }
    }
    or(&mut p.timeout_seconds, DEFAULT_PROBE_TIMEOUT_SECONDS);
    or(&mut p.period_seconds, DEFAULT_PROBE_PERIOD_SECONDS);
    or(&mut p.success_threshold, DEFAULT_PROBE_SUCCESS_THRESHOLD);
    or(&mut p.failure_threshold, DEFAULT_PROBE_FAILURE_THRESHOLD);
    if let Some(h) = &mut p.http_get {
        default_http_get(h);
    }
}

/// The API server's HTTPGetAction defaults, for probes and lifecycle hooks alike.
fn default_http_get(h: &mut HttpGetAction) {
    if h.path.as_deref().unwrap_or("").is_empty() {
        h.path = Some(DEFAULT_HTTP_GET_PATH.to_owned());
    }
    if h.scheme.as_deref().unwrap_or("").is_empty() {
        h.scheme = Some(DEFAULT_HTTP_GET_SCHEME.to_owned());
    }
}

/// The warning for a manifest's own `metadata.uid`, which podrun replaces (see `apply`), when it
/// differs from podrun's.
pub fn uid_warning(pod: &Pod, namespace: &str) -> Option<String> {
    let given = pod.metadata.uid.as_deref().filter(|u| !u.is_empty())?;
    let own = derive_uid(namespace, &pod.metadata.name);
    (given != own).then(|| {
        format!(
            "metadata.uid: {given:?} is ignored: podrun gives a pod the uid {own}, made from its namespace and \
             name (as the API server gives a pod its own uid)"
        )
    })
}

/// Whether `s` is a uid `derive_uid` makes (lowercase hex in UUID form): only such a uid ever
/// names a directory of podrun's.
pub fn is_pod_uid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(c),
        })
}

/// A pod uid that is the same on every run for the same namespace and name, in UUID form
/// (version 8, "custom", RFC 9562) so tools that expect a Kubernetes uid accept it. Made with
/// SHA-256: a manifest author must not be able to pick a name whose uid is another pod's.
pub fn derive_uid(namespace: &str, name: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, format!("podrun pod uid\0{namespace}\0{name}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest.as_ref()[..16]);
    b[6] = (b[6] & 0x0f) | 0x80; // version 8
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 9562 variant
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{Container, ObjectMeta, PodSpec};

    #[test]
    fn pull_policy_defaults() {
        assert_eq!(default_pull_policy("busybox"), PullPolicy::Always);
        assert_eq!(default_pull_policy("busybox:latest"), PullPolicy::Always);
        assert_eq!(default_pull_policy("busybox:1.28"), PullPolicy::IfNotPresent);
        assert_eq!(default_pull_policy("localhost:5000/busybox"), PullPolicy::Always);
        assert_eq!(default_pull_policy("localhost:5000/busybox:1"), PullPolicy::IfNotPresent);
        assert_eq!(default_pull_policy("busybox@sha256:abcd"), PullPolicy::IfNotPresent);
    }

    #[test]
    fn uid_is_stable_and_distinct() {
        let a = derive_uid("default", "web");
        assert!(is_pod_uid(&a), "{a}");
        for not in ["", "..", "/etc", "uid-1", "0123456789abcdef0123456789abcdef0123", &a.to_uppercase()] {
            assert!(!is_pod_uid(not), "{not}");
        }
        assert_eq!(a, derive_uid("default", "web"));
        assert_ne!(a, derive_uid("other", "web"));
        assert_ne!(derive_uid("a", "bc"), derive_uid("ab", "c"));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "8");
        // Pinned: a changed derivation would orphan every running pod on upgrade.
        assert_eq!(a, "82e1b767-cee9-8e90-932c-fa861f855eeb");
    }

    #[test]
    fn fills_defaults_without_overriding() {
        let mut p = Pod {
            metadata: ObjectMeta { name: "p".into(), namespace: Some("ns".into()), ..Default::default() },
            spec: PodSpec {
                containers: vec![Container { name: "a".into(), image: "x:1".into(), ..Default::default() }],
                termination_grace_period_seconds: Some(5),
                ..Default::default()
            },
            ..Default::default()
        };
        apply(&mut p, "default");
        assert_eq!(p.metadata.namespace.as_deref(), Some("ns"));
        assert_eq!(p.metadata.uid, Some(derive_uid("ns", "p")));
        assert_eq!(p.spec.restart_policy, Some(RestartPolicy::Always));
        assert_eq!(p.spec.termination_grace_period_seconds, Some(5));
        assert_eq!(p.spec.containers[0].image_pull_policy, Some(PullPolicy::IfNotPresent));
    }

    #[test]
    fn a_negative_grace_period_is_treated_as_one_and_others_kept() {
        for (written, stored) in [(Some(-1), 1), (Some(i64::MIN), 1), (Some(0), 0), (Some(7), 7), (None, 30)] {
            let mut p = Pod {
                metadata: ObjectMeta { name: "p".into(), ..Default::default() },
                spec: PodSpec { termination_grace_period_seconds: written, ..Default::default() },
                ..Default::default()
            };
            apply(&mut p, "default");
            assert_eq!(p.spec.termination_grace_period_seconds, Some(stored), "{written:?}");
        }
    }

    #[test]
    fn a_volume_with_only_a_name_is_an_empty_dir() {
        let named = |name: &str| Volume { name: name.into(), ..Default::default() };
        let mut nulls = named("nulls");
        nulls.other_sources.insert("nfs".into(), serde_yaml::Value::Null);
        nulls.ephemeral = Some(serde_yaml::Value::Null);
        let mut nfs = named("nfs");
        nfs.other_sources.insert("nfs".into(), serde_yaml::from_str("{server: a, path: /x}").unwrap());
        let mut host = named("host");
        host.host_path = Some(Default::default());
        let mut p = Pod {
            spec: PodSpec { volumes: vec![named("bare"), nulls, nfs, host], ..Default::default() },
            ..Default::default()
        };
        apply_before_validation(&mut p);
        let v = &p.spec.volumes;
        assert_eq!(v[0], Volume { name: "bare".into(), empty_dir: Some(Default::default()), ..Default::default() });
        assert_eq!(v[1], Volume { name: "nulls".into(), empty_dir: Some(Default::default()), ..Default::default() });
        assert!(v[2].empty_dir.is_none() && v[2].other_sources.contains_key("nfs"), "a source podrun lacks counts");
        assert!(v[3].empty_dir.is_none());
    }

    #[test]
    fn probes_get_the_api_servers_defaults_and_zero_counts_as_unset() {
        use crate::manifest::types::{IntOrString, Lifecycle, LifecycleHandler};
        let http = HttpGetAction { port: IntOrString::Int(80), ..Default::default() };
        let mut c = Container { name: "a".into(), image: "x".into(), ..Default::default() };
        c.liveness_probe = Some(Probe { http_get: Some(http), period_seconds: Some(0), ..Default::default() });
        c.readiness_probe = Some(Probe { timeout_seconds: Some(5), failure_threshold: Some(1), ..Default::default() });
        let hook = LifecycleHandler {
            http_get: Some(HttpGetAction { port: IntOrString::Int(80), ..Default::default() }),
            ..Default::default()
        };
        c.lifecycle = Some(Lifecycle { pre_stop: Some(hook), ..Default::default() });
        let mut p = Pod { spec: PodSpec { containers: vec![c], ..Default::default() }, ..Default::default() };
        apply(&mut p, "default");
        let c = &p.spec.containers[0];
        let l = c.liveness_probe.as_ref().unwrap();
        assert_eq!(
            (l.timeout_seconds, l.period_seconds, l.success_threshold, l.failure_threshold),
            (Some(1), Some(10), Some(1), Some(3))
        );
        let h = l.http_get.as_ref().unwrap();
        assert_eq!((h.path.as_deref(), h.scheme.as_deref()), (Some("/"), Some("HTTP")));
        let r = c.readiness_probe.as_ref().unwrap();
        assert_eq!((r.timeout_seconds, r.failure_threshold, r.initial_delay_seconds), (Some(5), Some(1), None));
        assert!(c.startup_probe.is_none());
        // A lifecycle hook's httpGet is the same API type, defaulted alike.
        let h = c.lifecycle.as_ref().and_then(|l| l.pre_stop.as_ref()).and_then(|h| h.http_get.as_ref()).unwrap();
        assert_eq!((h.path.as_deref(), h.scheme.as_deref()), (Some("/"), Some("HTTP")));
    }
}
