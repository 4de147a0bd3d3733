//! A label selector as `kubectl -l` takes it, parsed as apimachinery's `labels.Parse` parses
//! it (pkg/labels/selector.go): comma-joined requirements, each `KEY`, `!KEY`, `KEY=V`,
//! `KEY==V`, `KEY!=V`, `KEY in (V,...)`, `KEY notin (V,...)`, `KEY>N` or `KEY<N`, with the
//! keys and values checked as label keys and values. Every `-l` of podrun takes it.

use super::names::{label_key_problems, label_value_problems};
use super::types::{LabelSelector, LabelSelectorRequirement};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    #[error("unable to parse requirement: {0}")]
    Requirement(String),
    #[error("{0}")]
    Syntax(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    End,
    Close,
    Comma,
    Not,
    DoubleEquals,
    Equals,
    Greater,
    Ident,
    In,
    Less,
    NotEquals,
    NotIn,
    Open,
}

/// The literal tokens (`string2token`).
fn literal(s: &str) -> Option<Tok> {
    Some(match s {
        ")" => Tok::Close,
        "," => Tok::Comma,
        "!" => Tok::Not,
        "==" => Tok::DoubleEquals,
        "=" => Tok::Equals,
        ">" => Tok::Greater,
        "in" => Tok::In,
        "<" => Tok::Less,
        "!=" => Tok::NotEquals,
        "notin" => Tok::NotIn,
        "(" => Tok::Open,
        _ => return None,
    })
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// The tokens of `s`, ending with `End`. Every special character alone is a token, so the
/// lexer never fails; the longest run of them that is one token is taken.
fn lex(s: &str) -> Vec<(Tok, &str)> {
    let b = s.as_bytes();
    let (mut out, mut pos) = (Vec::new(), 0);
    loop {
        while pos < b.len() && is_space(b[pos]) {
            pos += 1;
        }
        let start = pos;
        if pos == b.len() {
            out.push((Tok::End, ""));
            return out;
        }
        if is_special(b[pos]) {
            let mut last = None;
            while pos < b.len() && is_special(b[pos]) {
                match literal(&s[start..=pos]) {
                    Some(t) => last = Some((t, pos + 1)),
                    None if last.is_some() => break,
                    None => {}
                }
                pos += 1;
            }
            let (tok, end) = last.unwrap_or((Tok::Ident, pos));
            pos = end;
            out.push((tok, &s[start..end]));
        } else {
            while pos < b.len() && !is_special(b[pos]) && !is_space(b[pos]) {
                pos += 1;
            }
            let word = &s[start..pos];
            out.push((literal(word).unwrap_or(Tok::Ident), word));
        }
    }
}

/// Where a token is read: among values `in` and `notin` are plain words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Operator,
    Values,
}

struct Parser<'a> {
    items: Vec<(Tok, &'a str)>,
    at: usize,
}

impl<'a> Parser<'a> {
    fn lookahead(&self, cx: Context) -> (Tok, &'a str) {
        let (tok, lit) = self.items[self.at.min(self.items.len() - 1)];
        match tok {
            Tok::In | Tok::NotIn if cx == Context::Values => (Tok::Ident, lit),
            _ => (tok, lit),
        }
    }

    fn consume(&mut self, cx: Context) -> (Tok, &'a str) {
        let item = self.lookahead(cx);
        self.at += 1;
        item
    }

    fn selector(&mut self) -> Result<Vec<LabelSelectorRequirement>, SelectorError> {
        let mut out = Vec::new();
        loop {
            match self.lookahead(Context::Values) {
                (Tok::Ident | Tok::Not, _) => {
                    out.push(self.requirement().map_err(SelectorError::Requirement)?);
                    match self.consume(Context::Values) {
                        (Tok::End, _) => return Ok(out),
                        (Tok::Comma, _) => match self.lookahead(Context::Values) {
                            (Tok::Ident | Tok::Not, _) => {}
                            (_, l) => return Err(syntax(format!("found '{l}', expected: identifier after ','"))),
                        },
                        (_, l) => return Err(syntax(format!("found '{l}', expected: ',' or 'end of string'"))),
                    }
                }
                (Tok::End, _) => return Ok(out),
                (_, l) => return Err(syntax(format!("found '{l}', expected: !, identifier, or 'end of string'"))),
            }
        }
    }

