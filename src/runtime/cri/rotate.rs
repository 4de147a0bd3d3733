//! Rotating a container's log as the kubelet's container log manager does, since a CRI runtime
//! writes one file per container and never cuts it: once the file reached the size limit, the
//! oldest rotated files are removed (room for the one rotated now and the new one, so the
//! container keeps at most `max_files`), the file is renamed `<log>.<YYYYMMDD-hhmmss>` and the
//! runtime is told to reopen it (`ReopenContainerLog`), so it writes a new one. Rotated files
//! are not compressed (the kubelet gzips all but the newest): the file bound is the same, and
//! no compression crate is needed. Only podrun's own layout is touched (the path comes from the
//! container's sealed labels), and no file is opened through a link.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{api, logs, CriRuntime};
use crate::runtime::{Cause, LogRotation, Observed, RuntimeError};

pub(super) async fn rotate(rt: &CriRuntime, c: &Observed, policy: LogRotation) -> Result<bool, RuntimeError> {
    let path = rt.log_file(&c.id).await?;
    let what = format!("rotate the log of container {}", c.name);
    let io = |e: std::io::Error| RuntimeError::Client { what: what.clone(), source: Cause(Arc::new(e)) };
    let size = match logs::open(&path).and_then(|f| f.metadata()) {
        Ok(m) => m.len(),
        // Nothing written yet.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(e)),
    };
    if size < policy.max_size {
        return Ok(false);
    }
    let old = logs::rotated(&path).map_err(io)?;
    let keep = policy.max_files.saturating_sub(2);
    for f in &old[..old.len().saturating_sub(keep)] {
        match std::fs::remove_file(f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
    }
    let to = rotated_name(&path, crate::clock::now());
    if std::fs::symlink_metadata(&to).is_ok() {
        // Rotated within this second already: the next look rotates it.
        return Ok(false);
    }
    std::fs::rename(&path, &to).map_err(io)?;
    let request = api::ReopenContainerLogRequest { container_id: c.id.clone() };
    match rt.channel.runtime.clone().reopen_container_log(request).await {
        Ok(_) => Ok(true),
        Err(s) => {
            // As the kubelet does: the runtime still writes the renamed file, so it gets its
            // name back.
            let _ = std::fs::rename(&to, &path);
            Err(rt.error(&what, s))
        }
    }
}

/// `<log>.<YYYYMMDD-hhmmss>` (UTC), the kubelet's name of a rotated log; it sorts as time does.
fn rotated_name(path: &Path, at: std::time::SystemTime) -> PathBuf {
    let digits: String =
        humantime::format_rfc3339_seconds(at).to_string().chars().filter(char::is_ascii_digit).collect();
    let (day, time) = digits.split_at(8.min(digits.len()));
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{day}-{time}"));
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rotated_log_is_named_by_its_time_as_the_kubelet_names_it() {
        let at = crate::clock::parse_time("2026-12-04T17:05:09Z").unwrap();
        assert_eq!(
            rotated_name(Path::new("/var/log/pods/x/app/0.log"), at),
            Path::new("/var/log/pods/x/app/0.log.20261204-170509")
        );
        let names = logs::rotated(Path::new("/nonexistent/app/0.log")).unwrap();
        assert!(names.is_empty());
    }
}
