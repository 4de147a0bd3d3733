//! The result of a run on stdout: a table for people, or with `-o json` a Kubernetes `List` of
//! Pod objects whose `status` has the API's shape, so jq recipes written for kubectl work.

use serde_json::{json, Value};

use crate::status::outcome::PodResult;
use crate::status::Phase;

use super::{state_style, Format, PodKey};

pub fn render(results: &[PodResult], format: Format, colour: bool) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&list(results)).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Text => table(results, colour),
    }
}

/// The Pod object of one result, as the API would return it.
pub fn pod_object(r: &PodResult) -> Value {
    let m = &r.desired.manifest;
    let status = match &r.status {
        Some(s) => serde_json::to_value(s).unwrap_or(Value::Null),
        None => json!({ "phase": Phase::Unknown }),
    };
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": m.metadata,
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

fn table(results: &[PodResult], colour: bool) -> String {
    let mut rows = vec![["POD", "CONTAINER", "STATE", "RESTARTS", "POD IP"].map(String::from).to_vec()];
    let mut summaries = vec![String::new()];
    for r in results {
        let key = PodKey::of(&r.desired).to_string();
        let Some(st) = &r.status else {
            rows.push(vec![key, "-".into(), "Unknown".into(), "-".into(), "-".into()]);
            summaries.push("Unknown".into());
            continue;
        };
        let ip = st.pod_ip.clone().unwrap_or_else(|| "-".into());
        for c in st.all() {
            rows.push(vec![key.clone(), c.name.clone(), c.describe(), c.restart_count.to_string(), ip.clone()]);
            summaries.push(c.state.summary());
        }
    }
    let widths: Vec<usize> =
        (0..5).map(|i| rows.iter().map(|r| console::measure_text_width(&r[i])).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for (row, summary) in rows.iter().zip(&summaries) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i] - console::measure_text_width(cell);
            let text = if i == 2 && colour && !summary.is_empty() {
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
