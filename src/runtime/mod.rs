//! The container engine behind one trait, in podrun's own types.

pub mod infra_image;
