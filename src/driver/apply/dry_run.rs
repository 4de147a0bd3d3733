//! `--dry-run`: what the syncs would do to each pod, from what the engine shows now; nothing
//! changes.

use std::collections::BTreeSet;

use crate::driver::CrashBackoff;

use super::ApplyError;
use crate::exit;
use crate::plan;
use crate::pod::DesiredPod;
use crate::report::output;
use crate::runtime::{Runtime, Selector};

/// `--dry-run`: what the syncs would do to each pod until it is started, from what the engine
/// shows now (see `plan::rollout`).
pub(super) async fn dry_run<R: Runtime, C>(
    rt: &R,
    pods: &[DesiredPod],
    crash: CrashBackoff,
    quiet: bool,
) -> Result<u8, ApplyError<C>> {
    let none = BTreeSet::new();
    let ctx = plan::Context { now: crate::clock::now(), crash, unhealthy: &none, not_started: &none, replace: &none };
    let mut out = String::new();
    for d in pods {
        let observed = rt.list(&Selector::pod(&d.namespace, &d.name)).await?;
        let plans = plan::rollout::rollout(d, &observed, &ctx);
        let mut missing = BTreeSet::new();
        for i in plans.iter().flat_map(|p| &p.images) {
            if !missing.contains(&i.image) && !rt.image_present(&i.image).await? {
                missing.insert(i.image.clone());
            }
        }
        out.push_str(&plan::render::render(d, &plans, &missing));
    }
    if !quiet {
        output::print(&out)?;
    }
    Ok(exit::SUCCESS)
}
