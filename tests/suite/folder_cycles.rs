//! The order inside each folder of `src/`: no import cycle between sibling modules (a module
//! and its own submodules aside), so each folder reads bottom up as the layers do
//! (`layers.rs`). A cycle fails the test with the files and lines of the imports that make it.
//!
//! Each file's `crate::…`, `super::…` and `self::…` paths (in `use` or inline, grouped or not,
//! inside inline `mod x { … }` blocks too) are resolved to the module they name; an edge goes
//! from the child of a folder holding the file to the sibling child the path enters. Test code
//! (`#[cfg(test)]` modules, inline or in files of their own) is left out: a test may reach
//! across its folder without making the code it tests depend on it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::rust_source::{is_ident, paths, sources, without_comments};

/// Where an import was seen: `src/x/y.rs:12`.
type Place = String;

/// The edges between the children of one module: (from, to) -> where.
type Edges = BTreeMap<(String, String), BTreeSet<Place>>;

/// Whether the item at `at` in `code` is marked `#[cfg(test)]` (with `pub` and the like between).
fn test_only(code: &str, at: usize) -> bool {
    let before = code[..at].trim_end();
    let before = before.strip_suffix("pub(crate)").or_else(|| before.strip_suffix("pub")).unwrap_or(before);
    before.trim_end().ends_with("#[cfg(test)]")
}

/// The test modules that are files of their own: `#[cfg(test)] mod tests;` in `code`.
fn test_files(code: &str) -> Vec<String> {
    code.match_indices("mod ")
        .filter(|(at, _)| test_only(code, *at))
        .filter_map(|(at, _)| {
            let name: String = code[at + 4..].trim_start().chars().take_while(|c| is_ident(*c)).collect();
            code[at + 4..].trim_start()[name.len()..].trim_start().starts_with(';').then_some(name)
        })
        .collect()
}

/// The inline modules of `code` (`mod tests { … }`): name, byte range of the block, and
/// whether it is test code.
fn inline_modules(code: &str) -> Vec<(String, usize, usize, bool)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("mod ") {
        let at = from + at;
        from = at + 4;
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let after = &code[at + 4..];
        let name: String = after.trim_start().chars().take_while(|c| is_ident(*c)).collect();
        let rest = after.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !rest.starts_with('{') {
            continue;
        }
        let open = code.len() - rest.len();
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        found.push((name, open, end, test_only(code, at)));
    }
    found
}

/// Every path in `code` that begins with `crate`, `super` or `self`, resolved against the
/// module `own` of the file (inline modules included), with the byte offset it starts at.
fn resolved_paths(own: &[String], code: &str) -> Vec<(usize, Vec<String>)> {
    let inline = inline_modules(code);
    let mut found = Vec::new();
    for prefix in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(prefix) {
            let at = from + at;
            from = at + prefix.len();
            // Only where a path begins: not `x::super::` nor `my_crate::`.
            if code[..at].chars().next_back().is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            let around: Vec<_> = inline.iter().filter(|(_, start, end, _)| (*start..*end).contains(&at)).collect();
            if around.iter().any(|(.., test)| *test) {
                continue;
            }
            let mut module = own.to_vec();
            module.extend(around.iter().map(|(n, ..)| n.clone()));
            for path in paths(&code[at..]) {
                let mut segments = path.into_iter().peekable();
                let mut target = match segments.peek().map(String::as_str) {
                    Some("crate") => {
                        segments.next();
                        Vec::new()
                    }
                    _ => module.clone(),
                };
                for segment in segments {
                    match segment.as_str() {
                        "super" => {
                            target.pop();
                        }
                        "self" => {}
                        _ => target.push(segment),
                    }
                }
                found.push((at, target));
            }
        }
    }
    found
}

/// The module a file of `src/` is: `src/a/b.rs` and `src/a/b/mod.rs` are both `[a, b]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src").with_extension("");
    let mut segments: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if segments.last().is_some_and(|s| s == "mod" || s == "lib") {
        segments.pop();
    }
    segments
}

/// Whether `module` (its segments) is a module of `src/`, not an item of one.
fn is_module(src: &Path, module: &[String]) -> bool {
    let path: PathBuf = module.iter().collect();
    src.join(&path).with_extension("rs").is_file() || src.join(&path).join("mod.rs").is_file()
}

/// Whether the module `parent` re-exports an item named `name` (`pub use load::load;`): then a
/// path that ends at `parent::name` may mean that item (a function beside its module's name),
/// which is no edge into the module.
fn reexports(src: &Path, parent: &[String], name: &str) -> bool {
    let path: PathBuf = parent.iter().collect();
    let file = [src.join(&path).with_extension("rs"), src.join(&path).join("mod.rs"), src.join("lib.rs")]
        .into_iter()
        .find(|f| f.is_file() && (!parent.is_empty() || f.ends_with("lib.rs")));
    let Some(code) = file.and_then(|f| std::fs::read_to_string(f).ok()) else { return false };
    let code = without_comments(&code);
    code.match_indices("pub use ").any(|(at, _)| {
        paths(&code[at + "pub use ".len()..]).iter().any(|p| p.len() > 1 && p.last().is_some_and(|s| s == name))
    })
}

