//! `podrun delete`: stop and remove what podrun created for a pod, found by its labels.

use std::path::Path;
use std::time::Duration;

use futures_util::future::join_all;

use crate::cli::{Cli, DeleteArgs};
use crate::driver;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::validate::is_dns1123_subdomain;
use crate::manifest::{self, LoadOptions, Source};
use crate::pod::files::PodFiles;
use crate::report::{self, PodKey, ReportOptions};
use crate::runtime::{Runtime, Selector};

/// The pods to delete: from a manifest when TARGET is an existing file (or -), else by name.
fn targets(args: &DeleteArgs) -> anyhow::Result<Vec<PodKey>> {
    let file = match (&args.filename, &args.target) {
        (Some(f), _) => Some(f.as_str()),
        (None, Some(t)) if t == "-" || Path::new(t).is_file() => Some(t.as_str()),
        _ => None,
    };
    if let Some(file) = file {
        let loaded =
            manifest::load(&Source::read(file)?, &LoadOptions { namespace: args.namespace.clone(), strict: false })?;
        return Ok(loaded
            .pods
            .iter()
            .map(|p| PodKey { namespace: p.namespace().to_owned(), name: p.name().to_owned() })
            .collect());
    }
    let name = args.target.clone().unwrap_or_default();
    if !is_dns1123_subdomain(&name) {
        return Err(UsageError(format!("{name:?} is neither a manifest file nor a valid pod name")).into());
    }
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    Ok(vec![PodKey { namespace, name }])
}

pub async fn run(cli: &Cli, args: &DeleteArgs) -> anyhow::Result<u8> {
    let pods = targets(args)?;
    let rt = super::connect(cli).await?;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let grace = args.grace_period.map(Duration::from_secs);
    let files = rt.local_files().then(|| PodFiles::new(PodFiles::default_root()));
    let results =
        join_all(
            pods.iter().map(|p| {
                let (rt, files) = (&rt, &files);
                async move {
                    driver::remove_pod(rt, &Selector::pod(&p.namespace, &p.name), grace, None, files.as_ref()).await
                }
            }),
        )
        .await;
    let mut code = exit::SUCCESS;
    for (pod, r) in pods.iter().zip(results) {
        match r {
            Ok(0) => reporter.event(pod, "nothing to delete"),
            Ok(n) => reporter.event(pod, &format!("deleted ({n} containers)")),
            Err(e) => {
                reporter.warning(&format!("pod {pod}: {e}"));
                if code == exit::SUCCESS {
                    code = exit::for_runtime(&e);
                }
            }
        }
    }
    Ok(code)
}
