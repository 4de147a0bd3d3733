//! The shape of the code a newcomer reads: functions that fit a screen, one module-file style,
//! generated code apart from hand-written code.
//!
//! A function is measured from its `fn` line to the `}` at its own indentation (rustfmt's
//! layout). Test code (`#[cfg(test)]` modules, `*tests.rs` files) and generated code are left
//! out, and so are the data tables listed in [`TABLES`].

use std::path::{Path, PathBuf};

use crate::common::rust_source::sources;

/// No hand-written function is longer than this.
const MOST: usize = 100;
/// Functions longer than this are few.
const LONG: usize = 80;
const FEW_LONG: usize = 5;

/// Functions that are data, not steps: `file:function`.
const TABLES: &[&str] = &[
    // SPDY/3's header compression dictionary, as the protocol's text gives it.
    "src/runtime/cri/spdy.rs:dictionary",
];

fn src_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

fn generated(text: &str) -> bool {
    text.lines().take(3).any(|l| l.starts_with("//") && l.contains("@generated"))
}

/// The name of the function whose `fn` starts `line`, with its indentation.
fn function_start(line: &str) -> Option<(usize, String)> {
    let indent = line.len() - line.trim_start().len();
    let mut rest = line.trim_start();
    for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!line.trim_end().ends_with(';')).then_some((indent, name))
}

/// The lines of `text` outside `#[cfg(test)] mod x { ... }` blocks.
fn without_test_modules(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let next = lines.get(i + 1).map(|l| l.trim_start());
        if lines[i].trim() == "#[cfg(test)]" && next.is_some_and(|n| n.starts_with("mod ") && n.ends_with('{')) {
            let indent = &lines[i + 1][..lines[i + 1].len() - lines[i + 1].trim_start().len()];
            let end = format!("{indent}}}");
            i += 2;
            while i < lines.len() && lines[i] != end {
                i += 1;
            }
        } else {
            kept.push(lines[i]);
        }
        i += 1;
    }
    kept
}

/// Every hand-written function of `src/` and its length in lines: `(lines, "file:name")`.
fn function_lengths() -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for path in src_files() {
        let name = relative(&path);
        let text = std::fs::read_to_string(&path).expect("read source");
        if name.ends_with("tests.rs") || generated(&text) {
            continue;
        }
        let lines = without_test_modules(&text);
        for (i, line) in lines.iter().enumerate() {
            let Some((indent, function)) = function_start(line) else { continue };
            let one_line = line.trim_end().ends_with('}');
            let end = format!("{}}}", " ".repeat(indent));
            let length = if one_line { 1 } else { lines[i..].iter().position(|l| *l == end).map_or(1, |n| n + 1) };
            found.push((length, format!("{name}:{function}")));
        }
    }
    found.retain(|(_, f)| !TABLES.contains(&f.as_str()));
    found.sort_by(|a, b| b.cmp(a));
    found
}

#[test]
fn functions_fit_a_screen() {
    let lengths = function_lengths();
    assert!(lengths.len() > 500, "the measure finds the functions: {}", lengths.len());
    let too_long: Vec<_> = lengths.iter().filter(|(n, _)| *n > MOST).collect();
    assert!(too_long.is_empty(), "functions over {MOST} lines: split them by concern: {too_long:?}");
    let long: Vec<_> = lengths.iter().filter(|(n, _)| *n > LONG).collect();
    assert!(long.len() <= FEW_LONG, "more than {FEW_LONG} functions over {LONG} lines: {long:?}");
}

#[test]
fn the_measure_finds_a_functions_end_at_its_indentation() {
    let text =
        "fn a() {\n    let x = 1;\n}\n\nimpl B {\n    pub(crate) async fn c(&self) {\n        {\n        }\n    }\n}\n\
                #[cfg(test)]\nmod tests {\n    fn long() {\n    }\n}\nfn d() {}\n";
    let lines = without_test_modules(text);
    let starts: Vec<_> = lines.iter().filter_map(|l| function_start(l)).collect();
    assert_eq!(starts, [(0, "a".to_owned()), (4, "c".to_owned()), (0, "d".to_owned())]);
    assert!(!lines.iter().any(|l| l.contains("long")), "test modules are left out");
}

/// One style: a module with submodules is `x/mod.rs`, never `x.rs` beside `x/`.
#[test]
fn modules_with_submodules_live_in_their_folder() {
    let beside: Vec<String> = src_files()
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "mod.rs" && n != "lib.rs" && n != "main.rs"))
        .filter(|f| f.with_extension("").is_dir())
        .map(|f| relative(f))
        .collect();
    assert!(beside.is_empty(), "move these to <name>/mod.rs: {beside:?}");
}

/// Generated code sits in folders named `generated`, and nothing else does.
#[test]
fn generated_code_is_apart() {
    for path in src_files() {
        let text = std::fs::read_to_string(&path).expect("read source");
        let in_generated = path.components().any(|c| c.as_os_str() == "generated");
        let name = relative(&path);
        if generated(&text) {
            assert!(in_generated, "{name} is generated: move it to a `generated` folder");
        } else if in_generated && !name.ends_with("mod.rs") {
            panic!("{name} is in a `generated` folder but is not marked @generated");
        }
    }
}
