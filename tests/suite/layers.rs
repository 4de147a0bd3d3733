//! The layer check: every top-level module of `src/` imports only modules of lower layers.
//! The order is written once, here, as `LAYERS` (docs/development.md and `src/lib.rs` point
//! here); an import that points up or sideways fails this test with the file and line. The
//! order inside each folder is `folder_cycles.rs`'s.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::rust_source::{paths, sources, without_comments};

/// podrun's layers, lowest first. A module may use the modules of the layers before its own,
/// never its own layer's neighbours or a later layer.
const LAYERS: &[&[&str]] = &[
    // Helpers for unit tests (temp dirs, the test manifests).
    &["test_support"],
    // Text made safe to print: the other leaves' errors quote paths with it.
    &["escape"],
    // Leaves: a hash, tokio-aware wall-clock time, systemd's notify socket, an error with its
    // causes on one line, podrun's own files opened safely.
    &["fnv", "clock", "sd_notify", "error_chain", "private_fs"],
    // Kubernetes types: loading the user's YAML, validation, defaults; knows nothing of engines.
    &["manifest"],
    // The engine behind one trait: its engine-neutral container model, podrun's label scheme
    // (`runtime::labels`), Docker (`docker/`), and the fake (tests only).
    &["runtime"],
    // One probe attempt through the runtime; terminal handling for exec.
    &["probe", "tty"],
    // A manifest's pod as desired containers in the runtime's terms, and as observed.
    &["pod"],
    // The planner: pure kubelet rules, desired and observed state to actions.
    &["plan"],
    // Kubernetes-shaped status, the "are we done" verdict, and the outcome of a run
    // (`status::outcome`: `PodResult`, `PodFailure`).
    &["status"],
    // What the user sees; the one writer of standard output.
    &["report"],
    // Exit codes, from errors and outcomes.
    &["exit"],
    // The observe/plan/act loop.
    &["driver"],
    // Flags; then one module per subcommand; then the entry point.
    &["cli"],
    &["commands"],
    &["lib", "main"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level module a file belongs to: `src/driver/act.rs` and `src/driver.rs` are both
/// `driver`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component").as_os_str().to_string_lossy().into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// The modules named after `crate::` in `code`, each with the byte offset of its `crate::`:
/// `crate::pod::x`, `crate::{pod, plan::y}`, and groups that span lines or nest
/// (`crate::{pod::{a, b},\n status}`), read by `folder_cycles::paths`.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let after = &code[at + "crate::".len()..];
        let mut names: Vec<String> = paths(after).into_iter().filter_map(|p| p.into_iter().next()).collect();
        names.dedup();
        found.extend(names.into_iter().map(|name| (at, name)));
    }
    found.retain(|(_, name)| !name.is_empty());
    found
}

/// The imports in `code` (a file of `module`, whose layer is `own`) that are not below it.
fn violations(module: &str, own: usize, file: &str, code: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (at, target) in crate_paths(code) {
        if target == module {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        match rank(&target) {
            Some(r) if r < own => {}
            Some(_) => problems.push(format!("{file}:{line}: {module} uses crate::{target}, which is not below it")),
            None => problems.push(format!("{file}:{line}: crate::{target} is in no layer")),
        }
    }
    problems
}

#[test]
fn every_module_imports_only_lower_layers() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut edges: BTreeMap<(String, String), usize> = BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        let Some(own) = rank(&module) else {
            problems.push(format!("{}: module {module} is in no layer (add it to LAYERS)", file.display()));
            continue;
        };
        let code = without_comments(&std::fs::read_to_string(file).expect("readable source"));
        for (_, target) in crate_paths(&code) {
            if target != module {
                *edges.entry((module.clone(), target)).or_default() += 1;
            }
        }
        problems.extend(violations(&module, own, &file.display().to_string(), &code));
    }
    assert!(edges.len() > 10, "the check found only {} edges: is it reading the sources?", edges.len());
    assert!(problems.is_empty(), "{} imports break the layer order:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn crate_paths_are_found_in_every_form() {
    let names = |code: &str| crate_paths(code).into_iter().map(|(_, name)| name).collect::<Vec<_>>();
    assert_eq!(names("use crate::pod::labels;"), ["pod"]);
    assert_eq!(names("use crate::{plan, status::Verdict};"), ["plan", "status"]);
    assert_eq!(names("let x = crate::clock::now() + crate::fnv::hash(y);"), ["clock", "fnv"]);
    assert_eq!(names("use crate::{\n    pod::{a, b},\n    report,\n};"), ["pod", "report"]);
    assert!(names("use super::x;").is_empty());
    assert!(crate_paths(&without_comments("// see crate::driver\n/// crate::report::x")).is_empty());
}

#[test]
fn an_upward_or_sideways_import_is_found() {
    let runtime = rank("runtime").expect("runtime has a layer");
    let file = "src/runtime/x.rs";
    assert!(violations("runtime", runtime, file, "use crate::manifest::Pod;\nuse crate::runtime::State;").is_empty());
    let up = violations("runtime", runtime, file, "use crate::manifest::Pod;\nuse crate::{clock, pod::DesiredPod};");
    assert_eq!(up, ["src/runtime/x.rs:2: runtime uses crate::pod, which is not below it"]);
    let probe = rank("probe").expect("probe has a layer");
    assert_eq!(violations("probe", probe, "src/probe/x.rs", "crate::tty::raw()").len(), 1, "a neighbour");
    assert_eq!(violations("probe", probe, "src/probe/x.rs", "crate::nowhere::x()").len(), 1, "no layer");
}
