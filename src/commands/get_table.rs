//! `podrun get`'s table, as kubectl prints pods: its columns (`-o wide`, `-L`, `--show-labels`),
//! its header (`--no-headers`), and its padding (kubectl's tabwriter: cells padded by three
//! spaces to at least six). Every cell is escaped.

use std::collections::BTreeMap;
use std::time::SystemTime;

use crate::clock::parse_time;
use crate::escape::escape;
use crate::status::engine_pods::{self, ListedPod};
use crate::status::pod_object::labels;

/// What the table shows besides NAME, READY, STATUS, RESTARTS and AGE.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// A NAMESPACE column first (`-A`).
    pub namespaces: bool,
    /// IP and IMAGES (`-o wide`).
    pub wide: bool,
    /// A column per label key (`-L`).
    pub label_columns: Vec<String>,
    /// LABELS last (`--show-labels`).
    pub show_labels: bool,
}

impl Columns {
    pub fn header(&self) -> Vec<String> {
        let mut h: Vec<String> = ["NAME", "READY", "STATUS", "RESTARTS", "AGE"].map(String::from).to_vec();
        if self.namespaces {
            h.insert(0, "NAMESPACE".into());
        }
        if self.wide {
            h.extend(["IP".into(), "IMAGES".into()]);
        }
        // As kubectl: the key's last path segment, upper-cased.
        h.extend(self.label_columns.iter().map(|k| escape(k.rsplit('/').next().unwrap_or(k)).to_uppercase()));
        if self.show_labels {
            h.push("LABELS".into());
        }
        h
    }

    /// `p`'s row at `now`, its cells escaped.
    pub fn row(&self, p: &ListedPod, now: SystemTime) -> Vec<String> {
        let st = &p.status;
        // A start in the future (clocks apart) reads as 0s rather than failing.
        let age = p
            .started_at()
            .and_then(parse_time)
            .map(|t| engine_pods::human_age(now.duration_since(t).unwrap_or_default()))
            .unwrap_or_else(|| "<unknown>".into());
        let mut row = vec![
            p.name.clone(),
            engine_pods::display_ready(st, &p.sidecars()),
            engine_pods::display_status(st, &p.sidecars()),
            engine_pods::restarts(st, &p.sidecars()).to_string(),
            age,
        ];
        if self.namespaces {
            row.insert(0, p.namespace.clone());
        }
        if self.wide {
            let images: Vec<&str> = st.container_statuses.iter().map(|c| c.image.as_str()).collect();
            row.push(st.pod_ip.clone().unwrap_or_else(|| "<none>".into()));
            row.push(if images.is_empty() { "<none>".into() } else { images.join(",") });
        }
        if !self.label_columns.is_empty() || self.show_labels {
            let labels = labels(p);
            row.extend(self.label_columns.iter().map(|k| labels.get(k).cloned().unwrap_or_default()));
            if self.show_labels {
                row.push(format_labels(&labels));
            }
        }
        row.iter().map(|cell| escape(cell).into_owned()).collect()
    }
}

/// kubectl's `labels.FormatLabels`: `k=v` sorted, comma-joined; `<none>` for none.
fn format_labels(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "<none>".into();
    }
    labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

/// The rows aligned as kubectl's tabwriter aligns them (minimum width 6, padding 3), the last
/// cell unpadded.
pub fn render(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count() + 3).max().unwrap_or(0).max(6))
        .collect();
    let mut out = String::new();
    for row in rows {
        let line: String = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The table of `pods`, with its header unless `no_headers`.
pub fn table(pods: &[ListedPod], columns: &Columns, no_headers: bool, now: SystemTime) -> String {
    let header = (!no_headers).then(|| columns.header());
    let rows: Vec<Vec<String>> = header.into_iter().chain(pods.iter().map(|p| columns.row(p, now))).collect();
    render(&rows)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::runtime::labels::POD_LABEL_PREFIX;
    use crate::status::engine_pods::group;
    use crate::status::fixtures::engine_container;

    fn pods() -> Vec<ListedPod> {
        let mut infra = engine_container("ns", "web", "POD", "infra", "2024-01-01T00:00:00Z");
        infra.labels.insert(format!("{POD_LABEL_PREFIX}app"), "web".into());
        infra.labels.insert(format!("{POD_LABEL_PREFIX}example.com/tier"), "front".into());
        group(vec![infra, engine_container("ns", "a", "POD", "infra", "2024-01-01T00:00:00Z")])
    }

    fn now() -> SystemTime {
        parse_time("2024-01-01T00:05:00Z").unwrap_or(SystemTime::UNIX_EPOCH) + Duration::ZERO
    }

    fn words(t: &str) -> Vec<Vec<&str>> {
        t.lines().map(|l| l.split_whitespace().collect()).collect()
    }

    #[test]
    fn the_table_has_kubectls_columns() {
        let all = Columns { namespaces: true, wide: true, ..Columns::default() };
        let t = table(&pods(), &all, false, now());
        assert_eq!(words(&t)[0], ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "IMAGES"]);
        assert_eq!(words(&t)[1], ["ns", "a", "0/0", "Pending", "0", "5m", "172.17.0.5", "<none>"]);
    }

    #[test]
    fn labels_show_as_kubectl_shows_them() {
        let c = Columns {
            label_columns: vec!["app".into(), "example.com/tier".into(), "none".into()],
            show_labels: true,
            ..Columns::default()
        };
        let t = table(&pods(), &c, false, now());
        assert_eq!(words(&t)[0], ["NAME", "READY", "STATUS", "RESTARTS", "AGE", "APP", "TIER", "NONE", "LABELS"]);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[1].starts_with("a ") && lines[1].ends_with("<none>"), "{t}");
        assert_eq!(
            words(&t)[2],
            ["web", "0/0", "Pending", "0", "5m", "web", "front", "app=web,example.com/tier=front"],
            "a label not there is an empty cell"
        );
    }

    #[test]
    fn no_headers_drops_the_header_and_cells_keep_kubectls_minimum_width() {
        let t = table(&pods(), &Columns::default(), true, now());
        assert_eq!(t.lines().next(), Some("a     0/0   Pending   0     5m"));
        assert_eq!(t.lines().count(), 2);
    }
}
