//! `apply --logs`: the pods' containers' output on stdout while podrun waits, each line
//! prefixed with its container (`app | ...`, or `web/app | ...` with several pods), as
//! `docker compose up` shows it.
//!
//! A watcher task looks at each pod's containers every 200 ms and at every engine event, and
//! follows each container it has not followed yet: init containers, and each new instance
//! after a restart (a restart is a new container), are picked up as they appear. Containers
//! that were already dead when the run began are an earlier run's, and are not shown.
//!
//! Memory stays bounded whatever a container writes: each follower holds at most a batch of
//! lines ([`BATCH_BYTES`](output::BATCH_BYTES)), written before it takes more (the engine's
//! stream waits meanwhile) and whenever the stream pauses, and a line is at most
//! [`MAX_LINE`](crate::runtime::MAX_LINE) bytes. When the pods are done, a stopped container's
//! output is shown to its end: its follower runs until the engine ends the stream, for as long
//! as output keeps coming. One that stalls ([`STALL`] without a byte, the engine not ending the
//! stream) is given up, and podrun says on standard error how much of that container's output
//! it showed and that the rest, if any, was not shown.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::BoxStream;
use futures_util::{FutureExt, StreamExt};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::runtime::labels;
use crate::runtime::{Followed, Observed, Runtime, Selector, State};

use super::output;

/// How often to look for new containers when no engine event says so.
const SCAN: Duration = Duration::from_millis(200);
/// At the end, how long a stopped container's stream may go without a byte before it is given
/// up. The engine ends it once the output is read; a wait this long means it will not.
const STALL: Duration = Duration::from_secs(5);
/// At the end, a running container's output never ends: it gets a moment for what is in flight.
const DRAIN_RUNNING: Duration = Duration::from_millis(100);

/// One pod whose output is shown.
#[derive(Debug, Clone)]
pub struct LogPod {
    pub selector: Selector,
    /// Put before the container name in the prefix (`pod/container | `); `None` with one pod.
    pub prefix: Option<String>,
}

/// The running watcher; `stop` ends it.
pub struct LogStreamer {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl LogStreamer {
    /// Takes note of the containers that exist now (their output, if they are dead, is an
    /// earlier run's), then starts watching. Call before the pods' drivers start, so no
    /// container of this run is mistaken for an old one.
    pub async fn start<R: Runtime>(rt: Arc<R>, pods: Vec<LogPod>, colour: bool) -> LogStreamer {
        let mut old = HashSet::new();
        for p in &pods {
            // A failed look only means old output may be shown: not worth failing the run.
            if let Ok(cs) = rt.list(&p.selector).await {
                old.extend(cs.into_iter().filter(Observed::is_dead).map(|c| c.id));
            }
        }
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(watch(rt, pods, old, colour, stopped));
        LogStreamer { stop, task }
    }

