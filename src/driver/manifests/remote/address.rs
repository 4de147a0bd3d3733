//! A URL source's address: which arguments are URLs, the URL as podrun names it (its password
//! hidden, as Go's `URL.Redacted` hides it), and where a redirect may go: Go's client follows
//! at most 10, and podrun follows only to `http` and `https`, never from `https` down to
//! `http` (a manifest fetched over TLS is not to be swapped by whoever sits on the plain path).

use url::{Host, Position, Url};

/// What Go's `URL.Redacted` puts in place of a password.
const HIDDEN: &str = "xxxxx";

/// Headers Go's client leaves out of a redirect to a host that is neither the first request's
/// nor one of its subdomains (net/http/client.go, `shouldCopyHeaderOnRedirect`).
pub const SENSITIVE: [&str; 4] = ["authorization", "www-authenticate", "cookie", "cookie2"];

/// A URL podrun will not fetch, or not follow a redirect to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("not a URL ({0})")]
    NotAUrl(url::ParseError),
    #[error("a redirect to {location}: not a URL ({source})")]
    BadLocation { location: String, source: url::ParseError },
    #[error("a redirect to {0}: only http and https are followed")]
    Scheme(String),
    #[error("a redirect from https to {0}: podrun does not leave TLS for plain HTTP")]
    Downgrade(String),
    #[error("no host in the URL")]
    NoHost,
    #[error("{0:?} is not a host name TLS can check a certificate for")]
    ServerName(String),
}

