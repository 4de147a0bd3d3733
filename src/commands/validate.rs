//! `podrun validate`: load and check manifests exactly as apply does (the same files,
//! directories, URLs and standard input, the same rules), then stop. No engine is contacted, so it
//! runs anywhere (CI, a laptop without Docker).

use crate::cli::{Cli, ValidateArgs};
use crate::driver;
use crate::driver::manifests::remote;
use crate::escape::escape;
use crate::exit;
use crate::manifest::LoadOptions;
use crate::report::{self, output, ReportOptions};

pub async fn run(cli: &Cli, args: &ValidateArgs) -> anyhow::Result<u8> {
    let opts =
        LoadOptions { namespace: args.namespace.clone(), strict: args.strict, unknown_fields: args.validate.into() };
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    // What apply takes: files, directories (their manifests, as apply expands them), URLs and -.
    let headers = remote::header::parse_all(&args.manifest.headers)?;
    let paths = args.manifest.paths();
    let sources: Vec<String> = paths.iter().chain(&args.configs).cloned().collect();
    remote::refresh(&sources, &headers, None, &|w| reporter.warning(w)).await;
    let listing = driver::manifests::listing::list_walk(&paths, false, args.manifest.recursive)?;
    listing.tell(&|w| reporter.warning(w));
    // An invalid manifest is an error here, naming every bad one, which main reports and maps
    // to exit 2.
    let loaded = driver::manifests::load(&listing.files, &args.configs, &opts)
        .map_err(driver::manifests::LoadError::into_cause)?;
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    if !cli.quiet {
        for p in &loaded.pods {
            output::println(&escape(&format!("pod {}/{}: valid", p.namespace(), p.name())))?;
        }
    }
    Ok(exit::SUCCESS)
}
