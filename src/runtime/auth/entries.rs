//! The entries of a docker config (`auths` values, or a `.dockercfg` map), the format both the
//! pull Secrets and the Docker CLI's config.json store credentials in.

use std::collections::BTreeMap;

use base64::Engine;
use serde::Deserialize;

/// One entry of a docker config (`auths` value, or a `.dockercfg` map value). Every field is
/// optional and may be `null`, as Go's decoder allows.
#[derive(Debug, Default, Deserialize)]
pub(super) struct AuthEntry {
    #[serde(default)]
    pub(super) username: Option<String>,
    #[serde(default)]
    pub(super) password: Option<String>,
    #[serde(default)]
    pub(super) auth: Option<String>,
    #[serde(default)]
    pub(super) identitytoken: Option<String>,
}

pub(super) type AuthMap = BTreeMap<String, Option<AuthEntry>>;

#[derive(Debug, Default, Deserialize)]
pub(super) struct DockerConfigJson {
    #[serde(default)]
    pub(super) auths: Option<AuthMap>,
}

/// `(username, password)` of an entry: `auth` when set (it wins, as in both the kubelet and
/// Docker), else the separate fields. `Err(())` for an `auth` that does not decode; the caller
/// names the entry.
pub(super) fn user_and_password(entry: &AuthEntry) -> Result<(String, String), ()> {
    match entry.auth.as_deref().filter(|a| !a.is_empty()) {
        Some(auth) => decode_auth(auth),
        None => Ok((entry.username.clone().unwrap_or_default(), entry.password.clone().unwrap_or_default())),
    }
}

/// base64 of `user:password`. Padded and unpadded are both accepted (the kubelet chooses by a
/// trailing '='); NULs trailing the password are dropped as Docker does.
pub(super) fn decode_auth(auth: &str) -> Result<(String, String), ()> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
    let auth = auth.trim();
    let decoded = if auth.ends_with('=') { STANDARD.decode(auth) } else { STANDARD_NO_PAD.decode(auth) };
    let decoded = String::from_utf8(decoded.map_err(|_| ())?).map_err(|_| ())?;
    let (user, password) = decoded.split_once(':').ok_or(())?;
    Ok((user.to_owned(), password.trim_matches('\0').to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(s: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(s)
    }

    #[test]
    fn unpadded_auth_and_colons_in_the_password_decode() {
        let unpadded = base64::engine::general_purpose::STANDARD_NO_PAD.encode("u:p:w");
        assert_eq!(decode_auth(&unpadded), Ok(("u".to_owned(), "p:w".to_owned())));
        assert_eq!(decode_auth(&b64("u:p:w")), Ok(("u".to_owned(), "p:w".to_owned())));
        assert_eq!(decode_auth(&b64("no-colon")), Err(()));
        assert_eq!(decode_auth("!!!"), Err(()));
    }
}
