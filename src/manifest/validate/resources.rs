//! Resource requirements, container and pod level: names, quantities, requests against limits.
//! Values are quoted as written (`"600m"`), which is what the user will look for in the file.

use std::collections::BTreeMap;

use super::{is_qualified_name, qualified_msg, FieldError};
use crate::manifest::quantity::{Quantity, QuantityError};
use crate::manifest::types::{Container, ContainerRestartPolicy, PodSpec, ResourceRequirements};

const NEGATIVE_MSG: &str = "must be greater than or equal to 0";

fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// Resources of Kubernetes itself: unprefixed, or under a kubernetes.io domain.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// A device plugin's resource, such as `nvidia.com/gpu`.
fn is_extended(name: &str) -> bool {
    !is_native(name) && !name.starts_with("requests.") && is_qualified_name(&format!("requests.{name}"))
}

/// Requests may be below limits (overcommitted) only for native, non-hugepages resources;
/// the others must have equal requests and limits.
fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// Which names each level accepts.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Container,
    Pod,
}

fn check_name(name: &str, level: Level, path: &str, errors: &mut Vec<FieldError>) {
    if !is_qualified_name(name) {
        return errors.push(FieldError::invalid(path, name, &qualified_msg()));
    }
    match level {
        Level::Pod => {
            if !matches!(name, "cpu" | "memory") && !is_hugepages(name) {
                errors.push(FieldError::unsupported(path, name, &["cpu", "memory"]));
            }
        }
        Level::Container if !name.contains('/') => {
            if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_hugepages(name) {
                errors.push(FieldError::invalid(path, name, "must be a standard resource for containers"));
            }
        }
        Level::Container => {
            if !is_native(name) && !is_extended(name) {
                errors.push(FieldError::invalid(path, name, "doesn't follow extended resource name standard"));
            }
        }
    }
}

/// The quantity, when it is one; problems with it are reported.
///
/// The API server's rules (`ValidateResourceQuantityValue`, pkg/apis/core/validation,
/// Kubernetes 1.36): not negative, and whole for extended resources. It holds any magnitude;
/// the kubelet does not: it hands the runtime `Value()` (bytes, units) and `MilliValue()`
/// (CPU) as 64-bit integers, which wrap beyond 2^63-1. podrun refuses such a value, saying so,
/// rather than run the container with a limit nobody wrote.
fn check_quantity(name: &str, text: &str, path: &str, errors: &mut Vec<FieldError>) -> Option<Quantity> {
    let q = match Quantity::parse(text) {
        Ok(q) => q,
        Err(QuantityError::TooLarge { negative: true }) => {
            errors.push(FieldError::invalid(path, text, NEGATIVE_MSG));
            return None;
        }
        Err(QuantityError::TooLarge { negative: false }) => {
            errors.push(FieldError::invalid(path, text, &too_large(name)));
            return None;
        }
        Err(e) => {
            errors.push(FieldError::invalid(path, text, &e.to_string()));
            return None;
        }
    };
    if q.is_negative() {
        errors.push(FieldError::invalid(path, text, NEGATIVE_MSG));
    } else if kubelet_count(name, q) > i128::from(i64::MAX) {
        errors.push(FieldError::invalid(path, text, &too_large(name)));
    }
    if is_extended(name) && q.nanos() % 1_000_000_000 != 0 {
        errors.push(FieldError::invalid_raw(path, text, "must be an integer"));
    }
    Some(q.round_up_to_milli())
}

/// A resource list's value as validation compares it: rounded up to thousandths, as the API
/// server's `SetDefaults_ResourceList` leaves it (`100.4m` and `100.6m` are both `101m`).
fn listed(text: &str) -> Option<Quantity> {
    Quantity::parse(text).ok().map(Quantity::round_up_to_milli)
}

/// What the kubelet counts a resource in: millicores for CPU, whole units otherwise.
fn kubelet_count(name: &str, q: Quantity) -> i128 {
    if name == "cpu" {
        q.milli_ceil()
    } else {
        q.value_ceil()
    }
}

