//! `podrun __complete WORDS...`: the pod and container names a shell's completion offers, read
//! from the engine as kubectl's completions read them from the API server.
//!
//! The completion scripts pass the words typed so far, the one being completed last. podrun
//! parses them with its own command line definition (leniently: the line is unfinished), so the
//! scripts need not know which commands take a pod, which flags take a value, or where the
//! namespace and the engine's address are. Nothing is printed when no name fits the place:
//! the script then offers what its static part knows (flags, files).

use std::time::Duration;

use clap::{ArgMatches, CommandFactory, Parser};

use crate::cli::Cli;
use crate::exit;
use crate::manifest::names::{is_dns1123_label, is_dns1123_subdomain};
use crate::report::output;
use crate::runtime::{ContainerRuntime, Selector};
use crate::status::engine_pods;

/// How long a completion may wait for the engine: a shell that hangs on Tab is worse than one
/// that offers nothing.
const DEADLINE: Duration = Duration::from_secs(3);
/// The most words looked at: a command line is short.
const MAX_WORDS: usize = 256;

/// What the word being completed names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    /// A pod of `namespace` (None: every namespace).
    Pods { namespace: Option<String> },
    /// A container of the pod `pod` of `namespace`.
    Containers { namespace: String, pod: String },
}

/// What to complete, and the global flags that name the engine, from the words typed so far
/// (`podrun` first, the word being completed last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub wanted: Wanted,
    pub connection: Vec<String>,
}

/// Prints the names that fit the last of `words`; exit 0 whatever the engine says.
pub async fn run(words: &[String]) -> anyhow::Result<u8> {
    let Some(request) = request(words) else { return Ok(exit::SUCCESS) };
    let Ok(cli) = Cli::try_parse_from(
        ["podrun"].into_iter().map(str::to_owned).chain(request.connection.iter().cloned()).chain(["man".to_owned()]),
    ) else {
        return Ok(exit::SUCCESS);
    };
    let names = tokio::time::timeout(DEADLINE, names(&cli, &request.wanted)).await.ok().and_then(Result::ok);
    let mut text = String::new();
    for name in names.unwrap_or_default() {
        text.push_str(&name);
        text.push('\n');
    }
    output::print(&text)?;
    Ok(exit::SUCCESS)
}

/// The names of the pods or containers `wanted` asks for. Only names Kubernetes allows are
/// offered: a shell evaluates what completion gives it, and labels are the engine's to forge.
async fn names(cli: &Cli, wanted: &Wanted) -> anyhow::Result<Vec<String>> {
    let (rt, _) = super::connect(cli).await?;
    let (namespace, pod) = match wanted {
        Wanted::Pods { namespace } => (namespace.clone(), None),
        Wanted::Containers { namespace, pod } => (Some(namespace.clone()), Some(pod.clone())),
    };
    let observed = rt.list(&Selector { namespace, pod: pod.clone() }).await?;
    // Only pods this state directory made, as get lists them.
    let pods = engine_pods::group(observed.into_iter().filter(|c| !c.is_unverified()).collect());
    let mut names: Vec<String> = match pod {
        None => pods.into_iter().map(|p| p.name).filter(|n| is_dns1123_subdomain(n)).collect(),
        Some(_) => pods
            .iter()
            .flat_map(|p| p.init.iter().chain(&p.containers).map(|(n, _)| n.clone()))
            .filter(|n| is_dns1123_label(n))
            .collect(),
    };
    names.sort();
    names.dedup();
    Ok(names)
}

/// What the last of `words` names, if a pod or a container; None elsewhere (a flag, a flag's
/// value, a file) and for a line podrun cannot read.
#[must_use]
pub fn request(words: &[String]) -> Option<Request> {
    let (current, typed) = words.split_last()?;
    if typed.is_empty() || words.len() > MAX_WORDS || current.starts_with('-') {
        return None;
    }
    let cmd = Cli::command();
    let prev = typed.last().map(String::as_str).unwrap_or_default();
    let container_flag = matches!(prev, "-c" | "--container");
    // A flag waiting for its value is left out of the parse, which would take it as missing.
    let parsed = if takes_value(&cmd, typed, prev) { &typed[..typed.len() - 1] } else { typed };
    let matches = cmd.clone().ignore_errors(true).try_get_matches_from(parsed).ok()?;
    let (sub_name, sub) = matches.subcommand()?;
    let sub_cmd = cmd.find_subcommand(sub_name)?;
    let namespace = flag(sub, "namespace").unwrap_or_else(|| "default".to_owned());
    let wanted = if container_flag {
        Wanted::Containers { namespace, pod: pod_given(sub_cmd, sub)?.into_iter().next()? }
    } else if takes_value(&cmd, typed, prev) {
        return None;
    } else {
        let pod_arg = sub_cmd.get_positionals().find(|a| is_pod_arg(a))?;
        let given = pod_given(sub_cmd, sub).unwrap_or_default();
        let many = pod_arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        if !many && !given.is_empty() {
            return None;
        }
        let all = sub.try_get_one::<bool>("all_namespaces").ok().flatten().copied().unwrap_or(false);
        Wanted::Pods { namespace: (!all).then_some(namespace) }
    };
    Some(Request { wanted, connection: connection(&matches) })
}

