//! The template's parser, a port of client-go's `util/jsonpath/parser.go`: text outside braces
//! is printed as it is; inside, an action is a list of steps (`.field`, `[index]`, `[?(filter)]`,
//! `..`, `*`, quoted text, numbers, `range`/`end`). The same inputs are accepted and refused,
//! with the same messages; nesting (a filter's or a union's own actions) is capped.

use super::{ParseError, MAX_DEPTH};

/// One step of an action.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// Quoted text: printed as it is, or compared in a filter.
    Text(String),
    /// A map's key (`{.}` is the key "", as in client-go: `{@}` is the current value).
    Field(String),
    Array([Param; 3]),
    Filter(Box<Filter>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Wildcard,
    Recursive,
    Union(Vec<Vec<Node>>),
    /// `range`, `end`; any other name is refused when the template runs, as client-go does.
    Identifier(String),
}

/// `[?(left OP right)]`, or `[?(left)]` (`op` "exists").
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Filter {
    pub left: Vec<Node>,
    pub right: Vec<Node>,
    pub op: String,
}

/// One of a slice's start, end and step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Param {
    pub value: i64,
    pub known: bool,
    /// The end of a single index (`[i]` is `[i:i+1]`).
    pub derived: bool,
}

/// A template's top level: text, and actions.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Piece {
    Text(String),
    Action(Vec<Node>),
}

pub(super) fn parse(text: &str) -> Result<Vec<Piece>, ParseError> {
    Parser { input: text, pos: 0, depth: 0 }.pieces()
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.input[self.pos..]
    }

    fn next(&mut self) -> Option<char> {
        let c = self.rest().chars().next()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The character before the last one read: for a quote's escaping backslash.
    fn escaped(&self) -> bool {
        self.input[..self.pos].chars().rev().nth(1) == Some('\\')
    }

    fn pieces(&mut self) -> Result<Vec<Piece>, ParseError> {
        let mut pieces = Vec::new();
        loop {
            let rest = self.rest();
            let Some(at) = rest.find('{') else {
                if !rest.is_empty() {
                    pieces.push(Piece::Text(rest.to_owned()));
                }
                return Ok(pieces);
            };
            if at > 0 {
                pieces.push(Piece::Text(rest[..at].to_owned()));
            }
            self.pos += at + 1;
            pieces.push(Piece::Action(self.action()?));
        }
    }

    /// The steps of an action, up to its `}`.
    fn action(&mut self) -> Result<Vec<Node>, ParseError> {
        let mut cur = Vec::new();
        loop {
            if self.rest().starts_with('}') {
                self.pos += 1;
                return Ok(cur);
            }
            if self.rest().starts_with("[?(") {
                self.filter(&mut cur)?;
                continue;
            }
            if self.rest().starts_with("..") {
                self.recursive(&mut cur)?;
                continue;
            }
            match self.peek() {
                None | Some('\r' | '\n') => return Err(ParseError::UnclosedAction),
                Some(' ' | '@' | '$') => self.pos += 1,
                Some('[') => self.array(&mut cur)?,
                Some(q @ ('"' | '\'')) => cur.push(self.quote(q)?),
                Some('.') => {
                    self.pos += 1;
                    cur.push(self.field());
                }
                Some(c) if c == '+' || c == '-' || c.is_numeric() => cur.push(self.number()?),
                Some(c) if is_alphanumeric(c) => cur.push(self.identifier()),
                Some(c) => return Err(ParseError::UnrecognizedCharacter(c)),
            }
        }
    }

    /// The steps of `text` parsed as an action of its own (a union's member, a filter's side).
    fn sub_action(&self, text: &str) -> Result<Vec<Node>, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::TooDeep);
        }
        let wrapped = format!("{{{text}}}");
        let mut p = Parser { input: &wrapped, pos: 0, depth: self.depth + 1 };
        let first = p.pieces()?.into_iter().find_map(|piece| match piece {
            Piece::Action(nodes) => Some(nodes),
            Piece::Text(_) => None,
        });
        Ok(first.unwrap_or_default())
    }

    fn until_terminator(&mut self) -> &str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == '\\' {
                self.pos += 1;
                self.next();
            } else if is_terminator(c) {
                break;
            } else {
                self.pos += c.len_utf8();
            }
        }
        &self.input[start..self.pos]
    }

    fn field(&mut self) -> Node {
        match self.until_terminator() {
            "*" => Node::Wildcard,
            name => Node::Field(name.replace('\\', "")),
        }
    }

    fn identifier(&mut self) -> Node {
        match self.until_terminator() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            name => Node::Identifier(name.to_owned()),
        }
    }

    fn recursive(&mut self, cur: &mut Vec<Node>) -> Result<(), ParseError> {
        if cur.last() == Some(&Node::Recursive) {
            return Err(ParseError::MultipleRecursive);
        }
        self.pos += 2;
        cur.push(Node::Recursive);
        if self.peek().is_some_and(is_alphanumeric) {
            cur.push(self.field());
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while let Some(c) = self.peek().filter(|c| *c == '.' || c.is_numeric()) {
            self.pos += c.len_utf8();
        }
        let text = &self.input[start..self.pos];
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Node::Float(f)),
            _ => Err(ParseError::Number(text.to_owned())),
        }
    }

    fn quote(&mut self, quote: char) -> Result<Node, ParseError> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::UnterminatedQuote),
                Some(c) if c == quote && !self.escaped() => break,
                Some(_) => {}
            }
        }
        let text = &self.input[start..self.pos];
        super::unquote::unquote(text).map(Node::Text).ok_or_else(|| ParseError::Unquote(text.to_owned()))
    }

    fn array(&mut self, cur: &mut Vec<Node>) -> Result<(), ParseError> {
        let start = self.pos + 1;
        self.pos += 1;
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::UnterminatedArray),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let text = &self.input[start..self.pos - 1];
        let text = if text == "*" { ":" } else { text };
        if text.contains(',') {
            let members = text.split(',').map(|m| self.sub_action(&format!("[{}]", m.trim_matches(' '))));
            cur.push(Node::Union(members.collect::<Result<_, _>>()?));
            return Ok(());
        }
        if let Some(key) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).filter(|k| !k.contains('\'')) {
            cur.extend(self.sub_action(&format!(".{key}"))?);
            return Ok(());
        }
        cur.push(Node::Array(slice(text)?));
        Ok(())
    }

    fn filter(&mut self, cur: &mut Vec<Node>) -> Result<(), ParseError> {
        self.pos += 3;
        let start = self.pos;
        let (mut begin, mut end, mut pair) = (false, false, '\0');
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::UnterminatedFilter),
                Some(q @ ('"' | '\'')) if !begin => (begin, pair) = (true, q),
                Some(q @ ('"' | '\'')) => end |= q == pair && !self.escaped(),
                Some(')') if begin == end => break,
                Some(_) => {}
            }
        }
        if self.next() != Some(']') {
            return Err(ParseError::UnclosedFilter);
        }
        let text = &self.input[start..self.pos - 2];
        let filter = match split_comparison(text) {
            None => Filter { left: self.sub_action(text)?, right: Vec::new(), op: "exists".to_owned() },
            Some((left, op, right)) => {
                Filter { left: self.sub_action(left)?, right: self.sub_action(right)?, op: op.to_owned() }
            }
        };
        cur.push(Node::Filter(Box::new(filter)));
        Ok(())
    }
}

