//! The manifest layer: reading, checking and defaulting Kubernetes YAML. Knows nothing of engines.

pub mod cluster_only;
pub mod config_store;
pub mod defaults;
pub mod load;
pub mod quantity;
pub mod schema;
mod strict;
pub mod types;
pub mod validate;

pub use load::{load, DocRef, LoadOptions, Loaded, LoadedPod, ManifestError, Source};
