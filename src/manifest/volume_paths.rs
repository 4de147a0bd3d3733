//! The rules for a path inside a volume (an item's path, a key used as a file name, a
//! sub-path) and for a file's mode: written once, for validation, which reports every broken
//! rule in the API server's words, and for the volume planner, which must check again what only
//! it sees (a `subPathExpr` once expanded).

/// The kubelet's limits for a path inside a volume, and for each name in it (its atomic
/// writer's, pkg/volume/util/atomic_writer.go).
pub const MAX_PATH_BYTES: usize = 4096;
pub const MAX_NAME_BYTES: usize = 255;

/// The API server's words for a mode out of range.
pub const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// A permission mode, when the API server takes it (0 to 0777).
pub fn file_mode(m: i64) -> Option<u32> {
    u32::try_from(m).ok().filter(|m| *m <= 0o777)
}

/// Whether a component of `s` is `..`.
pub fn has_backstep(s: &str) -> bool {
    s.split('/').any(|c| c == "..")
}

/// Whether `s` starts with a name beginning `..` (`..data`): the kubelet's own entries in the
/// volumes it writes are so named.
pub fn is_reserved(s: &str) -> bool {
    s.starts_with("..") && !s.starts_with("../") && s != ".."
}

/// Whether `s` is beyond the kubelet's limits, as a whole or in one of its names.
pub fn is_too_long(s: &str) -> bool {
    s.len() > MAX_PATH_BYTES || s.split('/').any(|c| c.len() > MAX_NAME_BYTES)
}

/// Whether relative `s` names only the volume itself (`.`, `./`, empty components).
pub fn names_nothing(s: &str) -> bool {
    !s.starts_with('/') && s.split('/').all(|c| c.is_empty() || c == ".")
}

/// The path in the container a `mountPath` names, as the kubelet makes it (`makeMounts`): an
/// absolute one as written; a relative one (which the API server accepts) joined to `/` and
/// cleaned as Go's `filepath.Clean("/" + path)` does, so `~/.docker/config.json` is
/// `/~/.docker/config.json` and `a/../b` is `/b`.
pub fn container_path(mount_path: &str) -> String {
    if mount_path.starts_with('/') {
        return mount_path.to_owned();
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in mount_path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The mount point a `mountPath` names, as the engine sees it: [`container_path`] without
/// empty and `.` components (`/data`, `/data/`, `/./data` and `data` are one), `/` for the
/// container's root.
pub fn mount_point(mount_path: &str) -> String {
    let point: String =
        container_path(mount_path).split('/').filter(|c| !c.is_empty() && *c != ".").map(|c| format!("/{c}")).collect();
    if point.is_empty() {
        "/".to_owned()
    } else {
        point
    }
}

/// How a file of a volume clashes with another file of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathConflict<'a> {
    /// An earlier file has the same path.
    Duplicate,
    /// Another file is this one's ancestor (`a` and `a/b`): it would have to be a directory.
    UnderFile(&'a str),
}

/// The clashes among the files of one volume, `paths` in order, each a relative path with its
/// names joined by `/` (no `.` or empty names): one rule for validation and for the planner,
/// since podrun writes each file of a volume once (a kubelet keeps the last of two) and cannot
/// make a directory where a file is (where a kubelet fails to set the volume up). Each entry
/// is the index of the file at fault; a file may have both clashes.
pub fn path_conflicts<'a>(paths: &[&'a str]) -> Vec<(usize, PathConflict<'a>)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        if !seen.insert(*p) {
            out.push((i, PathConflict::Duplicate));
        }
    }
    for (i, p) in paths.iter().enumerate() {
        let mut above = *p;
        while let Some((parent, _)) = above.rsplit_once('/') {
            if seen.contains(parent) {
                out.push((i, PathConflict::UnderFile(parent)));
                break;
            }
            above = parent;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kubelet's `MakeAbsolutePath` on Linux (`filepath.Clean("/" + path)`) for relative
    /// paths; absolute ones pass as written.
    #[test]
    fn relative_mount_paths_are_made_absolute_as_the_kubelet_does() {
        for (written, path, point) in [
            ("data", "/data", "/data"),
            ("~/.docker/config.json", "/~/.docker/config.json", "/~/.docker/config.json"),
            ("a/./b//c/", "/a/b/c", "/a/b/c"),
            ("a/../b", "/b", "/b"),
            ("../../x", "/x", "/x"),
            ("..", "/", "/"),
            (".", "/", "/"),
            ("/abs/./dir/", "/abs/./dir/", "/abs/dir"),
            ("//", "//", "/"),
        ] {
            assert_eq!(container_path(written), path, "{written}");
            assert_eq!(mount_point(written), point, "{written}");
        }
    }

    #[test]
    fn modes_and_paths() {
        assert_eq!(file_mode(0o644), Some(0o644));
        assert_eq!(file_mode(0o777), Some(0o777));
        assert_eq!(file_mode(0o1000), None);
        assert_eq!(file_mode(-1), None);
        assert!(has_backstep("a/../b") && !has_backstep("a/..b"));
        assert!(is_reserved("..data") && !is_reserved("../a") && !is_reserved("..") && !is_reserved("a/..b"));
        assert!(is_too_long(&"a".repeat(256)) && !is_too_long(&"a/".repeat(100)));
        assert!(names_nothing("./.") && names_nothing("") && !names_nothing("a") && !names_nothing("/"));
    }

    #[test]
    fn conflicts_are_duplicates_and_files_above_files() {
        assert_eq!(path_conflicts(&["a", "b", "c/d"]), vec![]);
        assert_eq!(path_conflicts(&["a", "b", "a"]), vec![(2, PathConflict::Duplicate)]);
        assert_eq!(path_conflicts(&["x/y/z", "x"]), vec![(0, PathConflict::UnderFile("x"))]);
        assert_eq!(
            path_conflicts(&["x", "x", "x/y"]),
            vec![(1, PathConflict::Duplicate), (2, PathConflict::UnderFile("x"))]
        );
    }
}
