//! The startup and readiness probes `podrun wait` runs itself. While an `apply` (or `apply
//! --supervise`) drives the pod, its prober runs them and the pod's record says what they last
//! gave; once none does (`pod::files::driving`), nothing else would, and a readiness the
//! kubelet keeps probing would stay as the last run left it. wait then runs them as the
//! driver's prober does (`prober`, the kubelet's rules), from the probes the record keeps
//! (`pod::record::ContainerProbes`): never a liveness probe, never a restart or a kill. A
//! container it starts probing is not ready until its probes say so, as under a new kubelet; a
//! startup probe that fails leaves it unready, and is said once.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::manifest::types::Container;
use crate::pod::files::PodFiles;
use crate::probe::handlers;
use crate::report::{PodKey, Reporter};
use crate::runtime::{Observed, Runtime};
use crate::status::engine_pods::ListedPod;

use super::prober::Prober;

/// wait's own probes of one pod, while no podrun drives it.
#[derive(Default)]
pub struct OwnProbes {
    prober: Option<Prober>,
    /// The container instances whose failed startup probe was said.
    said: BTreeSet<String>,
}

impl OwnProbes {
    /// `pod` (read with `files`) as wait judges it: as its record says while a podrun drives
    /// it or when it has no startup or readiness probe; else with the readiness of the probes
    /// run here, which start (or stop) with this look.
    pub fn judged<R: Runtime>(
        &mut self,
        rt: &Arc<R>,
        pod: ListedPod,
        files: Option<&PodFiles>,
        reporter: &dyn Reporter,
    ) -> ListedPod {
        let Some(files) = files else { return pod };
        let key = PodKey { namespace: pod.namespace.clone(), name: pod.name.clone() };
        // The record this look read with the pod: not read again.
        let Some(probes) = pod.record.as_ref().and_then(|r| r.probes.clone()) else {
            self.prober = None;
            return pod;
        };
        if files.driven(&pod.uid) {
            if self.prober.take().is_some() {
                reporter.event(&key, "a podrun drives the pod again: readiness is its probes'");
            }
            return pod;
        }
        let prober = self.prober.get_or_insert_with(|| {
            reporter.event(&key, "no podrun drives the pod: running its startup and readiness probes");
            Prober::new()
        });
        let infra_ip = pod.infra.current.as_ref().and_then(|i| i.ip.as_deref());
        let pod_ip = handlers::pod_address(probes.host_network, infra_ip).unwrap_or_default();
        let running: Vec<(Container, Observed)> = pod
            .init
            .iter()
            .chain(&pod.containers)
            .filter_map(|(name, inst)| Some((probes.containers.get(name)?.container(name), inst.current.clone()?)))
            .collect();
        prober.sync_running(rt, pod_ip, running.iter().map(|(c, o)| (c, o)));
        let results = prober.results();
        for (id, st) in &results {
            if let Some(why) = st.unhealthy.as_ref().filter(|_| !self.said.contains(id)) {
                self.said.insert(id.clone());
                let name = running.iter().find(|(_, o)| &o.id == id).map_or("?", |(c, _)| c.name.as_str());
                reporter.warning(&format!(
                    "pod {key}: container {}: {}; nothing restarts it without `podrun apply --supervise`",
                    crate::escape::Escaped(name),
                    crate::escape::Escaped(why)
                ));
            }
        }
        let ready = results.into_iter().map(|(id, st)| (id, st.ready)).collect();
        pod.with_files_then(Some(files), |r| r.ready = ready)
    }

    /// Resolves when a probe run here gave a new result; never without them.
    pub async fn changed(&self) {
        match &self.prober {
            Some(p) => p.changed().await,
            None => std::future::pending().await,
        }
    }
}