fn too_large(name: &str) -> String {
    let (most, unit) = match name {
        "cpu" => ("9223372036854775807m", "millicores"),
        "memory" | "ephemeral-storage" => ("9223372036854775807", "bytes"),
        n if is_hugepages(n) => ("9223372036854775807", "bytes"),
        _ => ("9223372036854775807", "units"),
    };
    format!(
        "must be at most {most}: the API server accepts more, but the kubelet and the container engine count \
         {name} in 64-bit {unit}"
    )
}

fn validate_requirements(r: &ResourceRequirements, path: &str, level: Level, errors: &mut Vec<FieldError>) {
    let mut limits = BTreeMap::new();
    for (name, text) in &r.limits {
        let p = format!("{path}.limits[{name}]");
        check_name(name, level, &p, errors);
        if let Some(q) = check_quantity(name, text, &p, errors) {
            limits.insert(name.as_str(), (q, text.trim()));
        }
    }
    for (name, text) in &r.requests {
        let p = format!("{path}.requests[{name}]");
        check_name(name, level, &p, errors);
        let Some(q) = check_quantity(name, text, &p, errors) else { continue };
        match limits.get(name.as_str()) {
            Some((limit, limit_text)) if !overcommit_allowed(name) && q != *limit => errors.push(FieldError::invalid(
                format!("{path}.requests"),
                text.trim(),
                &format!("must be equal to {name} limit of {limit_text}"),
            )),
            Some((limit, limit_text)) if q > *limit => errors.push(FieldError::invalid(
                format!("{path}.requests"),
                text.trim(),
                &format!("must be less than or equal to {name} limit of {limit_text}"),
            )),
            Some(_) => {}
            None if !r.limits.contains_key(name) && !overcommit_allowed(name) => {
                errors.push(FieldError::required_because(
                    format!("{path}.limits"),
                    "Limit must be set for non overcommitable resources",
                ))
            }
            None => {}
        }
    }
    let names = || r.limits.keys().chain(r.requests.keys());
    if names().any(|n| is_hugepages(n)) && !names().any(|n| n == "cpu" || n == "memory") {
        errors.push(FieldError::forbidden(path, "HugePages require cpu or memory"));
    }
}

pub(super) fn validate_container_resources(r: &ResourceRequirements, path: &str, errors: &mut Vec<FieldError>) {
    validate_requirements(r, path, Level::Container, errors);
}

/// What a container asks for of `resource`: its request, else its limit (which the API server
/// copies into an unset request), else nothing.
fn request(c: &Container, resource: &str) -> Quantity {
    let r = c.resources.as_ref();
    let text = r.and_then(|r| r.requests.get(resource).or_else(|| r.limits.get(resource)));
    text.and_then(|t| listed(t)).unwrap_or(Quantity::from_units(0))
}

/// The pod's need of `resource` from its containers, as the scheduler adds it up: app
/// containers and sidecars together, or one regular init container together with the sidecars
/// started before it, whichever is more.
pub fn aggregate_requests(spec: &PodSpec, resource: &str) -> Quantity {
    let zero = Quantity::from_units(0);
    let mut sidecars = zero;
    let mut init_peak = zero;
    for c in &spec.init_containers {
        let q = request(c, resource);
        if c.restart_policy == Some(ContainerRestartPolicy::Always) {
            sidecars = sidecars.saturating_add(q);
        } else {
            init_peak = init_peak.max(sidecars.saturating_add(q));
        }
    }
    let app = spec.containers.iter().fold(zero, |sum, c| sum.saturating_add(request(c, resource)));
    app.saturating_add(sidecars).max(init_peak)
}

