//! Proof that podrun made a container or volume: a MAC over its name and identity labels,
//! keyed by a secret only podrun's user can read.
//!
//! Labels alone prove nothing: Docker copies an image's LABELs onto every container made from
//! it, so an image anyone runs with `docker run` could carry `io.podrun.managed=true` and pod
//! labels of its author's choosing. podrun decides what to stop, remove, hook and clean up from
//! those labels, so it acts only on what carries its seal: `io.podrun.seal`, an HMAC-SHA256
//! over the engine name and every label in [`labels::SEALED`], with the key in the state
//! directory (`seal.key`, 0600 in the 0700 directory, made on first use). An image author
//! cannot compute it; a seal copied from another container does not fit another name; and
//! podrun sets every sealed label itself (empty when it has no value), so an image's label of
//! the same key is overridden and cannot break the seal of podrun's own container.
//!
//! A container with podrun's labels but no valid seal (another host's podrun, a state
//! directory wiped since, or a forgery) is reported and never touched.

use std::collections::BTreeMap;
use std::path::Path;

use ring::hmac;

use super::labels;
use crate::private_fs::{self, PrivateFsError};

/// The key file's name in the state directory.
pub const KEY_FILE: &str = "seal.key";
const KEY_BYTES: usize = 32;
/// Bytes of the MAC kept in the label: 128 bits.
const TAG_BYTES: usize = 16;

/// What a seal is over: a container's and a volume's never stand for each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Container,
    Volume,
}

impl Kind {
    fn as_bytes(self) -> &'static [u8] {
        match self {
            Kind::Container => b"container",
            Kind::Volume => b"volume",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("podrun's ownership key")]
    File(#[source] PrivateFsError),
    #[error("podrun's ownership key {}: it holds {len} bytes, not {KEY_BYTES}; remove it to make a new one (podrun then no longer recognises the containers it made with the old one)", crate::escape::Escaped(path))]
    Damaged { path: String, len: usize },
    #[error("podrun's ownership key: the system's random number generator failed")]
    Random,
}

/// podrun's key; `Debug` never shows it.
#[derive(Clone)]
pub struct Seal {
    key: hmac::Key,
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("Seal(..)")
    }
}

