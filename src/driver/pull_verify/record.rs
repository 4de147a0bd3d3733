//! podrun's record of the images it pulled and the credentials that pulled them (the
//! kubelet's ImagePulledRecords and ImagePullIntents), as data: looked up, merged, and kept
//! within bounds. Credentials appear only as salted hashes (`hashes`).
//!
//! Bounds: at most [`MAX_IMAGES`] images (an image id under one repository name), each with at
//! most [`MAX_SECRETS`] Secrets, and [`MAX_INTENTS`] pulls under way; past them the oldest are
//! dropped, and a dropped image is as if preloaded.

use serde::{Deserialize, Serialize};

/// What podrun's record knows of an image on the node (by its id and repository).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known<'a> {
    /// Never pulled by podrun: on the node before it (loaded, built, pulled by someone else).
    Preloaded,
    /// A pull of it was started and never recorded as ended (podrun stopped mid-pull): pulled
    /// by podrun, with credentials unknown.
    Pulling,
    /// Pulled by podrun; who may use it under this repository name, if the record says (None:
    /// pulled under other names only).
    Pulled(Option<&'a Access>),
}

pub const MAX_IMAGES: usize = 512;
pub const MAX_SECRETS: usize = 16;
pub const MAX_INTENTS: usize = 64;

/// One pull Secret, as hashes: of its coordinates (namespace/name) and of the credentials it
/// held for the registry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretHashes {
    pub coordinates: String,
    pub content: String,
}

/// Who may use an image pulled by podrun.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Access {
    /// Pulled without a pod's Secret (anonymously, or with the node's own credentials): any
    /// pod on the node (the kubelet's NodePodsAccessible).
    Anyone,
    /// The pods with one of these Secrets' credentials.
    Secrets(Vec<SecretHashes>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Pulled {
    /// The image id (`sha256:...`).
    id: String,
    /// The repository name it was pulled under (`registry.example/app`).
    repository: String,
    access: Access,
}

/// The record. Lists are oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Record {
    /// The salt of the hashes, made when the record is made.
    pub salt: String,
    #[serde(default)]
    pulled: Vec<Pulled>,
    /// The image references of pulls started and not ended.
    #[serde(default)]
    intents: Vec<String>,
}

impl Record {
    pub fn new(salt: String) -> Record {
        Record { salt, ..Record::default() }
    }

