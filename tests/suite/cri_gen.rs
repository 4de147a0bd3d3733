//! The generated CRI code, `src/runtime/cri/generated/api.rs`, is what tools/cri-gen makes of
//! the pinned proto: the generator writes a scratch file and the two must be the same, byte for
//! byte. It needs no `protoc` (protox compiles the proto) and no network once its crates are
//! fetched (cargo fetches them, as podrun's own, from tools/cri-gen/Cargo.lock). It never
//! skips: a generator that cannot be built or run fails the test.

use std::path::Path;
use std::process::Command;

use crate::common::bounded::{output, LIMIT};
use crate::common::{stderr, stdout};

const GENERATED: &str = "src/runtime/cri/generated/api.rs";

#[test]
fn the_generated_cri_code_is_what_cri_gen_makes_of_the_proto() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = root.join("target/tmp").join(format!("cri-gen-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let fresh = scratch.join("api.rs");
    // Its own target directory: the one the suite was built in stays locked while it runs.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut generate = Command::new(cargo);
    generate
        .args(["run", "--quiet", "--locked", "--manifest-path", "tools/cri-gen/Cargo.toml"])
        .args(["--target-dir", "target/cri-gen", "--"])
        .arg(&fresh)
        .current_dir(root);
    let out = output(&mut generate, None, LIMIT);
    let regenerated = std::fs::read_to_string(&fresh);
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(out.status.success(), "tools/cri-gen failed: {}{}", stdout(&out), stderr(&out));
    let regenerated = regenerated.expect("tools/cri-gen wrote its file");
    let committed = std::fs::read_to_string(root.join(GENERATED)).unwrap();
    assert!(
        regenerated == committed,
        "{GENERATED} is not what tools/cri-gen makes of proto/cri/api.proto: run \
         `cargo run --manifest-path tools/cri-gen/Cargo.toml` (first line that differs: {:?})",
        committed.lines().zip(regenerated.lines()).position(|(a, b)| a != b).map(|n| n + 1)
    );
}
