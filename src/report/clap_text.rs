//! The command-line parser's own messages (usage errors, suggestions, help) made as safe to
//! print as every other line of podrun's (`crate::escape`): an argument quoted back by clap can
//! hold ESC, a newline or a C1 byte (U+009B is a CSI on its own), which would move the cursor of
//! the terminal reading it or forge a line. The arguments clap quotes are escaped before it
//! renders them, so its own colours stay; what else reaches the rendered text (a flag parser's
//! message) is escaped there, only clap's colour sequences kept.

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue};

use crate::escape::{escape, escape_lines, is_control};

/// `e` rendered for a stream that shows colours (`coloured`) or not, every character that does
/// not come from clap's styling escaped but the line ends.
pub fn render(mut e: clap::Error, coloured: bool) -> String {
    escape_context(&mut e);
    let styled = e.render();
    if coloured {
        keep_colours(&styled.ansi().to_string())
    } else {
        escape_lines(&uncoloured(&styled.ansi().to_string())).into_owned()
    }
}

/// Escapes the pieces of `e`'s context (the argument, the value, the tip quoting them), newlines
/// too: each is shown within a line.
fn escape_context(e: &mut clap::Error) {
    let escaped: Vec<(ContextKind, ContextValue)> =
        e.context().filter_map(|(kind, value)| escaped(value).map(|v| (kind, v))).collect();
    for (kind, value) in escaped {
        e.insert(kind, value);
    }
}

/// `value` escaped, or none when it holds nothing to escape.
fn escaped(value: &ContextValue) -> Option<ContextValue> {
    let needs = |s: &str| s.chars().any(is_control);
    let styled = |s: &StyledStr| needs(&uncoloured(&s.ansi().to_string()));
    // A styled piece with something to escape loses its colours: its text is what matters.
    let plain = |s: &StyledStr| StyledStr::from(escape(&uncoloured(&s.ansi().to_string())).into_owned());
    match value {
        ContextValue::String(s) if needs(s) => Some(ContextValue::String(escape(s).into_owned())),
        ContextValue::Strings(v) if v.iter().any(|s| needs(s)) => {
            Some(ContextValue::Strings(v.iter().map(|s| escape(s).into_owned()).collect()))
        }
        ContextValue::StyledStr(s) if styled(s) => Some(ContextValue::StyledStr(plain(s))),
        ContextValue::StyledStrs(v) if v.iter().any(styled) => {
            Some(ContextValue::StyledStrs(v.iter().map(plain).collect()))
        }
        _ => None,
    }
}

const SGR_START: &str = "\x1b[";

/// `text` with its control characters escaped, but its line ends and its colour sequences
/// (`ESC [ digits and semicolons m`, all clap writes).
fn keep_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    each_piece(text, |piece, colour| if colour { out.push_str(piece) } else { out.push_str(&escape_lines(piece)) });
    out
}

/// `text` without its colour sequences, everything else as it is.
fn uncoloured(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    each_piece(text, |piece, colour| {
        if !colour {
            out.push_str(piece)
        }
    });
    out
}

/// Calls `f` with each piece of `text` in turn, and whether it is a colour sequence.
fn each_piece(text: &str, mut f: impl FnMut(&str, bool)) {
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        let sgr = sgr_len(&rest[at..]);
        if sgr == 0 {
            f(&rest[..=at], false);
            rest = &rest[at + 1..];
            continue;
        }
        f(&rest[..at], false);
        f(&rest[at..at + sgr], true);
        rest = &rest[at + sgr..];
    }
    f(rest, false);
}

/// The length of the colour sequence `s` starts with, or 0.
fn sgr_len(s: &str) -> usize {
    let Some(params) = s.strip_prefix(SGR_START) else { return 0 };
    let digits = params.bytes().take_while(|b| b.is_ascii_digit() || *b == b';').count();
    if params.as_bytes().get(digits) == Some(&b'm') {
        SGR_START.len() + digits + 1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    #[command(name = "prog")]
    struct Args {
        #[arg(long)]
        count: Option<u32>,
        #[arg(long, value_parser = ["one", "two"])]
        word: Option<String>,
    }

    fn error(args: &[&str]) -> clap::Error {
        let Err(e) = Args::try_parse_from(args) else { panic!("{args:?} parsed") };
        e
    }

    const HOSTILE: &str = "a\x1b[2Jb\nforged\u{9b}31m";

    fn assert_safe(text: &str) {
        let rest: String = text.split(SGR_START).collect::<Vec<_>>().join("");
        assert!(!rest.chars().any(|c| c != '\n' && is_control(c)), "{text:?}");
        assert!(!text.contains("\nforged"), "{text:?}");
        assert!(text.contains(r"a\x1b[2Jb\nforged\u{9b}31m"), "{text:?}");
    }

    #[test]
    fn an_unknown_argument_is_escaped_with_or_without_colours() {
        let arg = format!("--{HOSTILE}");
        for coloured in [false, true] {
            let text = render(error(&["prog", &arg]), coloured);
            assert_safe(&text);
            assert!(text.contains("unexpected argument"), "{text:?}");
        }
    }

    #[test]
    fn a_bad_value_and_a_value_outside_the_choices_are_escaped() {
        for args in [["prog", "--count", HOSTILE], ["prog", "--word", HOSTILE]] {
            for coloured in [false, true] {
                assert_safe(&render(error(&args), coloured));
            }
        }
    }

    #[test]
    fn colours_stay_and_plain_text_has_none() {
        let e = || error(&["prog", "--cont", "1"]);
        assert!(render(e(), true).contains("\x1b["), "clap's colours are kept");
        let plain = render(e(), false);
        assert!(!plain.contains('\x1b') && plain.contains("--count"), "{plain:?}");
    }

    #[test]
    fn only_colour_sequences_pass() {
        assert_eq!(
            keep_colours("\x1b[1;31mred\x1b[0m\n\x1b]0;title\x07\u{9b}2J"),
            "\x1b[1;31mred\x1b[0m\n\\x1b]0;title\\x07\\u{9b}2J"
        );
        assert_eq!(sgr_len("\x1b[m"), 3);
        assert_eq!(sgr_len("\x1b[2J"), 0);
    }
}
