//! YAML hardening: reading manifest text as Kubernetes' YAML reader (go-yaml) would, within
//! bounds, with places. The Kubernetes types and rules live beside this folder; here is only
//! what stands between the bytes of an input and serde_yaml's values:
//! `input.rs` (the text of one input, capped, decoded as kubectl decodes it), `nesting.rs`
//! (a linear pre-scan refusing deep nesting before serde_yaml sees it), `budget.rs` (a bound
//! on the values aliases make), `merge.rs` (merge keys, `<<`), `strict.rs` (string fields
//! that take only strings), `trail.rs` (steps to a place in a document), `locate.rs` (the
//! line and column of a key) and `drop_unknown.rs` (the typed reading without the keys
//! `--validate=warn|ignore` drops).

pub(super) mod budget;
pub(super) mod drop_unknown;
pub mod input;
pub(super) mod locate;
pub(super) mod merge;
pub mod nesting;
pub(super) mod strict;
pub mod trail;
