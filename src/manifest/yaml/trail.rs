//! A place in a YAML document as the steps from its root (`spec`, `containers`, `0`, `comand`),
//! and where it is in the text (line and column). The schema walk records the steps of what it
//! finds; `locate.rs` turns steps into places, `drop_unknown.rs` drops what the steps name.

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

/// A key as a message quotes it, as serde_yaml's own messages do: a string in quotes, any
/// other key as [`key_text`] names it.
pub fn quoted_key_text(key: &Value) -> String {
    match untagged(key) {
        Value::String(s) => format!("{s:?}"),
        other => key_text(other),
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
/// place to find). Kept in small vectors, not maps: a document has a handful of such trails,
/// and a tree is kept for every document of a file until its second reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree<M> {
    marks: Vec<(Step, M)>,
    children: Vec<(Step, Tree<M>)>,
}

impl<M> Tree<M> {
    pub fn new() -> Self {
        Tree { marks: Vec::new(), children: Vec::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.marks.is_empty() && self.children.is_empty()
    }

    /// Marks the last step of `trail` with `mark` (a second mark of one step replaces the
    /// first); an empty trail marks nothing.
    pub fn insert(&mut self, trail: &[Step], mark: M) {
        let Some((last, above)) = trail.split_last() else { return };
        let mut node = self;
        for step in above {
            let at = match node.children.iter().position(|(s, _)| s == step) {
                Some(at) => at,
                None => {
                    node.children.push((step.clone(), Tree::new()));
                    node.children.len() - 1
                }
            };
            node = &mut node.children[at].1;
        }
        match node.marks.iter_mut().find(|(s, _)| s == last) {
            Some((_, m)) => *m = mark,
            None => node.marks.push((last.clone(), mark)),
        }
    }

    /// The mark on `step`, if any.
    pub fn mark(&self, step: &Step) -> Option<&M> {
        self.marks.iter().find(|(s, _)| s == step).map(|(_, m)| m)
    }

    /// What is below `step`, if anything is.
    pub fn child(&self, step: &Step) -> Option<&Tree<M>> {
        self.children.iter().find(|(s, _)| s == step).map(|(_, t)| t)
    }
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_marks_the_ends_of_its_trails_and_leads_to_them() {
        let key = |k: &str| Step::Key(k.to_owned());
        let mut t = Tree::new();
        assert!(t.is_empty());
        t.insert(&[], 0);
        assert!(t.is_empty(), "an empty trail marks nothing");
        t.insert(&[key("spec"), key("containers"), Step::Index(1), key("comand")], 1);
        t.insert(&[key("spec"), key("typo")], 2);
        t.insert(&[key("spec"), key("typo")], 3);
        t.insert(&[key("x")], 4);
        assert_eq!(t.mark(&key("x")), Some(&4));
        let spec = t.child(&key("spec")).unwrap();
        assert_eq!(spec.mark(&key("typo")), Some(&3), "the later mark of a step wins");
        let second = spec.child(&key("containers")).and_then(|c| c.child(&Step::Index(1))).unwrap();
        assert_eq!(second.mark(&key("comand")), Some(&1));
        assert!(spec.child(&key("containers")).unwrap().child(&Step::Index(0)).is_none());
        assert_eq!(of_prefix("spec.template"), [key("spec"), key("template")]);
        assert_eq!(of_prefix(""), []);
    }
}
