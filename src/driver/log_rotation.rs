//! `apply --supervise` on an engine that writes container logs where podrun asks (a CRI
//! runtime): every `every`, the log of each running container of the supervised pods is
//! rotated once it reached its size limit, as the kubelet's container log manager does (see
//! `Runtime::rotate_log`). Without it a container's log grows as long as the container writes.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use crate::report::Reporter;
use crate::runtime::{labels, LogRotation, Runtime, Selector};

/// Looks at the logs of the containers of `pods` every `every`, until dropped. A failure is said
/// once per container: the next look tries again.
pub async fn rotate<R: Runtime>(
    rt: Arc<R>,
    pods: Vec<Selector>,
    policy: LogRotation,
    every: Duration,
    reporter: Arc<dyn Reporter>,
) {
    let mut told = HashSet::new();
    loop {
        tokio::time::sleep(every).await;
        for sel in &pods {
            // A failed look is an engine away: supervision says so, and the next look comes.
            let Ok(containers) = rt.list(sel).await else { continue };
            for c in containers.iter().filter(|c| c.is_running() && c.label(labels::ROLE) != Some("infra")) {
                match rt.rotate_log(c, policy).await {
                    Ok(rotated) => {
                        if rotated {
                            tracing::debug!(container = %c.name, "log rotated");
                        }
                    }
                    Err(e) => {
                        if told.insert(c.id.clone()) {
                            reporter.warning(&format!("cannot rotate the log of container {}: {e}", c.name));
                        }
                    }
                }
            }
        }
    }
}
