//! Where an HTTP probe or hook goes next when it is answered with a redirect, as Go's HTTP
//! client decides it under the kubelet's `RedirectChecker(false)` (pkg/probe/http/http.go),
//! which probes and lifecycle hooks share: a redirect to the same host name (any port or
//! scheme) is followed, up to 10 requests in all; one to another host is not followed, and
//! its answer is the final one. Which status codes are followed, how the `Location` is
//! resolved, and which headers the next request carries are Go's (net/http/client.go).

use url::{Position, Url};

use super::join_host_port;

/// Go's client makes at most this many requests for one GET (its default, which the
/// kubelet's checker keeps: "stopped after 10 redirects").
pub const MAX_REQUESTS: usize = 10;

/// One request of a GET that may be redirected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    pub tls: bool,
    /// What to dial: a DNS name or an IP address, without brackets.
    pub host: String,
    pub port: u16,
    /// The request target: path and query.
    pub target: String,
    /// The `Host` header, unless the probe's own is kept.
    pub authority: String,
    /// Whether a `Host` header among the probe's headers is sent: on the first request, and
    /// after a redirect to a relative location (Go keeps a caller's Host then, issue 22233).
    pub custom_host: bool,
    /// The URL of the request that was redirected, which Go sends as `Referer` (but not from
    /// HTTPS to HTTP).
    pub referer: Option<String>,
}

impl Hop {
    /// The request the kubelet makes first: to `host:port`, with the probe's path.
    pub fn first(tls: bool, host: &str, port: u16, target: String) -> Hop {
        Hop {
            tls,
            host: host.to_owned(),
            port,
            target,
            authority: join_host_port(host, port),
            custom_host: true,
            referer: None,
        }
    }

    fn url(&self) -> Result<Url, RedirectError> {
        let scheme = if self.tls { "https" } else { "http" };
        let text = format!("{scheme}://{}{}", join_host_port(&self.host, self.port), self.target);
        Url::parse(&text).map_err(|source| RedirectError::NotAUrl { text, source })
    }
}

/// A redirect that cannot be followed, in Go's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectError {
    #[error("{text:?} is not a URL")]
    NotAUrl {
        text: String,
        #[source]
        source: url::ParseError,
    },
    #[error("failed to parse Location header {location:?}")]
    BadLocation {
        location: String,
        #[source]
        source: url::ParseError,
    },
    #[error("Get {location:?}: unsupported protocol scheme {scheme:?}")]
    Scheme { location: String, scheme: String },
    #[error("Get {location:?}: no host in the URL")]
    NoHost { location: String },
}

/// Whether Go's client follows a response with this status code (given a `Location`).
pub fn is_followed(code: u16) -> bool {
    matches!(code, 301 | 302 | 303 | 307 | 308)
}

/// The next request after `current` was answered with a redirect to `location`: `Ok(None)`
/// when the location is on another host than the first request's (`first`), so the redirect
/// itself is the answer; an error for a location that cannot be followed (Go's words).
pub fn follow(first: &Hop, current: &Hop, location: &str) -> Result<Option<Hop>, RedirectError> {
    let base = current.url()?;
    let next =
        base.join(location).map_err(|source| RedirectError::BadLocation { location: location.to_owned(), source })?;
    if next.host_str() != first.url()?.host_str() {
        return Ok(None);
    }
    let tls = match next.scheme() {
        "http" => false,
        "https" => true,
        other => return Err(RedirectError::Scheme { location: location.to_owned(), scheme: other.to_owned() }),
    };
    let host = match next.host() {
        Some(url::Host::Domain(d)) => d.to_owned(),
        Some(url::Host::Ipv4(a)) => a.to_string(),
        Some(url::Host::Ipv6(a)) => a.to_string(),
        None => return Err(RedirectError::NoHost { location: location.to_owned() }),
    };
    let port = next.port_or_known_default().unwrap_or(if tls { 443 } else { 80 });
    let mut referer = base.clone();
    // Go's refererForURL: no credentials, and nothing from HTTPS to HTTP.
    let _ = referer.set_username("");
    let _ = referer.set_password(None);
    let referer = (!current.tls || tls).then(|| referer.to_string());
    Ok(Some(Hop {
        tls,
        host,
        port,
        target: next[Position::BeforePath..Position::AfterQuery].to_owned(),
        authority: next[Position::BeforeHost..Position::AfterPort].to_owned(),
        custom_host: matches!(Url::parse(location), Err(url::ParseError::RelativeUrlWithoutBase)),
        referer,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first() -> Hop {
        Hop::first(false, "10.0.0.5", 8080, "/healthz?full=1".into())
    }

    #[test]
    fn relative_locations_resolve_against_the_current_request() {
        let f = first();
        let next = follow(&f, &f, "/ok").unwrap().unwrap();
        assert_eq!((next.host.as_str(), next.port, next.target.as_str()), ("10.0.0.5", 8080, "/ok"));
        assert_eq!(next.authority, "10.0.0.5:8080");
        assert!(next.custom_host, "a relative location keeps the probe's Host header");
        assert_eq!(next.referer.as_deref(), Some("http://10.0.0.5:8080/healthz?full=1"));
        let sibling = follow(&f, &next, "other?x=1#frag").unwrap().unwrap();
        assert_eq!(sibling.target, "/other?x=1");
        let up = follow(&f, &Hop { target: "/a/b/c".into(), ..f.clone() }, "../d").unwrap().unwrap();
        assert_eq!(up.target, "/a/d");
    }

    #[test]
    fn the_same_host_on_another_port_or_scheme_is_followed_another_host_is_not() {
        let f = first();
        let next = follow(&f, &f, "https://10.0.0.5:8443/secure").unwrap().unwrap();
        assert!(next.tls);
        assert_eq!((next.port, next.target.as_str(), next.authority.as_str()), (8443, "/secure", "10.0.0.5:8443"));
        assert!(!next.custom_host, "an absolute location sends its own Host");
        // Back from HTTPS to HTTP: no Referer.
        let back = follow(&f, &next, "http://10.0.0.5/plain").unwrap().unwrap();
        assert_eq!((back.tls, back.port, back.authority.as_str()), (false, 80, "10.0.0.5"));
        assert_eq!(back.referer, None);
        assert_eq!(follow(&f, &f, "http://0.0.0.0/fail").unwrap(), None);
        assert_eq!(follow(&f, &f, "//elsewhere.example/x").unwrap(), None);
        // Compared with the first request's host, not the one before.
        let v6 = Hop::first(false, "::1", 80, "/".into());
        let next = follow(&v6, &v6, "http://[::1]:81/x").unwrap().unwrap();
        assert_eq!((next.host.as_str(), next.authority.as_str()), ("::1", "[::1]:81"));
        assert_eq!(follow(&v6, &next, "http://127.0.0.1/").unwrap(), None);
    }

    #[test]
    fn locations_that_cannot_be_followed() {
        let f = first();
        let e = follow(&f, &f, "ftp://10.0.0.5/file").unwrap_err().to_string();
        assert_eq!(e, "Get \"ftp://10.0.0.5/file\": unsupported protocol scheme \"ftp\"");
        let e = follow(&f, &f, "http://[::1/").unwrap_err().to_string();
        assert!(e.starts_with("failed to parse Location header"), "{e}");
        assert!(is_followed(302) && is_followed(308) && !is_followed(304) && !is_followed(300));
    }
}
