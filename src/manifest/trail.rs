//! A place in a YAML document as the steps from its root (`spec`, `containers`, `0`, `comand`),
//! and where it is in the text (line and column). The schema walk records the steps of what it
//! finds; `locate.rs` turns steps into places, `prune.rs` drops what the steps name.

use std::collections::BTreeMap;
use std::fmt;

use serde_yaml::Value;

/// One step down: a mapping's key (as text, see [`key_text`]) or a list's index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The steps from a document's root.
pub type Trail = Vec<Step>;

/// The steps of a dotted prefix such as `spec.template` (field names only, no indexes).
pub fn of_prefix(prefix: &str) -> Trail {
    prefix.split('.').filter(|s| !s.is_empty()).map(|s| Step::Key(s.to_owned())).collect()
}

/// A 1-based line and column of the text, as compilers print them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// How a mapping key reads in a path and in a trail: keys that are not strings still need a
/// name, and the same name wherever they are met.
pub fn key_text(key: &Value) -> String {
    match untagged(key) {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        _ => NON_SCALAR_KEY.to_string(),
    }
}

/// The name of a key that is a mapping or a list.
pub const NON_SCALAR_KEY: &str = "<non-scalar key>";

/// YAML tags (`!!str`, `!foo`) do not change what Kubernetes sees.
pub fn untagged(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untagged(&tagged.value),
        other => other,
    }
}

/// A tree of trails: which steps lead somewhere, and which end at a mark (a key to drop, a
/// place to find).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree<M> {
    pub marks: BTreeMap<Step, M>,
    pub children: BTreeMap<Step, Tree<M>>,
}

impl<M> Tree<M> {
    pub fn new() -> Self {
        Tree { marks: BTreeMap::new(), children: BTreeMap::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.marks.is_empty() && self.children.is_empty()
    }

    /// Marks the last step of `trail` with `mark`; an empty trail marks nothing.
    pub fn insert(&mut self, trail: &[Step], mark: M) {
        let Some((last, above)) = trail.split_last() else { return };
        let mut node = self;
        for step in above {
            node = node.children.entry(step.clone()).or_default();
        }
        node.marks.insert(last.clone(), mark);
    }

    pub fn child(&self, step: &Step) -> Option<&Tree<M>> {
        self.children.get(step)
    }
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree::new()
    }
}
