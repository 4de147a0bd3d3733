//! What `--auto-update` shares with the pods' drivers, for the life of the process (a start
//! over after SIGHUP or a changed manifest keeps it): the image each updated container is to be
//! made from, the instances to replace, the images that failed, and the drivers' last statuses
//! the updates are judged on.
//!
//! An updated container is pinned to the image id it was updated to, and a rolled-back one to
//! the id it ran before, rather than the previous image being tagged again under the reference
//! (as `podman auto-update` does): a tag is the engine's, shared with whatever else uses the
//! name, and podrun only touches what it made; a CRI runtime has no call that tags at all; and
//! a pin holds even when the driver pulls the reference again before a restart (`Always`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use tokio::sync::watch;

use crate::status::PodStatus;

/// The shared state; empty (and the drivers' statuses not kept) unless `--auto-update` is on.
#[derive(Debug)]
pub struct Updates {
    inner: Mutex<Inner>,
    /// Bumped when there is something for the drivers to replace, so they look at once.
    wake: watch::Sender<u64>,
}

#[derive(Debug, Default)]
struct Inner {
    enabled: bool,
    /// (pod uid, container) -> the image id it is made from instead of its reference.
    pins: BTreeMap<(String, String), String>,
    /// Container instances (engine ids) to replace.
    replace: BTreeSet<String>,
    /// Pod uid -> its status as its driver last computed it.
    statuses: BTreeMap<String, PodStatus>,
    /// Image ids that failed after an update: never updated to again.
    bad: BTreeSet<String>,
    /// The updates being settled when the checker last stopped (podrun started over).
    watches: Vec<super::Watch>,
}

impl Default for Updates {
    fn default() -> Self {
        Updates::new(false)
    }
}

impl Updates {
    pub fn new(enabled: bool) -> Updates {
        Updates { inner: Mutex::new(Inner { enabled, ..Inner::default() }), wake: watch::channel(0).0 }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // No step spans the lock: a panic while holding it left the state consistent.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The image id container `name` of pod `uid` is to be made from, when it was updated.
    pub fn pinned(&self, uid: &str, name: &str) -> Option<String> {
        self.lock().pins.get(&(uid.to_owned(), name.to_owned())).cloned()
    }

    /// The instances the drivers are asked to replace (the planner's `Context::replace`).
    pub fn replacements(&self) -> BTreeSet<String> {
        self.lock().replace.clone()
    }

    /// Keeps a driver's status of pod `uid`, for judging an update (only when updates are on).
    pub fn seen(&self, uid: &str, st: &PodStatus) {
        let mut inner = self.lock();
        if inner.enabled {
            inner.statuses.insert(uid.to_owned(), st.clone());
        }
    }

    /// Ticks when there is something to replace.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.wake.subscribe()
    }

    pub(super) fn status(&self, uid: &str) -> Option<PodStatus> {
        self.lock().statuses.get(uid).cloned()
    }

    pub(super) fn is_bad(&self, image_id: &str) -> bool {
        self.lock().bad.contains(image_id)
    }

    /// Container `name` of pod `uid` is to run `image_id`: its instance `instance` (if any) is
    /// replaced; `failed`, an image that failed, is never updated to again.
    pub(super) fn pin(&self, (uid, name): (&str, &str), image_id: &str, instance: Option<&str>, failed: Option<&str>) {
        let mut inner = self.lock();
        inner.pins.insert((uid.to_owned(), name.to_owned()), image_id.to_owned());
        inner.replace.extend(instance.map(str::to_owned));
        inner.bad.extend(failed.map(str::to_owned));
        drop(inner);
        self.wake.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The updates a stopped checker was settling, for the next one.
    pub(super) fn take_watches(&self) -> Vec<super::Watch> {
        std::mem::take(&mut self.lock().watches)
    }

    pub(super) fn keep_watches(&self, watches: Vec<super::Watch>) {
        self.lock().watches = watches;
    }

    /// The replacement of `instance` is done with (the instance is gone).
    pub(super) fn replaced(&self, instance: &str) {
        self.lock().replace.remove(instance);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_replacements_and_failed_images_are_kept_and_the_drivers_woken() {
        let u = Updates::new(true);
        let mut woken = u.subscribe();
        assert_eq!(u.pinned("uid", "a"), None, "made from its reference until updated");
        u.pin(("uid", "a"), "sha256:new", Some("id1"), None);
        assert!(woken.has_changed().unwrap(), "the drivers look at once");
        woken.mark_unchanged();
        assert_eq!(u.pinned("uid", "a").as_deref(), Some("sha256:new"));
        assert_eq!(u.pinned("uid", "b"), None);
        assert!(u.replacements().contains("id1"));
        u.pin(("uid", "a"), "sha256:old", Some("id2"), Some("sha256:new"));
        assert!(woken.has_changed().unwrap());
        assert_eq!(u.pinned("uid", "a").as_deref(), Some("sha256:old"), "rolled back");
        assert!(u.is_bad("sha256:new") && !u.is_bad("sha256:old"));
        u.replaced("id1");
        assert_eq!(u.replacements().into_iter().collect::<Vec<_>>(), ["id2"]);
    }
}
