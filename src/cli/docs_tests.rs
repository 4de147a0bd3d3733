//! docs/commands.md against the command line: every flag a command takes is documented in its
//! section (in its options table, when it has one), and every flag a table lists exists. The
//! tables are prose (what a flag means, and why), so they are checked rather than generated.

use std::collections::BTreeSet;

use clap::CommandFactory;

use super::Cli;

const DOCS: &str = "docs/commands.md";

/// A documentation section: the commands its heading names (`## \`podrun apply ...\``, or
/// `""` for the section of the global flags, "## Everywhere"), its flags listed in options
/// tables, and its whole text.
struct Section {
    heading: String,
    commands: Vec<String>,
    table: BTreeSet<String>,
    text: String,
}

fn sections(doc: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let mut commands: Vec<String> = heading
                .split("`podrun ")
                .skip(1)
                .map(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("").to_owned())
                .collect();
            if heading == "Everywhere" {
                commands.push(String::new());
            }
            out.push(Section { heading: line.to_owned(), commands, table: BTreeSet::new(), text: String::new() });
            continue;
        }
        if line.starts_with("# ") {
            // A new top-level part of the page, of no command.
            out.push(Section {
                heading: line.to_owned(),
                commands: Vec::new(),
                table: BTreeSet::new(),
                text: String::new(),
            });
            continue;
        }
        let Some(section) = out.last_mut() else { continue };
        section.text.push_str(line);
        section.text.push('\n');
        // A table row: its first cell holds the flags (`-n, --namespace NS`).
        if let Some(row) = line.strip_prefix("| ") {
            let first = row.split(" | ").next().unwrap_or("");
            if first.starts_with('`') {
                section.table.extend(flags(first));
            }
        }
    }
    out
}

/// The flags named in `text`: `--long` and `-s` (a dash and one letter, on its own).
fn flags(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let after_word = i > 0 && (chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '-');
        if chars[i] != '-' || after_word {
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'-') {
            let end = (i + 2..chars.len())
                .find(|&j| !(chars[j].is_ascii_alphanumeric() || chars[j] == '-'))
                .unwrap_or(chars.len());
            if end > i + 2 {
                out.push(chars[i..end].iter().collect());
            }
            i = end;
        } else {
            let letter = chars.get(i + 1).filter(|c| c.is_ascii_alphabetic());
            let alone = chars.get(i + 2).is_none_or(|c| !c.is_ascii_alphanumeric());
            if let (Some(letter), true) = (letter, alone) {
                out.push(format!("-{letter}"));
            }
            i += 2;
        }
    }
    out
}

/// The flags of `cmd` itself (without --help and --version; `globals` picks the global ones
/// instead).
fn own_flags(cmd: &clap::Command, globals: bool) -> Vec<String> {
    let mut out = Vec::new();
    for arg in cmd.get_arguments() {
        if matches!(arg.get_id().as_str(), "help" | "version") || arg.is_global_set() != globals || arg.is_hide_set() {
            continue;
        }
        out.extend(arg.get_long().map(|l| format!("--{l}")));
        out.extend(arg.get_short().map(|s| format!("-{s}")));
    }
    out
}

#[test]
fn every_flag_is_documented_in_docs_commands_md_and_every_documented_flag_exists() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sections = sections(&doc);
    let mut root = Cli::command();
    root.build();
    let mut problems = Vec::new();

    let global = own_flags(&root, true);
    let everywhere = sections
        .iter()
        .find(|s| s.commands.iter().any(String::is_empty))
        .expect("a \"## Everywhere\" section in docs/commands.md");
    for flag in &global {
        if !flags(&everywhere.text).contains(flag) {
            problems.push(format!("the global flag {flag} is not in \"## Everywhere\": add it there"));
        }
    }

    for sub in root.get_subcommands().filter(|s| s.get_name() != "help" && !s.is_hide_set()) {
        let name = sub.get_name();
        let Some(section) = sections.iter().find(|s| s.commands.iter().any(|c| c == name)) else {
            problems.push(format!("`podrun {name}` has no section (\"## `podrun {name} ...`\")"));
            continue;
        };
        let documented: BTreeSet<String> =
            if section.table.is_empty() { flags(&section.text).into_iter().collect() } else { section.table.clone() };
        let own = own_flags(sub, false);
        for flag in &own {
            if !documented.contains(flag) {
                let fix = if section.table.is_empty() {
                    "the text under {}: say what it does there"
                } else {
                    "the options table under {}: add a row for it"
                };
                let fix = fix.replace("{}", &section.heading);
                problems.push(format!("`podrun {name}` takes {flag}, which is not in {fix}"));
            }
        }
        for flag in &section.table {
            if !own.contains(flag) && !global.contains(flag) && !matches!(flag.as_str(), "-h" | "--help") {
                problems.push(format!(
                    "the options table under {} lists {flag}, which `podrun {name}` does not take",
                    section.heading
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{DOCS} is out of date with the command line (src/cli/mod.rs):\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn flags_are_found_in_table_cells_and_prose() {
    assert_eq!(flags("`-n, --namespace NS`"), ["-n", "--namespace"]);
    assert_eq!(flags("`--wait-for running\\|ready`"), ["--wait-for"]);
    assert_eq!(flags("`-o json`, `-o yaml`"), ["-o", "-o"]);
    assert_eq!(flags("`--wait=false`"), ["--wait"]);
    assert_eq!(flags("a non-zero exit, -vv, 1-2, -1"), Vec::<String>::new());
    assert_eq!(flags("(`-q`), `-v`"), ["-q", "-v"]);
}
