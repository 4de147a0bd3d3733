//! Running an action's steps over a value, as client-go's `jsonpath.go` walks them: each step
//! maps the current values to the next ones. Values are borrowed from the object; only text
//! and numbers the template writes (and a string's bytes, which `*` yields) are owned. The work
//! is bounded: every step's values count against one budget.

use std::borrow::Cow;

use serde_json::Value;

use super::compare::holds;
use super::parse::{Filter, Node, Param};
use super::text::{go_sprint, go_type};
use super::{ExecError, MAX_VALUES};

pub(super) type Val<'a> = Cow<'a, Value>;

pub(super) struct Eval {
    pub allow_missing: bool,
    /// How many values the steps made so far.
    pub made: usize,
}

/// The values inside `v` that `pick` chooses, borrowed from the object when `v` is.
fn inside<'a>(v: &Val<'a>, pick: impl for<'b> Fn(&'b Value) -> Vec<&'b Value>) -> Vec<Val<'a>> {
    match v {
        Cow::Borrowed(b) => pick(b).into_iter().map(Cow::Borrowed).collect(),
        Cow::Owned(o) => pick(o).into_iter().map(|x| Cow::Owned(x.clone())).collect(),
    }
}

/// What `*` yields of `v`: a map's values, a list's items, a string's bytes.
fn children<'a>(v: &Val<'a>) -> Vec<Val<'a>> {
    if let Value::String(s) = v.as_ref() {
        return s.bytes().map(|b| Cow::Owned(Value::from(b))).collect();
    }
    inside(v, |v| match v {
        Value::Object(m) => m.values().collect(),
        Value::Array(a) => a.iter().collect(),
        _ => Vec::new(),
    })
}

impl Eval {
    fn count(&mut self, n: usize) -> Result<(), ExecError> {
        self.made = self.made.saturating_add(n);
        if self.made > MAX_VALUES {
            return Err(ExecError::TooMany(MAX_VALUES));
        }
        Ok(())
    }

    /// The values `nodes` lead to from `input`, step by step.
    pub fn list<'a>(&mut self, input: Vec<Val<'a>>, nodes: &[Node]) -> Result<Vec<Val<'a>>, ExecError> {
        let mut cur = input;
        for node in nodes {
            cur = self.step(cur, node)?;
            self.count(cur.len())?;
        }
        Ok(cur)
    }

    fn step<'a>(&mut self, input: Vec<Val<'a>>, node: &Node) -> Result<Vec<Val<'a>>, ExecError> {
        let literal = |v: Value| Ok(input.iter().map(|_| Cow::Owned(v.clone())).collect());
        match node {
            Node::Text(t) => Ok(vec![Cow::Owned(Value::String(t.clone()))]),
            Node::Field(name) => self.field(input, name),
            Node::Array(params) => array(input, *params),
            Node::Filter(f) => self.filter(input, f),
            Node::Int(i) => literal(Value::from(*i)),
            Node::Float(f) => literal(Value::from(*f)),
            Node::Bool(b) => literal(Value::Bool(*b)),
            Node::Wildcard => Ok(input.iter().flat_map(children).collect()),
            Node::Recursive => self.recursive(input),
            Node::Union(members) => {
                let mut out = Vec::new();
                for member in members {
                    out.extend(self.list(input.clone(), member)?);
                }
                Ok(out)
            }
            Node::Identifier(name) => Err(ExecError::Identifier(name.clone())),
        }
    }

    fn field<'a>(&mut self, input: Vec<Val<'a>>, name: &str) -> Result<Vec<Val<'a>>, ExecError> {
        if input.is_empty() {
            return Ok(input);
        }
        let found: Vec<Val<'a>> = input
            .iter()
            .flat_map(|v| {
                inside(v, |v| match v {
                    Value::Object(m) => m.get(name).into_iter().collect(),
                    _ => Vec::new(),
                })
            })
            .collect();
        if found.is_empty() && !self.allow_missing {
            return Err(ExecError::NotFound(name.to_owned()));
        }
        Ok(found)
    }

    /// `..`: each value with something inside, then what is inside it, depth first; with an
    /// explicit stack, so a deep object cannot exhaust podrun's.
    fn recursive<'a>(&mut self, input: Vec<Val<'a>>) -> Result<Vec<Val<'a>>, ExecError> {
        let mut out = Vec::new();
        let mut stack: Vec<Val<'a>> = input.into_iter().rev().collect();
        while let Some(v) = stack.pop() {
            let inner = children(&v);
            if inner.is_empty() {
                continue;
            }
            self.count(inner.len() + 1)?;
            out.push(v);
            stack.extend(inner.into_iter().rev());
        }
        Ok(out)
    }

    fn filter<'a>(&mut self, input: Vec<Val<'a>>, f: &Filter) -> Result<Vec<Val<'a>>, ExecError> {
        let mut out = Vec::new();
        for v in &input {
            let Value::Array(_) = v.as_ref() else {
                return Err(ExecError::NotFilterable(go_sprint(v)));
            };
            for item in children(v) {
                let lefts = self.list(vec![item.clone()], &f.left);
                if f.op == "exists" {
                    if lefts.is_ok_and(|l| !l.is_empty()) {
                        out.push(item);
                    }
                    continue;
                }
                let Some(left) = one(lefts?)? else { continue };
                let Some(right) = one(self.list(vec![item.clone()], &f.right)?)? else { continue };
                if holds(&f.op, &left, &right)? {
                    out.push(item);
                }
            }
        }
        Ok(out)
    }
}

/// The one value a filter's side leads to; none skips the item, several are an error.
fn one(values: Vec<Val<'_>>) -> Result<Option<Val<'_>>, ExecError> {
    match values.len() {
        0 => Ok(None),
        1 => Ok(values.into_iter().next()),
        _ => Err(ExecError::CompareMany),
    }
}

/// `[start:end:step]`, with client-go's bounds: negative indexes count from the end, a single
/// index past the end is an error, an empty range is no value.
fn array(input: Vec<Val<'_>>, params: [Param; 3]) -> Result<Vec<Val<'_>>, ExecError> {
    let mut out = Vec::new();
    for v in &input {
        let len = match v.as_ref() {
            Value::Null => continue,
            Value::Array(a) => i64::try_from(a.len()).unwrap_or(i64::MAX),
            other => return Err(ExecError::NotArray(go_type(other))),
        };
        let [mut start, mut end, step] = params;
        if !start.known {
            start.value = 0;
        }
        if start.value < 0 {
            start.value += len;
        }
        if !end.known {
            end.value = len;
        }
        if end.value < 0 || (end.value == 0 && end.derived) {
            end.value += len;
        }
        if end.value == start.value {
            return Ok(out);
        }
        if start.value >= len || start.value < 0 {
            return Err(ExecError::OutOfBounds { index: start.value, length: len });
        }
        if end.value > len || end.value < 0 {
            return Err(ExecError::OutOfBounds { index: end.value - 1, length: len });
        }
        if start.value > end.value {
            return Err(ExecError::StartAfterEnd(start.value, end.value));
        }
        let step = if step.known { step.value } else { 1 };
        if step <= 0 {
            return Err(ExecError::Step);
        }
        let items = children(v);
        let (from, to) = (usize::try_from(start.value).unwrap_or(0), usize::try_from(end.value).unwrap_or(0));
        let by = usize::try_from(step).unwrap_or(1);
        out.extend(items.into_iter().skip(from).take(to - from).step_by(by));
    }
    Ok(out)
}
