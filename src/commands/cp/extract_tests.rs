use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::*;
use crate::test_support::TempDir;

/// An archive built entry by entry with raw names, as a hostile engine could send it.
struct Hostile(Vec<u8>);

impl Hostile {
    fn new() -> Hostile {
        Hostile(Vec::new())
    }

    fn raw(mut self, name: &[u8], kind: tar::EntryType, mode: u32, link: &[u8], data: &[u8]) -> Hostile {
        let mut h = tar::Header::new_gnu();
        let gnu = h.as_gnu_mut().expect("gnu");
        gnu.name[..name.len()].copy_from_slice(name);
        gnu.linkname[..link.len()].copy_from_slice(link);
        h.set_entry_type(kind);
        h.set_mode(mode);
        h.set_size(data.len() as u64);
        h.set_cksum();
        self.0.extend_from_slice(h.as_bytes());
        self.0.extend_from_slice(data);
        self.0.resize(self.0.len().div_ceil(512) * 512, 0);
        self
    }

    fn file(self, name: &str, data: &str) -> Hostile {
        self.raw(name.as_bytes(), tar::EntryType::Regular, 0o644, b"", data.as_bytes())
    }

    fn dir(self, name: &str, mode: u32) -> Hostile {
        self.raw(name.as_bytes(), tar::EntryType::Directory, mode, b"", b"")
    }

    fn symlink(self, name: &str, target: &str) -> Hostile {
        self.raw(name.as_bytes(), tar::EntryType::Symlink, 0o777, target.as_bytes(), b"")
    }

    fn hard_link(self, name: &str, target: &str) -> Hostile {
        self.raw(name.as_bytes(), tar::EntryType::Link, 0o644, target.as_bytes(), b"")
    }

    /// A GNU long name: an `L` entry holding the name, then the entry it names.
    fn long_file(self, name: &[u8], data: &str) -> Hostile {
        let mut with_nul = name.to_vec();
        with_nul.push(0);
        self.raw(b"././@LongLink", tar::EntryType::GNULongName, 0o644, b"", &with_nul).file("placeholder", data)
    }

    fn done(mut self) -> Vec<u8> {
        self.0.extend_from_slice(&[0; 1024]);
        self.0
    }
}

/// A temporary directory with DEST in it and a canary file beside DEST.
struct Scene {
    _tmp: TempDir,
    dest: PathBuf,
    canary: PathBuf,
    outside: PathBuf,
}

impl Scene {
    fn new(tag: &str) -> Scene {
        let tmp = TempDir::new(tag);
        let outside = tmp.join("outside");
        std::fs::create_dir(&outside).unwrap();
        let canary = outside.join("canary");
        std::fs::write(&canary, "canary").unwrap();
        Scene { dest: tmp.join("dest"), canary, outside, _tmp: tmp }
    }

    /// Extracts `tar` (names under `prefix`) into DEST: the result and the warnings.
    fn extract(&self, prefix: &str, tar: &[u8]) -> (Result<(), ExtractError>, Vec<String>) {
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&warnings);
        let mut x = Extractor::new(&self.dest, prefix, Box::new(move |w| seen.lock().unwrap().push(w))).unwrap();
        let result = x.extract(tar);
        let warnings = warnings.lock().unwrap().clone();
        (result, warnings)
    }

    fn assert_outside_untouched(&self) {
        assert_eq!(std::fs::read_to_string(&self.canary).unwrap(), "canary");
        let names: Vec<_> = std::fs::read_dir(&self.outside).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["canary"], "nothing new beside the canary");
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn a_tree_is_written_with_its_modes_and_links() {
    let s = Scene::new("cp-tree");
    let tar = Hostile::new()
        .dir("data/", 0o755)
        .dir("data/sub/", 0o750)
        .file("data/sub/a.txt", "alpha")
        .raw(b"data/run.sh", tar::EntryType::Regular, 0o4755, b"", b"#!/bin/sh\n")
        .symlink("data/link", "sub/a.txt")
        .hard_link("data/hard", "data/sub/a.txt")
        .dir("data/locked/", 0o500)
        .file("data/locked/inside", "in")
        .done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(std::fs::read_to_string(s.dest.join("sub/a.txt")).unwrap(), "alpha");
    assert_eq!(mode(&s.dest.join("sub")), 0o750);
    // Set-user-ID is dropped; the rest of the mode is kept.
    assert_eq!(mode(&s.dest.join("run.sh")), 0o755);
    assert_eq!(std::fs::read_link(s.dest.join("link")).unwrap(), Path::new("sub/a.txt"));
    assert_eq!(std::fs::read_to_string(s.dest.join("hard")).unwrap(), "alpha");
    assert_eq!(std::fs::read_to_string(s.dest.join("locked/inside")).unwrap(), "in");
    assert_eq!(mode(&s.dest.join("locked")), 0o500);
    std::fs::set_permissions(s.dest.join("locked"), std::fs::Permissions::from_mode(0o700)).unwrap();
}

#[test]
fn a_single_file_takes_dests_name() {
    let s = Scene::new("cp-file");
    let (result, _) = s.extract("tmp/notes.txt", &Hostile::new().file("tmp/notes.txt", "n").done());
    result.unwrap();
    assert_eq!(std::fs::read_to_string(&s.dest).unwrap(), "n");
}

