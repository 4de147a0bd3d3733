//! Why a run failed, in the words of its containers: once the failure is certain, each
//! container that failed it (`status::failed`) gets its last lines of output, read from the
//! engine with a bound on bytes and time, and what its failing probe said last.

use std::collections::BTreeMap;
use std::time::Duration;

use futures_util::StreamExt;

use crate::runtime::{LogOptions, Runtime};
use crate::status::failed::{self, FailedContainer, LastOutput, OUTPUT_BYTES, OUTPUT_LINES};
use crate::status::PodStatus;

use super::PodFailure;

/// The most a container's output is read for, whatever the engine sends.
const READ_BYTES: usize = 1 << 20;
/// How long the engine is given to send it: a failed run must end soon after its failure.
const READ_TIME: Duration = Duration::from_secs(5);

/// The containers that failed the run, with their output and probe; none when the run did
/// not fail for its containers (a signal, a deletion, the engine, a refused configuration).
/// `probes`: what each instance's failing probe said last, by engine id.
pub(super) async fn explain<R: Runtime>(
    rt: &R,
    st: Option<&PodStatus>,
    outcome: &Result<(), PodFailure>,
    probes: &BTreeMap<String, String>,
) -> Vec<FailedContainer> {
    let Some(st) = st else { return Vec::new() };
    let explained = matches!(
        outcome,
        Err(PodFailure::ContainerFailed { .. }
            | PodFailure::NotConverged { .. }
            | PodFailure::Image { .. }
            | PodFailure::DeadlineExceeded { .. })
    );
    if !explained {
        return Vec::new();
    }
    let probe = |c: &crate::status::ContainerStatus| {
        let id = c.container_id.as_deref()?;
        probes.get(crate::status::ids::engine_id(id)).cloned()
    };
    let mut failed = failed::failed_containers(st, &probe);
    for f in &mut failed {
        if let Some(id) = &f.instance {
            f.output = last_output(rt, id).await;
        }
    }
    failed
}

/// The last lines of an instance's output; `None` when the engine has none to give.
async fn last_output<R: Runtime>(rt: &R, id: &str) -> Option<LastOutput> {
    let opts = LogOptions { tail: Some(OUTPUT_LINES), ..LogOptions::default() };
    let mut chunks = rt.logs(id, &opts);
    let (mut kept, mut read, mut more) = (Vec::new(), 0, false);
    let reading = async {
        while let Some(Ok(chunk)) = chunks.next().await {
            read += chunk.bytes.len();
            kept.extend_from_slice(&chunk.bytes);
            // Only the end is shown: what is before it need not be held.
            if kept.len() > 2 * OUTPUT_BYTES {
                kept.drain(..kept.len() - OUTPUT_BYTES);
                more = true;
            }
            if read >= READ_BYTES {
                break;
            }
        }
    };
    // Cut short, what came is still the container's latest output but one.
    let _ = tokio::time::timeout(READ_TIME, reading).await;
    let out = LastOutput::of(&String::from_utf8_lossy(&kept), more);
    (!out.lines.is_empty()).then_some(out)
}
