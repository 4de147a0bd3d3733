//! `podrun validate`: load and check manifests exactly as apply does, then stop. No engine is
//! contacted, so it runs anywhere (CI, a laptop without Docker).

use crate::cli::{Cli, ValidateArgs};
use crate::exit;
use crate::manifest::LoadOptions;
use crate::report::{self, output, ReportOptions};

pub fn run(cli: &Cli, args: &ValidateArgs) -> anyhow::Result<u8> {
    let opts = LoadOptions { namespace: args.namespace.clone(), strict: args.strict };
    // An invalid manifest is an error here, which main reports and maps to exit 2.
    let loaded = super::load_manifests(&args.files, &args.configs, &opts)?;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    if !cli.quiet {
        for p in &loaded.pods {
            output::println(&format!("pod {}/{}: valid", p.namespace(), p.name()))?;
        }
    }
    Ok(exit::SUCCESS)
}