#[test]
fn absolute_names_and_dot_dots_are_skipped_with_kubectls_warning() {
    let s = Scene::new("cp-escape");
    let canary = s.canary.to_str().unwrap().to_owned();
    let tar = Hostile::new()
        .dir("data/", 0o755)
        .file(&canary, "absolute")
        .file("data/../outside/canary", "dotdot")
        .file("data/sub/../../../outside/canary", "deeper")
        .file("data/ok", "fine")
        .done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    s.assert_outside_untouched();
    assert_eq!(std::fs::read_to_string(s.dest.join("ok")).unwrap(), "fine");
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert_eq!(warnings[0], format!("warning: file {canary:?} is outside target destination, skipping"));
}

#[test]
fn a_file_through_a_symlink_out_is_refused() {
    let s = Scene::new("cp-through");
    let out = s.outside.to_str().unwrap().to_owned();
    let tar = Hostile::new()
        .dir("data/", 0o755)
        .symlink("data/escape", &out)
        .file("data/escape/canary", "through")
        .file("data/escape/new", "through")
        .symlink("data/c", &s.canary.to_string_lossy())
        .file("data/c", "over the link")
        .done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    s.assert_outside_untouched();
    // The link is kept as a link; the file of the same name replaced the second link.
    assert_eq!(std::fs::read_link(s.dest.join("escape")).unwrap(), s.outside);
    assert_eq!(std::fs::read_to_string(s.dest.join("c")).unwrap(), "over the link");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("is not a directory"), "{warnings:?}");
}

#[test]
fn a_link_planted_in_dest_is_not_written_through() {
    let s = Scene::new("cp-planted");
    std::fs::create_dir(&s.dest).unwrap();
    std::os::unix::fs::symlink(&s.canary, s.dest.join("f")).unwrap();
    std::os::unix::fs::symlink(&s.outside, s.dest.join("d")).unwrap();
    let tar = Hostile::new().dir("data/", 0o755).file("data/f", "new").file("data/d/x", "x").done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    s.assert_outside_untouched();
    assert_eq!(std::fs::read_to_string(s.dest.join("f")).unwrap(), "new");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn hard_links_out_and_device_nodes_are_skipped() {
    let s = Scene::new("cp-hard");
    let canary = s.canary.to_str().unwrap().to_owned();
    let tar = Hostile::new()
        .dir("data/", 0o755)
        .hard_link("data/h1", &canary)
        .hard_link("data/h2", "data/../outside/canary")
        .hard_link("data/h3", "elsewhere/file")
        .raw(b"data/null", tar::EntryType::Char, 0o666, b"", b"")
        .raw(b"data/fifo", tar::EntryType::Fifo, 0o666, b"", b"")
        .done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    s.assert_outside_untouched();
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    for name in ["h1", "h2", "h3", "null", "fifo"] {
        assert!(std::fs::symlink_metadata(s.dest.join(name)).is_err(), "{name}");
    }
}

#[test]
fn names_outside_the_prefix_are_a_corrupted_archive() {
    let s = Scene::new("cp-prefix");
    let tar = Hostile::new().file("other/x", "x").done();
    assert!(matches!(s.extract("data", &tar).0, Err(ExtractError::Corrupted)));
    // A name that only starts with the prefix's characters is not under it.
    let tar = Hostile::new().file("database", "x").done();
    assert!(matches!(s.extract("data", &tar).0, Err(ExtractError::Corrupted)));
    s.assert_outside_untouched();
}

#[test]
fn long_names_are_read_and_checked_as_short_ones() {
    let s = Scene::new("cp-long");
    let deep = format!("data/{}/file", "d".repeat(200));
    let escape = format!("data/{}/../../../outside/canary", "e".repeat(200));
    let tar = Hostile::new().dir("data/", 0o755).long_file(deep.as_bytes(), "deep").long_file(escape.as_bytes(), "x");
    let (result, warnings) = s.extract("data", &tar.done());
    result.unwrap();
    s.assert_outside_untouched();
    assert_eq!(std::fs::read_to_string(s.dest.join(&deep[5..])).unwrap(), "deep");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn a_long_name_too_long_to_hold_is_refused() {
    let s = Scene::new("cp-huge");
    let mut h = tar::Header::new_gnu();
    h.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
    h.set_entry_type(tar::EntryType::GNULongName);
    h.set_size(MAX_HEADERS * 4);
    h.set_cksum();
    // The reader stops at the budget, long before the claimed size is read.
    let endless = h.as_bytes().to_vec().into_iter().chain(std::iter::repeat(b'a')).take(usize::MAX);
    let reader = Endless(endless);
    let mut x = Extractor::new(&s.dest, "data", Box::new(|_| {})).unwrap();
    assert!(matches!(x.extract(reader), Err(ExtractError::Read(_))));
}

struct Endless<I>(I);

impl<I: Iterator<Item = u8>> Read for Endless<I> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        for (slot, b) in buf.iter_mut().zip(&mut self.0) {
            *slot = b;
            n += 1;
        }
        Ok(n)
    }
}

#[test]
fn dest_that_exists_is_written_into_and_keeps_its_mode() {
    let s = Scene::new("cp-existing");
    std::fs::create_dir(&s.dest).unwrap();
    std::fs::set_permissions(&s.dest, std::fs::Permissions::from_mode(0o711)).unwrap();
    let tar = Hostile::new().dir("data/", 0o700).file("data/x", "x").hard_link("data/h", "data/gone").done();
    let (result, warnings) = s.extract("data", &tar);
    result.unwrap();
    assert_eq!(mode(&s.dest), 0o711);
    assert_eq!(std::fs::read_to_string(s.dest.join("x")).unwrap(), "x");
    // A hard link to an entry not in the copy is skipped, not an error.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    // A file where DEST is a directory is kubectl's error.
    let (result, _) = s.extract("data/x", &Hostile::new().file("data/x", "x").done());
    assert!(matches!(result, Err(ExtractError::Write { .. })), "{result:?}");
}