/// The sibling edges of every folder (keyed by the folder's module), from every file of `src/`.
fn sibling_edges(src: &Path) -> BTreeMap<Vec<String>, Edges> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    let code_of = |file: &Path| without_comments(&std::fs::read_to_string(file).expect("readable source"));
    let mut tests: BTreeSet<Vec<String>> = BTreeSet::new();
    for file in &files {
        let own = module_path(src, file);
        tests.extend(test_files(&code_of(file)).into_iter().map(|name| [own.clone(), vec![name]].concat()));
    }
    let mut folders: BTreeMap<Vec<String>, Edges> = BTreeMap::new();
    for file in files {
        let own = module_path(src, &file);
        // main.rs is a crate of its own, whose `crate::` is not the library's.
        if file == src.join("main.rs") || (1..=own.len()).any(|n| tests.contains(&own[..n])) {
            continue;
        }
        let code = code_of(&file);
        for (at, target) in resolved_paths(&own, &code) {
            // The first segment where the two part: below a common folder, from one child of it
            // into another.
            let k = own.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if k >= own.len() || k >= target.len() || !is_module(src, &target[..=k]) {
                continue;
            }
            if target.len() == k + 1 && reexports(src, &target[..k], &target[k]) {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            let rel = file.strip_prefix(src.parent().expect("the crate")).expect("under the crate");
            folders
                .entry(own[..k].to_vec())
                .or_default()
                .entry((own[k].clone(), target[k].clone()))
                .or_default()
                .insert(format!("{}:{line}", rel.display()));
        }
    }
    folders
}

/// The strongly connected components of more than one node (Tarjan's algorithm), each sorted.
fn cycles(edges: &Edges) -> Vec<Vec<String>> {
    struct Walk<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.next.get(v).cloned().unwrap_or_default() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for (from, to) in edges.keys() {
        walk.next.entry(from.as_str()).or_default().push(to.as_str());
        walk.next.entry(to.as_str()).or_default();
    }
    let nodes: Vec<&str> = walk.next.keys().copied().collect();
    for v in nodes {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found.sort();
    walk.found
}

/// Each cycle of each folder, as `src/folder: {a, b}` followed by the imports that make it.
fn cycle_report(folders: &BTreeMap<Vec<String>, Edges>) -> Vec<String> {
    let mut report = Vec::new();
    for (folder, edges) in folders {
        for component in cycles(edges) {
            let mut text = format!("src/{}: {{{}}}", folder.join("/"), component.join(", "));
            for ((from, to), places) in edges {
                if component.contains(from) && component.contains(to) {
                    let places: Vec<&str> = places.iter().map(String::as_str).collect();
                    text.push_str(&format!("\n    {from} uses {to}: {}", places.join(", ")));
                }
            }
            report.push(text);
        }
    }
    report
}

#[test]
fn no_import_cycle_between_sibling_modules() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let folders = sibling_edges(src);
    assert!(folders.len() > 5, "only {} folders have sibling imports: is it reading the sources?", folders.len());
    let report = cycle_report(&folders);
    assert!(report.is_empty(), "{} import cycles between sibling modules:\n{}", report.len(), report.join("\n"));
}

#[test]
fn paths_resolve_in_every_form() {
    let own = |s: &str| s.split('/').map(str::to_owned).collect::<Vec<_>>();
    let names = |module: &str, code: &str| {
        resolved_paths(&own(module), code).into_iter().map(|(_, p)| p.join("::")).collect::<Vec<_>>()
    };
    assert_eq!(names("a/b", "use crate::pod::{x, y::{z, self}};"), ["pod::x", "pod::y::z", "pod::y"]);
    assert_eq!(names("a/b", "use super::c::D;"), ["a::c::D"]);
    assert_eq!(names("a/b", "super::super::e::f()"), ["e::f"]);
    assert_eq!(names("a/b", "use self::inner::G;"), ["a::b::inner::G"]);
    // Inside an inline module, `super` is the file's own module; test code is left out.
    assert_eq!(names("a/b", "mod inner {\n    use super::c;\n}"), ["a::b::c"]);
    assert!(names("a/b", "#[cfg(test)]\nmod tests {\n    use crate::c;\n}").is_empty());
    assert_eq!(
        test_files("#[cfg(test)]\nmod tests;\n#[cfg(test)]\npub(crate) mod fake;\nmod real;"),
        ["tests", "fake"]
    );
    assert!(names("a/b", "x::super::c; my_crate::d").is_empty());
}

#[test]
fn a_cycle_between_siblings_is_found_and_a_chain_is_not() {
    let edge =
        |from: &str, to: &str| ((from.to_owned(), to.to_owned()), BTreeSet::from([format!("src/m/{from}.rs:1")]));
    let chain: Edges = [edge("a", "b"), edge("b", "c")].into_iter().collect();
    assert!(cycles(&chain).is_empty());
    let cycle: Edges = [edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("d", "a")].into_iter().collect();
    assert_eq!(cycles(&cycle), [["a", "b", "c"]]);
    let report = cycle_report(&[(vec!["m".to_owned()], cycle)].into_iter().collect());
    assert_eq!(report.len(), 1);
    assert!(report[0].starts_with("src/m: {a, b, c}\n    a uses b: src/m/a.rs:1"), "{}", report[0]);
}
