//! Build script: compiles podrun's pause program (`pause/pause.rs`) into `$OUT_DIR/pause`.
//!
//! The binary is embedded in podrun (`runtime::infra_image`) and imported as the pod infra
//! image on first use, so podrun never needs a registry for it. It is a `no_std`, libc-free,
//! static executable of a few KiB, compiled by invoking `$RUSTC` directly: a nested cargo
//! build would need its own target dir, lock and profile, and would pick up the outer build's
//! RUSTFLAGS. We deliberately pass none of the outer build's flags (`CARGO_ENCODED_RUSTFLAGS`,
//! `RUSTC_WRAPPER`): they are meant for podrun itself and may not suit a program without a
//! standard library or libc (e.g. `-C target-cpu`, coverage instrumentation, `-C prefer-dynamic`).
//!
//! It also sets `PODRUN_BUILD_VERSION`, the version `podrun --version` prints: the package
//! version, and in a git checkout the commit it was built from (see [`build_version`]).

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCE: &str = "pause/pause.rs";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={SOURCE}");

    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" {
        fail(&format!(
            "podrun's pause program is a Linux executable (it runs inside Linux containers); \
             cannot build it for target OS {target_os:?}"
        ));
    }

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("pause");
    let manifest_dir = env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rustc-env=PODRUN_BUILD_VERSION={}", build_version(Path::new(&manifest_dir)));
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let host = env::var("HOST").expect("cargo sets HOST");

    let mut cmd = Command::new(&rustc);
    // Run from the package root and name the source relatively, so that any path rustc embeds
    // is the same on every machine (the image bytes should not depend on the checkout path).
    cmd.current_dir(&manifest_dir)
        .arg(SOURCE)
        .args(["--edition=2021", "--crate-type=bin", "--crate-name=pause"])
        .arg("-o")
        .arg(&out)
        .args([
            // Smallest code; one codegen unit so nothing is duplicated across units.
            "-Copt-level=z",
            "-Ccodegen-units=1",
            "-Cdebuginfo=0",
            // No unwinding: there is no runtime to unwind into; the panic handler just exits.
            "-Cpanic=abort",
            // Strip symbols at link time (the linker does it; no separate `strip` needed).
            "-Cstrip=symbols",
            // A plain static executable: no dynamic loader, no self-relocation code needed.
            "-Crelocation-model=static",
            // pause.rs brings its own `_start`; link neither the C runtime's start files nor
            // any C library, and ask for a static binary (no PT_INTERP).
            "-Clink-arg=-nostartfiles",
            "-Clink-arg=-nostdlib",
            "-Clink-arg=-static",
            // GNU ld otherwise page-aligns the code into its own segment, padding ~1 KiB of
            // content to ~9 KiB; lld accepts the flag too.
            "-Clink-arg=-Wl,-z,noseparate-code",
        ]);
    if target != host {
        cmd.arg(format!("--target={target}"));
    }
    // When cross-compiling, cargo passes the linker configured for the target (if any) here.
    if let Some(linker) = env::var_os("RUSTC_LINKER") {
        let mut arg = OsString::from("-Clinker=");
        arg.push(linker);
        cmd.arg(arg);
    }
    // Rust's musl targets link their own bundled crt1.o (with a `_start` that calls into libc)
    // unless told not to; we want only our own `_start` and no libc.
    if env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("musl") {
        cmd.arg("-Clink-self-contained=no");
    }

    let output = match cmd.output() {
        Ok(output) => output,
        Err(err) => fail(&format!("could not run {rustc:?} to compile {SOURCE}: {err}\ncommand: {cmd:?}")),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        fail(&format!("compiling {SOURCE} failed ({}).\ncommand: {cmd:?}\nrustc output:\n{stderr}", output.status));
    }
    // Warnings would otherwise vanish: cargo hides a successful build script's output.
    for line in stderr.lines().filter(|line| !line.trim().is_empty()) {
        println!("cargo:warning=pause.rs: {line}");
    }
}

/// The files a build reads: what "modified" means for the commit in the version.
const BUILD_INPUTS: [&str; 5] = ["src", "pause", "build.rs", "Cargo.toml", "Cargo.lock"];

/// `0.1.0 (1a2b3c4)` when built from a git checkout, `0.1.0 (1a2b3c4-dirty)` when the build
/// inputs differ from that commit, and just `0.1.0` otherwise (a source tarball, no git).
///
/// Cargo runs this script again when HEAD moves (a commit, a checkout, a reset: `HEAD`, its
/// reflog, the branch's ref) or a build input changes, and only then; a build input's change
/// recompiles podrun anyway, and a moved HEAD must, since the version names it.
fn build_version(manifest_dir: &Path) -> String {
    let version = env::var("CARGO_PKG_VERSION").unwrap_or_default();
    for input in BUILD_INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    // Only a checkout of podrun itself: a source tree unpacked inside another repository
    // (`cargo package` verifies its tarball under target/package/) has no commit of its own.
    if !manifest_dir.join(".git").exists() {
        return version;
    }
    let git = |args: &[&str]| -> Option<String> {
        let output = Command::new("git")
            .arg("-C")
            .arg(manifest_dir)
            .args(args)
            // A git hook running cargo (pre-commit) sets these; they would point elsewhere.
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let text = String::from_utf8(output.stdout).ok()?;
        Some(text.trim().to_owned())
    };
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return version;
    };
    // Paths git reports are relative to manifest_dir unless absolute (a worktree's HEAD is
    // under the main repository's .git/worktrees/). A path that does not exist is not watched:
    // cargo would take it as changed and rerun every build.
    let mut watched = vec!["HEAD".to_owned(), "logs/HEAD".to_owned(), "packed-refs".to_owned()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = manifest_dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    let mut status = vec!["--no-optional-locks", "status", "--porcelain", "--"];
    status.extend(BUILD_INPUTS);
    let dirty = match git(&status) {
        Some(changes) if !changes.is_empty() => "-dirty",
        _ => "",
    };
    format!("{version} ({commit}{dirty})")
}

/// Fails the build showing `message` (cargo prints a failed build script's stderr), without
/// the panic location and backtrace that would bury it.
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}
