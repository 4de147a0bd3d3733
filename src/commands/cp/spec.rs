//! `podrun cp`'s two arguments, read as kubectl reads them: `[[NAMESPACE/]POD:]PATH`, one
//! local and one in a pod.

/// One side of a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileSpec {
    Local(String),
    Remote { namespace: Option<String>, pod: String, path: String },
}

/// Why the arguments name no copy, in kubectl's words.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("filespec must match the canonical format: [[namespace/]pod:]file/path")]
    Format,
    #[error("one of src or dest must be a local file specification")]
    BothRemote,
    #[error("one of src or dest must be a remote file specification")]
    BothLocal,
    #[error("filepath can not be empty")]
    EmptyPath,
}

/// Which way the copy goes: out of a pod, or into one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copy {
    pub namespace: Option<String>,
    pub pod: String,
    /// The path in the container.
    pub remote: String,
    pub local: String,
    pub from_pod: bool,
}

pub fn file_spec(arg: &str) -> Result<FileSpec, SpecError> {
    let Some(colon) = arg.find(':') else { return Ok(FileSpec::Local(arg.to_owned())) };
    if colon == 0 {
        return Err(SpecError::Format);
    }
    let (pod, path) = (&arg[..colon], arg[colon + 1..].to_owned());
    match pod.split('/').collect::<Vec<_>>().as_slice() {
        [pod] => Ok(FileSpec::Remote { namespace: None, pod: (*pod).to_owned(), path }),
        [ns, pod] => Ok(FileSpec::Remote { namespace: Some((*ns).to_owned()), pod: (*pod).to_owned(), path }),
        _ => Err(SpecError::Format),
    }
}

/// The copy `src` and `dest` ask for, checked as kubectl checks them.
pub fn copy(src: &str, dest: &str) -> Result<Copy, SpecError> {
    let (src, dest) = (file_spec(src)?, file_spec(dest)?);
    let path = |s: &FileSpec| match s {
        FileSpec::Local(p) | FileSpec::Remote { path: p, .. } => p.is_empty(),
    };
    if let (FileSpec::Remote { .. }, FileSpec::Remote { .. }) = (&src, &dest) {
        return Err(SpecError::BothRemote);
    }
    if path(&src) || path(&dest) {
        return Err(SpecError::EmptyPath);
    }
    match (src, dest) {
        (FileSpec::Remote { namespace, pod, path }, FileSpec::Local(local)) => {
            Ok(Copy { namespace, pod, remote: path, local, from_pod: true })
        }
        (FileSpec::Local(local), FileSpec::Remote { namespace, pod, path }) => {
            Ok(Copy { namespace, pod, remote: path, local, from_pod: false })
        }
        _ => Err(SpecError::BothLocal),
    }
}

/// What the names of `tar cf - PATH`'s archive start with: PATH without its leading slashes,
/// cleaned, and with `..` that would climb above `/` left out (kubectl's
/// `stripPathShortcuts`).
pub fn exec_prefix(remote: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in remote.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// What the names of the Docker API's archive of PATH start with: its last component.
pub fn archive_prefix(remote: &str) -> String {
    exec_prefix(remote).rsplit('/').next().unwrap_or_default().to_owned()
}

/// The last component of a cleaned path (`/tmp/data/` gives `data`), `None` for `/`.
pub fn base(path: &str) -> Option<String> {
    let cleaned = exec_prefix(path);
    cleaned.rsplit('/').next().filter(|b| !b.is_empty()).map(str::to_owned)
}

/// A cleaned path's directory (`/tmp/data` gives `/tmp`, `data` gives `.`).
pub fn dir(path: &str) -> String {
    let absolute = path.starts_with('/');
    let cleaned = exec_prefix(path);
    let parent = cleaned.rsplit_once('/').map_or("", |(d, _)| d);
    match (absolute, parent) {
        (true, d) => format!("/{d}"),
        (false, "") => ".".to_owned(),
        (false, d) => d.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_as_kubectl_reads_them() {
        assert_eq!(file_spec("/tmp/x").unwrap(), FileSpec::Local("/tmp/x".into()));
        let remote = file_spec("web:/data").unwrap();
        assert_eq!(remote, FileSpec::Remote { namespace: None, pod: "web".into(), path: "/data".into() });
        let remote = file_spec("ci/web:/data").unwrap();
        assert_eq!(remote, FileSpec::Remote { namespace: Some("ci".into()), pod: "web".into(), path: "/data".into() });
        assert_eq!(file_spec(":/x"), Err(SpecError::Format));
        assert_eq!(file_spec("a/b/c:/x"), Err(SpecError::Format));
    }

    #[test]
    fn one_side_is_local_and_one_remote() {
        assert_eq!(copy("a:/x", "b:/y"), Err(SpecError::BothRemote));
        assert_eq!(copy("x", "y"), Err(SpecError::BothLocal));
        assert_eq!(copy("a:", "y"), Err(SpecError::EmptyPath));
        let c = copy("web:/data", "out").unwrap();
        assert!(c.from_pod);
        assert_eq!((c.pod.as_str(), c.remote.as_str(), c.local.as_str()), ("web", "/data", "out"));
        assert!(!copy("in", "web:/data").unwrap().from_pod);
    }

    #[test]
    fn prefixes_follow_the_archives_names() {
        assert_eq!(exec_prefix("/tmp/data/"), "tmp/data");
        assert_eq!(exec_prefix("/../../tmp/./x"), "tmp/x");
        assert_eq!(archive_prefix("/tmp/data/"), "data");
        assert_eq!(archive_prefix("/"), "");
        assert_eq!(base("/tmp/data/"), Some("data".into()));
        assert_eq!(base("/"), None);
        assert_eq!(dir("/tmp/data"), "/tmp");
        assert_eq!(dir("/data"), "/");
        assert_eq!(dir("data"), ".");
    }
}
