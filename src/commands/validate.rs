//! `podrun validate`: load and check manifests exactly as apply does (the same files,
//! directories, URLs and standard input, the same rules), then stop. No engine is contacted, so it
//! runs anywhere (CI, a laptop without Docker).

use crate::cli::{Cli, ManifestArgs, ValidateArgs};
use crate::driver;
use crate::driver::manifests::remote;
use crate::escape::escape;
use crate::exit;
use crate::manifest::LoadOptions;
use crate::manifest::Loaded;
use crate::report::{self, output, ReportOptions, Reporter};

pub async fn run(cli: &Cli, args: &ValidateArgs) -> anyhow::Result<u8> {
    let opts =
        LoadOptions { namespace: args.namespace.clone(), strict: args.strict, unknown_fields: args.validate.into() };
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let loaded = load_checked(&args.manifest, &args.configs, &opts, &*reporter).await?;
    if !cli.quiet {
        for p in &loaded.pods {
            output::println(&escape(&format!("pod {}/{}: valid", p.namespace(), p.name())))?;
        }
    }
    Ok(exit::SUCCESS)
}

/// The manifests of `manifest` (files, directories as apply expands them, URLs and -) with
/// the ConfigMaps and Secrets of `configs`, loaded and checked as apply loads them, warnings
/// said. An invalid manifest is an error, naming every bad one, which main maps to exit 2.
pub(super) async fn load_checked(
    manifest: &ManifestArgs,
    configs: &[String],
    opts: &LoadOptions,
    reporter: &dyn Reporter,
) -> anyhow::Result<Loaded> {
    let headers = remote::header::parse_all(&manifest.headers)?;
    let paths = manifest.paths();
    let sources: Vec<String> = paths.iter().chain(configs).cloned().collect();
    remote::refresh(&sources, &headers, None, &|w| reporter.warning(w)).await;
    let listing = driver::manifests::listing::list_walk(&paths, false, manifest.recursive)?;
    listing.tell(&|w| reporter.warning(w));
    let loaded =
        driver::manifests::load(&listing.files, configs, opts).map_err(driver::manifests::LoadError::into_cause)?;
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    Ok(loaded)
}
