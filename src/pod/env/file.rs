//! Env files (`valueFrom.fileKeyRef`): the kubelet's parser (`ParseEnv` in
//! pkg/kubelet/util/env), and the files a container's references name, read by the driver when
//! it creates the container.
//!
//! The format is the kubelet's strict subset of POSIX shell: `NAME='value'` lines, the value in
//! single quotes and taken literally (newlines included), blank lines and `#` comments ignored,
//! leading blanks ignored, nothing but a comment after the closing quote, no blank before `=`.
//! Errors name the line, never a value.

use std::collections::BTreeMap;

use crate::manifest::expansion::MAX_TOTAL_BYTES;
use crate::manifest::types::{Container, FileKeySelector};

/// The most of an env file podrun reads: its bound for a container's whole environment. The
/// kubelet has none; a bigger file is refused rather than cut.
pub const MAX_ENV_FILE_BYTES: usize = MAX_TOTAL_BYTES;

/// What the driver read for one env file.
#[derive(Clone, PartialEq, Eq)]
pub enum EnvFile {
    Content(Vec<u8>),
    /// Why it could not be read (missing, not a regular file, too big): no value in it.
    Unreadable(String),
}

/// The content is never shown.
impl std::fmt::Debug for EnvFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnvFile::Content(c) => write!(f, "Content({} bytes)", c.len()),
            EnvFile::Unreadable(why) => f.debug_tuple("Unreadable").field(why).finish(),
        }
    }
}

/// The env files of one container, by volume and path. `Unread` before its creation (a check of
/// the pod before anything runs, when the init containers that write them have not run): a
/// variable from a file then counts as empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EnvFiles {
    #[default]
    Unread,
    Read(BTreeMap<(String, String), EnvFile>),
}

impl EnvFiles {
    pub(super) fn get(&self, sel: &FileKeySelector) -> Option<&EnvFile> {
        match self {
            EnvFiles::Unread => None,
            EnvFiles::Read(m) => m.get(&(sel.volume_name.clone(), sel.path.clone())),
        }
    }
}

/// The (volume, path) pairs a container's `env` reads files from, each once.
pub fn wanted(c: &Container) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for sel in c.env.iter().filter_map(|e| e.value_from.as_ref()?.file_key_ref.as_ref()) {
        let pair = (sel.volume_name.clone(), sel.path.clone());
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    out
}

/// Why an env file does not parse: the kubelet's words, with the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("invalid environment variable format at line {0}")]
    Format(usize),
    #[error("invalid environment variable format at line {0}: whitespace before '=' is not allowed")]
    BlankBeforeEquals(usize),
    #[error("invalid environment variable format at line {0}: value must be enclosed in single quotes")]
    Unquoted(usize),
    #[error("invalid environment variable format at line {0}: unexpected content after closing quote")]
    AfterQuote(usize),
    #[error("unexpected end of file: the single quote opened at line {0} is not closed")]
    Unclosed(usize),
}

/// The value of `key` in the env file `text`, as the kubelet finds it: the first definition,
/// the lines after it not read; `None` when no line defines it.
pub fn lookup(text: &str, key: &str) -> Result<Option<String>, ParseError> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate().map(|(i, l)| (i + 1, l));
    while let Some((n, line)) = lines.next() {
        let line = line.trim_start_matches([' ', '\t']);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, rest)) = line.split_once('=') else { return Err(ParseError::Format(n)) };
        if name.is_empty() {
            return Err(ParseError::Format(n));
        }
        if name.ends_with([' ', '\t']) {
            return Err(ParseError::BlankBeforeEquals(n));
        }
        // A blank after `=` assigns the empty string (as a shell's `NAME= cmd` does).
        let value = if rest.is_empty() || rest.starts_with([' ', '\t']) {
            String::new()
        } else {
            let Some(open) = rest.strip_prefix('\'') else { return Err(ParseError::Unquoted(n)) };
            quoted(open, n, &mut lines)?
        };
        if name == key {
            return Ok(Some(value));
        }
    }
    Ok(None)
}