/// client-go's `^([^!<>=]+)([!<>=~]+)(.+?)$`: the left side, the operator, the right side.
fn split_comparison(text: &str) -> Option<(&str, &str, &str)> {
    let at = text.find(['!', '<', '>', '='])?;
    if at == 0 {
        return None;
    }
    let ops = text[at..].find(|c| !"!<>=~".contains(c)).map_or(text.len(), |n| at + n);
    // The right side takes one character of the operator back when nothing else is left.
    let ops = if ops == text.len() && ops - at >= 2 { ops - 1 } else { ops };
    if ops == text.len() {
        return None;
    }
    Some((&text[..at], &text[at..ops], &text[ops..]))
}

/// client-go's `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`, read as start, end and step.
fn slice(text: &str) -> Result<[Param; 3], ParseError> {
    let parts: Vec<&str> = text.splitn(3, ':').collect();
    let number = |p: &str| {
        let digits = p.strip_prefix('-').unwrap_or(p);
        digits.chars().all(|c| c.is_ascii_digit())
    };
    if !parts.iter().all(|p| number(p)) {
        return Err(ParseError::ArrayIndex(text.to_owned()));
    }
    let mut params = [Param::default(); 3];
    for (i, param) in params.iter_mut().enumerate() {
        if let Some(p) = parts.get(i).filter(|p| !p.is_empty()) {
            let value = p.parse().map_err(|_| ParseError::IndexNotNumber((*p).to_owned()))?;
            *param = Param { value, known: true, derived: false };
        }
    }
    // `[i]` is `[i:i+1]`; an empty part (`[i:]`) is unknown: to the end, or a step of 1.
    if parts.len() == 1 {
        params[1] = Param { value: params[0].value.saturating_add(1), known: true, derived: true };
    }
    Ok(params)
}

/// Where a field's or an identifier's name ends.
fn is_terminator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}')
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}