impl Seal {
    /// The key of the state directory `root` (already checked private), made on first use.
    pub fn load(root: &Path) -> Result<Seal, SealError> {
        let mut fresh = [0u8; KEY_BYTES];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut fresh).map_err(|_| SealError::Random)?;
        let path = root.join(KEY_FILE);
        let bytes = private_fs::create_once(&path, &fresh, 0o600, KEY_BYTES as u64 + 1).map_err(SealError::File)?;
        if bytes.len() != KEY_BYTES {
            return Err(SealError::Damaged { path: path.display().to_string(), len: bytes.len() });
        }
        Ok(Seal::from_bytes(&bytes))
    }

    fn from_bytes(bytes: &[u8]) -> Seal {
        Seal { key: hmac::Key::new(hmac::HMAC_SHA256, bytes) }
    }

    /// A fixed key, for tests.
    #[cfg(test)]
    pub fn for_tests() -> Seal {
        Seal::from_bytes(&[7; KEY_BYTES])
    }

    fn tag(&self, kind: Kind, name: &str, labels: &BTreeMap<String, String>) -> String {
        let mut ctx = hmac::Context::with_key(&self.key);
        // Each part with its length: no two sets of parts give the same bytes.
        let mut part = |b: &[u8]| {
            ctx.update(&(b.len() as u64).to_be_bytes());
            ctx.update(b);
        };
        part(b"podrun seal v1");
        part(kind.as_bytes());
        part(name.as_bytes());
        for key in labels::SEALED {
            part(key.as_bytes());
            part(labels.get(*key).map_or("", String::as_str).as_bytes());
        }
        let sig = ctx.sign();
        sig.as_ref()[..TAG_BYTES].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Sets every sealed label podrun has not set to `""` (overriding any the image carries) and
    /// adds the seal, for the object `name` about to be created with `labels`.
    pub fn stamp(&self, kind: Kind, name: &str, labels: &mut BTreeMap<String, String>) {
        for key in labels::SEALED {
            labels.entry((*key).to_owned()).or_default();
        }
        let tag = self.tag(kind, name, labels);
        labels.insert(labels::SEAL.to_owned(), tag);
    }

    /// Whether `labels` carry podrun's seal for the object `name`.
    pub fn verify(&self, kind: Kind, name: &str, labels: &BTreeMap<String, String>) -> bool {
        let Some(found) = labels.get(labels::SEAL) else { return false };
        let wanted = self.tag(kind, name, labels);
        // In constant time: how long the comparison takes must not tell how much of a guess
        // was right.
        found.len() == wanted.len() && found.bytes().zip(wanted.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }

    /// Refuses `what` on container `c` unless podrun made it: the seal itself is checked, not
    /// just the flag the list set, as an `Observed` reaches an engine from far above.
    pub fn ensure_owned(&self, what: &str, c: &super::Observed) -> Result<(), super::RuntimeError> {
        if c.is_owned() && self.verify(Kind::Container, &c.name, &c.labels) {
            Ok(())
        } else {
            Err(super::RuntimeError::NotOwned { what: what.to_owned(), id: c.id.clone() })
        }
    }

    /// A name for `purpose` that only this key gives, for a path in a directory others can
    /// write (/dev/shm): nobody can make it first, as nobody can know it before podrun does.
    pub fn private_name(&self, purpose: &[u8]) -> String {
        let sig = hmac::sign(&self.key, purpose);
        sig.as_ref()[..TAG_BYTES].iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn podrun_labels() -> BTreeMap<String, String> {
        BTreeMap::from([
            (labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned()),
            (labels::POD_NAME.to_owned(), "web".to_owned()),
            (labels::POD_NAMESPACE.to_owned(), "default".to_owned()),
            (labels::POD_UID.to_owned(), "uid".to_owned()),
            (labels::CONTAINER_NAME.to_owned(), "app".to_owned()),
        ])
    }

    #[test]
    fn only_the_key_s_own_stamp_on_the_same_name_verifies() {
        let seal = Seal::for_tests();
        let mut l = podrun_labels();
        seal.stamp(Kind::Container, "podrun_default_web_app_0", &mut l);
        assert!(seal.verify(Kind::Container, "podrun_default_web_app_0", &l));
        assert_eq!(l[labels::PRE_STOP], "", "unset sealed labels are set empty, overriding an image's");
        assert!(!seal.verify(Kind::Volume, "podrun_default_web_app_0", &l), "a container's seal is no volume's");
        assert!(!seal.verify(Kind::Container, "nice_name", &l), "a copied seal does not fit another name");
        assert!(!Seal::from_bytes(&[8; KEY_BYTES]).verify(Kind::Container, "podrun_default_web_app_0", &l));
        for key in labels::SEALED {
            let mut forged = l.clone();
            forged.insert((*key).to_owned(), "/etc".to_owned());
            assert!(!seal.verify(Kind::Container, "podrun_default_web_app_0", &forged), "{key}");
        }
        let mut extra = l.clone();
        extra.insert("org.opencontainers.image.title".into(), "x".into());
        assert!(seal.verify(Kind::Container, "podrun_default_web_app_0", &extra), "other labels do not matter");
        let mut bare = podrun_labels();
        assert!(!seal.verify(Kind::Container, "podrun_default_web_app_0", &bare), "no seal");
        bare.insert(labels::SEAL.into(), "00".repeat(TAG_BYTES));
        assert!(!seal.verify(Kind::Container, "podrun_default_web_app_0", &bare));
    }

    #[test]
    fn the_key_is_made_once_private_and_kept() {
        let dir = std::env::temp_dir().join(format!("podrun-seal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = crate::private_fs::ensure_private_dir(&dir).unwrap();
        let a = Seal::load(&root).unwrap();
        let b = Seal::load(&root).unwrap();
        assert_eq!(a.private_name(b"x"), b.private_name(b"x"));
        assert_ne!(a.private_name(b"x"), Seal::for_tests().private_name(b"x"));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root.join(KEY_FILE)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        std::fs::write(root.join(KEY_FILE), b"short").unwrap();
        assert!(matches!(Seal::load(&root), Err(SealError::Damaged { len: 5, .. })));
        assert!(format!("{:?}", a).contains(".."), "Debug hides the key");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
