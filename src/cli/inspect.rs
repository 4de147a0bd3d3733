//! The flags of the commands that look at pods without changing them, beside `get`: `events`
//! and `describe`, as kubectl takes them.

use clap::{Args, ValueEnum};

use crate::manifest::types::LabelSelector;

#[derive(Debug, Args)]
pub struct EventsArgs {
    /// Namespace of the pods [default: default]
    #[arg(short, long, value_name = "NS", value_parser = super::parse_namespace, conflicts_with = "all_namespaces")]
    pub namespace: Option<String>,

    /// Events of every namespace, with a NAMESPACE column
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Only the events of this pod: pod/NAME (or NAME)
    #[arg(long = "for", value_name = "pod/NAME")]
    pub for_object: Option<String>,

    /// After the events so far, print each new one (or a repeat) as it comes, until interrupted
    #[arg(short, long)]
    pub watch: bool,

    /// Output format: an EventList of core/v1 Events [default: the table]
    #[arg(short, long, value_enum, value_name = "FORMAT")]
    pub output: Option<EventsOutputArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventsOutputArg {
    Json,
    Yaml,
}

#[derive(Debug, Args)]
pub struct DescribeArgs {
    /// The pods: NAME, pod/NAME, or `pod NAME...` as kubectl takes them
    #[arg(value_name = "POD")]
    pub pods: Vec<String>,

    /// Namespace of the pods [default: default]
    #[arg(short, long, value_name = "NS", value_parser = super::parse_namespace)]
    pub namespace: Option<String>,

    /// The pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = super::parse_selector, conflicts_with = "pods")]
    pub selector: Option<LabelSelector>,

    /// The pods of a manifest file (or directory)
    #[arg(short = 'f', long = "filename", value_name = "FILE", conflicts_with_all = ["pods", "selector"])]
    pub filename: Option<String>,
}
