//! The manifest layer: reading, checking and defaulting Kubernetes YAML. Knows nothing of engines.

mod base64_data;
pub mod config_store;
pub mod defaults;
pub mod expansion;
mod field_error;
#[cfg(test)]
mod fuzz_tests;
pub mod hostname;
pub mod image;
pub mod image_reference;
pub mod label_selector;
pub mod load;
pub mod names;
pub mod quantity;
pub mod schema;
pub mod sysctl_name;
pub mod template_pod;
pub mod types;
pub mod validate;
pub mod volume_paths;
pub mod yaml;

pub use field_error::FieldProblem;

/// The Kubernetes release whose Pod API, validation and default feature gates podrun follows.
pub const KUBERNETES_VERSION: &str = "1.37";
#[cfg(test)]
pub use load::load;

/// The one Pod of `body` (YAML after `metadata`, named `p`), loaded and defaulted as `apply`
/// loads it, for the unit tests of the layers above.
#[cfg(test)]
pub fn test_pod(body: &str) -> types::Pod {
    let source = Source::from_text("t.yaml", &format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\n{body}"));
    load(&source, &LoadOptions::default()).unwrap().pods.remove(0).pod
}
pub use load::{load_all, FieldValidation, LoadOptions, Loaded, LoadedPod, ManifestError, Source};
