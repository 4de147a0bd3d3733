//! An error with its causes, on one line: `what failed: why: the OS's words`, as anyhow's
//! `{:#}` prints it at the top. Errors keep their cause as `#[source]` and say only their own
//! part in `Display`; where such an error becomes text below the top (a pod's status message,
//! an event, a warning), this prints the whole chain.

use std::error::Error;
use std::fmt;

/// Displays `0` and each of its sources, joined by `": "`.
pub struct Chain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, e) in links(self.0).enumerate() {
            if i > 0 {
                f.write_str(": ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// `e` with its causes, as text.
pub fn chain(e: &(dyn Error + 'static)) -> String {
    Chain(e).to_string()
}

/// `e` with its causes, leaving out a cause whose text an earlier part already holds: for a
/// library error whose own text often repeats its cause, and as often leaves out the one that
/// matters (bollard's: a refused connection, a closed stream).
pub fn distinct(e: &(dyn Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    for e in links(e) {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

/// `e`, then each of its sources in turn.
fn links<'a>(e: &'a (dyn Error + 'static)) -> impl Iterator<Item = &'a (dyn Error + 'static)> {
    std::iter::successors(Some(e), |e| (*e).source())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read {}", crate::escape::Escaped(path))]
    struct Outer {
        path: &'static str,
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn prints_each_cause_once() {
        let e = Outer { path: "a.yaml", source: std::io::Error::from(std::io::ErrorKind::NotFound) };
        assert_eq!(chain(&e), "cannot read a.yaml: entity not found");
        assert_eq!(chain(&std::io::Error::from(std::io::ErrorKind::NotFound)), "entity not found");
        // As anyhow prints it at the top, so a message reads the same in both places.
        assert_eq!(chain(&e), format!("{:#}", anyhow::Error::new(e)));
    }

    #[derive(Debug, thiserror::Error)]
    #[error("error trying to connect: {source}")]
    struct Repeats {
        #[source]
        source: Outer,
    }

    #[test]
    fn distinct_leaves_out_a_cause_already_said() {
        let inner = Outer { path: "a.yaml", source: std::io::Error::from(std::io::ErrorKind::NotFound) };
        let e = Repeats { source: inner };
        assert_eq!(chain(&e), "error trying to connect: cannot read a.yaml: cannot read a.yaml: entity not found");
        assert_eq!(distinct(&e), "error trying to connect: cannot read a.yaml: entity not found");
    }
}
