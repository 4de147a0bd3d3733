//! Termination messages, as the kubelet reads them: each terminated instance's termination-log
//! file (on the host, or through the engine's archive API), else under FallbackToLogsOnError
//! the end of its logs, within the kubelet's limits.

use crate::pod::files::PodFiles;
use crate::pod::observed::PodObservation;
use crate::pod::DesiredPod;
use crate::runtime::Runtime;
use crate::status::Notes;

/// The kubelet's limit for a termination message taken from the logs.
const MAX_LOG_MESSAGE_BYTES: usize = 2048;
const MAX_LOG_MESSAGE_LINES: usize = 80;

/// Reads the termination message of every instance that has terminated since the last look:
/// its termination-log file, or under FallbackToLogsOnError, after a failure with an empty
/// file, the end of its logs.
pub(super) async fn read_messages<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    obs: &PodObservation,
    files: Option<&PodFiles>,
    notes: &mut Notes,
) {
    for c in desired.init.iter().chain(&desired.containers) {
        let inst = obs.get(&c.name);
        for o in inst.current.iter().chain(&inst.previous) {
            let crate::runtime::State::Exited { exit_code, .. } = o.state else { continue };
            if notes.messages.contains_key(&o.id) {
                continue;
            }
            let attempt = crate::pod::observed::attempt_of(o);
            let mut message = match files {
                Some(f) => f.read_termination_log(&desired.uid, &c.name, attempt).unwrap_or_default(),
                // Not on this host: read back through the engine, from the stopped container.
                None => {
                    // Through the infra container, which mounts the pod's termination-log volume
                    // (Podman's archive of a stopped container leaves out its bind mounts), else
                    // from the container itself.
                    let file = format!("{}/{}-{attempt}", crate::pod::volumes::engine::INFRA_TERMINATION_DIR, c.name);
                    let mut m = None;
                    if let Some(infra) = &obs.infra.current {
                        m = read_engine_message(rt, &infra.id, &file).await;
                    }
                    match m {
                        Some(m) => m,
                        None => read_engine_message(rt, &o.id, &c.termination_message_path).await.unwrap_or_default(),
                    }
                }
            };
            if message.is_empty() && exit_code != 0 && c.fallback_to_logs {
                if let Ok(logs) = rt.logs_tail(&o.id, MAX_LOG_MESSAGE_LINES).await {
                    message = tail_bytes(&logs, MAX_LOG_MESSAGE_BYTES).to_owned();
                }
            }
            let per_container = MAX_POD_MESSAGE_BYTES / (desired.init.len() + desired.containers.len()).max(1);
            if message.len() > per_container {
                let mut end = per_container;
                while !message.is_char_boundary(end) {
                    end -= 1;
                }
                message.truncate(end);
            }
            notes.messages.insert(o.id.clone(), message);
        }
    }
}

/// How much of a termination-log file's archive podrun reads (a container may write more than
/// the 4096 bytes kept; what is beyond this is not looked at).
const MAX_ARCHIVE_BYTES: usize = 1 << 20;

/// The kubelet's budget for all of a pod's termination messages, split evenly between its
/// containers (its status manager's `normalizeStatus`).
const MAX_POD_MESSAGE_BYTES: usize = 12 * 1024;

/// A termination message read through the engine's archive API, at most the kubelet's 4096
/// bytes; `None` when there is no such file.
pub(super) async fn read_engine_message<R: Runtime>(rt: &R, id: &str, path: &str) -> Option<String> {
    let max = usize::try_from(crate::pod::files::MAX_MESSAGE_BYTES).unwrap_or(4096);
    // Its last 4096 bytes are kept: the archive may be read whole, up to a bound.
    match rt.get_archive(id, path, MAX_ARCHIVE_BYTES).await {
        Ok(Some(tar)) => {
            crate::pod::volumes::engine::file_content(&tar, max).map(|b| String::from_utf8_lossy(&b).into_owned())
        }
        _ => None,
    }
}

/// The last `max` bytes of `s`, cut at a character boundary.
fn tail_bytes(s: &str, max: usize) -> &str {
    let mut start = s.len().saturating_sub(max);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}
