//! The integration tests, one binary with a module per suite (as cargo's tests/testsuite does):
//! it links once, and `cargo test --test suite e2e_sync::` runs one suite.
//!
//! Every suite shares one process, so tests of different suites run side by side. A test that
//! must see the engine to itself (gc sweeps every podrun container it finds orphaned) takes
//! `require_engine!(alone)`, which waits until no other engine test runs (`common::EngineUse`).

#[macro_use]
mod common;

mod cli;
mod cli_pipes;
mod cri_gen;
mod e2e_apply;
mod e2e_auto_update;
mod e2e_boot_unit;
mod e2e_completion;
mod e2e_context;
mod e2e_corpus;
mod e2e_cp;
mod e2e_cri;
mod e2e_engine_restart;
mod e2e_engine_versions;
mod e2e_engine_volumes;
mod e2e_env_files;
mod e2e_escapes;
mod e2e_events;
mod e2e_exec;
mod e2e_failure_report;
mod e2e_fast_fail;
mod e2e_fidelity;
mod e2e_field_pods;
mod e2e_gc;
mod e2e_get_output;
mod e2e_get_pods;
mod e2e_habits;
mod e2e_hostname;
mod e2e_identity;
mod e2e_images;
mod e2e_kubelet;
mod e2e_left_behind;
mod e2e_manifests;
mod e2e_node;
mod e2e_node_volumes;
mod e2e_notify;
mod e2e_parity;
mod e2e_parity_ids;
mod e2e_parity_nodeip;
mod e2e_parity_podman;
mod e2e_parity_resize;
mod e2e_podman;
mod e2e_probes;
mod e2e_pull_verify;
mod e2e_remote;
mod e2e_resources;
mod e2e_restart_rules;
mod e2e_run;
mod e2e_sidecars;
mod e2e_static;
mod e2e_status;
mod e2e_streams;
mod e2e_supervise_workers;
mod e2e_sync;
mod e2e_toolbox;
mod e2e_url;
mod e2e_userns;
mod e2e_volume_life;
mod e2e_wait;
mod e2e_wait_policy;
mod engine_caps;
mod folder_cycles;
mod layers;
mod package_deb;
mod shape;
