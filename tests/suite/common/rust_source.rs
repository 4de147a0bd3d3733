//! Reading Rust sources for the checks of their structure (`layers.rs`, `folder_cycles.rs`):
//! the files, their code without comments, and the module paths a path expression names.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
pub fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a source file without its comments (`//`, `///`, `//!`), line for line.
pub fn without_comments(text: &str) -> String {
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

pub fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a path expression starting at `s` names, one list of segments each:
/// `a::{b, c::d}` is `[a, b]` and `[a, c, d]`; `self` in a group names the prefix itself.
pub fn paths(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(group) = s.strip_prefix('{') {
        let mut depth = 0;
        let mut items = vec![String::new()];
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(String::new());
                    continue;
                }
                _ => {}
            }
            items.last_mut().expect("an item").push(c);
        }
        return items.iter().flat_map(|item| paths(item)).collect();
    }
    let id: String = s.chars().take_while(|c| is_ident(*c)).collect();
    if id.is_empty() {
        return vec![Vec::new()];
    }
    let rest = s[id.len()..].trim_start();
    let tails = match rest.strip_prefix("::") {
        Some(rest) => paths(rest),
        None => vec![Vec::new()],
    };
    tails
        .into_iter()
        .map(|mut tail| {
            if id != "self" || tail.is_empty() {
                tail.insert(0, id.clone());
            }
            tail
        })
        .collect()
}
