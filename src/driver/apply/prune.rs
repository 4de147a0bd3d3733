//! `--prune`: the pods of podrun's that came from the same manifests and that none of them
//! names anymore are deleted.

use std::collections::BTreeSet;

use crate::driver;
use crate::error_chain::chain;
use crate::exit;
use crate::manifest::LoadedPod;
use crate::pod::files::PodFiles;
use crate::report::{PodKey, Reporter};
use crate::runtime::labels;
use crate::runtime::{Observed, Runtime, Selector};

/// `--prune`: deletes podrun's pods, in the namespaces the manifests use (and -n), that came
/// from the same directories or files (`sources`, see `labels::SOURCE`) and that none of the
/// manifests names anymore: a pod applied by hand from elsewhere is not this directory's to
/// delete. Returns the exit code of the first failure, else success.
pub(super) async fn prune<R: Runtime>(
    rt: &R,
    pods: &[LoadedPod],
    sources: &BTreeSet<String>,
    namespace: Option<&str>,
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
) -> u8 {
    let keep: BTreeSet<(&str, &str)> = pods.iter().map(|p| (p.namespace(), p.name())).collect();
    let mut namespaces: BTreeSet<&str> = pods.iter().map(LoadedPod::namespace).collect();
    namespaces.extend(namespace);
    let mut code = exit::SUCCESS;
    for ns in namespaces {
        let listed = match rt.list(&Selector { namespace: Some(ns.to_owned()), pod: None }).await {
            Ok(l) => l,
            Err(e) => {
                reporter.warning(&format!("prune in namespace {ns}: {}", chain(&e)));
                if code == exit::SUCCESS {
                    code = exit::for_runtime(&e);
                }
                continue;
            }
        };
        let names: BTreeSet<&str> = listed
            .iter()
            .filter(|c| c.is_owned() && c.label(labels::POD_NAMESPACE) == Some(ns))
            .filter(|c| c.label(labels::SOURCE).is_some_and(|s| sources.contains(s)))
            .filter_map(|c| c.label(labels::POD_NAME))
            .filter(|name| !keep.contains(&(ns, *name)))
            .collect();
        for name in names {
            let key = PodKey { namespace: ns.to_owned(), name: name.to_owned() };
            let pod: Vec<Observed> =
                listed.iter().filter(|c| c.label(labels::POD_NAME) == Some(name)).cloned().collect();
            if let Some(g) = driver::stop_wait(&pod, None) {
                reporter.event(&key, &format!("stopping (grace period {}s)...", g.as_secs()));
            }
            match driver::remove_pod(rt, &Selector::pod(ns, name), None, None, files).await {
                Ok(n) => reporter.event(&key, &format!("pruned: no manifest names it anymore ({n} containers)")),
                Err(e) => {
                    reporter.warning(&format!("prune of {key}: {}", chain(&e)));
                    if code == exit::SUCCESS {
                        code = exit::for_runtime(&e);
                    }
                }
            }
        }
    }
    code
}
