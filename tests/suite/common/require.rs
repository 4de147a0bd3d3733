//! What a test needs before it runs (an engine, a Podman service, a rootless user, a tool), and
//! what it does when that is missing: under CI or PODRUN_E2E=required it fails; otherwise it
//! says it skipped, appends its name to the file named by PODRUN_SKIP_LOG (scripts/test counts
//! them at the end), and returns, so a missing engine is never a silent pass.
//!
//! All suites share one process, so the engine tests also take `ENGINE_USE` here: side by side
//! as a rule, or alone (`require_engine!(alone)`) for a test that sweeps every podrun container
//! on the engine (gc), which would otherwise remove what a test beside it is running.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::e2e_required;
pub use super::skip_log::log_skip;

/// The name of the test function it is used in, as `suite_module::test`.
macro_rules! test_name {
    () => {{
        fn here() {}
        let name = std::any::type_name_of_val(&here);
        let name = name.strip_suffix("::here").unwrap_or(name);
        name.split_once("::").map_or(name, |(_, rest)| rest)
    }};
}

/// Returns from the test, counted as skipped for `$why`. Whether a skip is allowed is the
/// check's to say (most fail instead where end-to-end tests are required; `e2e_required`).
macro_rules! skip {
    ($($why:tt)+) => {{
        $crate::common::require::log_skip(test_name!(), &format!($($why)+));
        return;
    }};
}

/// Returns from the test, counted as skipped, unless each program (a name on PATH or a path) is
/// installed; a failure where end-to-end tests are required (scripts/test installs them).
macro_rules! require_tool {
    ($($tool:literal),+) => {
        $( if !$crate::common::require::tool($tool, test_name!()) { return; } )+
    };
}

/// Holds the engine for the rest of the test (shared, or `alone`), or returns from it counted as
/// skipped when no engine answers (a failure where end-to-end tests are required).
macro_rules! require_engine {
    () => {
        let Some(_engine_use) = $crate::common::require::engine(false, test_name!()) else { return };
    };
    (alone) => {
        let Some(_engine_use) = $crate::common::require::engine(true, test_name!()) else { return };
    };
}

/// Binds `$host` to the Podman service's host (PODRUN_PODMAN_HOST), or returns from the test
/// counted as skipped.
macro_rules! require_podman {
    ($host:ident) => {
        let Some($host) = $crate::common::podman(test_name!()) else { return };
    };
}

/// Binds `$endpoint` to the CRI runtime's endpoint (PODRUN_CRI_ENDPOINT), or returns from the
/// test counted as skipped.
macro_rules! require_cri {
    ($endpoint:ident) => {
        let Some(($endpoint, _cri_use)) = $crate::common::cri::hold(false, test_name!()) else { return };
    };
    ($endpoint:ident, alone) => {
        let Some(($endpoint, _cri_use)) = $crate::common::cri::hold(true, test_name!()) else { return };
    };
}

/// Binds `$user` to the rootless user and its service, or returns from the test counted as
/// skipped.
macro_rules! require_rootless {
    ($user:ident) => {
        let Some($user) = $crate::common::rootless(test_name!()) else { return };
    };
}

/// Engine tests hold it shared; a test that must have the engine to itself holds it exclusively.
static ENGINE_USE: RwLock<()> = RwLock::new(());

/// A test's hold on the engine, released when the test ends.
pub enum EngineUse {
    Shared(#[allow(dead_code)] RwLockReadGuard<'static, ()>),
    Alone(#[allow(dead_code)] RwLockWriteGuard<'static, ()>),
}

/// Whether the default engine answers (`docker info`), asked once per process.
pub fn engine_up() -> bool {
    static UP: OnceLock<bool> = OnceLock::new();
    *UP.get_or_init(|| {
        Command::new("docker")
            .args(["info", "--format", "{{.ServerVersion}}"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The hold on the engine for `test`, or None after counting it as skipped. A test that failed
/// while holding it poisons nothing: the lock only orders the tests.
pub fn engine(alone: bool, test: &str) -> Option<EngineUse> {
    if !engine_up() {
        assert!(!e2e_required(), "no container engine answers, and end-to-end tests are required (PODRUN_E2E/CI)");
        log_skip(test, "no container engine (run scripts/test to start one)");
        return None;
    }
    Some(if alone {
        EngineUse::Alone(ENGINE_USE.write().unwrap_or_else(std::sync::PoisonError::into_inner))
    } else {
        EngineUse::Shared(ENGINE_USE.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    })
}

/// Whether `program` is installed: a path that is a file, or a name found on PATH.
pub fn installed(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Whether `test` may go on: `program` is installed, or the test is counted as skipped (a
/// failure where end-to-end tests are required).
pub fn tool(program: &str, test: &str) -> bool {
    if installed(program) {
        return true;
    }
    assert!(!e2e_required(), "{program} is missing and end-to-end tests are required (scripts/test installs it)");
    log_skip(test, &format!("no {program}"));
    false
}
