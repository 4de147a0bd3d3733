//! `podrun get -w`: the table, then a line for each pod whose row changed (its AGE aside), as
//! `kubectl get -w` prints them: the same columns, each line aligned on its own, no header
//! again; a pod gone is printed once more as last seen. podrun looks again at each of the
//! engine's container events (Docker and Podman) and every two seconds (the CRI has none),
//! until SIGINT or SIGTERM: then it exits 128 + the signal's number, as every podrun command.

use std::collections::BTreeMap;
use std::time::Duration;

use futures_util::StreamExt;

use crate::cli::GetArgs;
use crate::driver::signals::Interrupt;
use crate::report::output;
use crate::runtime::engine::Engine;
use crate::runtime::ContainerRuntime;
use crate::status::engine_pods::ListedPod;

use super::get_look::Look;
use super::get_table::{render, Columns};

/// How often podrun looks without an event.
const EVERY: Duration = Duration::from_secs(2);
/// How long after an event podrun waits for the ones that come with it (a pod's containers
/// start and stop together), so that one change is one look.
const SETTLE: Duration = Duration::from_millis(200);

/// A pod, by its namespace, name and uid: a pod made again under its name is another.
type Key = (String, String, String);

/// The rows last printed, by pod.
struct Printed {
    columns: Columns,
    rows: BTreeMap<Key, Vec<String>>,
    /// The header is yet to come (`--watch-only`, before its first line).
    header: bool,
}

impl Printed {
    /// Prints the rows of `pods` that changed and of the pods gone since the last look.
    fn print(&mut self, pods: &[ListedPod]) -> anyhow::Result<()> {
        let now = crate::clock::now();
        let age = usize::from(self.columns.namespaces) + 4;
        let mut lines = String::new();
        let mut seen = BTreeMap::new();
        for p in pods {
            let key = (p.namespace.clone(), p.name.clone(), p.uid.clone());
            let row = self.columns.row(p, now);
            let same = self.rows.get(&key).is_some_and(|old| without(old, age) == without(&row, age));
            if !same {
                lines.push_str(&self.line(row.clone()));
            }
            seen.insert(key, row);
        }
        for (key, row) in std::mem::take(&mut self.rows) {
            if !seen.contains_key(&key) {
                lines.push_str(&self.line(row));
            }
        }
        self.rows = seen;
        if !lines.is_empty() {
            output::print(&lines)?;
        }
        Ok(())
    }

    fn line(&mut self, row: Vec<String>) -> String {
        if std::mem::take(&mut self.header) {
            return render(&[self.columns.header(), row]);
        }
        render(&[row])
    }
}

fn without(row: &[String], at: usize) -> Vec<&String> {
    row.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, c)| c).collect()
}

/// Watches what `look` looks at, `first` being what it found: the table of it first (unless
/// `--watch-only`), then the changes.
pub async fn watch(
    rt: &Engine,
    look: &Look,
    columns: &Columns,
    args: &GetArgs,
    first: Vec<ListedPod>,
) -> anyhow::Result<u8> {
    let mut interrupt = Interrupt::listen()?;
    let now = crate::clock::now();
    let rows = first.iter().map(|p| ((p.namespace.clone(), p.name.clone(), p.uid.clone()), columns.row(p, now)));
    let shown = !args.watch_only && !first.is_empty();
    if shown {
        output::print(&super::get_table::table(&first, columns, args.no_headers, now))?;
    }
    let mut printed = Printed { columns: columns.clone(), rows: rows.collect(), header: !args.no_headers && !shown };
    let mut changes = rt.changes(&look.sel);
    let mut events = true;
    loop {
        tokio::select! {
            sig = interrupt.wait() => return Ok(u8::try_from(128 + sig).unwrap_or(u8::MAX)),
            event = changes.next(), if events => {
                // An ended stream is polled no more: the periodic look remains.
                events = event.is_some();
                tokio::time::sleep(SETTLE).await;
            }
            () = tokio::time::sleep(EVERY) => {}
        }
        let (pods, _, _) = look.pods(rt).await?;
        printed.print(&pods)?;
    }
}
