//! Pull progress from the engine's stream of per-layer messages, summed over the layers.

use std::collections::BTreeMap;

use bollard::models::CreateImageInfo;

use crate::runtime::PullProgress;

#[derive(Debug, Default)]
struct Layer {
    current: u64,
    total: u64,
    done: bool,
}

/// Layers by id. The engine's status words are read for display only ("Downloading",
/// "Pull complete", "Already exists"); no decision depends on them.
#[derive(Debug, Default)]
pub struct LayerProgress {
    layers: BTreeMap<String, Layer>,
}

impl LayerProgress {
    /// Takes one message; returns whether the totals changed.
    pub fn update(&mut self, info: &CreateImageInfo) -> bool {
        let (Some(id), Some(status)) = (&info.id, &info.status) else { return false };
        // Messages about the image as a whole carry its tag or digest as the id.
        if id.contains(':') || status.starts_with("Pulling from") {
            return false;
        }
        let layer = self.layers.entry(id.clone()).or_default();
        if status.starts_with("Downloading") {
            if let Some(d) = &info.progress_detail {
                // A negative count from the engine counts as none.
                layer.current = u64::try_from(d.current.unwrap_or(0)).unwrap_or(0);
                layer.total = u64::try_from(d.total.unwrap_or(0)).unwrap_or(0);
            }
        } else if status.starts_with("Download complete") {
            layer.current = layer.total;
        } else if status.starts_with("Pull complete") || status.starts_with("Already exists") {
            layer.current = layer.total;
            layer.done = true;
        }
        true
    }

    pub fn total(&self) -> PullProgress {
        PullProgress {
            layers: self.layers.len(),
            layers_done: self.layers.values().filter(|l| l.done).count(),
            bytes_done: self.layers.values().map(|l| l.current).sum(),
            bytes_total: self.layers.values().map(|l| l.total).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bollard::models::ProgressDetail;

    fn msg(id: &str, status: &str, current: i64, total: i64) -> CreateImageInfo {
        CreateImageInfo {
            id: Some(id.into()),
            status: Some(status.into()),
            progress_detail: Some(ProgressDetail { current: Some(current), total: Some(total) }),
            ..Default::default()
        }
    }

    #[test]
    fn sums_layers() {
        let mut p = LayerProgress::default();
        assert!(!p.update(&msg("1.28", "Pulling from library/busybox", 0, 0)));
        p.update(&msg("a", "Pulling fs layer", 0, 0));
        p.update(&msg("b", "Already exists", 0, 0));
        p.update(&msg("a", "Downloading", 50, 100));
        assert_eq!(p.total(), PullProgress { layers: 2, layers_done: 1, bytes_done: 50, bytes_total: 100 });
        p.update(&msg("a", "Pull complete", 0, 0));
        assert_eq!(p.total(), PullProgress { layers: 2, layers_done: 2, bytes_done: 100, bytes_total: 100 });
    }
}