/// A single-quoted value from just after its opening quote on line `n`, over as many lines as
/// it takes; what follows the closing quote may only be blanks and a comment.
fn quoted<'a>(
    first: &'a str,
    n: usize,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
) -> Result<String, ParseError> {
    let (mut value, mut at, mut line) = (String::new(), n, first);
    loop {
        if let Some((inside, after)) = line.split_once('\'') {
            value.push_str(inside);
            let after = after.trim_start_matches([' ', '\t']);
            if !after.is_empty() && !after.starts_with('#') {
                return Err(ParseError::AfterQuote(at));
            }
            return Ok(value);
        }
        value.push_str(line);
        value.push('\n');
        let Some((next_n, next)) = lines.next() else { return Err(ParseError::Unclosed(n)) };
        (at, line) = (next_n, next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(text: &str, key: &str) -> Result<Option<String>, ParseError> {
        lookup(text, key)
    }

    /// The kubelet's cases (env_util_test.go TestParseEnv).
    #[test]
    fn the_kubelets_cases() {
        let ok =
            |text: &str, key: &str, want: &str| assert_eq!(get(text, key).unwrap().as_deref(), Some(want), "{text}");
        ok("   KEY1='val1'\n\t\tKEY2='val2'\nKEY3='val3'\n", "KEY2", "val2");
        ok("# comment\n\nKEY1='foo'\n   # another comment\n\nKEY2='bar'\n", "KEY2", "bar");
        ok("KEY1='foo#notcomment'\nKEY2='bar'\n", "KEY1", "foo#notcomment");
        ok("KEY1='   foo bar   '\n", "KEY1", "   foo bar   ");
        ok("KEY1='foo'\nKEY2=''\n", "KEY2", "");
        ok("KEY1='foo=bar=baz'\n", "KEY1", "foo=bar=baz");
        ok("KEY1='foo'\nKEY2='bar' # comment\n", "KEY2", "bar");
        ok("KEY1='foo$BAR-${HOME}_$'\nKEY2='bar'", "KEY1", "foo$BAR-${HOME}_$");
        ok("KEY1='value with \"nested\" quotes'\n", "KEY1", "value with \"nested\" quotes");
        ok("KEY1='path\\\\to\\\\file'\n", "KEY1", "path\\\\to\\\\file");
        ok("KEY1='line one\n  line two\n\nline four'\nKEY2='bar'\n", "KEY1", "line one\n  line two\n\nline four");
        ok("KEY1='中文 🌍'\n", "KEY1", "中文 🌍");
        assert_eq!(get("KEY1='foo'\nKEY2='bar'\n", "KEY3").unwrap(), None);
        let err = |text: &str, key: &str, want: &str| {
            let e = get(text, key).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        };
        err("KEY1 = 'val1'\nKEY2=   'val2'\n", "KEY2", "whitespace before '=' is not allowed");
        err("KEY1 ='foo'\n", "KEY1", "whitespace before '=' is not allowed");
        err("='foo'\nKEY2='bar'\n", "KEY2", "at line 1");
        err("KEY1='foo'\nINVALID_LINE\nKEY2='bar'\n", "KEY2", "at line 2");
        err("KEY1='foo'\nKEY2=bar\n", "KEY2", "value must be enclosed in single quotes");
        err("KEY1='foo'\nKEY2=\"bar\"\n", "KEY2", "value must be enclosed in single quotes");
        err("KEY1='foo''bar'", "KEY1", "unexpected content after closing quote");
        err("KEY1='foo'\nKEY2='bar\nKEY3='baz'\n", "KEY2", "at line 3: unexpected content after closing quote");
        err("KEY1='foo'\nKEY2='bar'baz\n", "KEY2", "unexpected content after closing quote");
        err("KEY1='value with \\'nested\\' quotes'\n", "KEY1", "unexpected content after closing quote");
        err("KEY1='never closed\n", "KEY1", "the single quote opened at line 1 is not closed");
    }

    #[test]
    fn the_first_definition_wins_and_what_follows_is_not_read() {
        assert_eq!(get("K='a'\nK='b'\n", "K").unwrap().as_deref(), Some("a"));
        assert_eq!(get("K='a'\nbroken\n", "K").unwrap().as_deref(), Some("a"));
        // A blank after `=` is an empty value; CRLF lines read as LF.
        assert_eq!(get("K= 'a'\n", "K").unwrap().as_deref(), Some(""));
        assert_eq!(get("A='x'\r\nK='b'\r\n", "K").unwrap().as_deref(), Some("b"));
    }

    #[test]
    fn errors_and_debug_never_show_a_value() {
        let e = get("K='canary-secret'junk\n", "K").unwrap_err().to_string();
        assert!(!e.contains("canary"), "{e}");
        let f = EnvFile::Content(b"K='canary-secret'".to_vec());
        assert!(!format!("{f:?}").contains("canary"));
    }
}
