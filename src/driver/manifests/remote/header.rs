//! The headers sent with every request for a URL source: `--header NAME:VALUE`, as the
//! kubelet's `--manifest-url-header` takes them (one per flag here, so a value may hold
//! commas). A value may be a secret (`Authorization: Bearer ...`): it is never printed, not in
//! an error, not in `Debug`, at no log level, and hyper is told it is sensitive.

use std::fmt;

use hyper::header::{HeaderName, HeaderValue};

use crate::exit::UsageError;

/// One header to send.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub name: HeaderName,
    pub value: HeaderValue,
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: (hidden)", self.name)
    }
}

/// Headers podrun writes itself, which a flag may not replace.
const OWN: [&str; 4] = ["host", "content-length", "transfer-encoding", "connection"];

/// Reads one `--header NAME:VALUE`. The error names the header, never its value.
pub fn parse(arg: &str) -> Result<Header, UsageError> {
    let Some((name, value)) = arg.split_once(':') else {
        return Err(UsageError::Said("--header: expected NAME:VALUE (the value is not shown)".into()));
    };
    let shown = crate::escape::escape(name);
    let name = HeaderName::from_bytes(name.trim().as_bytes())
        .map_err(|_| UsageError::Said(format!("--header {shown:?}: not a valid HTTP header name")))?;
    if OWN.contains(&name.as_str()) {
        return Err(UsageError::Said(format!("--header {name}: podrun writes this header itself")));
    }
    // Leading and trailing blanks are not part of a field value (RFC 9110, 5.5).
    let mut value = HeaderValue::from_str(value.trim_matches([' ', '\t'])).map_err(|_| {
        UsageError::Said(format!(
            "--header {name}: not a valid HTTP header value (control characters or bytes that are not \
             visible ASCII; the value is not shown)"
        ))
    })?;
    value.set_sensitive(true);
    Ok(Header { name, value })
}

/// Reads every `--header`.
pub fn parse_all(args: &[String]) -> Result<Vec<Header>, UsageError> {
    args.iter().map(|a| parse(a)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_a_name_and_a_value() {
        let h = parse("Authorization: Bearer abc:def,ghi ").unwrap();
        assert_eq!(h.name.as_str(), "authorization");
        assert_eq!(h.value.to_str().unwrap(), "Bearer abc:def,ghi");
        assert!(h.value.is_sensitive());
        assert_eq!(parse("X-Empty:").unwrap().value.to_str().unwrap(), "");
    }

    #[test]
    fn a_bad_header_is_refused_without_showing_its_value() {
        for bad in
            ["no-colon-s3cret", "bad name:s3cret", ":s3cret", "X-A:s3cret\nInjected: 1", "X-A:s3cret\r", "Host:s3cret"]
        {
            let e = parse(bad).unwrap_err().to_string();
            assert!(!e.contains("s3cret"), "{bad:?}: {e}");
            assert!(e.starts_with("--header"), "{e}");
        }
        assert!(parse("bad name:v").unwrap_err().to_string().contains("\"bad name\""));
        assert!(parse_all(&["A:1".into(), "B".into()]).is_err());
    }

    #[test]
    fn debug_hides_the_value() {
        let h = parse("Authorization:Bearer s3cret").unwrap();
        assert_eq!(format!("{h:?}"), "authorization: (hidden)");
        assert!(!format!("{:?}", vec![h]).contains("s3cret"));
    }
}
