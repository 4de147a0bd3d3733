//! meta/v1 types beside `ObjectMeta`: the label selector workloads, claims and affinity terms
//! share.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::manifest::yaml::strict;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(default, deserialize_with = "strict::string_map")]
    pub match_labels: BTreeMap<String, String>,
    #[serde(default)]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct LabelSelectorRequirement {
    #[serde(default, deserialize_with = "strict::string")]
    pub key: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub operator: String,
    #[serde(default, deserialize_with = "strict::strings")]
    pub values: Vec<String>,
}

impl LabelSelector {
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// Whether `labels` are selected; `None` when an operator is unknown (reported apart).
    pub(crate) fn matches(&self, labels: &BTreeMap<String, String>) -> Option<bool> {
        if self.match_labels.iter().any(|(k, v)| labels.get(k) != Some(v)) {
            return Some(false);
        }
        for r in &self.match_expressions {
            let value = labels.get(&r.key);
            let ok = match r.operator.as_str() {
                "In" => value.is_some_and(|v| r.values.contains(v)),
                "NotIn" => value.is_none_or(|v| !r.values.contains(v)),
                "Exists" => value.is_some(),
                "DoesNotExist" => value.is_none(),
                // Only `-l` gives these (`label_selector`): API objects' selectors refuse them.
                "Gt" | "Lt" => value.and_then(|v| v.parse::<i64>().ok()).is_some_and(|v| {
                    let Some(n) = r.values.first().and_then(|n| n.parse::<i64>().ok()) else { return false };
                    if r.operator == "Gt" {
                        v > n
                    } else {
                        v < n
                    }
                }),
                _ => return None,
            };
            if !ok {
                return Some(false);
            }
        }
        Some(true)
    }
}
