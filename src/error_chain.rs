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
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(e) = cause {
            write!(f, ": {e}")?;
            cause = e.source();
        }
        Ok(())
    }
}

/// `e` with its causes, as text.
pub fn chain(e: &(dyn Error + 'static)) -> String {
    Chain(e).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read {path}")]
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
}
