//! The record of a skipped test: a line on stderr, and a line "test<TAB>why" appended to the
//! file named by PODRUN_SKIP_LOG, which `scripts/test` counts at the end. Both the unit tests
//! (`src/test_support.rs`) and the suites (`common/mod.rs`) include this one file, so it uses
//! nothing but the standard library.

use std::io::Write;

/// Says that `test` skipped and why, and appends it to PODRUN_SKIP_LOG when that is set.
pub fn log_skip(test: &str, why: &str) {
    eprintln!("skipping {test}: {why}");
    if let Some(path) = std::env::var_os("PODRUN_SKIP_LOG").filter(|p| !p.is_empty()) {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
        if let Err(e) = file.and_then(|mut f| writeln!(f, "{test}\t{why}")) {
            eprintln!("cannot append to PODRUN_SKIP_LOG={}: {e}", path.to_string_lossy());
        }
    }
}
