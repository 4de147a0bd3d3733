//! `podrun get`: the pods podrun runs, found by its labels, printed as `kubectl get pods`
//! prints them.

use std::time::SystemTime;

use crate::cli::{Cli, GetArgs, GetOutputArg};
use crate::clock::parse_time;
use crate::escape::escape;
use crate::exit;
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::pod::files::PodFiles;
use crate::report::{self, output, ReportOptions};
use crate::runtime::{ContainerRuntime, Selector};
use crate::status::engine_pods::{self, ListedPod};
pub(crate) use crate::status::pod_object::{list, pod_object};

pub async fn run(cli: &Cli, args: &GetArgs) -> anyhow::Result<u8> {
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let one = match args.pods.as_slice() {
        [name] => Some(name.clone()),
        _ => None,
    };
    let sel = Selector { namespace: (!args.all_namespaces).then(|| namespace.clone()), pod: one };
    let (rt, files) = super::connect(cli).await?;
    let observed = rt.list(&sel).await?;
    for w in engine_pods::unverified_report(&observed, &PodFiles::default_root()) {
        reporter.warning(&w);
    }
    let (pods, missing) = named(engine_pods::group(observed), &args.pods);
    let pods: Vec<ListedPod> = pods.into_iter().map(|p| p.with_files(files.as_ref())).collect();
    if args.pods.len() == 1 && !missing.is_empty() {
        // As kubectl: one pod asked for and not there is an error, with nothing on stdout.
        reporter.say(&super::pod_not_found(&args.pods[0]));
        return Ok(exit::INTERNAL);
    }
    // As kubectl: one pod by name is that Pod object; none named, or several, a List of them.
    let object = match (args.pods.len(), pods.as_slice()) {
        (1, [pod]) => pod_object(pod),
        _ => list(&pods),
    };
    match args.output {
        Some(GetOutputArg::Json) => output::println(&report::summary::json(&object))?,
        Some(GetOutputArg::Yaml) => output::print(&serde_yaml::to_string(&object)?)?,
        _ if pods.is_empty() && missing.is_empty() => {
            // As kubectl: on stderr, so a script reading stdout sees no rows.
            if args.all_namespaces {
                reporter.say("No resources found");
            } else {
                reporter.say(&format!("No resources found in {namespace} namespace."));
            }
        }
        _ if pods.is_empty() => {}
        wide => {
            output::print(&table(&pods, args.all_namespaces, wide == Some(GetOutputArg::Wide), crate::clock::now()))?
        }
    }
    // As kubectl: what was found is printed, then what was not, and that is a failure.
    for name in &missing {
        reporter.say(&super::pod_not_found(name));
    }
    Ok(if missing.is_empty() { exit::SUCCESS } else { exit::INTERNAL })
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

fn table(pods: &[ListedPod], namespaces: bool, wide: bool, now: SystemTime) -> String {
    let mut header = vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"];
    if namespaces {
        header.insert(0, "NAMESPACE");
    }
    if wide {
        header.extend(["IP", "IMAGES"]);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for p in pods {
        let st = &p.status;
        // A start in the future (clocks apart) reads as 0s rather than failing.
        let age = p
            .started_at()
            .and_then(parse_time)
            .map(|t| engine_pods::human_age(now.duration_since(t).unwrap_or_default()))
            .unwrap_or_else(|| "<unknown>".into());
        let mut row = vec![
            p.name.clone(),
            engine_pods::display_ready(st, &p.sidecars()),
            engine_pods::display_status(st, &p.sidecars()),
            engine_pods::restarts(st, &p.sidecars()).to_string(),
            age,
        ];
        if namespaces {
            row.insert(0, p.namespace.clone());
        }
        if wide {
            let images: Vec<&str> = st.container_statuses.iter().map(|c| c.image.as_str()).collect();
            row.push(st.pod_ip.clone().unwrap_or_else(|| "<none>".into()));
            row.push(if images.is_empty() { "<none>".into() } else { images.join(",") });
        }
        rows.push(row.iter().map(|cell| escape(cell).into_owned()).collect());
    }
    let widths: Vec<usize> =
        (0..rows[0].len()).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in rows {
        // Three spaces between columns, as kubectl's tabwriter pads them.
        let line: Vec<String> = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(line.join("   ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::runtime::labels;
    use crate::runtime::{Observed, State};

    fn infra(ns: &str) -> Observed {
        infra_of(ns, "web", "u", "2024-01-01T00:00:00Z")
    }

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
    fn the_table_has_kubectls_columns() {
        let pods = engine_pods::group(vec![infra("ns")]);
        let now = parse_time("2024-01-01T00:05:00Z").unwrap_or(SystemTime::UNIX_EPOCH) + Duration::ZERO;
        let t = table(&pods, true, true, now);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0].split_whitespace().collect::<Vec<_>>(),
            ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "IMAGES"]
        );
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["ns", "web", "0/0", "Pending", "0", "5m", "10.0.0.2", "<none>"]
        );
        let v = list(&pods);
        assert_eq!(v["kind"], "List");
        assert_eq!(v["items"][0]["metadata"]["namespace"], "ns");
        assert!(v["items"][0]["status"]["containerStatuses"].is_array());
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
