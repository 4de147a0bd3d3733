//! Container probes at run time: one attempt of a liveness, readiness or startup probe
//! (`handlers`, whose HTTP client also sends lifecycle hooks' `httpGet`; gRPC health checks in
//! `grpc`). Scheduling the attempts (initial delay, period, thresholds) and acting on
//! their results belong to the driver; the manifest side (types, defaults, validation) lives
//! in `manifest`.

mod grpc;
pub mod handlers;