    /// Stops watching once what the containers wrote has been shown: every container is looked
    /// at once more, and stopped ones are read to their end (within a bound).
    pub async fn stop(self) {
        // Gone already only if the task ended, which it does only when told to.
        let _ = self.stop.send(());
        if let Err(e) = self.task.await {
            tracing::debug!(error = %e, "log streamer ended abnormally");
        }
    }
}

/// A container being followed.
struct Follower {
    id: String,
    /// `pod/container` or `container`, as the prefix names it.
    name: String,
    progress: Arc<Progress>,
    task: JoinHandle<()>,
}

/// How far a follower got, watched at the end to tell a stream still flowing from a stalled one.
#[derive(Default)]
struct Progress {
    /// Bytes of output shown (each line's newline counted).
    shown: AtomicU64,
    /// Bytes the engine sent that were already shown (read again to find the end).
    skipped: AtomicU64,
    /// Whether a line is being written out (a slow reader of podrun's output is no stall).
    printing: AtomicBool,
}

struct Watcher<R> {
    rt: Arc<R>,
    pods: Vec<LogPod>,
    seen: HashSet<String>,
    followers: Vec<Follower>,
    styles: Prefixes,
}

async fn watch<R: Runtime>(
    rt: Arc<R>,
    pods: Vec<LogPod>,
    old: HashSet<String>,
    colour: bool,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut changes = futures_util::stream::select_all(pods.iter().map(|p| rt.changes(&p.selector)));
    let mut changes_alive = true;
    let mut w = Watcher { rt, pods, seen: old, followers: Vec::new(), styles: Prefixes::new(colour) };
    loop {
        w.scan().await;
        tokio::select! {
            _ = &mut stopped => break,
            () = tokio::time::sleep(SCAN) => {}
            ev = changes.next(), if changes_alive => changes_alive = ev.is_some(),
        }
    }
    // A container may have come and gone since the last look (a short init container).
    let running: HashSet<String> = w.scan().await.into_iter().filter(Observed::is_running).map(|c| c.id).collect();
    let now = Instant::now();
    for mut f in w.followers {
        if running.contains(&f.id) {
            if tokio::time::timeout_at(now + DRAIN_RUNNING, &mut f.task).await.is_err() {
                f.task.abort();
            }
        } else {
            drain(f).await;
        }
    }
}

/// Waits for a stopped container's follower to reach the end of its stream, as long as output
/// keeps coming; says what was not shown of one that stalled. False when it was given up.
async fn drain(mut f: Follower) -> bool {
    let moved = |p: &Progress| (p.shown.load(Ordering::Relaxed), p.skipped.load(Ordering::Relaxed));
    let mut last = moved(&f.progress);
    loop {
        if tokio::time::timeout(STALL, &mut f.task).await.is_ok() {
            return true;
        }
        let now = moved(&f.progress);
        if now == last && !f.progress.printing.load(Ordering::Relaxed) {
            f.task.abort();
            output::eprintln(&stalled_note(&f.name, now.0));
            return false;
        }
        last = now;
    }
}

/// What podrun says of a stopped container whose stream it gave up.
fn stalled_note(name: &str, shown: u64) -> String {
    format!(
        "podrun: output of {name}: {shown} bytes shown; the engine sent nothing more for {} s after the \
         container stopped and did not end the stream, so anything it had left is not shown \
         (`podrun logs` reads it from the engine)",
        STALL.as_secs()
    )
}

impl<R: Runtime> Watcher<R> {
    /// Follows every container not followed yet; returns the containers seen.
    async fn scan(&mut self) -> Vec<Observed> {
        let mut all = Vec::new();
        for p in &self.pods {
            let Ok(cs) = self.rt.list(&p.selector).await else { continue };
            for c in &cs {
                // The infra container runs podrun's pause process: nothing of the user's. One
                // created but not started yet is left for a later look: the engine ends a follow
                // begun before the start early or loses its last, unfinished line. Once stdout
                // has failed, no one reads what a new follower would print.
                if c.label(labels::ROLE) == Some("infra")
                    || c.state == State::Created
                    || output::failure().is_some()
                    || !self.seen.insert(c.id.clone())
                {
                    continue;
                }
                let container = c.label(labels::CONTAINER_NAME).unwrap_or(&c.name);
                let prefix = self.styles.prefix(p.prefix.as_deref(), container);
                let name = p.prefix.as_ref().map_or_else(|| container.to_owned(), |pod| format!("{pod}/{container}"));
                let lines = self.rt.logs_follow(&c.id);
                let progress = Arc::new(Progress::default());
                let task = tokio::spawn(follow(lines, prefix, progress.clone()));
                self.followers.push(Follower { id: c.id.clone(), name, progress, task });
            }
            all.extend(cs);
        }
        all
    }
}

/// Prints each line as it comes, whole, in batches written when the container's stream pauses
/// for [`output::PAUSE`] (as `output::Batch`): a batch is whole lines, written under the stdout lock, so lines of
/// different containers never mix within a line.
async fn follow(mut lines: BoxStream<'static, Followed>, prefix: String, progress: Arc<Progress>) {
    let mut batch = output::Batch::new();
    // While a batch is written, a slow reader of podrun's output holds the follower: no stall.
    let write = |batch: &mut output::Batch| {
        progress.printing.store(true, Ordering::Relaxed);
        let written = batch.flush();
        progress.printing.store(false, Ordering::Relaxed);
        written
    };
    loop {
        let waiting = lines.next().now_or_never();
        let item = match waiting {
            Some(item) => item,
            None => match tokio::time::timeout(output::PAUSE, lines.next()).await {
                Ok(item) => item,
                // A closed or full stdout (`| head`) is no reason to fail the run: the failure
                // is recorded (podrun exits 141, or 1, once its pods are settled) and the
                // following ends.
                Err(_) if write(&mut batch).is_err() => return,
                Err(_) => lines.next().await,
            },
        };
        let l = match item {
            None => {
                let _ = write(&mut batch);
                return;
            }
            Some(Followed::Line(l)) => l,
            Some(Followed::Skipped(n)) => {
                progress.skipped.fetch_add(n as u64, Ordering::Relaxed);
                continue;
            }
        };
        progress.printing.store(true, Ordering::Relaxed);
        let printed = batch.out(format!("{prefix}{}\n", l.line).as_bytes());
        progress.shown.fetch_add(l.line.len() as u64 + 1, Ordering::Relaxed);
        progress.printing.store(false, Ordering::Relaxed);
        if printed.is_err() {
            return;
        }
    }
}

/// The prefix of each container's lines, each container in a colour of its own (compose's
/// palette order) when stdout shows colours.
struct Prefixes {
    colour: bool,
    assigned: HashMap<String, console::Color>,
}

const PALETTE: [console::Color; 6] = [
    console::Color::Cyan,
    console::Color::Yellow,
    console::Color::Green,
    console::Color::Magenta,
    console::Color::Blue,
    console::Color::Red,
];

impl Prefixes {
    fn new(colour: bool) -> Prefixes {
        Prefixes { colour, assigned: HashMap::new() }
    }