/// Whether a manifest argument is a URL rather than a path (`http://` or `https://`, any case).
pub fn is_url(arg: &str) -> bool {
    let lower = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The URL of a manifest argument, checked as one podrun can fetch.
pub fn parse(arg: &str) -> Result<Url, AddressError> {
    let url = Url::parse(arg).map_err(AddressError::NotAUrl)?;
    if url.host().is_none() {
        return Err(AddressError::NoHost);
    }
    Ok(url)
}

/// `url` as podrun writes it in messages and labels: its password, if any, hidden.
pub fn redacted(url: &Url) -> String {
    if url.password().is_none() {
        return url.as_str().to_owned();
    }
    let mut shown = url.clone();
    // Only URLs that cannot carry a password refuse one, and this one has one.
    let _ = shown.set_password(Some(HIDDEN));
    shown.into()
}

/// A manifest argument as podrun names it: the URL redacted, or, if it is no URL at all, what
/// comes before any `@` cut off (where a password would be).
pub fn redact_arg(arg: &str) -> String {
    match Url::parse(arg) {
        Ok(url) => redacted(&url),
        Err(_) => match arg.split_once("://").zip(arg.rsplit_once('@')) {
            Some(((scheme, _), (_, rest))) => format!("{scheme}://{HIDDEN}@{rest}"),
            None => arg.to_owned(),
        },
    }
}

/// The name a manifest argument goes by in podrun's messages, labels and YAML locations: a
/// URL as given, unless it holds a password (then redacted); anything else as it is.
pub fn shown(arg: &str) -> String {
    if !is_url(arg) {
        return arg.to_owned();
    }
    match Url::parse(arg) {
        Ok(url) if url.password().is_some() => redacted(&url),
        Ok(_) => arg.to_owned(),
        Err(_) => redact_arg(arg),
    }
}

/// Where a redirect from `from` to `location` (as the server wrote it, resolved against
/// `from`) goes, if podrun may follow it.
pub fn follow(from: &Url, location: &str) -> Result<Url, AddressError> {
    let to = from
        .join(location)
        .map_err(|source| AddressError::BadLocation { location: crate::escape::escape(location).into(), source })?;
    match (from.scheme(), to.scheme()) {
        (_, "http" | "https") if !(from.scheme() == "https" && to.scheme() == "http") => Ok(to),
        ("https", "http") => Err(AddressError::Downgrade(redacted(&to))),
        _ => Err(AddressError::Scheme(crate::escape::escape(&redacted(&to)).into())),
    }
}

/// Whether the headers of the first request to `first` go on to `to`: the same host, or one
/// of its subdomains, as Go's client decides it.
pub fn keeps_sensitive_headers(first: &Url, to: &Url) -> bool {
    match (first.host(), to.host()) {
        (Some(Host::Domain(a)), Some(Host::Domain(b))) => {
            let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
            a == b || b.strip_suffix(&a).is_some_and(|prefix| prefix.ends_with('.'))
        }
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The `Host` header of a request to `url`: host and port as written, no user or password.
pub fn authority(url: &Url) -> &str {
    &url[Position::BeforeHost..Position::AfterPort]
}

/// The request target: path and query.
pub fn target(url: &Url) -> &str {
    &url[Position::BeforePath..Position::AfterQuery]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn urls_are_told_from_paths() {
        assert!(is_url("http://127.0.0.1:8080/pod.yaml"));
        assert!(is_url("HTTPS://example.com/p"));
        assert!(!is_url("pod.yaml"));
        assert!(!is_url("ftp://example.com/pod.yaml"));
        assert!(!is_url("./http://x"));
        assert!(!is_url("-"));
        assert!(parse("http://exa mple.com/").is_err());
    }

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(redacted(&url("https://u:s3cret@h.example/p?q=1")), "https://u:xxxxx@h.example/p?q=1");
        assert_eq!(redacted(&url("https://u@h.example/p")), "https://u@h.example/p");
        assert_eq!(redact_arg("http://u:s3cret@h.example/p"), "http://u:xxxxx@h.example/p");
        assert_eq!(redact_arg("http://u:s3cret@exa mple/p"), "http://xxxxx@exa mple/p");
        assert!(!redact_arg("http://u:s3cret@[::1/p").contains("s3cret"));
        assert_eq!(shown("HTTP://Example.com/p"), "HTTP://Example.com/p", "as given");
        assert_eq!(shown("http://u:s3cret@h/p"), "http://u:xxxxx@h/p");
        assert_eq!(shown("dir/u:s3cret@h"), "dir/u:s3cret@h", "a path");
    }

    #[test]
    fn redirects_stay_on_http_and_never_leave_tls() {
        let from = url("https://a.example/x/pod.yaml");
        assert_eq!(follow(&from, "other.yaml").unwrap().as_str(), "https://a.example/x/other.yaml");
        assert_eq!(follow(&from, "https://b.example/p").unwrap().as_str(), "https://b.example/p");
        assert!(matches!(follow(&from, "http://a.example/p"), Err(AddressError::Downgrade(_))));
        assert!(matches!(follow(&from, "file:///etc/shadow"), Err(AddressError::Scheme(_))));
        let plain = url("http://a.example/p");
        assert_eq!(follow(&plain, "https://a.example/q").unwrap().as_str(), "https://a.example/q");
        assert!(matches!(follow(&plain, "ftp://a.example/q"), Err(AddressError::Scheme(_))));
    }

    #[test]
    fn sensitive_headers_follow_to_the_same_host_and_its_subdomains_only() {
        let first = url("https://example.com/p");
        assert!(keeps_sensitive_headers(&first, &url("http://example.com:8080/q")));
        assert!(keeps_sensitive_headers(&first, &url("https://cdn.EXAMPLE.com/q")));
        assert!(!keeps_sensitive_headers(&first, &url("https://badexample.com/q")));
        assert!(!keeps_sensitive_headers(&first, &url("https://other.org/q")));
        assert!(keeps_sensitive_headers(&url("http://127.0.0.1:1/"), &url("http://127.0.0.1:2/")));
    }

    #[test]
    fn the_request_names_host_port_path_and_query_only() {
        let u = url("https://u:p@h.example:8443/a/b?c=d#frag");
        assert_eq!(authority(&u), "h.example:8443");
        assert_eq!(target(&u), "/a/b?c=d");
    }
}
