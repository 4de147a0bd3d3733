//! Generated code, never edited by hand: the CRI v1 messages and gRPC clients (`api.rs`), made
//! by tools/cri-gen (prost and tonic, the proto compiled by protox: no `protoc`) from the pinned
//! proto, proto/cri/api.proto. To change them, change the proto and run
//! `cargo run --manifest-path tools/cri-gen/Cargo.toml`; the test suite's `cri_gen` test checks
//! that `api.rs` is what a regeneration makes.

#[allow(clippy::all, clippy::pedantic, missing_docs, rustdoc::all)]
pub mod api;
