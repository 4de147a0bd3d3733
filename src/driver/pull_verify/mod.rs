//! Images pulled with credentials stay theirs, as the kubelet keeps them since 1.35 (the
//! feature KubeletEnsureSecretPulledImages, KEP-2535): podrun records which credentials pulled
//! each image (`record`, kept by `store`, as hashes: `hashes`), and a pod that would use an
//! image on the node must show it may (`decide`, under the `policy`): the same credentials as a
//! pull of it, or an image anyone may use (pulled without a Secret, or, under the default
//! policy, on the node before podrun pulled it). Otherwise the pod pulls it with its own
//! credentials (IfNotPresent), which the registry judges, or fails (Never: ErrImageNeverPull).

mod decide;
mod hashes;
mod policy;
mod record;
mod store;

use std::path::Path;

pub use decide::{step, Step};
pub use policy::Policy;
pub use store::StoreError;

use crate::manifest::image::Reference;
use crate::runtime::auth::Credentials;

/// The pod's pull Secret for an image, and the credentials it gave.
#[derive(Debug, Clone, Copy)]
pub struct PodSecret<'a> {
    pub namespace: &'a str,
    pub name: &'a str,
    pub credentials: &'a Credentials,
}

/// The policy and the record of one run, shared by its pods.
#[derive(Debug)]
pub struct Verifier {
    policy: Policy,
    store: store::Store,
}

impl Default for Verifier {
    fn default() -> Self {
        Verifier { policy: Policy::default(), store: store::Store::memory() }
    }
}

/// The full repository name of `image` (`docker.io/library/busybox`), as records and
/// allowlists name it.
fn repository(image: &str) -> String {
    let r = Reference::parse(image);
    format!("{}/{}", r.domain, r.repository)
}

impl Verifier {
    /// `policy`, with the record in podrun's state directory `dir` (None: in memory, for this
    /// run).
    pub fn new(policy: Policy, dir: Option<&Path>) -> Verifier {
        let store = dir.map_or_else(store::Store::memory, store::Store::in_dir);
        Verifier { policy, store }
    }

    /// Whether a pod with `secret` must pull `image` (whose id on the node is `id`) before it
    /// uses the copy there. An unreadable record: it must, as the kubelet decides.
    pub fn must_pull(&self, image: &str, id: Option<&str>, secret: Option<PodSecret<'_>>) -> Result<bool, StoreError> {
        let repository = repository(image);
        if !self.policy.requires_verification(&repository, true) {
            return Ok(false);
        }
        let record = self.store.read()?;
        let hashes = secret.map(|s| hashes::secret_hashes(&record.salt, s.namespace, s.name, s.credentials));
        Ok(decide::must_pull(&self.policy, &repository, record.known(image, id, &repository), hashes.as_ref()))
    }

    /// A pull of `image` is starting: until it is recorded as ended, the image counts as pulled
    /// by podrun, should podrun stop in between.
    pub fn intend(&self, image: &str) -> Result<(), StoreError> {
        self.store.update(|r| r.intend(image))
    }

    /// The pull of `image` ended: with the image `id` (None: it failed), pulled with `secret`
    /// or without a pod's Secret.
    pub fn ended(&self, image: &str, id: Option<&str>, secret: Option<PodSecret<'_>>) -> Result<(), StoreError> {
        let repository = repository(image);
        self.store.update(|r| match id {
            Some(id) => {
                let hashes = secret.map(|s| hashes::secret_hashes(&r.salt, s.namespace, s.name, s.credentials));
                r.pulled(image, id, &repository, hashes);
            }
            None => r.forget_intent(image),
        })
    }
}
