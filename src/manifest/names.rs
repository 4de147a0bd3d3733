//! Kubernetes' name formats, with the API server's exact messages (apimachinery 1.35/1.36
//! util/validation: `IsDNS1123Label`, `IsDNS1123Subdomain`, `IsQualifiedName`,
//! `IsValidLabelValue`, and `RegexError` for the wording): the one place each rule and its
//! message is written, for validation and for the planner and command line alike. A value can
//! break several rules at once; each broken rule is one message, as there.

pub const DNS1123_LABEL_MAX: usize = 63;
pub const DNS1123_SUBDOMAIN_MAX: usize = 253;
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
    or '.', and must start and end with an alphanumeric character";
const DNS_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
    and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
    '-' or '.', and must start and end with an alphanumeric character";

/// apimachinery's `RegexError`, double space after the first example's comma included.
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{re}')"));
    out
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    !b.is_empty()
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter().all(|&c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

fn matches_dns_subdomain(s: &str) -> bool {
    s.split('.').all(is_label_body)
}

/// `IsDNS1123Subdomain`. `unit` is how the length limit is worded: names say "characters",
/// the prefix of a label key "bytes" (two generations of the same function).
fn dns_subdomain_problems_in(s: &str, unit: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        out.push(format!("must be no more than {DNS1123_SUBDOMAIN_MAX} {unit}"));
    }
    if !matches_dns_subdomain(s) {
        out.push(subdomain_msg());
    }
    out
}

/// `IsDNS1123Subdomain`, as names (`NameIsDNSSubdomain`) use it.
pub fn dns_subdomain_problems(s: &str) -> Vec<String> {
    dns_subdomain_problems_in(s, "characters")
}

/// `IsQualifiedName` (a label key): an optional DNS subdomain prefix and '/', then a name.
pub fn label_key_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".to_owned());
            } else {
                out.extend(dns_subdomain_problems_in(prefix, "bytes").into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            out.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return out;
        }
    };
    if name.is_empty() {
        out.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        out.push("name part must be no more than 63 bytes".to_owned());
    }
    if !matches_label_key_name(name) {
        out.push(format!("name part {}", regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])));
    }
    out
}

/// `IsValidLabelValue`.
pub fn label_value_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 bytes".to_owned());
    }
    if !s.is_empty() && !matches_label_key_name(s) {
        out.push(regex_error(LABEL_VALUE_MSG, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    out
}

/// The API server's messages come from `RegexError` ([`regex_error`]), which joins examples
/// with "', " and " or ": hence the two spaces in "'my-name',  or '123-abc'", kept as kubectl
/// shows them.
pub fn label_msg() -> String {
    regex_error(DNS_LABEL_MSG, DNS_LABEL_FMT, &["my-name", "123-abc"])
}

pub fn subdomain_msg() -> String {
    regex_error(DNS_SUBDOMAIN_MSG, DNS_SUBDOMAIN_FMT, &["example.com"])
}

/// `IsQualifiedName`'s message for a whole name, as the API server words it where one message
/// stands for every broken rule.
pub fn qualified_msg() -> String {
    format!(
        "name part {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
    )
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, length aside.
fn is_label_body(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty() && alnum(b[0]) && alnum(b[b.len() - 1]) && b.iter().all(|&c| alnum(c) || c == b'-')
}

pub fn is_dns1123_label(s: &str) -> bool {
    s.len() <= DNS1123_LABEL_MAX && is_label_body(s)
}

/// `IsDNS1123Label` of apimachinery's util/validation (Kubernetes 1.36): its messages, in its
/// order. What the API server says of a namespace, the object's or the request's.
pub fn dns1123_label_problems(s: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if s.len() > DNS1123_LABEL_MAX {
        problems.push(format!("must be no more than {DNS1123_LABEL_MAX} characters"));
    }
    if !is_label_body(s) {
        // A valid subdomain that is not a label can only be one with dots (length aside).
        if s.split('.').all(is_label_body) {
            problems.push("must not contain dots".to_owned());
        } else {
            problems.push(label_msg());
        }
    }
    problems
}

pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= DNS1123_SUBDOMAIN_MAX && matches_dns_subdomain(s)
}

/// The name part of a label key, and a label value when non-empty.
pub fn is_qualified_name_part(s: &str) -> bool {
    s.len() <= 63 && matches_label_key_name(s)
}

pub fn is_qualified_name(s: &str) -> bool {
    match s.split_once('/') {
        Some((prefix, name)) => is_dns1123_subdomain(prefix) && is_qualified_name_part(name),
        None => is_qualified_name_part(s),
    }
}

/// A DNS subdomain whose labels may also hold '_' (DNS search domains, as relaxed in
/// Kubernetes 1.32).
pub fn is_dns1123_subdomain_with_underscore(s: &str) -> bool {
    let label = |l: &str| {
        let b = l.as_bytes();
        let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty() && alnum(b[0]) && alnum(b[b.len() - 1]) && b.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
    };
    s.len() <= DNS1123_SUBDOMAIN_MAX && s.split('.').all(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names() {
        for ok in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            &"a".repeat(63),
            &format!("{}/b", "a".repeat(253)),
        ] {
            assert!(label_key_problems(ok).is_empty(), "{ok}: {:?}", label_key_problems(ok));
        }
        for bad in [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            &"a".repeat(64),
            &format!("{}/b", "a".repeat(254)),
        ] {
            assert!(!label_key_problems(bad).is_empty(), "{bad}");
        }
        assert_eq!(
            label_key_problems("example.com/"),
            [
                "name part must be non-empty",
                &format!("name part {}", regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"]))
            ]
        );
        assert_eq!(label_key_problems("/simple"), ["prefix part must be non-empty"]);
        assert_eq!(
            label_key_problems("bad key"),
            ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an \
              alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
              '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
    }

    #[test]
    fn label_values() {
        for ok in
            ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "", "A.B_C-9", &"a".repeat(63)]
        {
            assert!(label_value_problems(ok).is_empty(), "{ok}");
        }
        for bad in [
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
        ] {
            assert_eq!(label_value_problems(bad).len(), 1, "{bad}");
        }
        assert_eq!(label_value_problems(&"a".repeat(64)), ["must be no more than 63 bytes"]);
    }

    #[test]
    fn dns_names() {
        assert!(dns_subdomain_problems("a.b-c.d").is_empty());
        assert_eq!(dns_subdomain_problems("A").len(), 1);
        assert_eq!(dns1123_label_problems("a.b"), ["must not contain dots"]);
        assert_eq!(dns1123_label_problems(&"a".repeat(64)), ["must be no more than 63 characters"]);
    }

    /// What kubectl prints, word for word: the messages built by `regex_error` are these.
    #[test]
    fn messages_read_as_the_api_server_words_them() {
        assert_eq!(
            label_msg(),
            "a lowercase RFC 1123 label must consist of lower case alphanumeric \
    characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  \
    or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        );
        assert_eq!(
            subdomain_msg(),
            "a lowercase RFC 1123 subdomain must consist of lower case \
    alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character \
    (e.g. 'example.com', regex used for validation is \
    '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
        assert_eq!(
            qualified_msg(),
            "name part must consist of alphanumeric characters, '-', '_' or \
    '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  \
    or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with \
    an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        );
    }
}