    /// What the record knows of the image `id` (None: there is no id) under `repository`, asked
    /// for as `image`.
    pub fn known(&self, image: &str, id: Option<&str>, repository: &str) -> Known<'_> {
        let mut of_id = self.pulled.iter().filter(|p| Some(p.id.as_str()) == id).peekable();
        if of_id.peek().is_some() {
            return Known::Pulled(of_id.find(|p| p.repository == repository).map(|p| &p.access));
        }
        if self.intents.iter().any(|i| i == image) {
            Known::Pulling
        } else {
            Known::Preloaded
        }
    }

    /// A pull of `image` is starting.
    pub fn intend(&mut self, image: &str) {
        if !self.intents.iter().any(|i| i == image) {
            self.intents.push(image.to_owned());
        }
        let over = self.intents.len().saturating_sub(MAX_INTENTS);
        self.intents.drain(..over);
    }

    /// The pull of `image` ended without an image.
    pub fn forget_intent(&mut self, image: &str) {
        self.intents.retain(|i| i != image);
    }

    /// The pull of `image` brought the image `id` under `repository`, with the pod's Secret
    /// (`Some`) or without one; the entry becomes the newest.
    pub fn pulled(&mut self, image: &str, id: &str, repository: &str, secret: Option<SecretHashes>) {
        self.forget_intent(image);
        let at = self.pulled.iter().position(|p| p.id == id && p.repository == repository);
        let mut entry = at.map_or_else(
            || Pulled { id: id.to_owned(), repository: repository.to_owned(), access: Access::Secrets(Vec::new()) },
            |i| self.pulled.remove(i),
        );
        match (&mut entry.access, secret) {
            (access, None) => *access = Access::Anyone,
            (Access::Anyone, Some(_)) => {}
            (Access::Secrets(secrets), Some(s)) => {
                // A Secret whose content changed (rotated) replaces its old hash.
                secrets.retain(|old| old.coordinates != s.coordinates && old.content != s.content);
                secrets.push(s);
                let over = secrets.len().saturating_sub(MAX_SECRETS);
                secrets.drain(..over);
            }
        }
        self.pulled.push(entry);
        let over = self.pulled.len().saturating_sub(MAX_IMAGES);
        self.pulled.drain(..over);
    }

    /// Whether the record holds nothing beyond what its own bounds allow (a file that does
    /// not is not podrun's).
    pub fn within_bounds(&self) -> bool {
        self.pulled.len() <= MAX_IMAGES
            && self.intents.len() <= MAX_INTENTS
            && self.pulled.iter().all(|p| !matches!(&p.access, Access::Secrets(s) if s.len() > MAX_SECRETS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(c: &str) -> SecretHashes {
        SecretHashes { coordinates: format!("at-{c}"), content: c.to_owned() }
    }

    #[test]
    fn an_image_is_known_by_id_and_repository_and_a_pull_under_way_counts() {
        let mut r = Record::new("salt".into());
        assert_eq!(r.known("reg/a:1", Some("sha256:1"), "reg/a"), Known::Preloaded);
        r.intend("reg/a:1");
        assert_eq!(r.known("reg/a:1", Some("sha256:1"), "reg/a"), Known::Pulling);
        r.pulled("reg/a:1", "sha256:1", "reg/a", Some(secret("A")));
        assert_eq!(
            r.known("reg/a:1", Some("sha256:1"), "reg/a"),
            Known::Pulled(Some(&Access::Secrets(vec![secret("A")])))
        );
        // Another tag or digest of the same image is the same image.
        assert!(matches!(r.known("reg/a@sha256:9", Some("sha256:1"), "reg/a"), Known::Pulled(Some(_))));
        assert_eq!(r.known("other/a:1", Some("sha256:1"), "other/a"), Known::Pulled(None));
        // Pulled anonymously too: anyone's.
        r.pulled("reg/a:1", "sha256:1", "reg/a", None);
        assert_eq!(r.known("reg/a:1", Some("sha256:1"), "reg/a"), Known::Pulled(Some(&Access::Anyone)));
        r.pulled("reg/a:1", "sha256:1", "reg/a", Some(secret("B")));
        assert_eq!(r.known("reg/a:1", Some("sha256:1"), "reg/a"), Known::Pulled(Some(&Access::Anyone)));
    }

    #[test]
    fn a_rotated_secret_replaces_its_hash_and_the_record_stays_bounded() {
        let mut r = Record::new("salt".into());
        r.pulled("i", "sha256:1", "reg/a", Some(secret("A")));
        let rotated = SecretHashes { coordinates: "at-A".into(), content: "A2".into() };
        r.pulled("i", "sha256:1", "reg/a", Some(rotated.clone()));
        assert_eq!(r.known("i", Some("sha256:1"), "reg/a"), Known::Pulled(Some(&Access::Secrets(vec![rotated]))));
        for n in 0..2 * MAX_SECRETS {
            r.pulled("i", "sha256:1", "reg/a", Some(secret(&n.to_string())));
        }
        let Known::Pulled(Some(Access::Secrets(kept))) = r.known("i", Some("sha256:1"), "reg/a") else { panic!() };
        assert_eq!(kept.len(), MAX_SECRETS);
        assert_eq!(kept.last(), Some(&secret(&(2 * MAX_SECRETS - 1).to_string())), "the oldest go");
        for n in 0..MAX_IMAGES + 5 {
            r.pulled("i", &format!("sha256:{n}"), "reg/a", None);
        }
        for n in 0..MAX_INTENTS + 5 {
            r.intend(&format!("img{n}"));
        }
        assert!(r.within_bounds());
        assert_eq!(r.known("i", Some("sha256:0"), "reg/a"), Known::Preloaded, "the oldest image was dropped");
        assert_eq!(r.known("img0", None, "reg/a"), Known::Preloaded);
        assert_eq!(r.known(&format!("img{}", MAX_INTENTS + 4), None, "x"), Known::Pulling);
    }
}
