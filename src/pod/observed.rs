//! The engine's containers of one pod, sorted out against the desired pod: for each desired
//! container its current instance and the last dead one (kept for `lastState` and logs), and
//! everything that no longer belongs (another pod uid, a container gone from the manifest,
//! instances beyond the one dead instance kept).

use std::collections::BTreeMap;

use crate::runtime::{Observed, State};

use super::DesiredPod;
use crate::runtime::labels;

/// The instances of one container, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Instances {
    /// The newest instance: the one that runs, or ran last.
    pub current: Option<Observed>,
    /// The newest dead instance before `current`.
    pub previous: Option<Observed>,
}

impl Instances {
    /// The attempt number of the current instance (its restart count).
    pub fn attempt(&self) -> Option<u32> {
        self.current.as_ref().map(attempt_of)
    }

    /// The attempt number the next instance gets.
    pub fn next_attempt(&self) -> u32 {
        self.attempt().map_or(0, |a| a + 1)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodObservation {
    pub infra: Instances,
    /// By container name; every desired init and app container has an entry.
    pub containers: BTreeMap<String, Instances>,
    /// Containers of this pod's namespace and name that must go, with why.
    pub stale: Vec<(Observed, &'static str)>,
}

pub fn attempt_of(c: &Observed) -> u32 {
    c.label(labels::ATTEMPT).and_then(|a| a.parse().ok()).unwrap_or(0)
}

impl PodObservation {
    /// Sorts `observed` (the engine's containers with this pod's namespace and name labels).
    pub fn new(desired: &DesiredPod, observed: &[Observed]) -> PodObservation {
        let mut by_name: BTreeMap<String, Vec<Observed>> = BTreeMap::new();
        let mut stale = Vec::new();
        for c in observed.iter().filter(|c| c.is_owned()) {
            let name = c.label(labels::CONTAINER_NAME).unwrap_or("");
            if c.label(labels::POD_UID) != Some(desired.uid.as_str()) {
                stale.push((c.clone(), "belongs to an earlier pod with the same name"));
            } else if desired.find(name).is_none() {
                stale.push((c.clone(), "no longer in the manifest"));
            } else {
                by_name.entry(name.to_owned()).or_default().push(c.clone());
            }
        }
        let mut sort_out = |name: &str| -> Instances {
            let mut all = by_name.remove(name).unwrap_or_default();
            // Newest first; the id breaks ties so the order never depends on the engine's.
            all.sort_by(|a, b| attempt_of(b).cmp(&attempt_of(a)).then_with(|| b.id.cmp(&a.id)));
            let mut all = all.into_iter();
            let current = all.next();
            let mut previous = None;
            for c in all {
                if previous.is_none() && c.is_dead() {
                    previous = Some(c);
                } else {
                    stale.push((c, "an older instance"));
                }
            }
            Instances { current, previous }
        };
        let infra = sort_out(labels::INFRA_CONTAINER_NAME);
        let containers =
            desired.init.iter().chain(&desired.containers).map(|c| (c.name.clone(), sort_out(&c.name))).collect();
        PodObservation { infra, containers, stale }
    }

    pub fn get(&self, name: &str) -> &Instances {
        static EMPTY: Instances = Instances { current: None, previous: None };
        self.containers.get(name).unwrap_or(&EMPTY)
    }

    /// Whether the pod's initialization is over: every regular init container exited 0, and
    /// every sidecar has started (it may be restarting since).
    pub fn initialized(&self, desired: &DesiredPod) -> bool {
        desired.init.iter().all(|c| {
            let inst = self.get(&c.name);
            match &inst.current {
                None => false,
                Some(cur) if c.sidecar => cur.state != State::Created || inst.previous.is_some(),
                Some(cur) => matches!(cur.state, State::Exited { exit_code: 0, .. }),
            }
        })
    }
}
