//! `podrun get`: the pods podrun runs, found by its labels, printed as `kubectl get pods`
//! prints them.

use crate::cli::{Cli, GetArgs, GetOutputArg};
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::report::{self, output, ReportOptions};
use crate::runtime::Selector;
pub(crate) use crate::status::pod_object::{list, pod_object};

use super::get_look::Look;
use super::get_table::{self, Columns};

pub async fn run(cli: &Cli, args: &GetArgs) -> anyhow::Result<u8> {
    let names = super::pod_args::pod_names(&args.pods)?;
    check(args, &names)?;
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let printer = super::get_output::printer(args.output.as_ref())?;
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
    let mut object = match (look.names.len(), pods.as_slice()) {
        (1, [pod]) => pod_object(pod),
        _ => list(&pods),
    };
    let pods = super::get_output::sorted(pods, &mut object, args.sort_by.as_deref())?;
    match &args.output {
        Some(GetOutputArg::Json) => output::println(&report::summary::json(&object))?,
        Some(GetOutputArg::Yaml) => output::print(&serde_yaml::to_string(&object)?)?,
        _ if printer.is_some() => super::get_output::print(printer.as_ref(), &object, !args.no_headers)?,
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
