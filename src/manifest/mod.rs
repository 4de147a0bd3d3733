//! The manifest layer: reading, checking and defaulting Kubernetes YAML. Knows nothing of engines.

mod budget;
pub mod cluster_only;
pub mod config_store;
pub mod defaults;
mod documents;
#[cfg(test)]
mod fuzz_tests;
pub mod input;
pub mod load;
mod merge;
pub mod nesting;
pub mod quantity;
pub mod schema;
mod strict;
pub mod types;
pub mod validate;
pub mod workload;

pub use load::{load, load_all, DocRef, LoadOptions, Loaded, LoadedPod, ManifestError, Source};
