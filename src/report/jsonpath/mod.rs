//! kubectl's JSONPath dialect (client-go's `util/jsonpath`), for `get -o jsonpath=...`,
//! custom columns, `--sort-by` and `wait --for=jsonpath=...`: text with actions in braces
//! (`{.metadata.name}`, `{.items[*].metadata.name}`, `{range .items[*]}...{end}`, filters
//! `[?(@.name=="web")]`, indexes and slices, unions, `..`, `*`, quoted text), and kubectl's
//! relaxed form of one path (`.status.phase`, as `--sort-by` and custom columns take it).
//! Output is as kubectl prints it: strings as they are, objects and lists as JSON, several
//! values of one action separated by spaces; what comes from the object is escaped
//! (`crate::escape`), what the template writes is not. Templates, their nesting and the
//! values a run makes are bounded.

mod compare;
pub mod condition;
mod eval;
mod parse;
pub mod text;
mod unquote;

#[cfg(test)]
mod tests;

use std::borrow::Cow;

use serde_json::Value;

use crate::escape::{escape, escape_lines};

use eval::{Eval, Val};
use parse::{Node, Piece};

/// The longest template taken (a `jsonpath-file` included).
pub const MAX_TEMPLATE: usize = 64 * 1024;
/// How deep filters, unions and ranges may nest.
const MAX_DEPTH: usize = 16;
/// How many values one run may make, all steps together.
const MAX_VALUES: usize = 1_000_000;
/// The longest output one run may print.
const MAX_OUTPUT: usize = 64 * 1024 * 1024;

/// A template refused, in client-go's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("unclosed action")]
    UnclosedAction,
    #[error("unrecognized character in action: {}", go_rune(*.0))]
    UnrecognizedCharacter(char),
    #[error("unterminated array")]
    UnterminatedArray,
    #[error("invalid array index {0}")]
    ArrayIndex(String),
    #[error("array index {0} is not a number")]
    IndexNotNumber(String),
    #[error("unterminated filter")]
    UnterminatedFilter,
    #[error("unclosed array expect ]")]
    UnclosedFilter,
    #[error("unterminated quoted string")]
    UnterminatedQuote,
    #[error("unquote string {0} error invalid syntax")]
    Unquote(String),
    #[error("cannot parse number {0}")]
    Number(String),
    #[error("invalid multiple recursive descent")]
    MultipleRecursive,
    #[error("not in range, nothing to end")]
    NothingToEnd,
    #[error("the template is longer than {MAX_TEMPLATE} bytes")]
    TooLong,
    #[error("the template nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
    #[error(
        "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{{name1.name2}}' or '{{.name1.name2}}'"
    )]
    Relaxed,
}

/// A template that failed on an object, in client-go's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    #[error("{0} is not found")]
    NotFound(String),
    #[error("{0} is not array or slice")]
    NotArray(&'static str),
    #[error("array index out of bounds: index {index}, length {length}")]
    OutOfBounds { index: i64, length: i64 },
    #[error("starting index {0} is greater than ending index {1}")]
    StartAfterEnd(i64, i64),
    #[error("step must be > 0")]
    Step,
    #[error("{0} is not array or slice and cannot be filtered")]
    NotFilterable(String),
    #[error("can only compare one element at a time")]
    CompareMany,
    #[error("unrecognized filter operator {0}")]
    Operator(String),
    #[error("invalid type for comparison")]
    ComparisonType,
    #[error("incompatible types for comparison")]
    Comparison,
    #[error("unrecognized identifier {0}")]
    Identifier(String),
    #[error("the template makes more than {0} values")]
    TooMany(usize),
    #[error("the template prints more than {MAX_OUTPUT} bytes")]
    TooMuchOutput,
}

/// Go's `%#U`: `U+0023 '#'`.
fn go_rune(c: char) -> String {
    if crate::escape::is_control(c) {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("U+{:04X} '{c}'", u32::from(c))
    }
}

/// A part of a parsed template: `range` blocks hold what they repeat.
#[derive(Debug, Clone, PartialEq)]
enum Block {
    Text(String),
    Action(Vec<Node>),
    Range { over: Vec<Node>, body: Vec<Block> },
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPath {
    blocks: Vec<Block>,
}

/// The values each action found, in order (text the template writes is a value too).
pub type Found<'a> = Vec<Vec<Cow<'a, Value>>>;

impl JsonPath {
    /// # Errors
    /// The template is not in kubectl's dialect, or too long or too deep.
    pub fn parse(template: &str) -> Result<JsonPath, ParseError> {
        if template.len() > MAX_TEMPLATE {
            return Err(ParseError::TooLong);
        }
        Ok(JsonPath { blocks: blocks(parse::parse(template)?)? })
    }