    fn requirement(&mut self) -> Result<LabelSelectorRequirement, String> {
        let (mut tok, mut key) = self.consume(Context::Values);
        let negated = tok == Tok::Not;
        if negated {
            (tok, key) = self.consume(Context::Values);
        }
        if tok != Tok::Ident {
            return Err(format!("found '{key}', expected: identifier"));
        }
        check_key(key)?;
        // `!KEY` takes nothing after it: what follows is the selector's error (`!x=a`).
        if negated {
            return Ok(requirement(key, "DoesNotExist", Vec::new()));
        }
        if matches!(self.lookahead(Context::Values).0, Tok::End | Tok::Comma) {
            return Ok(requirement(key, "Exists", Vec::new()));
        }
        let (operator, values) = match self.consume(Context::Operator) {
            (Tok::In, _) => ("In", self.values()?),
            (Tok::NotIn, _) => ("NotIn", self.values()?),
            (Tok::Equals | Tok::DoubleEquals, _) => ("In", self.exact_value()?),
            (Tok::NotEquals, _) => ("NotIn", self.exact_value()?),
            (Tok::Greater, _) => ("Gt", integer(self.exact_value()?)?),
            (Tok::Less, _) => ("Lt", integer(self.exact_value()?)?),
            (_, l) => return Err(format!("found '{l}', expected: in, notin, =, ==, !=, gt, lt")),
        };
        for (i, v) in values.iter().enumerate() {
            let problems = label_value_problems(v);
            if !problems.is_empty() {
                return Err(format!("values[{i}][{key}]: Invalid value: \"{v}\": {}", problems.join("; ")));
            }
        }
        Ok(requirement(key, operator, values))
    }

    /// `(V,...)`: a set, sorted, an empty word where commas leave one.
    fn values(&mut self) -> Result<Vec<String>, String> {
        let (tok, lit) = self.consume(Context::Values);
        if tok != Tok::Open {
            return Err(format!("found '{lit}' expected: '('"));
        }
        let mut set = std::collections::BTreeSet::new();
        match self.lookahead(Context::Values) {
            (Tok::Close, _) => {
                self.consume(Context::Values);
                set.insert(String::new());
                return Ok(set.into_iter().collect());
            }
            (Tok::Ident | Tok::Comma, _) => {}
            (_, l) => return Err(format!("found '{l}', expected: ',', ')' or identifier")),
        }
        loop {
            match self.consume(Context::Values) {
                (Tok::Ident, word) => {
                    set.insert(word.to_owned());
                    match self.lookahead(Context::Values) {
                        (Tok::Comma, _) => {}
                        (Tok::Close, _) => break,
                        (_, l) => return Err(format!("found '{l}', expected: ',' or ')'")),
                    }
                }
                (Tok::Comma, _) => {
                    // `(,`, `,,` and `,)` each leave an empty word.
                    let next = self.lookahead(Context::Values).0;
                    if set.is_empty() || matches!(next, Tok::Close | Tok::Comma) {
                        set.insert(String::new());
                    }
                    if next == Tok::Close {
                        break;
                    }
                }
                (_, l) => return Err(format!("found '{l}', expected: ',', or identifier")),
            }
        }
        self.consume(Context::Values);
        Ok(set.into_iter().collect())
    }

    /// The one value after `=`, `==`, `!=`, `>` or `<`: empty when nothing follows.
    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        match self.lookahead(Context::Values) {
            (Tok::End | Tok::Comma, _) => Ok(vec![String::new()]),
            _ => match self.consume(Context::Values) {
                (Tok::Ident, word) => Ok(vec![word.to_owned()]),
                (_, l) => Err(format!("found '{l}', expected: identifier")),
            },
        }
    }
}

fn syntax(message: String) -> SelectorError {
    SelectorError::Syntax(message)
}

fn requirement(key: &str, operator: &str, values: Vec<String>) -> LabelSelectorRequirement {
    LabelSelectorRequirement { key: key.to_owned(), operator: operator.to_owned(), values }
}

fn check_key(key: &str) -> Result<(), String> {
    let problems = label_key_problems(key);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("key: Invalid value: \"{key}\": {}", problems.join("; ")))
    }
}

/// `>` and `<` compare integers.
fn integer(values: Vec<String>) -> Result<Vec<String>, String> {
    match values.iter().find(|v| v.parse::<i64>().is_err()) {
        Some(v) => {
            Err(format!("values[0]: Invalid value: \"{v}\": for 'Gt', 'Lt' operators, the value must be an integer"))
        }
        None => Ok(values),
    }
}

/// `s` as a selector. The empty selector selects every pod, as kubectl's `-l ''`.
pub fn parse(s: &str) -> Result<LabelSelector, SelectorError> {
    let mut p = Parser { items: lex(s), at: 0 };
    let mut match_expressions = p.selector()?;
    match_expressions.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(LabelSelector { match_labels: std::collections::BTreeMap::new(), match_expressions })
}

#[cfg(test)]
#[path = "label_selector_cases.rs"]
mod cases;
