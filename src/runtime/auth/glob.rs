//! Go's `filepath.Match`, which the kubelet's keyring uses on each label of a key's host
//! (`*.example.com`).

/// One token of a `filepath.Match` pattern.
#[derive(Debug, PartialEq)]
enum Glob {
    Star,
    AnyChar,
    Char(char),
    /// `[...]`: ranges (a single char is `(c, c)`), negated by a leading `^`.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Glob {
    fn matches(&self, c: char) -> bool {
        match self {
            Glob::Star => true,
            Glob::AnyChar => true,
            Glob::Char(p) => *p == c,
            Glob::Class { negated, ranges } => ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated,
        }
    }
}

/// Go's `filepath.Match` syntax (`*`, `?`, `[a-z]`, `[^x]`, `\` escapes), tokenised; `None`
/// for a malformed pattern, which matches nothing (Go returns ErrBadPattern, the keyring skips).
fn parse_glob(pattern: &str) -> Option<Vec<Glob>> {
    let mut chars = pattern.chars();
    let mut out = Vec::new();
    let escaped = |chars: &mut std::str::Chars, c: char| if c == '\\' { chars.next() } else { Some(c) };
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Glob::Star,
            '?' => Glob::AnyChar,
            '[' => {
                let mut negated = false;
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = chars.next()?;
                    if first && c == '^' {
                        negated = true;
                        first = false;
                        continue;
                    }
                    if c == ']' && !first {
                        break;
                    }
                    if c == ']' || c == '-' {
                        return None;
                    }
                    first = false;
                    let lo = escaped(&mut chars, c)?;
                    let mut lookahead = chars.clone();
                    let hi = if lookahead.next() == Some('-') {
                        chars.next();
                        let c = chars.next()?;
                        if c == ']' || c == '-' {
                            return None;
                        }
                        escaped(&mut chars, c)?
                    } else {
                        lo
                    };
                    ranges.push((lo, hi));
                }
                Glob::Class { negated, ranges }
            }
            '\\' => Glob::Char(chars.next()?),
            c => Glob::Char(c),
        });
    }
    Some(out)
}

/// Whether `name` matches the glob `pattern` as a whole. Only the last `*` is ever backtracked
/// to (O(pattern × name)), so a hostile key cannot make matching exponential.
pub(super) fn glob_match(pattern: &str, name: &str) -> bool {
    let Some(tokens) = parse_glob(pattern) else { return false };
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    let mut last_star: Option<(usize, usize)> = None;
    while n < name.len() {
        match tokens.get(t) {
            Some(Glob::Star) => {
                last_star = Some((t, n));
                t += 1;
            }
            Some(token) if token.matches(name[n]) => {
                t += 1;
                n += 1;
            }
            _ => match last_star {
                // Let the last `*` swallow one more character and try again from there.
                Some((star, at)) => {
                    last_star = Some((star, at + 1));
                    t = star + 1;
                    n = at + 1;
                }
                None => return false,
            },
        }
    }
    tokens.get(t..).unwrap_or_default().iter().all(|token| *token == Glob::Star)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_syntax_is_gos_filepath_match() {
        assert!(glob_match("*", "anything"));
        assert!(glob_match("reg*", "registry"));
        assert!(glob_match("r?g", "reg"));
        assert!(!glob_match("r?g", "reeg"));
        assert!(glob_match("k8s-[a-c]", "k8s-b"));
        assert!(!glob_match("k8s-[^a-c]", "k8s-b"));
        assert!(glob_match("a\\*", "a*"));
        assert!(!glob_match("a\\*", "ab"));
        assert!(glob_match("*a*b*c", "xxaxxbxxc"));
        // Malformed patterns match nothing, rather than everything.
        for bad in ["[", "[]", "[a-", "a\\", "[-a]"] {
            assert!(!glob_match(bad, "a"), "{bad}");
        }
        // Linear, not exponential.
        assert!(!glob_match(&format!("{}b", "*a".repeat(30)), &"a".repeat(10_000)));
    }
}
