//! The env files a container's `fileKeyRef`s name, read when it is created (after the init
//! containers that write them ran), as the kubelet reads them in `makeEnvironmentVariables`:
//! from the emptyDir on this host, or through the engine's archive API from the infra
//! container, which mounts the pod's engine volumes. Bounded either way.

use std::collections::BTreeMap;

use crate::pod::env::file::{self, MAX_ENV_FILE_BYTES};
use crate::pod::env::{EnvFile, EnvFiles};
use crate::pod::volumes::env_file::{self as place, EnvFilePlace};
use crate::pod::volumes::VolumeSetup;
use crate::pod::{DesiredContainer, DesiredPod, InfraRef};
use crate::runtime::{Runtime, RuntimeError};

use super::fatal;

/// What an archive of one file takes besides its content (headers and padding).
const ARCHIVE_OVERHEAD: usize = 16 * 1024;

/// The container's env files; `EnvFiles::Unread` when it reads none. Only an engine that stopped
/// answering is an error: a file the engine cannot give fails the variable, as a missing one.
pub(super) async fn read_env_files<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    c: &DesiredContainer,
    setup: Option<&VolumeSetup>,
    infra: Option<&InfraRef>,
) -> Result<EnvFiles, RuntimeError> {
    let Some(m) = desired.manifest_container(c) else { return Ok(EnvFiles::Unread) };
    let wanted = file::wanted(m);
    if wanted.is_empty() {
        return Ok(EnvFiles::Unread);
    }
    let mut read = BTreeMap::new();
    for (volume, path) in wanted {
        let got = match setup.and_then(|s| s.env_file_place(&volume, &path)) {
            None => EnvFile::Unreadable("the pod has no emptyDir volume of that name".into()),
            Some(EnvFilePlace::Host { dir, rel }) => place::read_host(&dir, &rel),
            Some(EnvFilePlace::Infra(at)) => match infra {
                None => EnvFile::Unreadable("the pod's infra container is not running".into()),
                Some(infra) => match rt.get_archive(&infra.id, &at, MAX_ENV_FILE_BYTES + ARCHIVE_OVERHEAD).await {
                    Ok(archive) => place::from_archive(archive.as_deref()),
                    Err(e) if fatal(&e) => return Err(e),
                    Err(e) => EnvFile::Unreadable(format!("the engine did not give it: {e}")),
                },
            },
        };
        read.insert((volume, path), got);
    }
    Ok(EnvFiles::Read(read))
}
