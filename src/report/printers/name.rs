//! `-o name`: `pod/NAME` for each object, kind lower-cased, as kubectl's NamePrinter.

use serde_json::Value;

use crate::escape::escape;

pub(super) fn print(object: &Value) -> String {
    let mut out = String::new();
    for item in super::items(object) {
        let kind = item.get("kind").and_then(Value::as_str).unwrap_or("Pod").to_lowercase();
        let name = item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
        out.push_str(&format!("{}/{}\n", escape(&kind), escape(name)));
    }
    out
}
