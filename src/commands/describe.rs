//! `podrun describe`: pods podrun runs in `kubectl describe pod`'s layout (`report::describe`),
//! each from the Pod object `get POD -o json` gives and the events podrun recorded for it.

use crate::cli::inspect::DescribeArgs;
use crate::cli::Cli;
use crate::driver;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::{FieldValidation, LoadOptions};
use crate::report::describe::describe_pod;
use crate::report::{self, output, PodKey, ReportOptions};
use crate::runtime::{ContainerRuntime, Observed, Selector};

pub async fn run(cli: &Cli, args: &DescribeArgs) -> anyhow::Result<u8> {
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let named = names(&args.pods)?;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let (rt, files) = super::connect(cli).await?;
    let keys = match &args.filename {
        Some(file) => in_manifest(file, args.namespace.clone())?,
        None if named.is_empty() => {
            // As kubectl: no name describes every pod of the namespace (or those -l selects).
            let observed = rt.list(&Selector { namespace: Some(namespace.clone()), pod: None }).await?;
            super::delete::pods_in_engine(&observed, &namespace, args.selector.as_ref(), Observed::is_owned)
        }
        None => named.into_iter().map(|name| PodKey { namespace: namespace.clone(), name }).collect(),
    };
    if keys.is_empty() {
        reporter.say(&format!("No resources found in {namespace} namespace."));
        return Ok(exit::SUCCESS);
    }
    let (mut missing, mut first) = (Vec::new(), true);
    for key in keys {
        let Some(pod) = super::find_pod(&rt, &key.namespace, &key.name).await? else {
            missing.push(key.name);
            continue;
        };
        let pod = pod.with_files(files.as_ref());
        let events = files.as_ref().and_then(|f| f.read_events(&pod.uid)).unwrap_or_default();
        let text = describe_pod(&super::get::pod_object(&pod), &events.events, crate::clock::now());
        // As kubectl: two empty lines between pods.
        output::print(&if first { text } else { format!("\n\n{text}") })?;
        first = false;
    }
    for name in &missing {
        reporter.say(&super::pod_not_found(name));
    }
    Ok(if missing.is_empty() { exit::SUCCESS } else { exit::INTERNAL })
}

/// The pod names given: `NAME...`, `pod/NAME...`, or `pod NAME...` (`pods`, `po`) as kubectl
/// takes a resource and names.
fn names(given: &[String]) -> Result<Vec<String>, UsageError> {
    let names = super::pod_args::pod_names(given)?;
    match names.iter().find(|n| !crate::manifest::validate::is_dns1123_subdomain(n)) {
        Some(bad) => Err(UsageError::Said(format!("{bad:?} is not a pod name"))),
        None => Ok(names),
    }
}

/// The pods of the manifests at `file` (a file, a directory, or -), found by name only.
fn in_manifest(file: &str, namespace: Option<String>) -> anyhow::Result<Vec<PodKey>> {
    let files = driver::manifests::expand_walk(&[file.to_owned()], false, false)?;
    let opts = LoadOptions { namespace, strict: false, unknown_fields: FieldValidation::Ignore };
    let loaded = driver::manifests::load(&files, &[], &opts).map_err(driver::manifests::LoadError::into_cause)?;
    Ok(loaded.pods.iter().map(|p| PodKey { namespace: p.namespace().to_owned(), name: p.name().to_owned() }).collect())
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn pods_are_named_as_kubectl_takes_them() {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(names(&owned(&["web", "db"])).unwrap(), ["web", "db"]);
        assert_eq!(names(&owned(&["pod", "web"])).unwrap(), ["web"]);
        assert_eq!(names(&owned(&["pods/web", "po/db"])).unwrap(), ["web", "db"]);
        assert!(names(&owned(&["svc/web"])).is_err());
        assert!(names(&owned(&["../x"])).is_err());
        assert!(names(&owned(&["pods"])).unwrap().is_empty());
    }
}
