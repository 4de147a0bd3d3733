//! The events of making an image present, in the words of the kubelet's image manager: one
//! event per container that needs the image, as the kubelet ensures each container's image.

use std::time::Duration;

use crate::error_chain::chain;
use crate::plan::ImageNeed;
use crate::pod::events::EventType::{Normal, Warning};
use crate::runtime::RuntimeError;

use super::Scope;

/// The events of one image need of a pod.
pub(super) struct Said<'s, 'a, R> {
    pub scope: Scope<'a, R>,
    pub need: &'s ImageNeed,
}

impl<R> Said<'_, '_, R> {
    fn each(&self, type_: crate::pod::events::EventType, reason: &str, message: &str) {
        for c in &self.need.containers {
            self.scope.events.container(self.scope.desired, c, type_, reason, message);
        }
    }

    pub fn present(&self) {
        self.each(Normal, "Pulled", &format!("Container image {:?} already present on machine", self.need.image));
    }

    pub fn pulling(&self) {
        self.each(Normal, "Pulling", &format!("Pulling image {:?}", self.need.image));
    }

    pub fn pulled(&self, took: Duration, bytes: u64) {
        let took = go_duration(took);
        let size = if bytes > 0 { format!(" Image size: {bytes} bytes.") } else { String::new() };
        let message =
            format!("Successfully pulled image {:?} in {took} ({took} including waiting).{size}", self.need.image);
        self.each(Normal, "Pulled", &message);
    }

    pub fn failed(&self, e: &RuntimeError) {
        self.each(Warning, "Failed", &format!("Failed to pull image {:?}: {}", self.need.image, chain(e)));
        self.each(Warning, "Failed", "Error: ErrImagePull");
    }

    /// The registry did not answer, and the image on the machine serves (podrun's offline
    /// start, where the kubelet would wait): the failed pull, then the image used.
    pub fn offline(&self, detail: &str) {
        let message = format!("Failed to pull image {:?}: registry unreachable: {detail}", self.need.image);
        self.each(Warning, "Failed", &message);
        self.present();
    }

    /// Says the image is absent under `imagePullPolicy: Never`, and gives the error back.
    pub fn never_pulled(&self, e: RuntimeError) -> RuntimeError {
        let message = format!("Container image {:?} is not present with pull policy of Never", self.need.image);
        self.each(Warning, "ErrImageNeverPull", &message);
        self.each(Warning, "Failed", "Error: ErrImageNeverPull");
        e
    }

    /// Says the image is present under `imagePullPolicy: Never` but the pod may not use it
    /// (it was pulled with credentials the pod does not have), and gives the error back.
    pub fn never_verified(&self, e: RuntimeError) -> RuntimeError {
        let message = format!(
            "Container image {:?} is present with pull policy of Never but does not have the proper auth (image secret) that was used to pull the image",
            self.need.image
        );
        self.each(Warning, "ErrImageNeverPull", &message);
        self.each(Warning, "Failed", "Error: ErrImageNeverPull");
        e
    }
}

/// A duration as Go prints one cut to the millisecond (`1.234s`, `512ms`, `1m2.5s`): the
/// kubelet's pull times.
pub fn go_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let (minutes, rest) = (ms / 60_000, ms % 60_000);
    let seconds = format!("{}.{:03}", rest / 1000, rest % 1000);
    let seconds = seconds.trim_end_matches('0').trim_end_matches('.');
    if minutes == 0 {
        format!("{seconds}s")
    } else {
        let (hours, minutes) = (minutes / 60, minutes % 60);
        let h = if hours > 0 { format!("{hours}h") } else { String::new() };
        format!("{h}{minutes}m{seconds}s")
    }
}

#[cfg(test)]
mod tests {
    use super::go_duration;
    use std::time::Duration;

    #[test]
    fn durations_read_as_go_prints_them() {
        let ms = Duration::from_millis;
        assert_eq!(go_duration(ms(0)), "0ms");
        assert_eq!(go_duration(ms(512)), "512ms");
        assert_eq!(go_duration(ms(15_981)), "15.981s");
        assert_eq!(go_duration(ms(2_000)), "2s");
        assert_eq!(go_duration(ms(62_500)), "1m2.5s");
        assert_eq!(go_duration(ms(3_600_000)), "1h0m0s");
    }
}
