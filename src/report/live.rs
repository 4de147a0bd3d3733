//! Live progress on a terminal: one spinner line per container showing its state and reason,
//! updated in place (indicatif), with podrun's own actions shown above them under `-v`.
//!
//! Every name, image and message is escaped (`crate::escape`). A pod's `namespace/name`, a
//! container's name and an image are cut to [`VALUE_WIDTH`] columns, so a live line stays one
//! line; the state text after them is cut to the terminal's width by indicatif.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::escape::{escape, escape_lines};
use crate::status::PodStatus;

use super::{bytes, failed_mark, failure_lines, outcome_line, state_style, Ended, PodKey, PullEvent, Reporter};

/// The most columns a name or an image takes on a live line; longer ones end in `…`.
const VALUE_WIDTH: usize = 64;

/// `value` escaped and cut to [`VALUE_WIDTH`].
fn short(value: &str) -> String {
    console::truncate_str(&escape(value), VALUE_WIDTH, "…").into_owned()
}

pub struct Live {
    verbose: bool,
    multi: MultiProgress,
    bars: Mutex<HashMap<(PodKey, String), ProgressBar>>,
    pulls: Mutex<HashMap<(PodKey, String), ProgressBar>>,
}

impl Live {
    pub fn new(verbose: bool) -> Live {
        Live {
            verbose,
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            bars: Mutex::new(HashMap::new()),
            pulls: Mutex::new(HashMap::new()),
        }
    }

    fn println(&self, text: &str) {
        // Printed above the live lines; if the terminal is gone there is no one to tell.
        let _ = self.multi.println(text);
    }
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner:.cyan} {prefix:.bold} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .tick_chars("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏✓")
}

impl Reporter for Live {
    fn warning(&self, msg: &str) {
        self.println(&format!("{} {}", console::style("warning:").yellow().bold(), escape_lines(msg)));
    }

    fn event(&self, pod: &PodKey, msg: &str) {
        if self.verbose {
            self.println(&format!("{}: {}", short(&pod.to_string()), escape(msg)));
        }
    }

    fn note(&self, msg: &str) {
        self.println(&escape_lines(msg));
    }

    /// A bar per pull, with bytes and layers, above the containers' lines.
    fn pull(&self, pod: &PodKey, image: &str, event: PullEvent) {
        let mut pulls = self.pulls.lock().unwrap_or_else(|e| e.into_inner());
        let k = (pod.clone(), image.to_owned());
        match event {
            PullEvent::Started => {
                let bar = self.multi.insert(0, ProgressBar::new(0));
                bar.set_style(
                    ProgressStyle::with_template("{prefix:.bold} [{bar:30}] {bytes}/{total_bytes} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> "),
                );
                bar.set_prefix(format!("pulling {}", short(image)));
                pulls.insert(k, bar);
            }
            PullEvent::Progress(p) => {
                if let Some(bar) = pulls.get(&k) {
                    bar.set_length(p.bytes_total);
                    bar.set_position(p.bytes_done);
                    bar.set_message(format!("layers {}/{}", p.layers_done, p.layers));
                }
            }
            PullEvent::Done { bytes: n, elapsed } => {
                if let Some(bar) = pulls.remove(&k) {
                    bar.finish_and_clear();
                }
                self.println(&format!("pulled {} ({} in {:.1}s)", short(image), bytes(n), elapsed.as_secs_f64()));
            }
            PullEvent::Failed => {
                if let Some(bar) = pulls.remove(&k) {
                    bar.finish_and_clear();
                }
            }
        }
    }

    fn status(&self, pod: &PodKey, status: &PodStatus) {
        let mut bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
        for c in status.all() {
            let bar = bars.entry((pod.clone(), c.name.clone())).or_insert_with(|| {
                let b = self.multi.add(ProgressBar::new_spinner());
                b.set_style(style());
                b.set_prefix(format!("{}/{}", short(&pod.to_string()), short(&c.name)));
                b.enable_steady_tick(Duration::from_millis(120));
                b
            });
            let mut text = state_style(&c.state.summary()).apply_to(escape(&c.describe())).to_string();
            if c.restart_count > 0 {
                text.push_str(&format!("  restarts: {}", c.restart_count));
            }
            bar.set_message(text);
        }
    }

    /// The pod's live lines become fixed lines, each container marked by how it ended, then
    /// the pod's line, then on a failure why: in that order, once.
    fn done(&self, ended: &Ended<'_>) {
        let mut bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
        let mut lines = Vec::new();
        for c in ended.status.into_iter().flat_map(PodStatus::all) {
            if let Some(bar) = bars.remove(&(ended.key.clone(), c.name.clone())) {
                bar.finish_and_clear();
                self.multi.remove(&bar);
            }
            let mark = if failed_mark(ended, c) {
                console::style("✗").red().bold()
            } else if c.state.running.is_some() || c.state.terminated.is_some() {
                console::style("✓").green()
            } else {
                console::style("·").yellow()
            };
            let mut text = state_style(&c.state.summary()).apply_to(escape(&c.describe())).to_string();
            if c.restart_count > 0 {
                text.push_str(&format!("  restarts: {}", c.restart_count));
            }
            lines.push(format!("{mark} {}/{} {text}", short(&ended.key.to_string()), short(&c.name)));
        }
        // Containers the last status did not show (the pod was not seen) are just ended.
        bars.retain(|(pod, _), bar| {
            let mine = *pod == ended.key;
            if mine {
                bar.finish_and_clear();
            }
            !mine
        });
        drop(bars);
        let line = outcome_line(ended);
        lines.push(
            if ended.outcome.is_ok() { console::style(line).green() } else { console::style(line).red() }.to_string(),
        );
        lines.extend(failure_lines(ended));
        self.println(&lines.join("\n"));
    }

    fn finish(&self) {
        let bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
        for bar in bars.values() {
            bar.finish();
        }
    }

    fn say(&self, line: &str) {
        // Above the live lines, as every other line, so they are not drawn over.
        self.println(&escape_lines(line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_and_cut_to_their_width() {
        assert_eq!(short("busybox\u{1b}[2J"), "busybox\\x1b[2J");
        let long = short(&"x".repeat(100));
        assert_eq!(console::measure_text_width(&long), VALUE_WIDTH);
        assert!(long.ends_with('…'));
        assert_eq!(short(&"y".repeat(VALUE_WIDTH)), "y".repeat(VALUE_WIDTH));
    }
}
