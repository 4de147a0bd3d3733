//! Text from a manifest, an image or an engine made safe to print: its control characters are
//! written as visible escapes, so a name or a message can never move the cursor, retitle or clear
//! the terminal of whoever reads podrun's output (the class of kubectl's CVE-2021-25743).
//!
//! What is escaped: C0 (U+0000 to U+001F, ESC and BEL among them), DEL (U+007F) and C1 (U+0080
//! to U+009F, whose U+009B is a CSI on its own). `\n`, `\r` and `\t` are written so; the rest of
//! C0 and DEL as `\x1b`, C1 as `\u{9b}`. Everything else, backslashes included, is unchanged: the
//! escapes are for reading, not to be parsed back. Escaping escaped text changes nothing.

use std::borrow::Cow;
use std::fmt::{self, Write};

/// `T` displayed with its control characters escaped, newlines too: for a value on one line.
pub struct Escaped<T>(pub T);

impl<T: fmt::Display> fmt::Display for Escaped<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(Escaping { out: f, keep_newlines: false }, "{}", self.0)
    }
}

/// `s` with its control characters escaped, newlines too.
pub fn escape(s: &str) -> Cow<'_, str> {
    if s.chars().any(is_control) {
        Cow::Owned(Escaped(s).to_string())
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` with its control characters escaped but its newlines kept: for a text of several lines
/// (an error listing each bad field on a line of its own).
pub fn escape_lines(s: &str) -> Cow<'_, str> {
    if s.chars().any(|c| c != '\n' && is_control(c)) {
        let mut out = String::with_capacity(s.len() + 8);
        let _ = Escaping { out: &mut out, keep_newlines: true }.write_str(s);
        Cow::Owned(out)
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `c` is one of the characters this module escapes.
pub fn is_control(c: char) -> bool {
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}')
}

/// A writer that escapes what passes through it: the one place the escapes are spelled.
struct Escaping<W> {
    out: W,
    keep_newlines: bool,
}

impl<W: Write> Write for Escaping<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut plain = 0;
        for (i, c) in s.char_indices() {
            if !is_control(c) || (c == '\n' && self.keep_newlines) {
                continue;
            }
            self.out.write_str(&s[plain..i])?;
            plain = i + c.len_utf8();
            match c {
                '\n' => self.out.write_str("\\n")?,
                '\r' => self.out.write_str("\\r")?,
                '\t' => self.out.write_str("\\t")?,
                '\u{80}'..='\u{9f}' => write!(self.out, "\\u{{{:x}}}", u32::from(c))?,
                _ => write!(self.out, "\\x{:02x}", u32::from(c))?,
            }
        }
        self.out.write_str(&s[plain..])
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn terminal_sequences_come_out_as_visible_escapes() {
        assert_eq!(escape("a\x1b]0;owned\x07b"), "a\\x1b]0;owned\\x07b");
        assert_eq!(escape("\x1b[2J"), "\\x1b[2J");
        assert_eq!(escape("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(escape("a\r\nb\tc\x08\x7f\0"), "a\\r\\nb\\tc\\x08\\x7f\\x00");
        assert_eq!(escape_lines("one\x1b[2J\ntwo\r"), "one\\x1b[2J\ntwo\\r");
        assert_eq!(Escaped(format_args!("{}:{}", "x\x07", 1)).to_string(), "x\\x07:1");
    }

    #[test]
    fn printable_text_is_unchanged_and_borrowed() {
        for s in ["", "busybox:1.36", "naïve ✓ 名前", "back\\slash \\x1b", "\u{a0}\u{ff}"] {
            assert!(matches!(escape(s), Cow::Borrowed(t) if t == s));
            assert!(matches!(escape_lines(s), Cow::Borrowed(t) if t == s));
        }
        assert!(matches!(escape_lines("a\nb"), Cow::Borrowed(_)));
    }

    proptest! {
        #[test]
        fn no_control_character_ever_comes_out(s in any::<String>()) {
            let one = escape(&s);
            prop_assert!(!one.chars().any(is_control), "{one:?}");
            let lines = escape_lines(&s);
            prop_assert!(!lines.chars().any(|c| c != '\n' && is_control(c)), "{lines:?}");
            prop_assert_eq!(lines.lines().count(), s.lines().count());
            prop_assert_eq!(escape(&one), one.clone());
            prop_assert_eq!(Escaped(&s).to_string(), one.into_owned());
        }

        #[test]
        fn printable_input_is_unchanged(s in "[^\\x00-\\x1f\\x7f-\\u{9f}]*") {
            prop_assert_eq!(escape(&s), s.as_str());
            prop_assert_eq!(escape_lines(&s), s.as_str());
        }
    }
}
