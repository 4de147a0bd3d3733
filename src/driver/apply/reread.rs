//! What supervision reads when the manifests change (or on SIGHUP): the manifests loaded and
//! the pods prepared as the first pass loads and prepares them (`Mode::Supervise`), nothing
//! created, each pod with the manifest file it came from, so that the workers (`workers`) hear
//! only their own news.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;

use crate::driver::manifests::listing::{self, Listing};
use crate::driver::manifests::static_dir::Skipped;
use crate::manifest::Loaded;
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::Runtime;

use super::engine::Engine;
use super::mode::Mode;
use super::{ApplyError, ApplyOptions};

/// The manifests as they are now.
pub(super) struct News {
    /// Every pod that loads and can run here, with its manifest file.
    pub pods: Vec<(DesiredPod, Option<String>)>,
    /// The files left out (they do not load, or their pod cannot run here), and why.
    pub skipped: Vec<Skipped>,
    pub loaded: Loaded,
    pub listing: Listing,
}

impl News {
    /// The files left out.
    pub fn bad(&self) -> BTreeSet<String> {
        self.skipped.iter().map(|s| s.file.clone()).collect()
    }
}

/// The manifest file of each pod of `loaded`.
pub(super) fn files_of(loaded: &Loaded) -> BTreeMap<PodKey, String> {
    loaded
        .pods
        .iter()
        .map(|p| (PodKey { namespace: p.namespace().to_owned(), name: p.name().to_owned() }, p.doc.file.clone()))
        .collect()
}

/// Loads the manifests and prepares their pods as the first pass does, nothing created; its
/// warnings are said. An error is one that would end a first pass (a `--config` file that does
/// not load): the pods then stay as they are.
pub(super) async fn read_now<R: Runtime>(
    rt: &R,
    opts: &ApplyOptions,
    reporter: &dyn Reporter,
) -> Result<News, ApplyError<Infallible>> {
    let listing = listing::list_walk(&opts.paths, true, opts.recursive)?;
    listing.tell(&|w| reporter.warning(w));
    let (loaded, mut skipped) = Mode::Supervise.load(&listing.files, &opts.configs, &opts.load)?;
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    let engine = Engine::ask(rt, &loaded).await?;
    let env = engine.environment(opts, rt.local_files(), &loaded);
    let (pods, unprepared) = Mode::Supervise.prepare(&loaded.pods, &env, &mut |w| reporter.warning(&w))?;
    skipped.extend(unprepared);
    let files = files_of(&loaded);
    let pods = super::with_sources(pods, &loaded, &listing)
        .into_iter()
        .map(|d| {
            let file = files.get(&PodKey::of(&d)).cloned();
            (d, file)
        })
        .collect();
    Ok(News { pods, skipped, loaded, listing })
}
