//! Which files of a manifest directory are manifests, as a kubelet's file source chooses them
//! (pkg/kubelet/config/file.go): `*.yaml`, `*.yml` and `*.json`, not recursive, and never a
//! name that starts with a dot (`.disabled.yaml`, an editor's `.pod.yaml.swp`). A name that is
//! not UTF-8 cannot be named in a message or an error without loss, so it is skipped too, and
//! said. With kubectl's `-R`, subdirectories are read too (not hidden ones, not through links,
//! so no loop), within a bound on depth and on entries.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::Path;

use crate::escape::Escaped;
use crate::exit::UsageError;

/// What a directory entry is to podrun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Manifest,
    /// Not `*.yaml`, `*.yml` or `*.json`: not looked at, not said.
    Other,
    /// Starts with a dot: hidden, as the kubelet hides it.
    Hidden,
    /// Not UTF-8.
    Unnamed,
}

/// The rule for one file name.
pub fn classify(name: &OsStr) -> Entry {
    let Some(name) = name.to_str() else { return Entry::Unnamed };
    if name.starts_with('.') {
        return Entry::Hidden;
    }
    match Path::new(name).extension().and_then(OsStr::to_str) {
        Some("yaml" | "yml" | "json") => Entry::Manifest,
        _ => Entry::Other,
    }
}

/// The manifest files `paths` name, and the directory entries left out that deserve a word.
#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<String>,
    /// The path given for each file of `files` (a directory, or the file itself).
    pub given: BTreeMap<String, String>,
    /// Every path given, found or not.
    pub roots: Vec<String>,
    /// Hidden names, as given (`dir/.x.yaml`).
    pub hidden: Vec<String>,
    /// Names that are not UTF-8, lossily (`dir/\u{FFFD}.yaml`).
    pub unnamed: Vec<String>,
}

/// The deepest subdirectory `-R` reads, below the directory given.
pub const MAX_DEPTH: usize = 16;
/// The most directory entries `-R` looks at under one directory given.
pub const MAX_ENTRIES: usize = 10_000;

/// The manifest files `paths` name: a directory stands for its manifests (see [`classify`]),
/// sorted by name, and with `recursive` (`-R`) those of every subdirectory too, sorted by path;
/// files, URLs and `-` stand for themselves. A directory without one is an error, unless
/// `empty_ok`: a static pod directory watched by `apply --supervise` may be empty yet, as a
/// kubelet's may (its pods come when their manifests do).
///
/// # Errors
/// A directory that cannot be read, holds no manifest (unless `empty_ok`), or is deeper or
/// larger than `-R` reads.
pub fn list_walk(paths: &[String], empty_ok: bool, recursive: bool) -> Result<Listing, UsageError> {
    let mut out = Listing { roots: paths.to_vec(), ..Listing::default() };
    for p in paths {
        let path = Path::new(p);
        if super::remote::is_url(p) {
            let name = super::remote::address::shown(p);
            out.files.push(name.clone());
            out.given.insert(name.clone(), name);
            continue;
        }
        if p == "-" || !path.is_dir() {
            out.files.push(p.clone());
            out.given.insert(p.clone(), p.clone());
            continue;
        }
        let mut found = Vec::new();
        let mut walk = Walk { recursive, seen: 0 };
        walk.read(p, path, 0, &mut found, &mut out)?;
        if found.is_empty() && !empty_ok {
            return Err(UsageError::Said(format!(
                "{}: no manifest (*.yaml, *.yml, *.json) in this directory",
                Escaped(p)
            )));
        }
        found.sort();
        out.given.extend(found.iter().map(|f| (f.clone(), p.clone())));
        out.files.extend(found);
    }
    Ok(out)
}

/// A directory's reading: how far it went.
struct Walk {
    recursive: bool,
    /// Entries looked at so far.
    seen: usize,
}