    fn prefix(&mut self, pod: Option<&str>, container: &str) -> String {
        let name = match pod {
            Some(pod) => format!("{pod}/{container}"),
            None => container.to_owned(),
        };
        let text = format!("{} | ", crate::escape::escape(&name));
        if !self.colour {
            return text;
        }
        let n = self.assigned.len();
        let colour = *self.assigned.entry(name).or_insert(PALETTE[n % PALETTE.len()]);
        console::Style::new().fg(colour).force_styling(true).apply_to(text).to_string()
    }
}

/// Whether the prefixes are coloured: on a terminal, unless NO_COLOR is set (checked here as
/// well, as CLICOLOR_FORCE would otherwise win over it).
pub fn colour_stdout() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && console::Term::stdout().is_term()
        && console::colors_enabled()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_name_the_container_and_the_pod_with_several() {
        let mut p = Prefixes::new(false);
        assert_eq!(p.prefix(None, "app"), "app | ");
        assert_eq!(p.prefix(Some("web"), "init"), "web/init | ");
    }

    /// A follower of `items`, one every `every`, then of nothing more, never ending.
    fn follower(items: Vec<Followed>, every: Duration) -> Follower {
        let lines = futures_util::stream::iter(items)
            .then(move |i| async move {
                tokio::time::sleep(every).await;
                i
            })
            .chain(futures_util::stream::pending())
            .boxed();
        let progress = Arc::new(Progress::default());
        let task = tokio::spawn(follow(lines, String::new(), progress.clone()));
        Follower { id: "c".into(), name: "c".into(), progress, task }
    }

    #[tokio::test(start_paused = true)]
    async fn a_stream_that_moves_is_waited_for_and_one_that_stalls_is_given_up() {
        // Skipped output moves the stream as lines do: 12 s of it outlast the stall limit.
        let moving = follower(vec![Followed::Skipped(10); 12], Duration::from_secs(1));
        let start = Instant::now();
        assert!(!drain(moving).await, "a stream that never ends is given up in the end");
        assert!(start.elapsed() >= Duration::from_secs(12) + STALL, "given up while it moved: {:?}", start.elapsed());
        assert_eq!(stalled_note("web/app", 42).split(';').next(), Some("podrun: output of web/app: 42 bytes shown"));
        let ending = futures_util::stream::iter(vec![Followed::Skipped(1)]).boxed();
        let progress = Arc::new(Progress::default());
        let task = tokio::spawn(follow(ending, String::new(), progress.clone()));
        assert!(drain(Follower { id: "d".into(), name: "d".into(), progress, task }).await);
    }

    #[test]
    fn each_container_keeps_its_colour() {
        let mut p = Prefixes::new(true);
        let a = p.prefix(None, "a");
        let b = p.prefix(None, "b");
        assert_ne!(a, b);
        assert_eq!(p.prefix(None, "a"), a);
        assert!(console::strip_ansi_codes(&a) == "a | ");
    }
}
