//! A pod as podrun runs it: identity (labels, names, uid) and the desired containers.

pub mod absent;
pub mod admission;
pub mod deletion;
pub mod desired;
pub mod dns;
pub mod downward;
#[cfg(test)]
mod e2e_tests;
pub mod env;
pub mod events;
pub mod files;
pub mod finished_spec;
pub mod hosts;
pub mod identity;
pub mod needed_configs;
pub mod node_features;
pub mod observed;
pub mod prepare;
pub mod qos;
pub mod record;
pub mod resources;
pub mod rootless;
pub mod settings;
pub use files::userns;
pub mod volumes;

pub use desired::{DesiredContainer, DesiredPod, Hook, HttpHook, InfraRef, Role};
