//! What a load gives: the checked and defaulted Pods, and what came beside them.

use super::error::DocRef;
use crate::manifest::config_store::ConfigStore;
use crate::manifest::defaults;
use crate::manifest::types::Pod;

/// A Pod ready to run: checked and defaulted.
#[derive(Debug, Clone)]
pub struct LoadedPod {
    pub pod: Pod,
    pub doc: DocRef,
}

impl LoadedPod {
    pub fn namespace(&self) -> &str {
        self.pod.metadata.namespace.as_deref().unwrap_or(defaults::DEFAULT_NAMESPACE)
    }

    pub fn name(&self) -> &str {
        &self.pod.metadata.name
    }
}

#[derive(Debug, Default)]
pub struct Loaded {
    pub pods: Vec<LoadedPod>,
    pub warnings: Vec<String>,
    /// The ConfigMaps and Secrets of every source, by namespace, decoded.
    pub configs: ConfigStore,
    /// (namespace, name) of each PersistentVolumeClaim: claim documents, and the claims a
    /// StatefulSet's claim templates stand for.
    pub claims: Vec<(String, String)>,
}
