//! Container probes and lifecycle handlers: the API server's rules (one handler, non-negative
//! numbers, ports that exist, `successThreshold: 1` where only 1 makes sense, `scheme` HTTP or
//! HTTPS), plus the header values podrun could not send. Probes and lifecycle hooks share their
//! handler types, and the API server checks both with one handler rule; so does podrun.
//!
//! Checked as written, before defaults. The API server checks after defaulting, where an
//! unset number and 0 are the same (both become the default), so 0 passes here as it does
//! there.

use super::network::{port_name_problems, PORT_RANGE_MSG};
use super::FieldError;
use crate::manifest::types::{
    Container, ContainerRestartPolicy, ExecAction, GrpcAction, HttpGetAction, IntOrString, LifecycleHandler, Probe,
    SleepAction, TcpSocketAction,
};

const NON_NEGATIVE_MSG: &str = "must be greater than or equal to 0";
const HEADER_NAME_MSG: &str = "a valid HTTP header must consist of alphanumeric characters or '-' \
    (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const INIT_MSG: &str = "may not be set for init containers without restartPolicy=Always";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Liveness,
    Readiness,
    Startup,
}

/// The three probes of a container at `path`; `init` for an init container, which may have
/// probes only as a sidecar (`restartPolicy: Always`).
pub(super) fn validate_probes(c: &Container, path: &str, init: bool, errors: &mut Vec<FieldError>) {
    let probes = [
        ("livenessProbe", Kind::Liveness, &c.liveness_probe),
        ("readinessProbe", Kind::Readiness, &c.readiness_probe),
        ("startupProbe", Kind::Startup, &c.startup_probe),
    ];
    let sidecar = c.restart_policy == Some(ContainerRestartPolicy::Always);
    for (name, kind, probe) in probes {
        let Some(probe) = probe else { continue };
        let ppath = format!("{path}.{name}");
        if init && !sidecar {
            errors.push(FieldError::forbidden(ppath, INIT_MSG));
            continue;
        }
        validate_probe(probe, kind, &ppath, c, errors);
    }
}