/// `spec.resources` (Kubernetes 1.32+): names and quantities, then the pod's budget against
/// its containers.
pub(super) fn validate_pod_resources(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    let Some(r) = &spec.resources else { return };
    let path = "spec.resources";
    validate_requirements(r, path, Level::Pod, errors);
    // An unset pod request is the pod limit, as the API server defaults it.
    let pod_requests = r.limits.iter().chain(&r.requests).collect::<BTreeMap<_, _>>();
    for (name, text) in pod_requests {
        let Some(pod) = listed(text) else { continue };
        let containers = aggregate_requests(spec, name);
        if containers > pod {
            errors.push(FieldError::invalid(
                format!("{path}.requests[{name}]"),
                text.trim(),
                &format!("must be greater than or equal to aggregate container requests of {containers}"),
            ));
        }
    }
    for (i, c) in spec.containers.iter().enumerate() {
        let Some(cr) = &c.resources else { continue };
        for (name, text) in &cr.limits {
            let (Some(pod_text), Some(limit)) = (r.limits.get(name), listed(text)) else { continue };
            let Some(pod) = listed(pod_text) else { continue };
            if limit > pod {
                errors.push(FieldError::invalid(
                    format!("spec.containers[{i}].resources.limits[{name}]"),
                    text.trim(),
                    &format!("must be less than or equal to pod limits of {}", pod_text.trim()),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reqs(limits: &[(&str, &str)], requests: &[(&str, &str)]) -> ResourceRequirements {
        let map = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        ResourceRequirements { limits: map(limits), requests: map(requests), claims: vec![] }
    }

    fn container(limits: &[(&str, &str)], requests: &[(&str, &str)]) -> Vec<String> {
        let mut errors = Vec::new();
        validate_container_resources(&reqs(limits, requests), "c.resources", &mut errors);
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn requests_at_most_limits() {
        assert!(container(&[("cpu", "500m"), ("memory", "128Mi")], &[("cpu", "0.5"), ("memory", "64Mi")]).is_empty());
        assert_eq!(
            container(&[("cpu", "500m")], &[("cpu", "600m")]),
            ["c.resources.requests: Invalid value: \"600m\": must be less than or equal to cpu limit of 500m"]
        );
        assert_eq!(
            container(&[("memory", "1Gi")], &[("memory", "2Gi")]),
            ["c.resources.requests: Invalid value: \"2Gi\": must be less than or equal to memory limit of 1Gi"]
        );
        assert!(container(&[], &[("cpu", "100")]).is_empty(), "a request without a limit is fine");
    }

    #[test]
    fn quantities_and_names() {
        assert_eq!(
            container(&[("cpu", "-1")], &[]),
            ["c.resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"]
        );
        assert!(container(&[("memory", "lots")], &[])[0]
            .starts_with("c.resources.limits[memory]: Invalid value: \"lots\": quantities must match"));
        assert_eq!(
            container(&[("gpu", "1")], &[]),
            ["c.resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers"]
        );
        assert!(container(&[("ephemeral-storage", "1Gi"), ("hugepages-2Mi", "2Mi"), ("memory", "1Gi")], &[]).is_empty());
    }

    #[test]
    fn values_are_compared_rounded_up_to_milli_as_the_api_server_defaults_them() {
        // Both are 101m after SetDefaults_ResourceList.
        assert!(container(&[("cpu", "100.5m")], &[("cpu", "100.6m")]).is_empty());
        assert_eq!(
            container(&[("cpu", "100.5m")], &[("cpu", "101.1m")]),
            ["c.resources.requests: Invalid value: \"101.1m\": must be less than or equal to cpu limit of 100.5m"]
        );
        // A negative value stays negative: rounding goes away from zero.
        assert_eq!(container(&[("cpu", "-0.0001")], &[]).len(), 1);
    }

    #[test]
    fn huge_quantities_never_wrap() {
        // The measured defect: the negative one was accepted, the positive one said "must match".
        assert_eq!(
            container(&[("memory", "-170141183460469231731687303715.999999999")], &[]),
            ["c.resources.limits[memory]: Invalid value: \"-170141183460469231731687303715.999999999\": must be greater than or equal to 0"]
        );
        assert_eq!(
            container(&[("memory", "170141183460469231731687303715.999999999")], &[]),
            ["c.resources.limits[memory]: Invalid value: \"170141183460469231731687303715.999999999\": must be at most \
              9223372036854775807: the API server accepts more, but the kubelet and the container engine count memory \
              in 64-bit bytes"]
        );
        assert_eq!(container(&[("cpu", "-1e40")], &[]).len(), 1);
        // The edges: 2^63-1 bytes (and 8Ei, which the API server caps there) and 2^63-1 millicores.
        for ok in ["9223372036854775807", "8Ei", "9Ei", "9223372036854775807Ki"] {
            assert!(container(&[("memory", ok)], &[]).is_empty(), "{ok}");
        }
        assert!(container(&[("cpu", "9223372036854775807m")], &[]).is_empty());
        assert!(container(&[("cpu", "9223372036854775.807")], &[]).is_empty());
        for (name, bad) in [("memory", "9223372036854775808"), ("memory", "1e19"), ("cpu", "9223372036854775808m")] {
            let errors = container(&[(name, bad)], &[]);
            assert_eq!(errors.len(), 1, "{bad}");
            assert!(errors[0].contains("must be at most 9223372036854775807"), "{errors:?}");
        }
        assert!(container(&[("nvidia.com/gpu", "1e30")], &[("nvidia.com/gpu", "1e30")])[0].contains("at most"));
    }

    #[test]
    fn extended_resources_are_whole_and_not_overcommitted() {
        assert!(container(&[("nvidia.com/gpu", "1")], &[("nvidia.com/gpu", "1")]).is_empty());
        assert!(container(&[("nvidia.com/gpu", "1")], &[]).is_empty());
        assert_eq!(
            container(&[("nvidia.com/gpu", "2")], &[("nvidia.com/gpu", "1")]),
            ["c.resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2"]
        );
        assert_eq!(
            container(&[], &[("nvidia.com/gpu", "1")]),
            ["c.resources.limits: Required value: Limit must be set for non overcommitable resources"]
        );
        assert_eq!(
            container(&[("nvidia.com/gpu", "500m")], &[]),
            ["c.resources.limits[nvidia.com/gpu]: Invalid value: 500m: must be an integer"]
        );
        assert_eq!(
            container(&[("hugepages-2Mi", "2Mi")], &[]),
            ["c.resources: Forbidden: HugePages require cpu or memory"]
        );
    }

    #[test]
    fn pod_level_resources_bound_their_containers() {
        let c = |limits: &[(&str, &str)], requests: &[(&str, &str)]| Container {
            resources: Some(reqs(limits, requests)),
            ..Default::default()
        };
        let spec = PodSpec {
            resources: Some(reqs(&[("cpu", "1"), ("memory", "1Gi")], &[("cpu", "500m"), ("ephemeral-storage", "1Gi")])),
            containers: vec![c(&[("cpu", "2")], &[("cpu", "300m")]), c(&[], &[("cpu", "300m")])],
            ..Default::default()
        };
        let mut errors = Vec::new();
        validate_pod_resources(&spec, &mut errors);
        let errors: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "spec.resources.requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: \"cpu\", \"memory\"",
                "spec.resources.requests[cpu]: Invalid value: \"500m\": must be greater than or equal to aggregate container requests of 600m",
                "spec.containers[0].resources.limits[cpu]: Invalid value: \"2\": must be less than or equal to pod limits of 1",
            ]
        );
    }

    #[test]
    fn sidecars_add_up_with_app_containers_and_init_containers_peak_alone() {
        let c = |cpu: &str, sidecar: bool| Container {
            resources: Some(reqs(&[], &[("cpu", cpu)])),
            restart_policy: sidecar.then_some(ContainerRestartPolicy::Always),
            ..Default::default()
        };
        let spec = PodSpec {
            init_containers: vec![c("100m", true), c("2", false)],
            containers: vec![c("500m", false)],
            ..Default::default()
        };
        assert_eq!(aggregate_requests(&spec, "cpu"), Quantity::from_millis(2100));
        assert_eq!(aggregate_requests(&spec, "memory"), Quantity::from_units(0));
    }
}
