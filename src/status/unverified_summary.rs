//! The one line `podrun get` says of the pods it does not show: those whose containers carry
//! podrun's labels without its seal (made under another state directory, or not by podrun:
//! `runtime::seal`). One line however many there are, naming a bounded few.

use std::collections::BTreeSet;
use std::path::Path;

use crate::runtime::labels;
use crate::runtime::Observed;

/// How many pods the line names.
const NAMED: usize = 10;

/// The line for the unverified pods among `observed`, `None` when there are none.
pub fn unverified_summary(observed: &[Observed], state_dir: &Path) -> Option<String> {
    let pods: BTreeSet<(&str, &str)> = observed
        .iter()
        .filter(|c| c.is_unverified())
        .map(|c| (c.label(labels::POD_NAMESPACE).unwrap_or("?"), c.label(labels::POD_NAME).unwrap_or("?")))
        .collect();
    if pods.is_empty() {
        return None;
    }
    let mut named: Vec<String> =
        pods.iter().take(NAMED).map(|(ns, name)| format!("{}/{}", ns.escape_debug(), name.escape_debug())).collect();
    if pods.len() > NAMED {
        named.push(format!("and {} more", pods.len() - NAMED));
    }
    let n = pods.len();
    let (count, are) = if n == 1 { ("1 pod".to_owned(), "is") } else { (format!("{n} pods"), "are") };
    Some(format!(
        "{count} of another state directory {are} not shown: {} (this state directory is {}; run podrun with \
         PODRUN_STATE_DIR set to the one that made them)",
        named.join(", "),
        state_dir.display().to_string().escape_debug()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::fixtures::engine_container;

    fn foreign(ns: &str, pod: &str) -> Observed {
        Observed { sealed: false, ..engine_container(ns, pod, "app", "app", "2024-01-01T00:00:00Z") }
    }

    #[test]
    fn one_line_for_every_foreign_pod_naming_a_few() {
        let dir = Path::new("/var/lib/podrun");
        assert_eq!(unverified_summary(&[engine_container("ns", "mine", "app", "app", "t")], dir), None);
        let one = unverified_summary(&[foreign("ns", "a"), foreign("ns", "a")], dir).expect("a line");
        assert!(
            one.starts_with(
                "1 pod of another state directory is not shown: ns/a (this state directory is /var/lib/podrun;"
            ),
            "{one}"
        );
        let many: Vec<Observed> = (0..52).map(|i| foreign("ci", &format!("p{i:02}"))).collect();
        let line = unverified_summary(&many, dir).expect("a line");
        assert!(line.starts_with("52 pods of another state directory are not shown: ci/p00, ci/p01,"), "{line}");
        assert!(line.contains("ci/p09, and 42 more ("), "{line}");
        assert!(!line.contains('\n') && line.len() < 400, "{line}");
    }
}
