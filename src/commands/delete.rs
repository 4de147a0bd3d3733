//! `podrun delete`: stop and remove what podrun created for a pod, found by its labels.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use futures_util::future::join_all;

use super::delete_targets::{self, Target};
use super::dry_run;
use super::orphan_cgroups;
use crate::cli::{Cli, DeleteArgs, DryRunArg};
use crate::driver;
use crate::driver::manifests::remote;
use crate::error_chain::chain;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::{derive_uid, DEFAULT_NAMESPACE};
use crate::manifest::types::LabelSelector;
use crate::manifest::{FieldValidation, LoadOptions};
use crate::pod::files::PodFiles;
use crate::pod::volumes;
use crate::report::{self, PodKey, ReportOptions, Reporter};
use crate::runtime::labels;
use crate::runtime::pod_cgroup;
use crate::runtime::{ContainerRuntime, Observed, Runtime, RuntimeError, Selector};
use crate::status::engine_pods;

/// The pods to delete, and the engine volumes of their persistentVolumeClaims (known from a
/// manifest only): those of the manifests given (`-f`, and TARGETs that are existing files or
/// directories, `-` or URLs, read by `remote::refresh` before), then the pods named.
struct Targets {
    pods: Vec<PodKey>,
    claims: Vec<String>,
    /// The pods named (not from a manifest): one that is not there is kubectl's NotFound.
    named: Vec<PodKey>,
}

fn is_manifest(t: &str) -> bool {
    t == "-" || remote::is_url(t) || Path::new(t).is_file() || Path::new(t).is_dir()
}

fn targets(args: &DeleteArgs) -> anyhow::Result<Targets> {
    let mut files = args.filename.clone();
    let mut named = Vec::new();
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    for target in delete_targets::classify(&args.target, is_manifest)? {
        match target {
            Target::Manifest(f) => files.push(f),
            Target::Pod(name) => {
                let key = PodKey { namespace: namespace.clone(), name };
                if !named.contains(&key) {
                    named.push(key);
                }
            }
        }
    }
    if args.delete_volumes && !named.is_empty() {
        return Err(UsageError::Said("--delete-volumes needs the manifest, which names the pod's claims".into()).into());
    }
    let (mut pods, claims) = if files.is_empty() { (Vec::new(), Vec::new()) } else { from_manifests(&files, args)? };
    pods.extend(named.iter().filter(|k| !pods.contains(k)).cloned().collect::<Vec<_>>());
    Ok(Targets { pods, claims, named })
}

/// The pods of the manifests `files` (directories stand for their manifests, as `apply DIR`
/// takes them), and their claims' engine volumes.
fn from_manifests(files: &[String], args: &DeleteArgs) -> anyhow::Result<(Vec<PodKey>, Vec<String>)> {
    let files = driver::manifests::expand_walk(files, false, args.recursive)?;
    // Only the pods' names matter here: a manifest applied with --validate=warn is found
    // whatever fields it has that Kubernetes does not know, as `kubectl delete -f` finds it.
    let opts =
        LoadOptions { namespace: args.namespace.clone(), strict: false, unknown_fields: FieldValidation::Ignore };
    let loaded = driver::manifests::load(&files, &[], &opts).map_err(driver::manifests::LoadError::into_cause)?;
    let mut pods: Vec<PodKey> = Vec::new();
    for p in &loaded.pods {
        let key = PodKey { namespace: p.namespace().to_owned(), name: p.name().to_owned() };
        if !pods.contains(&key) {
            pods.push(key);
        }
    }
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
    Ok((pods, claims))
}

/// Whether the labels a pod's infra container carries for the pod (`io.podrun.pod-label.KEY`)
/// are selected.
fn matches(infra: &Observed, selector: &LabelSelector) -> bool {
    let pod_labels: BTreeMap<String, String> = infra
        .labels
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(labels::POD_LABEL_PREFIX)?.to_owned(), v.clone())))
        .collect();
    selector.matches(&pod_labels) == Some(true)
}

