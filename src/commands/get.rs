//! `podrun get`: the pods podrun runs, found by its labels, printed as `kubectl get pods`
//! prints them.

use crate::cli::{Cli, GetArgs, GetOutputArg};
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::types::LabelSelector;
use crate::pod::files::PodFiles;
use crate::report::{self, output, ReportOptions};
use crate::runtime::engine::Engine;
use crate::runtime::{ContainerRuntime, Selector};
use crate::status::engine_pods::{self, ListedPod};
pub(crate) use crate::status::pod_object::{list, pod_object};

use super::get_table::{self, Columns};

pub async fn run(cli: &Cli, args: &GetArgs) -> anyhow::Result<u8> {
    let names = super::pod_args::pod_names(&args.pods)?;
    check(args, &names)?;
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let one = match names.as_slice() {
        [name] => Some(name.clone()),
        _ => None,
    };
    let (rt, files) = super::connect(cli).await?;
    let look = Look {
        sel: Selector { namespace: (!args.all_namespaces).then(|| namespace.clone()), pod: one },
        files,
        names,
        selector: args.selector.clone(),
    };
    let (pods, missing, foreign) = look.pods(&rt).await?;
    if let Some(line) = foreign {
        reporter.warning(&line);
    }
    if args.watch || args.watch_only {
        return super::get_watch::watch(&rt, &look, &columns(args), args, pods).await;
    }
    if look.names.len() == 1 && !missing.is_empty() {
        // As kubectl: one pod asked for and not there is an error, with nothing on stdout.
        reporter.say(&super::pod_not_found(&look.names[0]));
        return Ok(exit::INTERNAL);
    }
    // As kubectl: one pod by name is that Pod object; none named, or several, a List of them.
    let object = || match (look.names.len(), pods.as_slice()) {
        (1, [pod]) => pod_object(pod),
        _ => list(&pods),
    };
    match args.output {
        Some(GetOutputArg::Json) => output::println(&report::summary::json(&object()))?,
        Some(GetOutputArg::Yaml) => output::print(&serde_yaml::to_string(&object())?)?,
        _ if pods.is_empty() && missing.is_empty() => {
            // As kubectl: on stderr, so a script reading stdout sees no rows.
            if args.all_namespaces {
                reporter.say("No resources found");
            } else {
                reporter.say(&format!("No resources found in {namespace} namespace."));
            }
        }
        _ if pods.is_empty() => {}
        _ => output::print(&get_table::table(&pods, &columns(args), args.no_headers, crate::clock::now()))?,
    }
    // As kubectl: what was found is printed, then what was not, and that is a failure.
    for name in &missing {
        reporter.say(&super::pod_not_found(name));
    }
    Ok(if missing.is_empty() { exit::SUCCESS } else { exit::INTERNAL })
}

/// kubectl's refusals of names beside `-l` or `-A`; watching prints the table only.
fn check(args: &GetArgs, names: &[String]) -> Result<(), UsageError> {
    let said = |s: &str| Err(UsageError::Said(s.to_owned()));
    if args.selector.is_some() && !names.is_empty() {
        return said("name cannot be provided when a selector is specified");
    }
    if args.all_namespaces && !names.is_empty() {
        return said("a resource cannot be retrieved by name across all namespaces");
    }
    if (args.watch || args.watch_only) && matches!(args.output, Some(GetOutputArg::Json | GetOutputArg::Yaml)) {
        return said("--watch prints the table (or -o wide); for JSON, run get -o json again");
    }
    Ok(())
}

fn columns(args: &GetArgs) -> Columns {
    Columns {
        namespaces: args.all_namespaces,
        wide: args.output == Some(GetOutputArg::Wide),
        label_columns: args.label_columns.clone(),
        show_labels: args.show_labels,
    }
}

/// What `get` looks at: the engine's containers `sel` selects, as pods, those `names` names
/// (or every one) whose labels `selector` selects.
pub(crate) struct Look {
    pub sel: Selector,
    pub files: Option<PodFiles>,
    pub names: Vec<String>,
    pub selector: Option<LabelSelector>,
}

impl Look {
    /// The pods found, the names not found, and the line saying what another state
    /// directory's pods are not shown.
    pub async fn pods(&self, rt: &Engine) -> anyhow::Result<(Vec<ListedPod>, Vec<String>, Option<String>)> {
        let observed = rt.list(&self.sel).await?;
        let foreign = crate::status::unverified_summary::unverified_summary(&observed, &PodFiles::default_root());
        let mut pods = engine_pods::group(observed);
        if let Some(sel) = &self.selector {
            pods.retain(|p| sel.matches(&crate::status::pod_object::labels(p)) == Some(true));
        }
        let (pods, missing) = named(pods, &self.names);
        Ok((pods.into_iter().map(|p| p.with_files(self.files.as_ref())).collect(), missing, foreign))
    }
}

/// The pods `names` asks for, in its order, and the names of those not found; every pod when
/// `names` is empty. An earlier pod of the same name may linger beside the current one: the
/// newest stands for the name, as for logs and exec.
fn named(pods: Vec<ListedPod>, names: &[String]) -> (Vec<ListedPod>, Vec<String>) {
    if names.is_empty() {
        return (pods, Vec::new());
    }
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for name in names {
        match pods.iter().filter(|p| &p.name == name).max_by(|a, b| a.started_at().cmp(&b.started_at())) {
            Some(p) => found.push(p.clone()),
            None => missing.push(name.clone()),
        }
    }
    (found, missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::labels;
    use crate::runtime::{Observed, State};

    fn infra_of(ns: &str, name: &str, uid: &str, started: &str) -> Observed {
        let labels = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, ns),
            (labels::POD_NAME, name),
            (labels::POD_UID, uid),
            (labels::CONTAINER_NAME, "POD"),
            (labels::ROLE, "infra"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        Observed {
            id: format!("i-{uid}"),
            name: format!("podrun_{ns}_{name}_POD_0"),
            labels,
            image: "podrun-infra".into(),
            image_id: String::new(),
            state: State::Running { started_at: Some(started.into()) },
            ip: Some("10.0.0.2".into()),
            gateway: None,
            sealed: true,
        }
    }

    #[test]
    fn named_pods_come_in_the_order_asked_with_the_missing_ones_apart() {
        let pods = engine_pods::group(vec![
            infra_of("ns", "a", "u1", "2024-01-01T00:00:00Z"),
            infra_of("ns", "b", "u2", "2024-01-01T00:00:00Z"),
            infra_of("ns", "b", "u3", "2024-01-02T00:00:00Z"),
        ]);
        let (found, missing) = named(pods.clone(), &["b".into(), "zz".into(), "a".into()]);
        assert_eq!(
            found.iter().map(|p| (p.name.as_str(), p.uid.as_str())).collect::<Vec<_>>(),
            [("b", "u3"), ("a", "u1")]
        );
        assert_eq!(missing, ["zz"]);
        let (all, none) = named(pods, &[]);
        assert_eq!((all.len(), none.len()), (3, 0));
        assert_eq!(pod_object(&found[0])["kind"], "Pod");
        assert_eq!(pod_object(&found[0])["metadata"]["name"], "b");
    }
}
