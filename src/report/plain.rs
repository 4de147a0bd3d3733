//! Plain progress lines on stderr, for logs and pipes: a timestamped line for each state change
//! of each container, and for each thing podrun does. Every line is escaped as it is written
//! (`crate::escape`): a timestamped line stays one line whatever a name or a message holds.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::SystemTime;

use crate::escape::{escape, escape_lines};
use crate::status::PodStatus;

use super::{bytes, failure_lines, outcome_line, output, Ended, PodKey, PullEvent, Reporter};

pub struct Plain {
    quiet: bool,
    /// Last state line shown per pod and container, so only changes are printed.
    seen: Mutex<HashMap<(PodKey, String), String>>,
}

impl Plain {
    pub fn new() -> Plain {
        Plain { quiet: false, seen: Mutex::new(HashMap::new()) }
    }

    /// Warnings only.
    pub fn quiet() -> Plain {
        Plain { quiet: true, seen: Mutex::new(HashMap::new()) }
    }

    fn line(&self, text: &str) {
        let now = humantime::format_rfc3339_seconds(SystemTime::now());
        // A closed stderr is no reason to fail a pod: `output` drops what cannot be written.
        output::eprintln(&format!("{now} {}", escape(text)));
    }
}

impl Reporter for Plain {
    fn warning(&self, msg: &str) {
        output::eprintln(&format!("warning: {}", escape_lines(msg)));
    }

    fn event(&self, pod: &PodKey, msg: &str) {
        if !self.quiet {
            self.line(&format!("{pod}: {msg}"));
        }
    }

    fn note(&self, msg: &str) {
        if !self.quiet {
            self.line(msg);
        }
    }

    /// Start and end of each pull, with size and time; no progress in between (logs are read
    /// later, by people who want the outcome).
    fn pull(&self, pod: &PodKey, image: &str, event: PullEvent) {
        if self.quiet {
            return;
        }
        match event {
            PullEvent::Started => self.line(&format!("{pod}: pulling image {image}")),
            PullEvent::Done { bytes: n, elapsed } => {
                self.line(&format!("{pod}: pulled image {image} ({} in {:.1}s)", bytes(n), elapsed.as_secs_f64()))
            }
            PullEvent::Progress(_) | PullEvent::Failed => {}
        }
    }

    fn status(&self, pod: &PodKey, status: &PodStatus) {
        if self.quiet {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        for c in status.all() {
            let mut text = c.describe();
            if c.restart_count > 0 {
                text.push_str(&format!(", restarts: {}", c.restart_count));
            }
            let k = (pod.clone(), c.name.clone());
            if seen.get(&k) != Some(&text) {
                self.line(&format!("{pod}/{}: {text}", c.name));
                seen.insert(k, text);
            }
        }
    }

    fn done(&self, ended: &Ended<'_>) {
        if !self.quiet || ended.outcome.is_err() {
            self.line(&outcome_line(ended));
            for line in failure_lines(ended) {
                output::eprintln(&line);
            }
        }
    }

    fn finish(&self) {}

    fn say(&self, line: &str) {
        output::eprintln(&escape_lines(line));
    }
}