/// The pods of the namespace podrun runs (`--all`), or those whose labels match (`-l`), found
/// by their containers (those `kept` keeps: podrun's own, or those it leaves alone). A pod's
/// labels live on its infra container, so `-l` finds only pods that have one.
pub(crate) fn pods_in_engine(
    observed: &[Observed],
    namespace: &str,
    selector: Option<&LabelSelector>,
    kept: fn(&Observed) -> bool,
) -> Vec<PodKey> {
    let mut names: Vec<String> = observed
        .iter()
        .filter(|c| kept(c) && c.label(labels::POD_NAMESPACE) == Some(namespace))
        .filter(|c| match selector {
            None => true,
            Some(sel) => c.label(labels::CONTAINER_NAME) == Some(labels::INFRA_CONTAINER_NAME) && matches(c, sel),
        })
        .filter_map(|c| c.label(labels::POD_NAME).map(str::to_owned))
        .collect();
    names.sort();
    names.dedup();
    names.into_iter().map(|name| PodKey { namespace: namespace.to_owned(), name }).collect()
}

pub async fn run(cli: &Cli, args: &DeleteArgs) -> anyhow::Result<u8> {
    let by_engine = args.all || args.selector.is_some();
    let Targets { pods, claims, named } = if by_engine {
        if args.delete_volumes {
            return Err(
                UsageError::Said("--delete-volumes needs the manifest, which names the pod's claims".into()).into()
            );
        }
        Targets { pods: Vec::new(), claims: Vec::new(), named: Vec::new() }
    } else {
        let headers = remote::header::parse_all(&args.headers)?;
        let given: Vec<String> = args.filename.iter().chain(&args.target).cloned().collect();
        remote::refresh(&given, &headers, None, &|_| {}).await;
        targets(args)?
    };
    let dry_run = args.dry_run.unwrap_or(DryRunArg::None);
    if dry_run == DryRunArg::Client {
        return dry_run::deleted_client(&pods);
    }
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let (rt, files) = super::connect(cli).await?;
    let selector = args.selector.as_ref();
    // By engine: the containers of the namespace, listed once, say which pods are meant.
    let (pods, in_namespace) = if by_engine {
        let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
        let observed = rt.list(&Selector { namespace: Some(namespace.clone()), pod: None }).await?;
        let pods = pods_in_engine(&observed, &namespace, selector, Observed::is_owned);
        if pods.is_empty() {
            reporter.warning("no pods found to delete");
        }
        (pods, Some((namespace, observed)))
    } else {
        (pods, None)
    };
    if dry_run == DryRunArg::Server {
        return dry_run::deleted_server(&rt, &pods, &named, args.ignore_not_found, &*reporter).await;
    }
    let grace = if args.force { Some(Duration::ZERO) } else { args.grace_period.map(Duration::from_secs) };
    let wait = args.wait;
    let results = join_all(pods.iter().map(|p| {
        let (rt, files, reporter) = (&rt, &files, &reporter);
        async move {
            let sel = Selector::pod(&p.namespace, &p.name);
            if wait {
                say_stopping(rt, &sel, grace, p, &**reporter).await;
            }
            driver::remove_pod_with(rt, &sel, grace, wait, None, files.as_ref()).await
        }
    }))
    .await;
    let were_there = were_there(&rt, files.as_ref(), &pods, &results, &*reporter).await;
    let mut code = exit::SUCCESS;
    // Claims outlive their pods, as PersistentVolumeClaims do, unless asked.
    if args.delete_volumes && results.iter().all(Result::is_ok) {
        code = remove_claims(&rt, &claims, &pods[0], &*reporter).await;
    }
    let left = match in_namespace {
        Some((namespace, observed)) => {
            let meant = pods_in_engine(&observed, &namespace, selector, Observed::is_unverified);
            observed.into_iter().filter(|c| c.is_unverified() && meant.contains(&key_of(c))).collect()
        }
        None => left_alone(&rt, &pods).await,
    };
    for w in engine_pods::unverified_report(&left, &PodFiles::default_root()) {
        reporter.warning(&w);
    }
    // A pod that had only events, or files and a cgroup, was there: deleting it is no NotFound.
    let not_found: Vec<_> = if args.ignore_not_found {
        Vec::new()
    } else {
        named.into_iter().filter(|p| !were_there.contains(p)).collect()
    };
    Ok(tell_deleted(&pods, results, &left, &Told { reporter: &*reporter, not_found: &not_found }, code))
}

