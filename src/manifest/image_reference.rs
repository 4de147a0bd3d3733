//! Whether an image reference is one at all, by the grammar of `distribution/reference`
//! (`ParseNormalizedNamed`, which the kubelet's `applyDefaultImageTag` calls before any pull):
//! the API server accepts any image without blanks, and the kubelet refuses the rest as
//! InvalidImageName without pulling. The errors read as that package's.
//!
//! ```text
//! reference        := name [ ":" tag ] [ "@" digest ]
//! name             := [domain '/'] path-component ['/' path-component]*
//! domain           := host [':' port-number]
//! host             := domain-component ['.' domain-component]* | '[' IPv6address ']'
//! domain-component := /([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])/
//! path-component   := /[a-z0-9]+/ [separator /[a-z0-9]+/]*
//! separator        := /[_.]|__|[-]+/
//! tag              := /[\w][\w.-]{0,127}/
//! digest           := algorithm ":" hex, with sha256 (64), sha384 (96) or sha512 (128) lowercase hex
//! ```

use super::image::{DOCKER_HUB, LEGACY_HUB};

/// The longest name (domain and path) the grammar allows.
const NAME_TOTAL_LENGTH_MAX: usize = 255;

/// Why a string is no image reference: `distribution/reference`'s and `go-digest`'s words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidReference {
    #[error("invalid reference format")]
    Format,
    #[error("invalid reference format: repository name ({0}) must be lowercase")]
    Uppercase(String),
    #[error("repository name must not be more than {NAME_TOTAL_LENGTH_MAX} characters")]
    TooLong,
    #[error("invalid repository name ({0}), cannot specify 64-byte hexadecimal strings")]
    Identifier(String),
    #[error("unsupported digest algorithm")]
    DigestAlgorithm,
    #[error("invalid checksum digest length")]
    DigestLength,
    #[error("invalid checksum digest format")]
    DigestFormat,
}

/// Checks `image` as the kubelet does before it pulls.
pub fn check(image: &str) -> Result<(), InvalidReference> {
    if image.len() == 64 && is_lower_hex(image) {
        return Err(InvalidReference::Identifier(image.to_owned()));
    }
    let (domain, remainder) = split_domain(image);
    let remote_name = remainder.split_once(':').map_or(remainder.as_str(), |(n, _)| n);
    if remote_name.to_lowercase() != remote_name {
        return Err(InvalidReference::Uppercase(remote_name.to_owned()));
    }
    parse(domain, &remainder)
}

/// `splitDockerDomain`: a first component is a registry when it holds '.' or ':', is
/// `localhost`, or has uppercase letters (repository names have none); Docker Hub's official
/// images are under `library/`.
fn split_domain(image: &str) -> (&str, String) {
    let (domain, rest) = match image.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" || first.to_lowercase() != first => {
            (first, rest)
        }
        _ => (DOCKER_HUB, image),
    };
    let domain = if domain == LEGACY_HUB { DOCKER_HUB } else { domain };
    if domain == DOCKER_HUB && !rest.contains('/') {
        return (domain, format!("library/{rest}"));
    }
    (domain, rest.to_owned())
}

/// `reference.Parse` of `domain/remainder`.
fn parse(domain: &str, remainder: &str) -> Result<(), InvalidReference> {
    let (name_tag, digest) = match remainder.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (remainder, None),
    };
    let (path, tag) = match name_tag.rsplit_once(':') {
        Some((p, t)) if !t.contains('/') => (p, Some(t)),
        _ => (name_tag, None),
    };
    let path_ok = |p: &str| p.split('/').all(is_path_component);
    let grammatical = is_domain(domain) && path_ok(path) && tag.is_none_or(is_tag) && digest.is_none_or(is_digest_form);
    if !grammatical {
        // Only the case keeps it from the grammar: the words for that.
        let lower = path.to_lowercase();
        return Err(if path_ok(&lower) && lower != path && tag.is_none_or(is_tag) {
            InvalidReference::Uppercase(path.to_owned())
        } else {
            InvalidReference::Format
        });
    }
    if domain.len() + 1 + path.len() > NAME_TOTAL_LENGTH_MAX {
        return Err(InvalidReference::TooLong);
    }
    digest.map_or(Ok(()), check_digest)
}

fn is_domain(domain: &str) -> bool {
    let (host, port) = match domain.rsplit_once(':') {
        Some((h, p)) if !p.contains(']') => (h, Some(p)),
        _ => (domain, None),
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => !v6.is_empty() && v6.bytes().all(|b| b.is_ascii_hexdigit() || b == b':'),
        None => host.split('.').all(is_domain_component),
    };
    port_ok && host_ok
}

