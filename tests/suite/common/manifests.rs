//! Where the tests find manifests: the project's own (`tests/manifests`, see its README) and the
//! Kubernetes documentation corpus (`../shared/k8s-examples`), which lies beside the repository
//! in CI but not in a clone of podrun alone. The corpus suites are extras: without the corpus
//! they say that they skipped, and pass.
//!
//! Both the unit tests (`src/test_support.rs`) and the tests under `tests/` (`common/mod.rs`)
//! include this one file, so it uses nothing but the standard library (and `skip_log`, which
//! both include beside it).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The project's own manifests: `run/`, `refused/` and `invalid/` by what podrun must do with
/// them, and `config/`, the ConfigMaps and Secrets they use.
pub const OWNED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/manifests");

/// The Kubernetes documentation corpus, when it is there.
pub const K8S_EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/k8s-examples");

/// The `*.yaml` files of one class of the project's manifests (`run`, `refused`, `invalid`,
/// `config`), sorted; never none.
pub fn owned(class: &str) -> Vec<PathBuf> {
    let dir = Path::new(OWNED).join(class);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no manifests in {}", dir.display());
    files
}

/// One of the project's manifests by class and file name.
pub fn owned_file(class: &str, name: &str) -> PathBuf {
    let path = Path::new(OWNED).join(class).join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

/// `--config FILE` for every file of `config/`, as apply and validate take them.
pub fn owned_config_args() -> Vec<String> {
    owned("config").iter().flat_map(|f| ["--config".to_owned(), f.display().to_string()]).collect()
}

/// What a manifest's header comments say podrun must print: the text after `# KEY: ` on each
/// such line (`expect-error`, `expect-warning`).
pub fn expectations(path: &Path, key: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let prefix = format!("# {key}: ");
    text.lines().filter_map(|l| l.strip_prefix(&prefix)).map(str::to_owned).collect()
}

/// The Kubernetes documentation corpus, or None after saying that `test` skipped. The notice
/// goes to the terminal itself, past the test harness's capture, so a plain `cargo test` shows
/// it. With `PODRUN_CORPUS=required` (CI's `.ci/run` sets it, since CI always has the corpus) a
/// missing corpus fails the test instead, so CI cannot lose the suite without anyone noticing.
pub fn k8s_examples(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(K8S_EXAMPLES);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("PODRUN_CORPUS").is_none_or(|v| v != "required"),
        "{test}: ../shared/k8s-examples not found, and PODRUN_CORPUS=required"
    );
    super::skip_log::log_skip(
        test,
        "../shared/k8s-examples not found (the Kubernetes documentation corpus is an extra suite; CI has it)",
    );
    None
}