impl Walk {
    /// Adds the manifests of `dir` (at `depth` below `given`) to `found`, and with `recursive`
    /// those of its subdirectories: real ones only (a link to a directory is not followed).
    fn read(
        &mut self,
        given: &str,
        dir: &Path,
        depth: usize,
        found: &mut Vec<String>,
        out: &mut Listing,
    ) -> Result<(), UsageError> {
        let shown = dir.to_string_lossy().into_owned();
        let entries = std::fs::read_dir(dir).map_err(|source| UsageError::Unreadable { path: shown, source })?;
        let mut subdirs = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            self.seen += 1;
            if self.seen > MAX_ENTRIES {
                return Err(UsageError::Said(format!(
                    "{}: more than {MAX_ENTRIES} entries under this directory, the most -R reads",
                    Escaped(given)
                )));
            }
            let file = entry.path();
            if self.recursive && entry.file_type().is_ok_and(|t| t.is_dir()) {
                match classify(&entry.file_name()) {
                    Entry::Hidden | Entry::Unnamed => out.hidden.push(file.to_string_lossy().into_owned()),
                    Entry::Manifest | Entry::Other => subdirs.push(file),
                }
                continue;
            }
            if !file.is_file() {
                continue;
            }
            match classify(&entry.file_name()) {
                Entry::Manifest => found.push(file.to_string_lossy().into_owned()),
                Entry::Other => {}
                Entry::Hidden => out.hidden.push(file.to_string_lossy().into_owned()),
                Entry::Unnamed => out.unnamed.push(file.to_string_lossy().into_owned()),
            }
        }
        if !subdirs.is_empty() && depth >= MAX_DEPTH {
            return Err(UsageError::Said(format!(
                "{}: directories nested deeper than {MAX_DEPTH} levels, the most -R reads",
                Escaped(given)
            )));
        }
        for sub in subdirs {
            self.read(given, &sub, depth + 1, found, out)?;
        }
        Ok(())
    }
}

impl Listing {
    /// The source `labels::SOURCE` records for a pod read from `file`: the canonical path of
    /// the directory or file given for it (as given, if it cannot be made canonical).
    pub fn source_of(&self, file: &str) -> Option<String> {
        self.given.get(file).and_then(|g| canonical(g))
    }

    /// The sources of every path given (`--prune` deletes only pods of these).
    pub fn sources(&self) -> BTreeSet<String> {
        self.roots.iter().filter_map(|r| canonical(r)).collect()
    }

    /// Says what was left out: hidden files at debug level (they are hidden on purpose), names
    /// that are not UTF-8 as a warning, since such a manifest was probably meant to run.
    pub fn tell(&self, warn: &dyn Fn(&str)) {
        for h in &self.hidden {
            tracing::debug!(file = %h, "hidden (its name starts with a dot): not a manifest");
        }
        for u in &self.unnamed {
            warn(&format!("{}: skipped: the file name is not UTF-8", Escaped(u)));
        }
    }
}

