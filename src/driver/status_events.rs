//! The events a turn's status tells of, as the kubelet records them when a sync finds a
//! container waiting out a backoff: `BackOff` once each time a container enters
//! CrashLoopBackOff or ImagePullBackOff (the kubelet repeats it at every sync it skips; the
//! entry is the moment podrun has, and the count of entries is what the folded event shows).

use std::collections::BTreeMap;

use crate::driver::events::Events;
use crate::pod::events::EventType::{Normal, Warning};
use crate::pod::DesiredPod;
use crate::status::PodStatus;

/// The waiting reason each container had at the last turn.
#[derive(Debug, Default)]
pub(super) struct Waited(BTreeMap<String, String>);

impl Waited {
    /// Records the backoffs `st` shows that the last turn did not.
    pub fn record(&mut self, events: &Events, desired: &DesiredPod, st: &PodStatus) {
        for c in st.init_container_statuses.iter().chain(&st.container_statuses) {
            let reason = c.state.waiting.as_ref().map(|w| w.reason.clone()).unwrap_or_default();
            let before = self.0.insert(c.name.clone(), reason.clone());
            if before.as_deref() == Some(reason.as_str()) {
                continue;
            }
            match reason.as_str() {
                "CrashLoopBackOff" => {
                    let pod = format!("{}_{}({})", desired.name, desired.namespace, desired.uid);
                    let message = format!("Back-off restarting failed container {} in pod {pod}", c.name);
                    events.container(desired, &c.name, Warning, "BackOff", message);
                }
                "ImagePullBackOff" => {
                    let message = format!("Back-off pulling image {:?}", c.image);
                    events.container(desired, &c.name, Normal, "BackOff", message);
                    events.container(desired, &c.name, Warning, "Failed", "Error: ImagePullBackOff");
                }
                _ => {}
            }
        }
    }
}
