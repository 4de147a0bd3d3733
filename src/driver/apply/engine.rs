//! What pod preparation asks of the engine (its name and version, whether it is rootless, the
//! lowest OOM score it can give, its capacity, the node features it gives), asked once and read by the first pass and by
//! supervision's check of changed manifests alike.

use std::sync::Arc;

use crate::manifest::Loaded;
use crate::pod::prepare;
use crate::runtime::{Capacity, EngineFeatures, EngineInfo, EngineSecurity, OomFloor, Runtime, RuntimeError};

use super::ApplyOptions;

/// The engine's answers pod preparation needs.
pub(super) struct Engine {
    info: EngineInfo,
    security: Option<EngineSecurity>,
    oom_score_floor: Option<OomFloor>,
    capacity: Option<Capacity>,
    features: EngineFeatures,
}

impl Engine {
    /// Asks the engine; whether it is rootless only when a pod needs to know (see
    /// `prepare::needs_engine_security`).
    pub(super) async fn ask<R: Runtime>(rt: &R, loaded: &Loaded) -> Result<Engine, RuntimeError> {
        let info = rt.info().await?;
        let security = if prepare::needs_engine_security(&loaded.pods) { Some(rt.security().await?) } else { None };
        let oom_score_floor = rt.oom_score_floor().await;
        let capacity = rt.capacity().await?;
        let features = rt.features().await?;
        Ok(Engine { info, security, oom_score_floor, capacity, features })
    }

    /// What pod preparation takes from apply's options and the engine.
    pub(super) fn environment<'a>(
        &'a self,
        opts: &'a ApplyOptions,
        local_files: bool,
        loaded: &Loaded,
    ) -> prepare::Environment<'a> {
        prepare::Environment {
            infra_image: &opts.infra_image,
            network: opts.network.as_deref(),
            pull: opts.pull,
            local_files,
            engine: &self.info,
            configs: Arc::new(loaded.configs.clone()),
            security: self.security.clone(),
            seccomp_default: opts.seccomp_default,
            oom_score_floor: self.oom_score_floor,
            allowed_unsafe_sysctls: opts.allowed_unsafe_sysctls.clone(),
            capacity: self.capacity,
            features: &self.features,
        }
    }
}