/// `given` made canonical, or as given; none for standard input. A URL is itself, its password
/// hidden (the label is readable by anyone who may inspect containers).
fn canonical(given: &str) -> Option<String> {
    if super::remote::is_url(given) {
        return Some(super::remote::address::shown(given));
    }
    (given != "-")
        .then(|| std::fs::canonicalize(given).map_or_else(|_| given.to_owned(), |p| p.to_string_lossy().into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn manifests_are_yaml_and_json_names_not_hidden_and_utf8() {
        let of = |n: &[u8]| classify(OsStr::from_bytes(n));
        assert_eq!(of(b"pod.yaml"), Entry::Manifest);
        assert_eq!(of(b"pod.yml"), Entry::Manifest);
        assert_eq!(of(b"pod.json"), Entry::Manifest);
        assert_eq!(of(b"notes.txt"), Entry::Other);
        assert_eq!(of(b"yaml"), Entry::Other);
        assert_eq!(of(b".disabled.yaml"), Entry::Hidden);
        assert_eq!(of(b".pod.yaml.swp"), Entry::Hidden);
        assert_eq!(of(b".yaml"), Entry::Hidden);
        assert_eq!(of(b"caf\xe9.yaml"), Entry::Unnamed);
    }

    #[test]
    fn a_directory_lists_its_manifests_sorted_and_says_what_it_left_out() {
        let dir = crate::test_support::TempDir::new("manifest-dir");
        for n in ["b.yml", "a.yaml", ".hidden.yaml", "notes.txt"] {
            std::fs::write(dir.join(n), "x").unwrap();
        }
        std::fs::write(dir.join(OsStr::from_bytes(b"\xff.yaml")), "x").unwrap();
        std::fs::create_dir(dir.join("sub.yaml")).unwrap();
        let d = dir.to_str().unwrap().to_owned();
        let l = list_walk(std::slice::from_ref(&d), false, false).unwrap();
        assert_eq!(l.files, [format!("{d}/a.yaml"), format!("{d}/b.yml")]);
        assert_eq!(l.given[&format!("{d}/a.yaml")], d, "named by its directory");
        let canonical = std::fs::canonicalize(&d).unwrap().to_string_lossy().into_owned();
        assert_eq!(l.source_of(&format!("{d}/b.yml")).as_deref(), Some(canonical.as_str()));
        assert_eq!(l.sources().into_iter().collect::<Vec<_>>(), [canonical]);
        assert_eq!(l.hidden, [format!("{d}/.hidden.yaml")]);
        assert_eq!(l.unnamed, [format!("{d}/\u{FFFD}.yaml")]);
        let warned = std::cell::RefCell::new(Vec::new());
        l.tell(&|w| warned.borrow_mut().push(w.to_owned()));
        assert_eq!(warned.into_inner(), [format!("{d}/\u{FFFD}.yaml: skipped: the file name is not UTF-8")]);
    }

    #[test]
    fn recursive_reads_subdirectories_sorted_without_links_or_hidden_ones() {
        let dir = crate::test_support::TempDir::new("manifest-tree");
        std::fs::create_dir_all(dir.join("b/c")).unwrap();
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        for n in ["z.yaml", "b/a.yaml", "b/c/x.json", ".git/h.yaml"] {
            std::fs::write(dir.join(n), "x").unwrap();
        }
        // A link back up would loop, if followed.
        std::os::unix::fs::symlink(&*dir, dir.join("b/up")).unwrap();
        let d = dir.to_str().unwrap().to_owned();
        let flat = list_walk(std::slice::from_ref(&d), false, false).unwrap();
        assert_eq!(flat.files, [format!("{d}/z.yaml")], "not recursive without -R");
        let l = list_walk(std::slice::from_ref(&d), false, true).unwrap();
        assert_eq!(l.files, [format!("{d}/b/a.yaml"), format!("{d}/b/c/x.json"), format!("{d}/z.yaml")]);
        assert_eq!(l.given[&format!("{d}/b/c/x.json")], d, "named by the directory given");
        assert!(l.hidden.contains(&format!("{d}/.git")), "{:?}", l.hidden);
    }

    #[test]
    fn recursion_is_bounded_in_depth() {
        let dir = crate::test_support::TempDir::new("manifest-deep");
        let mut deep = dir.to_path_buf();
        for i in 0..=MAX_DEPTH {
            deep.push(format!("d{i}"));
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("p.yaml"), "x").unwrap();
        let d = dir.to_str().unwrap().to_owned();
        let e = list_walk(&[d], false, true).unwrap_err().to_string();
        assert!(e.contains("deeper than 16 levels"), "{e}");
    }

    #[test]
    fn a_directory_of_hidden_files_only_is_empty() {
        let dir = crate::test_support::TempDir::new("manifest-dir-hidden");
        std::fs::write(dir.join(".a.yaml"), "x").unwrap();
        let d = dir.to_str().unwrap().to_owned();
        assert!(list_walk(std::slice::from_ref(&d), false, false).is_err());
        assert!(list_walk(&[d], true, false).unwrap().files.is_empty());
    }
}
