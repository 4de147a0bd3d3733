//! `podrun delete`: stop and remove what podrun created for a pod, found by its labels.

use std::path::Path;
use std::time::Duration;

use futures_util::future::join_all;

use crate::cli::{Cli, DeleteArgs};
use crate::driver;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::validate::is_dns1123_subdomain;
use crate::manifest::LoadOptions;
use crate::pod::files::PodFiles;
use crate::pod::volumes;
use crate::report::{self, PodKey, ReportOptions};
use crate::runtime::{Runtime, Selector};

/// The pods to delete: from a manifest when TARGET is an existing file (or -) or directory,
/// else by name;
/// with the engine volumes of their persistentVolumeClaims (known from a manifest only).
fn targets(args: &DeleteArgs) -> anyhow::Result<(Vec<PodKey>, Vec<String>)> {
    let file = match (&args.filename, &args.target) {
        (Some(f), _) => Some(f.as_str()),
        (None, Some(t)) if t == "-" || Path::new(t).is_file() || Path::new(t).is_dir() => Some(t.as_str()),
        _ => None,
    };
    if let Some(file) = file {
        // A directory stands for its manifests, as `apply DIR` takes them.
        let files = super::expand_paths(&[file.to_owned()])?;
        let opts = LoadOptions { namespace: args.namespace.clone(), strict: false };
        let loaded = super::load_manifests(&files, &[], &opts)?;
        let pods =
            loaded.pods.iter().map(|p| PodKey { namespace: p.namespace().to_owned(), name: p.name().to_owned() });
        let mut claims: Vec<String> = loaded
            .pods
            .iter()
            .flat_map(|p| {
                let ns = p.namespace().to_owned();
                p.pod.spec.volumes.iter().filter_map(move |v| {
                    v.persistent_volume_claim.as_ref().map(|c| volumes::claim_volume(&ns, &c.claim_name).name)
                })
            })
            .collect();
        claims.sort();
        claims.dedup();
        return Ok((pods.collect(), claims));
    }
    if args.delete_volumes {
        return Err(UsageError("--delete-volumes needs the manifest, which names the pod's claims".into()).into());
    }
    let name = args.target.clone().unwrap_or_default();
    if !is_dns1123_subdomain(&name) {
        return Err(UsageError(format!("{name:?} is neither a manifest file nor a valid pod name")).into());
    }
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    Ok((vec![PodKey { namespace, name }], Vec::new()))
}

pub async fn run(cli: &Cli, args: &DeleteArgs) -> anyhow::Result<u8> {
    let (pods, claims) = targets(args)?;
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
    // Claims outlive their pods, as PersistentVolumeClaims do, unless asked.
    if args.delete_volumes && results.iter().all(Result::is_ok) {
        for v in &claims {
            match rt.remove_volume(v).await {
                Ok(()) => reporter.event(&pods[0], &format!("removed volume {v}")),
                Err(e) => {
                    reporter.warning(&format!("volume {v}: {e}"));
                    code = exit::for_runtime(&e);
                }
            }
        }
    }
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