    /// The values the template finds in `data`; a key missing is no value when
    /// `allow_missing`, else an error (client-go's `AllowMissingKeys`).
    ///
    /// # Errors
    /// The template does not fit the object (an index out of bounds, a filter over a map...).
    pub fn find<'a>(&self, data: &'a Value, allow_missing: bool) -> Result<Found<'a>, ExecError> {
        let mut ev = Eval { allow_missing, made: 0 };
        let mut out = Vec::new();
        run(&mut ev, &self.blocks, &Cow::Borrowed(data), &mut out)?;
        Ok(out)
    }

    /// The template's output for `data`, as kubectl's `-o jsonpath` prints it.
    ///
    /// # Errors
    /// As `find`, or the output would pass its bound.
    pub fn print(&self, data: &Value, allow_missing: bool) -> Result<String, ExecError> {
        let mut out = String::new();
        for values in self.find(data, allow_missing)? {
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&printed(v));
            }
            if out.len() > MAX_OUTPUT {
                return Err(ExecError::TooMuchOutput);
            }
        }
        Ok(out)
    }
}

/// One value as kubectl prints it in a template's output. Only text the template itself
/// wrote is an owned string (values found in the object are borrowed from it), and only that
/// is printed unescaped.
fn printed(v: &Val<'_>) -> String {
    match (v, v.as_ref()) {
        (Cow::Owned(_), Value::String(s)) => s.clone(),
        (_, Value::String(s)) => escape_lines(s).into_owned(),
        (_, Value::Object(_) | Value::Array(_)) => escape(&text::go_json(v)).into_owned(),
        (_, other) => text::go_sprint(other),
    }
}

/// kubectl's `RelaxedJSONPathExpression`: `.a.b`, `a.b`, `{a.b}` and `{.a.b}` are all `{.a.b}`.
///
/// # Errors
/// Braces inside, or only braces.
pub fn relaxed(expr: &str) -> Result<String, ParseError> {
    if expr.is_empty() {
        return Ok(String::new());
    }
    let inner = expr.strip_prefix('{').and_then(|e| e.strip_suffix('}')).unwrap_or(expr);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err(ParseError::Relaxed);
    }
    Ok(format!("{{.{inner}}}"))
}

/// The flat pieces with each `{range ...}` ... `{end}` made one block. A range left open runs
/// to the end of the template, as in client-go; an `{end}` without a range is an error.
fn blocks(pieces: Vec<Piece>) -> Result<Vec<Block>, ParseError> {
    let mut open: Vec<(Vec<Node>, Vec<Block>)> = Vec::new();
    let mut cur = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Text(t) => cur.push(Block::Text(t)),
            Piece::Action(nodes) => match nodes.first() {
                Some(Node::Identifier(id)) if id == "range" => {
                    if open.len() >= MAX_DEPTH {
                        return Err(ParseError::TooDeep);
                    }
                    open.push((nodes[1..].to_vec(), std::mem::take(&mut cur)));
                }
                Some(Node::Identifier(id)) if id == "end" => {
                    let (over, outer) = open.pop().ok_or(ParseError::NothingToEnd)?;
                    let body = std::mem::replace(&mut cur, outer);
                    cur.push(Block::Range { over, body });
                }
                _ => cur.push(Block::Action(nodes)),
            },
        }
    }
    while let Some((over, outer)) = open.pop() {
        let body = std::mem::replace(&mut cur, outer);
        cur.push(Block::Range { over, body });
    }
    Ok(cur)
}

/// Runs `blocks` on `cur`; a range runs its body once per value (ranges nest at most
/// `MAX_DEPTH` deep, so this recursion is bounded).
fn run<'a>(ev: &mut Eval, blocks: &[Block], cur: &Val<'a>, out: &mut Found<'a>) -> Result<(), ExecError> {
    for block in blocks {
        match block {
            Block::Text(t) => out.push(vec![Cow::Owned(Value::String(t.clone()))]),
            Block::Action(nodes) => out.push(ev.list(vec![cur.clone()], nodes)?),
            Block::Range { over, body } => {
                for item in ev.list(vec![cur.clone()], over)? {
                    run(ev, body, &item, out)?;
                }
            }
        }
    }
    Ok(())
}
