//! `podrun top pod`: what the running containers of podrun's pods use now, from the engine's
//! statistics (`StatsRuntime`), printed as `kubectl top pod` prints metrics-server's figures.
//! The infra container is not counted, as the kubelet's summary leaves the sandbox out of a
//! pod's containers.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use futures_util::future::join_all;

use super::top_usage::{self, Row, Sample};
use crate::cli::{Cli, TopArgs};
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::validate::is_dns1123_subdomain;
use crate::report::{self, output, ReportOptions};
use crate::runtime::labels;
use crate::runtime::{ContainerRuntime, Observed, Runtime, Selector, StatsRuntime};

/// The time between two samples where the engine gives no rate of its own, as `docker stats`
/// and cAdvisor's housekeeping measure over about a second.
const BETWEEN: Duration = Duration::from_secs(1);

pub async fn run(cli: &Cli, args: &TopArgs) -> anyhow::Result<u8> {
    if let Some(name) = args.pod.as_ref().filter(|n| !is_dns1123_subdomain(n)) {
        return Err(UsageError::Said(format!("{name:?} is not a valid pod name")).into());
    }
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let (rt, _) = super::connect(cli).await?;
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let sel = Selector { namespace: (!args.all_namespaces).then(|| namespace.clone()), pod: args.pod.clone() };
    let observed = rt.list(&sel).await?;
    let containers = counted(&observed, args);
    if containers.is_empty() {
        if let Some(name) = &args.pod {
            reporter.say(&super::pod_not_found(name));
            return Ok(exit::INTERNAL);
        }
        let said = if args.all_namespaces {
            "No resources found".to_owned()
        } else {
            format!("No resources found in {namespace} namespace.")
        };
        reporter.say(&said);
        return Ok(exit::SUCCESS);
    }
    let rows = measure(&rt, &containers).await?;
    let rows = if args.containers { rows } else { top_usage::by_pod(&rows) };
    output::print(&top_usage::table(&rows, args.all_namespaces, args.containers, !args.no_headers))?;
    Ok(exit::SUCCESS)
}

/// The containers counted: podrun's own, running, not the infra container, of the pods `-l`
/// selects; sorted by namespace, pod and container.
fn counted<'a>(observed: &'a [Observed], args: &TopArgs) -> Vec<&'a Observed> {
    let selected: Option<BTreeSet<(String, String)>> = args.selector.as_ref().map(|sel| {
        let namespaces: BTreeSet<&str> = observed.iter().filter_map(|c| c.label(labels::POD_NAMESPACE)).collect();
        namespaces
            .into_iter()
            .flat_map(|ns| super::delete::pods_in_engine(observed, ns, Some(sel), Observed::is_owned))
            .map(|k| (k.namespace, k.name))
            .collect()
    });
    let mut containers: Vec<&Observed> = observed
        .iter()
        .filter(|c| c.is_owned() && c.is_running())
        .filter(|c| c.label(labels::CONTAINER_NAME).is_some_and(|n| n != labels::INFRA_CONTAINER_NAME))
        .filter(|c| {
            selected.as_ref().is_none_or(|s| s.contains(&(key(c, labels::POD_NAMESPACE), key(c, labels::POD_NAME))))
        })
        .collect();
    containers
        .sort_by_key(|c| (key(c, labels::POD_NAMESPACE), key(c, labels::POD_NAME), key(c, labels::CONTAINER_NAME)));
    containers
}

fn key(c: &Observed, label: &str) -> String {
    c.label(label).unwrap_or_default().to_owned()
}

/// One row per container still there: a sample of each (two, a second apart, where the engine
/// gives no rate of its own). A container gone meanwhile has no row.
async fn measure<R: Runtime>(rt: &R, containers: &[&Observed]) -> anyhow::Result<Vec<Row>> {
    let first = sample_all(rt, containers).await?;
    let have: Vec<Sample> = first.iter().flatten().copied().collect();
    let second = if top_usage::needs_second(&have) {
        tokio::time::sleep(BETWEEN).await;
        sample_all(rt, containers).await?
    } else {
        vec![None; containers.len()]
    };
    let mut rows = Vec::new();
    for ((c, a), b) in containers.iter().zip(&first).zip(&second) {
        let Some(a) = a else { continue };
        if let Some(rate) = top_usage::rate(a, b.as_ref()) {
            rows.push(Row {
                namespace: key(c, labels::POD_NAMESPACE),
                pod: key(c, labels::POD_NAME),
                container: Some(key(c, labels::CONTAINER_NAME)),
                rate,
            });
        }
    }
    Ok(rows)
}

async fn sample_all<R: StatsRuntime>(rt: &R, containers: &[&Observed]) -> anyhow::Result<Vec<Option<Sample>>> {
    let sampled = join_all(containers.iter().map(|c| async move {
        let usage = rt.stats(&c.id).await?;
        Ok::<_, crate::runtime::RuntimeError>(usage.map(|usage| Sample { usage, taken: Instant::now() }))
    }))
    .await;
    Ok(sampled.into_iter().collect::<Result<Vec<_>, _>>()?)
}