/// The pods deleted without a container that still had something: events (a pod whose image
/// never came), or the files and cgroup of a run cut short; those go now too.
async fn were_there<R: Runtime>(
    rt: &R,
    files: Option<&PodFiles>,
    pods: &[PodKey],
    results: &[Result<usize, RuntimeError>],
    reporter: &dyn Reporter,
) -> Vec<PodKey> {
    let Some(files) = files else { return Vec::new() };
    let mut were = Vec::new();
    for (p, r) in pods.iter().zip(results).filter(|(_, r)| r.is_ok()) {
        let events = matches!(r, Ok(0)) && files.drop_events_of(&p.namespace, &p.name);
        let deleted = *r.as_ref().unwrap_or(&0);
        let left = orphan_cgroups::delete_leftovers(rt, files, p, deleted, reporter).await;
        if left.cgroup {
            let uid = derive_uid(&p.namespace, &p.name);
            reporter.event(p, &format!("removed its cgroup {}", pod_cgroup::parent(&uid)));
        }
        if matches!(r, Ok(0)) && (events || left.files || left.cgroup) {
            were.push(p.clone());
        }
    }
    were
}

/// Says that the pod's removal waits out a grace period, when one of its containers runs: a
/// delete may take that long, and should not look stuck meanwhile. The removal itself says
/// when it is done.
async fn say_stopping<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace: Option<Duration>,
    pod: &PodKey,
    reporter: &dyn Reporter,
) {
    if let Some(g) = rt.list(sel).await.ok().and_then(|listed| driver::stop_wait(&listed, grace)) {
        reporter.event(pod, &format!("stopping (grace period {}s)...", g.as_secs()));
    }
}

/// Removes the engine volumes of the pods' claims (`pod` names them in events); the exit code
/// of the last that failed, else success.
async fn remove_claims<R: Runtime>(rt: &R, claims: &[String], pod: &PodKey, reporter: &dyn Reporter) -> u8 {
    let mut code = exit::SUCCESS;
    for v in claims {
        match rt.remove_volume(v).await {
            Ok(()) => reporter.event(pod, &format!("removed volume {v}")),
            Err(e) => {
                reporter.warning(&format!("volume {}: {}", crate::escape::Escaped(v), chain(&e)));
                code = exit::for_runtime(&e);
            }
        }
    }
    code
}

/// Where `tell_deleted` says it, and the pods named that must have been there.
struct Told<'a> {
    reporter: &'a dyn Reporter,
    not_found: &'a [PodKey],
}

/// Says what became of each pod, and the exit code: `code` so far, else the first failure's,
/// else 1 for a pod named that was not there (kubectl's NotFound), else NOT_OWNED where
/// containers podrun may not delete are `left`.
fn tell_deleted(
    pods: &[PodKey],
    results: Vec<Result<usize, RuntimeError>>,
    left: &[Observed],
    told: &Told<'_>,
    mut code: u8,
) -> u8 {
    let reporter = told.reporter;
    let mut missing = false;
    for (pod, r) in pods.iter().zip(results) {
        match r {
            // Said above: what is there is not podrun's to delete.
            Ok(0) if left.iter().any(|c| key_of(c) == *pod) => {}
            Ok(0) if told.not_found.contains(pod) => {
                reporter.say(&super::pod_not_found(&pod.name));
                missing = true;
            }
            Ok(0) => reporter.event(pod, "nothing to delete"),
            Ok(n) => reporter.event(pod, &format!("deleted ({n} containers)")),
            Err(e) => {
                reporter.warning(&format!("pod {pod}: {}", chain(&e)));
                if code == exit::SUCCESS {
                    code = exit::for_runtime(&e);
                }
            }
        }
    }
    if missing && code == exit::SUCCESS {
        code = exit::INTERNAL;
    }
    // The pod is not gone: not the 0 of a delete done, or of one with nothing to do.
    if !left.is_empty() && code == exit::SUCCESS {
        code = exit::NOT_OWNED;
    }
    code
}