fn is_domain_component(c: &str) -> bool {
    let b = c.as_bytes();
    !b.is_empty() && b.iter().all(|x| x.is_ascii_alphanumeric() || *x == b'-') && b[0] != b'-' && b[b.len() - 1] != b'-'
}

/// Lowercase alphanumeric runs joined by `.`, `_`, `__` or any run of `-`.
fn is_path_component(c: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let b = c.as_bytes();
    if b.is_empty() || !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &c[start..i];
        if !(matches!(sep, "." | "_" | "__") || sep.bytes().all(|x| x == b'-')) {
            return false;
        }
    }
    true
}

fn is_tag(t: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let b = t.as_bytes();
    !b.is_empty() && b.len() <= 128 && word(b[0]) && b.iter().all(|x| word(*x) || *x == b'.' || *x == b'-')
}

/// The digest as the reference grammar reads it (algorithm components and 32+ hex digits).
fn is_digest_form(d: &str) -> bool {
    let Some((algorithm, hex)) = d.split_once(':') else { return false };
    let component_ok = |c: &str| {
        let b = c.as_bytes();
        !b.is_empty() && b[0].is_ascii_alphabetic() && b.iter().all(u8::is_ascii_alphanumeric)
    };
    algorithm.split(['-', '_', '+', '.']).all(component_ok)
        && hex.len() >= 32
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `digest.Parse`: an algorithm go-digest knows, with its length of lowercase hex.
fn check_digest(d: &str) -> Result<(), InvalidReference> {
    let (algorithm, hex) = d.split_once(':').ok_or(InvalidReference::DigestFormat)?;
    let length = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return Err(InvalidReference::DigestAlgorithm),
    };
    if hex.len() != length {
        return Err(InvalidReference::DigestLength);
    }
    if !is_lower_hex(hex) {
        return Err(InvalidReference::DigestFormat);
    }
    Ok(())
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "7cc4b5aefd1d0cadf8d97d4350462ba51c694ebca145b08d7d41b41acc8db5aa";

    #[test]
    fn references_the_kubelet_pulls() {
        let with_digest = format!("busybox@sha256:{SHA}");
        let tagged_digest = format!("127.0.0.1:5000/x/y:1@sha256:{SHA}");
        let ok = [
            "busybox",
            "busybox:1.28",
            "library/busybox:latest",
            "docker.io/library/busybox",
            "index.docker.io/u/app",
            "registry.k8s.io/pause:3.10",
            "localhost/x",
            "localhost:5000/a_b/c__d/e--f.g:TAG_1.x-y",
            "[::1]:5000/x",
            "Registry/x",
            "UPPER/case",
            "my-registry.example.com:443/a/b",
            &with_digest,
            &tagged_digest,
        ];
        for image in ok {
            assert_eq!(check(image), Ok(()), "{image}");
        }
    }

    #[test]
    fn what_the_kubelet_calls_an_invalid_image_name() {
        let cases = [
            ("./myimage", InvalidReference::Format),
            ("", InvalidReference::Format),
            ("busybox:", InvalidReference::Format),
            ("busybox:-x", InvalidReference::Format),
            ("bad//name", InvalidReference::Format),
            ("a-/b", InvalidReference::Format),
            ("x/-y", InvalidReference::Format),
            ("x/y_", InvalidReference::Format),
            ("x/y___z", InvalidReference::Format),
            ("-host.io/x", InvalidReference::Format),
            ("host.io:port/x", InvalidReference::Format),
            ("busybox@sha256:abc", InvalidReference::Format),
            ("Busybox", InvalidReference::Uppercase("library/Busybox".into())),
            ("user/App:1", InvalidReference::Uppercase("user/App".into())),
            ("quay.io/Org/app", InvalidReference::Uppercase("Org/app".into())),
            (SHA, InvalidReference::Identifier(SHA.into())),
        ];
        for (image, why) in cases {
            assert_eq!(check(image), Err(why), "{image}");
        }
        let long = format!("x/{}", "a".repeat(300));
        assert_eq!(check(&long), Err(InvalidReference::TooLong));
        let md5 = format!("busybox@md5:{}", &SHA[..32]);
        assert_eq!(check(&md5), Err(InvalidReference::DigestAlgorithm));
        assert_eq!(check(&format!("busybox@sha256:{}", &SHA[..40])), Err(InvalidReference::DigestLength));
        let upper = format!("busybox@sha256:{}", SHA.to_uppercase());
        assert_eq!(check(&upper), Err(InvalidReference::DigestFormat));
        assert_eq!(check(&format!("busybox:1:2@sha256:{SHA}")), Err(InvalidReference::Format));
    }
}
