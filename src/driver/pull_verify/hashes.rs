//! A pull Secret as the record keeps it: SHA-256 hashes, salted with the record's own salt, of
//! its coordinates (namespace/name) and of the credentials it gave for the registry. The
//! credentials themselves are never written, and the salt keeps the file from being a table to
//! guess passwords against.

use ring::digest::{digest, SHA256};

use super::record::SecretHashes;
use crate::runtime::auth::Credentials;

/// How many random bytes make a record's salt.
const SALT_BYTES: usize = 16;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of `parts` under `salt`, each part length-prefixed so none can run into the next.
fn hash(salt: &str, purpose: &str, parts: &[&[u8]]) -> String {
    let mut input = Vec::new();
    for part in [salt.as_bytes(), purpose.as_bytes()].into_iter().chain(parts.iter().copied()) {
        input.extend((part.len() as u64).to_le_bytes());
        input.extend(part);
    }
    hex(digest(&SHA256, &input).as_ref())
}

/// The Secret `namespace/name` that gave `credentials`, hashed under `salt`. The server the
/// credentials were written for is left out: the same user and password for the same registry
/// are the same credentials, whichever way the key spells the registry.
pub fn secret_hashes(salt: &str, namespace: &str, name: &str, credentials: &Credentials) -> SecretHashes {
    let token = credentials.identity_token.as_deref().unwrap_or_default();
    SecretHashes {
        coordinates: hash(salt, "secret", &[namespace.as_bytes(), name.as_bytes()]),
        content: hash(
            salt,
            "credentials",
            &[credentials.username.as_bytes(), credentials.password.as_bytes(), token.as_bytes()],
        ),
    }
}

/// A fresh salt; `None` when the system's random number generator fails.
pub fn new_salt() -> Option<String> {
    let mut salt = [0u8; SALT_BYTES];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut salt).ok()?;
    Some(hex(&salt))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds(user: &str, pass: &str, server: &str) -> Credentials {
        Credentials { username: user.into(), password: pass.into(), server: server.into(), identity_token: None }
    }

    #[test]
    fn hashes_tell_credentials_and_places_apart_and_never_hold_them() {
        let salt = new_salt().unwrap();
        let a = secret_hashes(&salt, "a", "regcred", &creds("alice", "wonderland", "127.0.0.1:5000"));
        let e = secret_hashes(&salt, "e", "regcred", &creds("alice", "wonderland", "http://127.0.0.1:5000"));
        let c = secret_hashes(&salt, "a", "regcred", &creds("alice", "wrong", "127.0.0.1:5000"));
        assert_eq!(a.content, e.content, "the same credentials, another namespace and server key");
        assert_ne!(a.coordinates, e.coordinates);
        assert_ne!(a.content, c.content);
        assert_eq!(a.coordinates, c.coordinates);
        // Parts cannot run into each other.
        let split = secret_hashes(&salt, "a", "b", &creds("al", "icewonderland", ""));
        assert_ne!(split.content, a.content);
        assert_ne!(secret_hashes(&salt, "ab", "", &creds("", "", "")).coordinates, split.coordinates);
        // Another record's salt: other hashes.
        let other = secret_hashes(&new_salt().unwrap(), "a", "regcred", &creds("alice", "wonderland", ""));
        assert_ne!(other.content, a.content);
        assert!(!format!("{a:?}").contains("wonderland"));
    }
}
