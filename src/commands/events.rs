//! `podrun events`: the events podrun recorded for the pods it runs (`pod::events`), read from
//! its files for the engine it connects to, printed as
//! `kubectl events` prints them; `-w` follows them, looking once a second, until interrupted.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::cli::inspect::{EventsArgs, EventsOutputArg};
use crate::cli::Cli;
use crate::driver::Interrupt;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::pod::files::PodFiles;
use crate::report::events::{self as shown, PodEvent};
use crate::report::{self, output, ReportOptions};
use crate::runtime::Selector;

/// How often `-w` looks for new events.
const WATCH_EVERY: Duration = Duration::from_secs(1);

pub async fn run(cli: &Cli, args: &EventsArgs) -> anyhow::Result<u8> {
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let pod = args.for_object.as_deref().map(pod_named).transpose()?;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let sel = Selector { namespace: (!args.all_namespaces).then(|| namespace.clone()), pod };
    let (_, files) = super::connect(cli).await?;
    let events = gather(&sel, files.as_ref());
    match args.output {
        Some(EventsOutputArg::Json) => output::println(&report::summary::json(&shown::list(&events)))?,
        Some(EventsOutputArg::Yaml) => output::print(&serde_yaml::to_string(&shown::list(&events))?)?,
        None if events.is_empty() && !args.watch => {
            // As kubectl: on stderr, so a script reading stdout sees no rows.
            if args.all_namespaces {
                reporter.say("No events found.");
            } else {
                reporter.say(&format!("No events found in {namespace} namespace."));
            }
        }
        None => output::print(&shown::table(&events, args.all_namespaces, crate::clock::now()))?,
    }
    if !args.watch {
        return Ok(exit::SUCCESS);
    }
    let mut interrupt = Interrupt::listen()?;
    let mut seen = counts(&events);
    loop {
        tokio::select! {
            sig = interrupt.wait() => return Ok(exit::for_pod(&crate::driver::PodFailure::Interrupted(sig))),
            () = tokio::time::sleep(WATCH_EVERY) => {}
        }
        let now = gather(&sel, files.as_ref());
        let fresh: Vec<PodEvent> = now.iter().filter(|e| seen.get(&key(e)) != Some(&e.event.count)).cloned().collect();
        seen = counts(&now);
        for e in fresh {
            let line = match args.output {
                Some(EventsOutputArg::Json) => report::summary::json(&shown::object(&e, 0)),
                Some(EventsOutputArg::Yaml) => format!("---\n{}", serde_yaml::to_string(&shown::object(&e, 0))?),
                None => shown::rows(&[e], args.all_namespaces, crate::clock::now()),
            };
            output::print(&line)?;
            if args.output == Some(EventsOutputArg::Json) {
                output::print("\n")?;
            }
        }
    }
}

/// The pod `--for` names: `pod/NAME` (or `pods/`, `po/`), or a bare NAME.
fn pod_named(object: &str) -> Result<String, UsageError> {
    let name = match object.split_once('/') {
        Some(("pod" | "pods" | "po", name)) => name,
        Some((kind, _)) => {
            return Err(UsageError::Said(format!("--for {object:?}: podrun records events of pods only, not {kind:?}")))
        }
        None => object,
    };
    if crate::manifest::validate::is_dns1123_subdomain(name) {
        Ok(name.to_owned())
    } else {
        Err(UsageError::Said(format!("--for {object:?}: not a pod name")))
    }
}

/// The events of every pod `sel` selects, sorted as kubectl sorts them: found by their files,
/// which name the pod, as a pod whose image is still being pulled has no container yet.
fn gather(sel: &Selector, files: Option<&PodFiles>) -> Vec<PodEvent> {
    let Some(files) = files else { return Vec::new() };
    let mut events = Vec::new();
    for (uid, _) in files.pod_dirs().into_iter().filter(|(uid, _)| files.is_this_engines(uid)) {
        let Some(kept) = files.read_events(&uid) else { continue };
        let wanted = sel.namespace.as_ref().is_none_or(|ns| *ns == kept.namespace)
            && sel.pod.as_ref().is_none_or(|name| *name == kept.name);
        if !wanted {
            continue;
        }
        events.extend(kept.events.into_iter().map(|event| PodEvent {
            namespace: kept.namespace.clone(),
            name: kept.name.clone(),
            uid: uid.clone(),
            event,
        }));
    }
    shown::sort(&mut events);
    events
}

type Key = (String, String, String, String, Option<String>);

fn key(e: &PodEvent) -> Key {
    let ev = &e.event;
    (e.uid.clone(), ev.type_.clone(), ev.reason.clone(), ev.message.clone(), ev.field_path.clone())
}

/// Each event's count, to tell a new event or a repeat at the next look.
fn counts(events: &[PodEvent]) -> BTreeMap<Key, u32> {
    events.iter().map(|e| (key(e), e.event.count)).collect()
}

#[cfg(test)]
mod tests {
    use super::pod_named;

    #[test]
    fn for_takes_a_pod_only() {
        assert_eq!(pod_named("pod/web").unwrap(), "web");
        assert_eq!(pod_named("po/web").unwrap(), "web");
        assert_eq!(pod_named("web").unwrap(), "web");
        assert!(pod_named("deployment/web").is_err());
        assert!(pod_named("pod/../x").is_err());
    }
}
