//! What goes wrong in a load, and where: the document a problem is in, and serde_yaml's
//! errors said in the user's words (placed, Rust's type names replaced, secrets hidden).

use std::fmt;

use crate::escape::Escaped;
use crate::manifest::config_store::ConfigError;
use crate::manifest::validate::FieldError;
use crate::manifest::yaml::budget;
use crate::manifest::yaml::strict;

/// A document within a file: `pod.yaml`, `pod.yaml (document 2)` when there are several, and
/// `pods.yaml (items[3])` for an item of a `List`. File names are displayed escaped, here and
/// in [`ManifestError`] (`crate::escape`): an error stays one line a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocRef {
    pub file: String,
    /// 1-based; `None` when the file holds one document.
    pub index: Option<usize>,
    /// The path of a `List` item within the document (`items[3]`, `items[0].items[1]`).
    pub item: Option<String>,
}

impl DocRef {
    /// Item `i` of the `List` this names.
    pub fn item(&self, i: usize) -> DocRef {
        let item = match &self.item {
            Some(outer) => format!("{outer}.items[{i}]"),
            None => format!("items[{i}]"),
        };
        DocRef { item: Some(item), ..self.clone() }
    }
}

impl fmt::Display for DocRef {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", Escaped(&self.file))?;
        match (self.index, &self.item) {
            (Some(i), Some(item)) => write!(f, " (document {i}, {item})"),
            (Some(i), None) => write!(f, " (document {i})"),
            (None, Some(item)) => write!(f, " ({item})"),
            (None, None) => Ok(()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{}: cannot read", Escaped(file))]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: larger than {cap_mib} MiB, the most podrun reads from one input", Escaped(file))]
    TooLarge { file: String, cap_mib: u64 },
    #[error("{}:{line}:{column}: {}", Escaped(file), Escaped(message))]
    Syntax { file: String, line: usize, column: usize, message: String },
    /// Every problem of one object at once, counted, as the API server lists them.
    #[error("{doc}: invalid {what} ({}):{}", count(problems.len()), list(&doc.file, problems))]
    Invalid { doc: DocRef, what: String, problems: Vec<FieldError> },
    #[error("{}: no Pod in this manifest (podrun runs Pods, and the pod templates of workloads)", Escaped(file))]
    NoPod { file: String },
    #[error(
        "{doc}: the namespace {found:?} of the manifest does not match the namespace {given:?} given with --namespace"
    )]
    NamespaceMismatch { doc: DocRef, found: String, given: String },
    #[error("{} and {}: both define Pod {}", Escaped(first), Escaped(second), Escaped(pod))]
    Duplicate { first: String, second: String, pod: String },
    /// Two ConfigMaps, Secrets or claims of one name in one namespace.
    #[error("{} and {}: both define {kind} {}", Escaped(first), Escaped(second), Escaped(name))]
    DuplicateObject { first: String, second: String, kind: &'static str, name: String },
    /// A `--config` file holds something other than ConfigMaps, Secrets and Lists of them.
    #[error("{doc}: {kind} {name:?} in a --config file, which may hold only ConfigMap, Secret and List documents")]
    ConfigFileObject { doc: DocRef, kind: String, name: String },
    /// A ConfigMap's or Secret's data cannot be decoded (the message names the key only).
    #[error("{doc}: {error}")]
    Config { doc: DocRef, error: Box<ConfigError> },
    /// Several of the above, in the order of the files and documents: every bad manifest is
    /// said at once.
    #[error("{}", several(errors))]
    Many { errors: Vec<ManifestError> },
}

impl ManifestError {
    /// `errors` as one error: none, the only one, or all of them (those that are several
    /// themselves taken apart, so the list stays flat).
    pub fn of(errors: Vec<ManifestError>) -> Option<ManifestError> {
        let mut flat: Vec<ManifestError> = errors
            .into_iter()
            .flat_map(|e| match e {
                ManifestError::Many { errors } => errors,
                e => vec![e],
            })
            .collect();
        match flat.len() {
            0 => None,
            1 => flat.pop(),
            _ => Some(ManifestError::Many { errors: flat }),
        }
    }
}

/// The problems, one a line; a problem placed in the text starts with its file, line and
/// column, as a syntax error does.
fn list(file: &str, problems: &[FieldError]) -> String {
    problems
        .iter()
        .map(|p| match p.at {
            Some(at) => format!("\n  {}:{at}: {p}", Escaped(file)),
            None => format!("\n  {p}"),
        })
        .collect()
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 error".to_owned()
    } else {
        format!("{n} errors")
    }
}

fn several(errors: &[ManifestError]) -> String {
    let lines: Vec<String> = errors.iter().map(|e| crate::error_chain::chain(e)).collect();
    lines.join("\n")
}

pub(super) fn syntax_error(file: &str, e: &serde_yaml::Error) -> ManifestError {
    let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((0, 0));
    // The location goes in front, as compilers print it; drop serde_yaml's copy of it.
    let mut message = e.to_string().replace(&format!(" at line {line} column {column}"), "");
    // serde names Rust's types; say what the user writes.
    for (rust, words) in [
        ("i64", "an integer"),
        ("i32", "an integer"),
        ("u64", "an integer"),
        ("u32", "an integer"),
        ("f64", "a number"),
    ] {
        if let Some(stem) = message.strip_suffix(&format!("expected {rust}")) {
            message = format!("{stem}expected {words}");
        }
    }
    // A base64 error names its field as Kubernetes does (`data[token]`); serde_yaml's own
    // path in front of that (`data.token: `) says it again.
    if message.contains(strict::BASE64_ERROR) {
        if let Some(i) = message.find(": data[").or_else(|| message.find(": binaryData[")) {
            message.replace_range(..i + 2, "");
        }
    }
    ManifestError::Syntax { file: file.to_owned(), line, column, message }
}

/// A serde_yaml error of the document `doc_line` starts, placed: errors serde_yaml cannot
/// place (its alias repetition limit) are placed at their document.
pub(super) fn located_error(file: &str, e: &serde_yaml::Error, doc_line: Option<usize>) -> ManifestError {
    let mut err = syntax_error(file, e);
    if let ManifestError::Syntax { line, column, message, .. } = &mut err {
        if *line == 0 {
            (*line, *column) = (doc_line.unwrap_or(1), 1);
        }
        if message.contains(budget::TOO_MANY) {
            *message = format!(
                "aliases here make more than {} values beyond those written in the input; \
                 refused, as kubectl refuses excessive aliasing",
                budget::ALIAS_ALLOWANCE
            );
        } else if message.ends_with("repetition limit exceeded") {
            *message = "the aliases of the document starting here repeat its values more than 100 times over; \
                        refused, as kubectl refuses excessive aliasing"
                .to_owned();
        }
    }
    err
}

/// serde's type errors quote the value they met (`invalid type: integer `1234``), which in a
/// Secret is a secret. This keeps the kind of value and drops the value.
pub(super) fn redact(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find(['`', '"']) {
        let quote = rest[start..].chars().next().unwrap_or('"');
        out.push_str(&rest[..start]);
        match rest[start + 1..].find(quote) {
            Some(len) => {
                out.push_str("(value hidden)");
                rest = &rest[start + 1 + len + 1..];
            }
            None => {
                out.push_str("(value hidden)");
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}