fn validate_probe(p: &Probe, kind: Kind, path: &str, c: &Container, errors: &mut Vec<FieldError>) {
    validate_handler(&Handlers::of_probe(p), path, c, errors);
    let numbers = [
        ("initialDelaySeconds", p.initial_delay_seconds),
        ("timeoutSeconds", p.timeout_seconds),
        ("periodSeconds", p.period_seconds),
        ("successThreshold", p.success_threshold),
        ("failureThreshold", p.failure_threshold),
    ];
    for (name, value) in numbers {
        if let Some(v) = value.filter(|v| *v < 0) {
            errors.push(FieldError::invalid_raw(format!("{path}.{name}"), v, NON_NEGATIVE_MSG));
        }
    }
    if let Some(g) = p.termination_grace_period_seconds.filter(|g| *g <= 0) {
        errors.push(FieldError::invalid_raw(
            format!("{path}.terminationGracePeriodSeconds"),
            g,
            "must be greater than 0",
        ));
    }
    match kind {
        // A liveness or startup probe acts on its first success, so only 1 means anything.
        // 0 is the unset value the API server defaults to 1.
        Kind::Liveness | Kind::Startup => {
            if let Some(v) = p.success_threshold.filter(|v| *v != 0 && *v != 1) {
                errors.push(FieldError::invalid_raw(format!("{path}.successThreshold"), v, "must be 1"));
            }
        }
        Kind::Readiness => {
            if let Some(g) = p.termination_grace_period_seconds {
                errors.push(FieldError::invalid_raw(
                    format!("{path}.terminationGracePeriodSeconds"),
                    g,
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
}

/// The handler fields of a probe or a lifecycle hook (`ProbeHandler` and `LifecycleHandler` in
/// the API), checked alike, as the API server's `validateHandler` checks them.
#[derive(Default)]
struct Handlers<'a> {
    exec: Option<&'a ExecAction>,
    http_get: Option<&'a HttpGetAction>,
    tcp_socket: Option<&'a TcpSocketAction>,
    grpc: Option<&'a GrpcAction>,
    sleep: Option<&'a SleepAction>,
    /// A lifecycle hook: `tcpSocket` is refused (the kubelet cannot run it).
    lifecycle: bool,
}

impl<'a> Handlers<'a> {
    fn of_probe(p: &'a Probe) -> Self {
        Handlers {
            exec: p.exec.as_ref(),
            http_get: p.http_get.as_ref(),
            tcp_socket: p.tcp_socket.as_ref(),
            grpc: p.grpc.as_ref(),
            ..Default::default()
        }
    }

    fn of_lifecycle(h: &'a LifecycleHandler) -> Self {
        Handlers {
            exec: h.exec.as_ref(),
            http_get: h.http_get.as_ref(),
            tcp_socket: h.tcp_socket.as_ref(),
            sleep: h.sleep.as_ref(),
            lifecycle: true,
            ..Default::default()
        }
    }
}

/// A lifecycle hook (`postStart` or `preStop`) of the container at `path`.
pub(super) fn validate_lifecycle_handler(
    h: &LifecycleHandler,
    path: &str,
    c: &Container,
    errors: &mut Vec<FieldError>,
) {
    validate_handler(&Handlers::of_lifecycle(h), path, c, errors);
}

/// Exactly one handler; the second and later ones are Forbidden at their own path, as the
/// API server reports them.
fn validate_handler(h: &Handlers, path: &str, c: &Container, errors: &mut Vec<FieldError>) {
    let mut handlers = 0;
    let mut one = |name: &str, errors: &mut Vec<FieldError>| {
        handlers += 1;
        if handlers > 1 {
            errors.push(FieldError::forbidden(format!("{path}.{name}"), "may not specify more than 1 handler type"));
            return false;
        }
        true
    };
    if let Some(exec) = h.exec {
        if one("exec", errors) && exec.command.is_empty() {
            errors.push(FieldError::required(format!("{path}.exec.command")));
        }
    }
    if let Some(http) = h.http_get {
        if one("httpGet", errors) {
            validate_http_get(http, &format!("{path}.httpGet"), c, errors);
        }
    }
    if let Some(t) = h.tcp_socket {
        if one("tcpSocket", errors) {
            if h.lifecycle {
                // The API keeps the field for backward compatibility only, without validating
                // it, and the kubelet fails such a hook when it runs: better refused up front.
                errors.push(FieldError::new(
                    format!("{path}.tcpSocket"),
                    "Unsupported value: tcpSocket is not supported as a lifecycle handler (the kubelet fails \
                     such a hook at runtime); use exec or httpGet",
                ));
            } else {
                validate_port(&t.port, &format!("{path}.tcpSocket.port"), c, errors);
            }
        }
    }
    if let Some(g) = h.grpc {
        if one("grpc", errors) {
            let gpath = format!("{path}.grpc");
            if !(1..=65535).contains(&g.port) {
                errors.push(FieldError::invalid_raw(format!("{gpath}.port"), g.port, PORT_RANGE_MSG));
            }
        }
    }
    if let Some(sleep) = h.sleep {
        if one("sleep", errors) && sleep.seconds < 0 {
            errors.push(FieldError::invalid_raw(format!("{path}.sleep.seconds"), sleep.seconds, NON_NEGATIVE_MSG));
        }
    }
    if handlers == 0 {
        errors.push(FieldError::required_because(path, "must specify a handler type"));
    }
}

/// An `httpGet` action at `path`: its port, scheme and headers.
fn validate_http_get(h: &HttpGetAction, path: &str, c: &Container, errors: &mut Vec<FieldError>) {
    validate_port(&h.port, &format!("{path}.port"), c, errors);
    // Unset or empty is defaulted to HTTP. HTTPS is sent without verifying the server's
    // certificate, as by the kubelet.
    match h.scheme.as_deref().unwrap_or("") {
        "" | "HTTP" | "HTTPS" => {}
        other => errors.push(FieldError::unsupported(format!("{path}.scheme"), other, &["HTTP", "HTTPS"])),
    }
    for header in &h.http_headers {
        if !is_http_header_name(&header.name) {
            errors.push(FieldError::invalid(format!("{path}.httpHeaders"), &header.name, HEADER_NAME_MSG));
        }
        // Not a Kubernetes rule (Go's HTTP client refuses such a request instead), but
        // podrun writes the request by hand and a line break would split it.
        if header.value.contains(['\r', '\n']) {
            errors.push(FieldError::invalid(
                format!("{path}.httpHeaders"),
                &header.value,
                "podrun needs a header value without line breaks",
            ));
        }
    }
}

/// A port number in range, or a valid port name that one of the container's ports carries.
fn validate_port(port: &IntOrString, path: &str, c: &Container, errors: &mut Vec<FieldError>) {
    match port {
        IntOrString::Int(n) => {
            if !(1..=65535).contains(n) {
                errors.push(FieldError::invalid_raw(path, n, PORT_RANGE_MSG));
            }
        }
        IntOrString::String(name) => {
            let problems = port_name_problems(name);
            for why in &problems {
                errors.push(FieldError::invalid(path, name, why));
            }
            // The kubelet looks the name up among the container's own ports, and a probe or hook
            // whose port it cannot find fails on every attempt: better said before anything
            // starts.
            if problems.is_empty() && !c.ports.iter().any(|p| p.name.as_deref() == Some(name.as_str())) {
                errors.push(FieldError::not_found(path, name));
            }
        }
    }
}

fn is_http_header_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{ContainerPort, HttpHeader};

    fn exec() -> Probe {
        Probe { exec: Some(ExecAction { command: vec!["true".into()] }), ..Default::default() }
    }

    fn tcp(port: IntOrString) -> Probe {
        Probe { tcp_socket: Some(TcpSocketAction { port, host: None }), ..Default::default() }
    }

    fn http(port: IntOrString, scheme: Option<&str>) -> Probe {
        let h = HttpGetAction { port, scheme: scheme.map(Into::into), ..Default::default() };
        Probe { http_get: Some(h), ..Default::default() }
    }

    fn container() -> Container {
        let port = ContainerPort { name: Some("http".into()), container_port: 8080, ..Default::default() };
        Container { name: "a".into(), image: "x".into(), ports: vec![port], ..Default::default() }
    }

    fn check(c: &Container, init: bool) -> Vec<String> {
        let mut errors = Vec::new();
        validate_probes(c, "spec.containers[0]", init, &mut errors);
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    fn liveness(p: Probe) -> Vec<String> {
        check(&Container { liveness_probe: Some(p), ..container() }, false)
    }

    #[test]
    fn good_probes_pass() {
        let mut c = container();
        c.liveness_probe = Some(http(IntOrString::String("http".into()), Some("HTTP")));
        c.readiness_probe = Some(tcp(IntOrString::Int(8080)));
        c.startup_probe = Some(Probe { success_threshold: Some(1), failure_threshold: Some(30), ..exec() });
        assert_eq!(check(&c, false), Vec::<String>::new());
        // 0 is the unset value, defaulted later as by the API server.
        assert_eq!(
            liveness(Probe { period_seconds: Some(0), success_threshold: Some(0), ..exec() }),
            Vec::<String>::new()
        );
    }

    #[test]
    fn exactly_one_handler() {
        assert_eq!(
            liveness(Probe::default()),
            ["spec.containers[0].livenessProbe: Required value: must specify a handler type"]
        );
        let both = Probe { tcp_socket: tcp(IntOrString::Int(1)).tcp_socket, ..exec() };
        assert_eq!(
            liveness(both),
            ["spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"]
        );
        let empty = Probe { exec: Some(ExecAction::default()), ..Default::default() };
        assert_eq!(liveness(empty), ["spec.containers[0].livenessProbe.exec.command: Required value"]);
    }

    #[test]
    fn numbers() {
        let p = Probe {
            initial_delay_seconds: Some(-1),
            timeout_seconds: Some(-2),
            failure_threshold: Some(-3),
            termination_grace_period_seconds: Some(0),
            ..exec()
        };
        assert_eq!(
            liveness(p),
            [
                "spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
                "spec.containers[0].livenessProbe.timeoutSeconds: Invalid value: -2: must be greater than or equal to 0",
                "spec.containers[0].livenessProbe.failureThreshold: Invalid value: -3: must be greater than or equal to 0",
                "spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0",
            ]
        );
    }

    #[test]
    fn success_threshold_must_be_1_for_liveness_and_startup_only() {
        let p = Probe { success_threshold: Some(2), ..exec() };
        let c = Container {
            liveness_probe: Some(p.clone()),
            readiness_probe: Some(p.clone()),
            startup_probe: Some(p),
            ..container()
        };
        assert_eq!(
            check(&c, false),
            [
                "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
                "spec.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1",
            ]
        );
        let r = Container {
            readiness_probe: Some(Probe { termination_grace_period_seconds: Some(5), ..exec() }),
            ..container()
        };
        assert_eq!(
            check(&r, false),
            ["spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes"]
        );
    }

    #[test]
    fn ports() {
        assert_eq!(liveness(tcp(IntOrString::Int(0))), ["spec.containers[0].livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive"]);
        assert_eq!(liveness(tcp(IntOrString::Int(65536))).len(), 1);
        assert_eq!(
            liveness(tcp(IntOrString::String("metrics".into()))),
            ["spec.containers[0].livenessProbe.tcpSocket.port: Not found: \"metrics\""]
        );
        // A number written as a string is a port name to Kubernetes, and not a valid one.
        assert_eq!(
            liveness(http(IntOrString::String("8080".into()), None)),
            ["spec.containers[0].livenessProbe.httpGet.port: Invalid value: \"8080\": must contain at least one letter (a-z)"]
        );
    }

    #[test]
    fn https_passes_grpc_is_checked_and_bad_schemes_unsupported() {
        assert_eq!(liveness(http(IntOrString::Int(443), Some("HTTPS"))), Vec::<String>::new());
        assert_eq!(
            liveness(http(IntOrString::Int(80), Some("ftp"))),
            ["spec.containers[0].livenessProbe.httpGet.scheme: Unsupported value: \"ftp\": supported values: \"HTTP\", \"HTTPS\""]
        );
        let g = Probe { grpc: Some(GrpcAction { port: 9000, service: None }), ..Default::default() };
        assert!(liveness(g).is_empty(), "gRPC probes are implemented");
        let g = Probe { grpc: Some(GrpcAction { port: 0, service: None }), ..Default::default() };
        assert_eq!(liveness(g).len(), 1, "its port is checked");
    }

    #[test]
    fn header_names_and_values() {
        let mut p = http(IntOrString::Int(80), None);
        if let Some(h) = &mut p.http_get {
            h.http_headers = vec![
                HttpHeader { name: "X Bad".into(), value: "v".into() },
                HttpHeader { name: "X-Ok".into(), value: "a\r\nInjected: 1".into() },
            ];
        }
        let e = liveness(p);
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].contains("a valid HTTP header"), "{e:?}");
        assert!(e[1].contains("line breaks"), "{e:?}");
    }

    fn hook(h: LifecycleHandler) -> Vec<String> {
        let mut errors = Vec::new();
        validate_lifecycle_handler(&h, "spec.containers[0].lifecycle.postStart", &container(), &mut errors);
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    fn http_hook(port: IntOrString, scheme: Option<&str>) -> LifecycleHandler {
        LifecycleHandler { http_get: http(port, scheme).http_get, ..Default::default() }
    }

    #[test]
    fn lifecycle_http_get_is_checked_as_a_probes() {
        assert_eq!(hook(http_hook(IntOrString::String("http".into()), Some("HTTPS"))), Vec::<String>::new());
        assert_eq!(hook(http_hook(IntOrString::Int(8080), None)), Vec::<String>::new());
        assert_eq!(
            hook(http_hook(IntOrString::String("metrics".into()), None)),
            ["spec.containers[0].lifecycle.postStart.httpGet.port: Not found: \"metrics\""]
        );
        assert_eq!(
            hook(http_hook(IntOrString::Int(0), Some("ftp"))),
            [
                "spec.containers[0].lifecycle.postStart.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
                "spec.containers[0].lifecycle.postStart.httpGet.scheme: Unsupported value: \"ftp\": supported values: \"HTTP\", \"HTTPS\"",
            ]
        );
        let mut bad_header = http_hook(IntOrString::Int(80), None);
        if let Some(h) = &mut bad_header.http_get {
            h.http_headers = vec![HttpHeader { name: "X Bad".into(), value: "v".into() }];
        }
        let e = hook(bad_header);
        assert!(
            e.len() == 1
                && e[0].starts_with(
                    "spec.containers[0].lifecycle.postStart.httpGet.httpHeaders: Invalid value: \"X Bad\""
                ),
            "{e:?}"
        );
    }

    #[test]
    fn lifecycle_tcp_socket_is_refused_with_its_path() {
        let tcp = LifecycleHandler { tcp_socket: tcp(IntOrString::Int(8080)).tcp_socket, ..Default::default() };
        assert_eq!(
            hook(tcp.clone()),
            ["spec.containers[0].lifecycle.postStart.tcpSocket: Unsupported value: tcpSocket is not supported as a \
              lifecycle handler (the kubelet fails such a hook at runtime); use exec or httpGet"]
        );
        // Beside another handler it is the second one, Forbidden as such.
        let both = LifecycleHandler { exec: exec().exec, ..tcp };
        assert_eq!(
            hook(both),
            ["spec.containers[0].lifecycle.postStart.tcpSocket: Forbidden: may not specify more than 1 handler type"]
        );
    }

    #[test]
    fn lifecycle_handlers_need_exactly_one() {
        assert_eq!(
            hook(LifecycleHandler::default()),
            ["spec.containers[0].lifecycle.postStart: Required value: must specify a handler type"]
        );
        let two = LifecycleHandler { exec: exec().exec, ..http_hook(IntOrString::Int(80), None) };
        assert_eq!(
            hook(two),
            ["spec.containers[0].lifecycle.postStart.httpGet: Forbidden: may not specify more than 1 handler type"]
        );
        let sleep = LifecycleHandler { sleep: Some(SleepAction { seconds: -1 }), ..Default::default() };
        assert_eq!(
            hook(sleep),
            ["spec.containers[0].lifecycle.postStart.sleep.seconds: Invalid value: -1: must be greater than or equal to 0"]
        );
        let empty = LifecycleHandler { exec: Some(ExecAction::default()), ..Default::default() };
        assert_eq!(hook(empty), ["spec.containers[0].lifecycle.postStart.exec.command: Required value"]);
    }

    #[test]
    fn init_containers_need_to_be_sidecars() {
        let c = Container { startup_probe: Some(exec()), ..container() };
        assert_eq!(
            check(&c, true),
            ["spec.containers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always"]
        );
        let sidecar = Container { restart_policy: Some(ContainerRestartPolicy::Always), ..c };
        assert_eq!(check(&sidecar, true), Vec::<String>::new());
    }
}