fn key_of(c: &Observed) -> PodKey {
    let label = |k| c.label(k).unwrap_or_default().to_owned();
    PodKey { namespace: label(labels::POD_NAMESPACE), name: label(labels::POD_NAME) }
}

/// The containers of `pods` that carry podrun's labels but not its seal, after the delete: it
/// left them as they were. A pod that cannot be listed now was said by the delete already.
async fn left_alone<R: Runtime>(rt: &R, pods: &[PodKey]) -> Vec<Observed> {
    let selectors: Vec<Selector> = pods.iter().map(|p| Selector::pod(&p.namespace, &p.name)).collect();
    let lists = join_all(selectors.iter().map(|sel| rt.list(sel))).await;
    lists.into_iter().filter_map(Result::ok).flatten().filter(Observed::is_unverified).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::State;

    fn container(pod: &str, name: &str, pod_labels: &[(&str, &str)]) -> Observed {
        let mut l: std::collections::BTreeMap<String, String> = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, "ns"),
            (labels::POD_NAME, pod),
            (labels::CONTAINER_NAME, name),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        for (k, v) in pod_labels {
            l.insert(format!("{}{k}", labels::POD_LABEL_PREFIX), (*v).to_owned());
        }
        Observed {
            id: format!("{pod}-{name}"),
            name: format!("podrun_ns_{pod}_{name}_0"),
            labels: l,
            image: String::new(),
            image_id: String::new(),
            state: State::Running { started_at: None },
            ip: None,
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    #[test]
    fn all_and_selector_find_pods_by_their_containers() {
        let observed = vec![
            container("a", "POD", &[("app", "x"), ("tier", "front")]),
            container("a", "c", &[]),
            container("b", "POD", &[("app", "y")]),
            container("b", "c", &[]),
            // Without its infra container a pod has no labels to match.
            container("c", "c", &[]),
        ];
        let selector = |pairs: &[(&str, &str)]| LabelSelector {
            match_labels: pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            match_expressions: Vec::new(),
        };
        let names = |sel: Option<&LabelSelector>| -> Vec<String> {
            pods_in_engine(&observed, "ns", sel, Observed::is_owned).into_iter().map(|p| p.name).collect()
        };
        assert_eq!(names(None), ["a", "b", "c"]);
        let app_x = selector(&[("app", "x")]);
        assert_eq!(names(Some(&app_x)), ["a"]);
        let both = selector(&[("app", "x"), ("tier", "back")]);
        assert!(names(Some(&both)).is_empty());
        assert!(pods_in_engine(&observed, "other", None, Observed::is_owned).is_empty());
        // Those podrun leaves alone are found the same way, apart.
        let mut foreign = vec![container("d", "POD", &[("app", "x")]), container("d", "c", &[])];
        for c in &mut foreign {
            c.sealed = false;
        }
        let mut all = observed.clone();
        all.extend(foreign);
        assert_eq!(pods_in_engine(&all, "ns", None, Observed::is_owned).len(), 3, "d is not podrun's");
        let left = |sel: Option<&LabelSelector>| -> Vec<String> {
            pods_in_engine(&all, "ns", sel, Observed::is_unverified).into_iter().map(|p| p.name).collect()
        };
        assert_eq!(left(None), ["d"]);
        assert_eq!(left(Some(&app_x)), ["d"]);
        assert!(left(Some(&both)).is_empty());
    }
}
