//! The result of a run on stdout: a table for people, or with `-o json` a Kubernetes `List` of
//! Pod objects whose `status` has the API's shape, so jq recipes written for kubectl work. The
//! table's cells are escaped (`crate::escape`); the JSON is exact, its strings escaped by JSON's
//! own rules (`\u001b`).

use serde_json::{json, Value};

use crate::escape::escape;
use crate::status::outcome::PodResult;
use crate::status::Phase;

use super::{state_style, Ended, Format};

/// How the table is drawn: in colour, and with a READY column (when readiness was waited for).
#[derive(Debug, Clone, Copy, Default)]
pub struct Table {
    pub colour: bool,
    pub ready: bool,
}

pub fn render(results: &[PodResult], format: Format, how: Table) -> String {
    match format {
        Format::Json => {
            let mut s = json(&list(results));
            s.push('\n');
            s
        }
        Format::Text => table(&results.iter().map(Ended::from).collect::<Vec<_>>(), how),
    }
}

/// The same for pods podrun waited on (`podrun wait`), whose manifests it does not have: in
/// JSON `objects` (their List of Pod objects, as `podrun get -o json` gives them), in text the
/// table apply prints.
pub fn render_ended(ended: &[Ended<'_>], objects: &Value, format: Format, how: Table) -> String {
    match format {
        Format::Json => {
            let mut s = json(objects);
            s.push('\n');
            s
        }
        Format::Text => table(ended, how),
    }
}

/// `value` as pretty JSON, exact and with no control character raw: serde_json escapes C0 in
/// strings (`\u001b`) but writes DEL and C1 (U+0080 to U+009F, a CSI among them) as they are,
/// so those are written as JSON escapes here. They can only stand inside strings, and a JSON
/// reader reads the same value.
pub fn json(value: &Value) -> String {
    let raw = |c: char| c != '\n' && crate::escape::is_control(c);
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if !text.chars().any(raw) {
        return text;
    }
    text.chars().map(|c| if raw(c) { format!("\\u{:04x}", u32::from(c)) } else { c.to_string() }).collect()
}

/// The Pod object of one result, as the API would return it.
pub fn pod_object(r: &PodResult) -> Value {
    let m = &r.desired.manifest;
    let status = match &r.status {
        Some(s) => serde_json::to_value(s).unwrap_or(Value::Null),
        None => json!({ "phase": Phase::Unknown }),
    };
    let mut metadata = serde_json::to_value(&m.metadata).unwrap_or(Value::Null);
    // podrun is the API server too: the generation its status observed is the pod's.
    if let (Some(g), Some(meta)) = (r.status.as_ref().and_then(|s| s.observed_generation), metadata.as_object_mut()) {
        meta.insert("generation".to_owned(), g.into());
    }
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": m.spec,
        "status": status,
    })
}

pub fn list(results: &[PodResult]) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "List",
        "items": results.iter().map(pod_object).collect::<Vec<_>>(),
        "metadata": { "resourceVersion": "" },
    })
}

/// A row per container: its pod, name, state (coloured by `state_style`), whether it is ready
/// (kubectl's `ready`, under `how.ready`), restarts and the pod's IP.
fn table(results: &[Ended<'_>], how: Table) -> String {
    let mut header = vec!["POD", "CONTAINER", "STATE", "RESTARTS", "POD IP"];
    if how.ready {
        header.insert(3, "READY");
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    let mut summaries = vec![String::new()];
    for r in results {
        let key = r.key.to_string();
        let Some(st) = r.status else {
            let mut row = vec![key, "-".into(), "Unknown".into(), "-".into(), "-".into()];
            if how.ready {
                row.insert(3, "-".into());
            }
            rows.push(row);
            summaries.push("Unknown".into());
            continue;
        };
        let ip = st.pod_ip.as_deref().map_or_else(|| "-".into(), |ip| escape(ip).into_owned());
        for c in st.all() {
            let (name, state) = (escape(&c.name).into_owned(), escape(&c.describe()).into_owned());
            let mut row = vec![key.clone(), name, state, c.restart_count.to_string(), ip.clone()];
            if how.ready {
                row.insert(3, c.ready.to_string());
            }
            rows.push(row);
            summaries.push(c.state.summary());
        }
    }
    let columns = rows[0].len();
    let widths: Vec<usize> =
        (0..columns).map(|i| rows.iter().map(|r| console::measure_text_width(&r[i])).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for (row, summary) in rows.iter().zip(&summaries) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i] - console::measure_text_width(cell);
            let text = if i == 2 && how.colour && !summary.is_empty() {
                state_style(summary).force_styling(true).apply_to(cell).to_string()
            } else {
                cell.clone()
            };
            line.push_str(&text);
            if i + 1 < row.len() {
                line.push_str(&" ".repeat(pad + 3));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{fixtures, ContainerStatus, PodStatus};

    #[test]
    fn readiness_waited_for_has_its_column() {
        let c = |name: &str, ready: bool| ContainerStatus { ready, ..fixtures::container(name, fixtures::running()) };
        let st =
            PodStatus::assemble(Phase::Running, true, None, None, (vec![], &[]), vec![c("web", true), c("db", false)]);
        let key = super::super::PodKey { namespace: "ns".into(), name: "p".into() };
        let ended = [Ended { key, status: Some(&st), outcome: &Ok(()), failed: &[] }];
        let text = table(&ended, Table { colour: false, ready: true });
        assert_eq!(
            text,
            "POD    CONTAINER   STATE                READY   RESTARTS   POD IP\n\
             ns/p   web         Running              true    0          -\n\
             ns/p   db          Running, not ready   false   0          -\n"
        );
        assert!(!table(&ended, Table::default()).contains("READY"));
    }

    #[test]
    fn json_is_exact_and_holds_no_control_character_raw() {
        let value = json!({ "m": "a\u{1b}]0;t\u{7}\u{9b}2J\u{7f}\u{a0}é\n" });
        let text = json(&value);
        assert!(!text.chars().any(|c| c != '\n' && crate::escape::is_control(c)), "{text}");
        assert!(text.contains("\"a\\u001b]0;t\\u0007\\u009b2J\\u007f\u{a0}é\\n\""), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}
