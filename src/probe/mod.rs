//! Container probes at run time: one attempt of a liveness, readiness or startup probe
//! (`handlers`, whose HTTP client also sends lifecycle hooks' `httpGet`, following redirects
//! as `redirects` decides; gRPC health checks in `grpc`). Scheduling the attempts (initial delay, period, thresholds) and acting on
//! their results belong to the driver; the manifest side (types, defaults, validation) lives
//! in `manifest`.

mod grpc;
pub mod handlers;
mod redirects;

/// `host:port`, with an IPv6 address in brackets (the form of a Host header, of gRPC's
/// `:authority` and of Go's error messages).
fn join_host_port(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}
