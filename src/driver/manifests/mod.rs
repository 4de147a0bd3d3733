//! The manifest files a command reads: which files of a directory are manifests (`listing`),
//! manifests read from URLs (`remote`), loading them all or nothing (`load`), loading a static
//! pod directory file by file (`static_dir`), and when a watched one calls for podrun to start
//! over (`watch`).

pub mod listing;
pub mod remote;
pub mod static_dir;
pub mod watch;

use crate::exit::UsageError;
use crate::manifest::{self, LoadOptions, Loaded, ManifestError};

/// Why manifests did not load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
}

impl LoadError {
    /// The cause, for the top of the command, where `exit::for_error` reads its type.
    pub fn into_cause(self) -> anyhow::Error {
        match self {
            LoadError::Usage(e) => e.into(),
            LoadError::Manifest(e) => e.into(),
        }
    }
}

/// Reads and loads manifests and `--config` files, as apply, validate and delete do (URLs
/// among them as `remote::refresh` last read them).
///
/// # Errors
/// `UsageError` for `-` given twice; else the `ManifestError` naming every bad manifest.
pub fn load(files: &[String], configs: &[String], opts: &LoadOptions) -> Result<Loaded, LoadError> {
    // Only a watched static pod directory that is empty yet gets here with no file: no pods.
    if files.is_empty() {
        return Ok(Loaded::default());
    }
    // Standard input can be read once; a second `-` would silently read nothing.
    if files.iter().chain(configs).filter(|f| *f == "-").count() > 1 {
        return Err(UsageError::Said("- (standard input) can be given only once".into()).into());
    }
    // Every file is read and checked, so that one error report names every bad manifest.
    let mut errors = Vec::new();
    let mut read = |paths: &[String]| {
        let mut sources = Vec::with_capacity(paths.len());
        for p in paths {
            match remote::read_source(p) {
                Ok(s) => sources.push(s),
                Err(e) => errors.push(e),
            }
        }
        sources
    };
    let (sources, config_sources) = (read(files), read(configs));
    match manifest::load_all(&sources, &config_sources, opts) {
        Ok(loaded) if errors.is_empty() => return Ok(loaded),
        Ok(_) => {}
        // Those that could be read hold no pod: the files that could not are the news.
        Err(ManifestError::NoPod { .. }) if !errors.is_empty() => {}
        Err(e) => errors.push(e),
    }
    // Every way here has pushed an error.
    Err(ManifestError::of(errors).map_or_else(|| unreachable!("no manifest loaded, and no error"), Into::into))
}

/// The manifest files `paths` name (see `listing::list_walk`), without a word on what was left
/// out; subdirectories too when `recursive` (`-R`).
///
/// # Errors
/// A directory that cannot be read, holds no manifest unless `empty_ok`, or is deeper or larger
/// than `-R` reads.
pub fn expand_walk(paths: &[String], empty_ok: bool, recursive: bool) -> Result<Vec<String>, UsageError> {
    Ok(listing::list_walk(paths, empty_ok, recursive)?.files)
}
