//! Why apply ended before its pods did, each cause kept as it came: the command hands the cause
//! itself up (`into_cause`), so the exit code is chosen from its type.

use crate::driver::manifests::LoadError;
use crate::exit::UsageError;
use crate::manifest::ManifestError;
use crate::report::output::OutputError;
use crate::runtime::RuntimeError;

/// What ended apply; `C` is why connecting to the engine failed, as the caller connects.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError<C> {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Output(#[from] OutputError),
    /// SIGHUP, SIGINT or SIGTERM could not be listened to.
    #[error(transparent)]
    Signals(#[from] std::io::Error),
    #[error("{0}")]
    Connect(C),
}

impl<C: Into<anyhow::Error>> ApplyError<C> {
    /// The cause, for the top of the command, where `exit::for_error` reads its type.
    pub fn into_cause(self) -> anyhow::Error {
        match self {
            ApplyError::Usage(e) => e.into(),
            ApplyError::Load(e) => e.into_cause(),
            ApplyError::Manifest(e) => e.into(),
            ApplyError::Runtime(e) => e.into(),
            ApplyError::Output(e) => e.into(),
            ApplyError::Signals(e) => e.into(),
            ApplyError::Connect(e) => e.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::{for_error, NOT_CONVERGED, USAGE};

    #[test]
    fn the_cause_handed_up_keeps_its_type_for_the_exit_code() {
        let usage = || UsageError::Said("x".into());
        let e: ApplyError<anyhow::Error> = LoadError::Usage(usage()).into();
        assert_eq!(for_error(&e.into_cause()), USAGE, "through a load");
        let e: ApplyError<anyhow::Error> = usage().into();
        assert_eq!(for_error(&e.into_cause()), USAGE);
        let late = || RuntimeError::Deadline { what: "list containers".into() };
        let e: ApplyError<anyhow::Error> = late().into();
        assert_eq!(for_error(&e.into_cause()), NOT_CONVERGED);
        let e = ApplyError::Connect(anyhow::Error::new(late()));
        assert_eq!(for_error(&e.into_cause()), NOT_CONVERGED, "the caller's own connect error");
        let e: ApplyError<anyhow::Error> = usage().into();
        assert_eq!(e.to_string(), "x", "said as its cause says it");
    }
}
