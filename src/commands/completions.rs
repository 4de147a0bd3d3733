//! `podrun completions SHELL` and `podrun man`: the shell completion scripts and the roff man
//! page, generated from the command line definition in `cli/mod.rs` so they never disagree with it.
//!
//! Both are deterministic (no date, no environment), which lets the copies committed under
//! `completions/` be checked against the binary by the tests.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;
use clap_mangen::Man;

use crate::cli::Cli;
use crate::exit;
use crate::report::output;

use super::{completion_hooks, manual};

/// The name completions are registered for and the man page is titled with.
const BIN: &str = "podrun";

/// Prints the completion script for `shell` on stdout.
pub fn completions(shell: Shell) -> anyhow::Result<u8> {
    output::out(&completion_script(shell))?;
    Ok(exit::SUCCESS)
}

/// Prints the man page on stdout.
pub fn man() -> anyhow::Result<u8> {
    output::out(&man_page()?)?;
    Ok(exit::SUCCESS)
}

/// The completion script for `shell`.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), BIN, &mut out);
    completion_hooks::with_names(shell, out)
}

/// podrun(1): the top-level page (synopsis, description, global options), then one subsection
/// per command with its synopsis, description and own options, so one page documents everything
/// (rather than pointing at podrun-apply(1) pages that would not exist).
pub fn man_page() -> std::io::Result<Vec<u8>> {
    // The package version only: with the commit of the build (as `--version` has it) the
    // committed copy would change with every commit.
    let mut cmd = Cli::command().disable_help_subcommand(true).version(env!("CARGO_PKG_VERSION"));
    cmd.build();
    let page = Man::new(cmd.clone());
    let mut out = Vec::new();
    page.render_title(&mut out)?;
    page.render_name_section(&mut out)?;
    page.render_synopsis_section(&mut out)?;
    page.render_description_section(&mut out)?;
    page.render_options_section(&mut out)?;
    out.extend_from_slice(b".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_bin_name().unwrap_or_else(|| sub.get_name());
        writeln!(out, ".SS \"{name}\"")?;
        // The global options, --help and --version are documented once, above.
        let own = |a: &clap::Arg| !a.is_global_set() && !matches!(a.get_id().as_str(), "help" | "version");
        let hidden: Vec<_> = sub.get_arguments().filter(|a| !own(a)).map(|a| a.get_id().clone()).collect();
        let sub = hidden.into_iter().fold(sub.clone(), |sub, id| sub.mut_arg(id, |a| a.hide(true)));
        let sub = Man::new(sub);
        let mut section = Vec::new();
        sub.render_synopsis_section(&mut section)?;
        sub.render_description_section(&mut section)?;
        sub.render_options_section(&mut section)?;
        // The command's parts become paragraphs of its subsection rather than sections.
        for line in String::from_utf8_lossy(&section).lines() {
            match line.strip_prefix(".SH ") {
                Some("SYNOPSIS") => {}
                Some("DESCRIPTION") => writeln!(out, ".PP")?,
                Some(heading) => writeln!(out, ".PP\n\\fB{}:\\fR", title_case(heading))?,
                None => writeln!(out, "{line}")?,
            }
        }
    }
    for (title, entries) in manual::SECTIONS {
        render_section(&mut out, title, entries)?;
    }
    page.render_version_section(&mut out)?;
    Ok(out)
}

/// A section of tagged paragraphs (`.TP`), with roff's special characters escaped.
fn render_section(out: &mut Vec<u8>, title: &str, entries: &[manual::Entry]) -> std::io::Result<()> {
    writeln!(out, ".SH \"{title}\"")?;
    for (tag, text) in entries {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff_text(tag), roff_text(text))?;
    }
    Ok(())
}

/// `text` as roff reads it literally: backslashes and hyphens escaped, and a line that would
/// start with a control character (`.` or `'`) guarded.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

fn title_case(heading: &str) -> String {
    let lower = heading.to_lowercase();
    let mut chars = lower.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
