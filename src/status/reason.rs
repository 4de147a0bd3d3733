//! The reasons a container waits or was terminated, with the kubelet's names: podrun gives
//! them (a failed create, start, pull or hook; a crash backoff) and reads them back (a pull
//! that keeps failing ends the run). Their text is written once, here.

use std::fmt;

/// A container's waiting or terminated reason, as the kubelet names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Waiting: being created (or created and not yet started).
    ContainerCreating,
    /// Waiting: the init containers still run.
    PodInitializing,
    /// Waiting: its configuration could not be made into a container (env, volumes, user).
    CreateContainerConfigError,
    /// Waiting: the engine refused to create it.
    CreateContainerError,
    /// Waiting: the engine refused to start it.
    RunContainerError,
    /// Waiting: its postStart hook failed.
    PostStartHookError,
    /// Waiting: its image could not be pulled.
    ErrImagePull,
    /// Waiting: its image is absent and its pull policy is Never.
    ErrImageNeverPull,
    /// Waiting: for the next try of a pull that failed.
    ImagePullBackOff,
    /// Waiting: its image is no image reference at all; it is never pulled.
    InvalidImageName,
    /// Waiting: out the delay before a restart after a failure.
    CrashLoopBackOff,
    /// Terminated: the runtime could not start it.
    StartError,
    /// Terminated: killed for want of memory.
    OOMKilled,
    /// Terminated: exit code 0.
    Completed,
    /// Terminated: any other exit code.
    Error,
}

impl Reason {
    const ALL: [Reason; 15] = [
        Reason::ContainerCreating,
        Reason::PodInitializing,
        Reason::CreateContainerConfigError,
        Reason::CreateContainerError,
        Reason::RunContainerError,
        Reason::PostStartHookError,
        Reason::ErrImagePull,
        Reason::ErrImageNeverPull,
        Reason::ImagePullBackOff,
        Reason::InvalidImageName,
        Reason::CrashLoopBackOff,
        Reason::StartError,
        Reason::OOMKilled,
        Reason::Completed,
        Reason::Error,
    ];

    /// The kubelet's name for it, as status shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::ContainerCreating => "ContainerCreating",
            Reason::PodInitializing => "PodInitializing",
            Reason::CreateContainerConfigError => "CreateContainerConfigError",
            Reason::CreateContainerError => "CreateContainerError",
            Reason::RunContainerError => "RunContainerError",
            Reason::PostStartHookError => "PostStartHookError",
            Reason::ErrImagePull => "ErrImagePull",
            Reason::ErrImageNeverPull => "ErrImageNeverPull",
            Reason::ImagePullBackOff => "ImagePullBackOff",
            Reason::InvalidImageName => "InvalidImageName",
            Reason::CrashLoopBackOff => "CrashLoopBackOff",
            Reason::StartError => "StartError",
            Reason::OOMKilled => "OOMKilled",
            Reason::Completed => "Completed",
            Reason::Error => "Error",
        }
    }

    /// The reason a status names, if it is one of these.
    pub fn named(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// Whether it is a pull failing (ErrImagePull, then ImagePullBackOff while it waits).
    pub fn is_pull_failing(self) -> bool {
        matches!(self, Reason::ErrImagePull | Reason::ImagePullBackOff)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Reason;

    #[test]
    fn each_reason_is_named_back_from_its_text() {
        for r in Reason::ALL {
            assert_eq!(Reason::named(r.as_str()), Some(r));
            assert_eq!(r.to_string(), r.as_str());
        }
        assert_eq!(Reason::named("Running"), None);
    }
}
