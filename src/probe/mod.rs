//! Container probes at run time: one attempt of a liveness, readiness or startup probe
//! (`handlers`, the dispatcher, which also sends lifecycle hooks' `httpGet`), through the
//! probes' HTTP client (`http`, following redirects as `redirects` decides), TCP connections
//! (`port`) and gRPC health checks (`grpc`). Scheduling the attempts (initial delay, period,
//! thresholds) and acting on their results belong to the driver; the manifest side (types,
//! defaults, validation) lives in `manifest`.

mod grpc;
pub mod handlers;
mod http;
mod port;
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