/// Whether `prev`, the word before the one being completed, is a flag that takes a value.
fn takes_value(cmd: &clap::Command, typed: &[String], prev: &str) -> bool {
    if !prev.starts_with('-') || prev.contains('=') {
        return false;
    }
    let sub = typed.iter().skip(1).find(|w| !w.starts_with('-')).and_then(|s| cmd.find_subcommand(s));
    let args = sub.into_iter().flat_map(|s| s.get_arguments()).chain(cmd.get_arguments());
    args.filter(|a| !a.is_positional()).any(|a| {
        let named = match prev.strip_prefix("--") {
            Some(long) => a.get_long() == Some(long),
            None => prev.len() == 2 && a.get_short().is_some_and(|c| prev.ends_with(c)),
        };
        named && a.get_action().takes_values()
    })
}

/// The positional argument that takes pod names (its value name is POD).
fn is_pod_arg(arg: &clap::Arg) -> bool {
    arg.get_value_names().is_some_and(|v| v.iter().any(|n| n.as_str() == "POD"))
}

/// The pod names already given to the command, without kubectl's resource words.
fn pod_given(sub_cmd: &clap::Command, sub: &ArgMatches) -> Option<Vec<String>> {
    let id = sub_cmd.get_positionals().find(|a| is_pod_arg(a))?.get_id().clone();
    let given = sub.try_get_many::<String>(id.as_str()).ok().flatten()?;
    Some(
        given
            .filter(|w| !matches!(w.as_str(), "pods" | "pod" | "po"))
            .map(|w| w.split_once('/').map_or(w.as_str(), |(_, n)| n).to_owned())
            .collect(),
    )
}

/// A flag's value as a string, when the command has the flag and it was given.
fn flag(matches: &ArgMatches, id: &str) -> Option<String> {
    matches.try_get_one::<String>(id).ok().flatten().cloned()
}

/// The global flags given that say which engine to ask, as words for a command line.
fn connection(matches: &ArgMatches) -> Vec<String> {
    let mut words = Vec::new();
    let (_, sub) = matches.subcommand().unwrap_or(("", matches));
    for (id, long) in [
        ("host", "--host"),
        ("runtime_endpoint", "--runtime-endpoint"),
        ("context", "--context"),
        ("tlscacert", "--tlscacert"),
        ("tlscert", "--tlscert"),
        ("tlskey", "--tlskey"),
    ] {
        if let Some(v) = flag(sub, id).or_else(|| flag(matches, id)) {
            words.push(format!("{long}={v}"));
        }
    }
    for (id, long) in [("tls", "--tls"), ("tlsverify", "--tlsverify")] {
        let on = |m: &ArgMatches| m.try_get_one::<bool>(id).ok().flatten().copied().unwrap_or(false);
        if on(sub) || on(matches) {
            words.push(long.to_owned());
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(line: &str) -> Option<Request> {
        let mut words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        if line.ends_with(' ') {
            words.pop();
            words.push(String::new());
        }
        request(&words)
    }

    fn pods(ns: Option<&str>) -> Option<Wanted> {
        Some(Wanted::Pods { namespace: ns.map(str::to_owned) })
    }

    #[test]
    fn what_each_place_on_a_line_names() {
        let cases: &[(&str, &str, Option<Wanted>)] = &[
            ("pod after logs", "podrun logs ", pods(Some("default"))),
            ("a prefix of a pod", "podrun logs we", pods(Some("default"))),
            ("the namespace flag counts", "podrun logs -n kube-system ", pods(Some("kube-system"))),
            ("its = form too", "podrun exec --namespace=x w", pods(Some("x"))),
            ("get takes several", "podrun get web ", pods(Some("default"))),
            ("every namespace", "podrun get -A ", pods(None)),
            ("logs takes one pod", "podrun logs web ", None),
            ("a flag is not a name", "podrun logs -", None),
            ("a flag's value is not a pod", "podrun get -o ", None),
            ("apply takes files", "podrun apply ", None),
            ("no command yet", "podrun ", None),
            (
                "a container of the pod",
                "podrun logs -n ns web -c ",
                Some(Wanted::Containers { namespace: "ns".into(), pod: "web".into() }),
            ),
            (
                "exec's container",
                "podrun exec web --container a",
                Some(Wanted::Containers { namespace: "default".into(), pod: "web".into() }),
            ),
            ("a container before the pod is named", "podrun logs -c ", None),
        ];
        for (name, line, want) in cases {
            assert_eq!(req(line).map(|r| r.wanted), *want, "{name}: {line:?}");
        }
    }

    #[test]
    fn the_engine_named_on_the_line_is_asked() {
        let docker = req("podrun -H tcp://127.0.0.1:2376 logs --tls ").unwrap();
        assert_eq!(docker.connection, ["--host=tcp://127.0.0.1:2376", "--tls"]);
        let cri = req("podrun logs --runtime-endpoint unix:///c.sock w").unwrap();
        assert_eq!(cri.connection, ["--runtime-endpoint=unix:///c.sock"]);
        for r in [docker, cri] {
            let line = ["podrun".to_owned()].into_iter().chain(r.connection).chain(["man".into()]);
            assert!(Cli::try_parse_from(line).is_ok());
        }
    }

    #[test]
    fn a_long_line_is_not_parsed() {
        let words: Vec<String> =
            std::iter::once("podrun".to_owned()).chain((0..MAX_WORDS).map(|_| "get".into())).collect();
        assert_eq!(request(&words), None);
    }
}
