//! The two ways apply runs, parsed once from its flags: once, all or nothing (nothing is
//! created if any manifest or pod is wrong, as CI wants); or supervising a static pod directory,
//! where a manifest that does not load, or whose pod cannot run here, is left out and said
//! (`static_dir`). Each chooses here how the shared phases load and prepare.

use crate::driver::manifests;
use crate::driver::manifests::static_dir::{self, Skipped};
use crate::exit;
use crate::manifest::{LoadOptions, Loaded, LoadedPod};
use crate::pod::needed_configs;
use crate::pod::prepare::{self, Environment};
use crate::pod::DesiredPod;

use super::{ApplyError, ApplyOptions};

/// How apply runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// One pass, then podrun ends with the pods' exit code.
    Once,
    /// `--supervise`: the pods are kept, and the manifests watched.
    Supervise,
}

impl Mode {
    pub(super) fn of(opts: &ApplyOptions) -> Mode {
        if opts.supervise {
            Mode::Supervise
        } else {
            Mode::Once
        }
    }

    /// Loads `files` with the `--config` files: all of them, or (supervising) those that load,
    /// the others left out.
    pub(super) fn load<E>(
        self,
        files: &[String],
        configs: &[String],
        opts: &LoadOptions,
    ) -> Result<(Loaded, Vec<Skipped>), ApplyError<E>> {
        match self {
            Mode::Once => Ok((manifests::load(files, configs, opts)?, Vec::new())),
            Mode::Supervise => Ok(static_dir::load_each(files, configs, opts)?),
        }
    }

    /// Prepares the pods: all of them, or (supervising) those that can run here, the others'
    /// manifests left out.
    pub(super) fn prepare(
        self,
        loaded: &[LoadedPod],
        env: &Environment,
        warn: &mut dyn FnMut(String),
    ) -> Result<(Vec<DesiredPod>, Vec<Skipped>), exit::UsageError> {
        match self {
            Mode::Once => {
                // Every missing one of every pod, in one report, before any pod is refused.
                needed_configs::check(loaded, &env.configs)?;
                Ok((prepare::prepare_pods(loaded, env, warn)?, Vec::new()))
            }
            Mode::Supervise => Ok(static_dir::prepare_each(loaded, env, warn)),
        }
    }
}
