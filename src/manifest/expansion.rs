//! Kubernetes `$(VAR)` expansion (the kubelet's fork of it in
//! third_party/forked/golang/expansion) with podrun's bound on what it may make: the one
//! algorithm, which validation runs on lengths alone (`validate/env.rs`) and the environment
//! runs on text (`pod/env.rs`), so both refuse the same manifests at the same field.
//!
//! Kubernetes sets no bound: each `value` may name earlier variables, so 34 variables that each
//! name the one before twice make 2^34 bytes from a manifest of 3 KiB. podrun refuses a value
//! that would expand past [`MAX_VALUE_BYTES`], and a container whose environment (or `command`
//! and `args`) would come to more than [`MAX_TOTAL_BYTES`]; the expansion stops as soon as it
//! would pass the bound, so it never holds more. Linux itself execs no string longer than
//! 128 KiB, nor an environment and arguments past a quarter of the stack limit (2 MiB by
//! default), so no container that could start is refused.

/// The most bytes one expanded value (an `env` value, one `command` or `args` item, a
/// `subPathExpr`) may have: 2 MiB.
pub const MAX_VALUE_BYTES: usize = 2 << 20;

/// The most bytes a container's environment (names and values, every source counted), or its
/// `command` and `args` together, may come to: 4 MiB.
pub const MAX_TOTAL_BYTES: usize = 4 << 20;

/// Which of a container's totals a [`Budget`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// [`MAX_TOTAL_BYTES`], for the container's environment.
    Env,
    /// [`MAX_TOTAL_BYTES`], for the container's `command` and `args`.
    Command,
}

/// An expansion that would pass podrun's bound. Its field path is the caller's to give; the
/// message never shows what the value would have held (a Secret's value may be in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TooLong {
    #[error(
        "expanding its $(VAR) references makes more than {MAX_VALUE_BYTES} bytes, podrun's bound for one value \
         (Kubernetes sets none; Linux starts no program with a string past 128 KiB)"
    )]
    Value,
    #[error(
        "with it the container's environment comes to more than {MAX_TOTAL_BYTES} bytes after $(VAR) expansion, \
         podrun's bound for one container"
    )]
    Env,
    #[error(
        "with it the container's command and args come to more than {MAX_TOTAL_BYTES} bytes after $(VAR) \
         expansion, podrun's bound for one container"
    )]
    Command,
}

/// What is left of a container's bound for the environment or for `command` and `args`: each
/// value takes from it, and none may have more than [`MAX_VALUE_BYTES`].
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    left: usize,
    total: Bound,
}

impl Budget {
    /// [`MAX_TOTAL_BYTES`] for one container's environment (`Bound::Env`) or its `command`
    /// and `args` (`Bound::Command`).
    pub fn new(total: Bound) -> Budget {
        Budget { left: MAX_TOTAL_BYTES, total }
    }

    /// The most the next value may have, and the bound that says so.
    fn next(self) -> (usize, TooLong) {
        if self.left < MAX_VALUE_BYTES {
            let why = match self.total {
                Bound::Command => TooLong::Command,
                Bound::Env => TooLong::Env,
            };
            (self.left, why)
        } else {
            (MAX_VALUE_BYTES, TooLong::Value)
        }
    }

    /// Takes `bytes` (a value set without expansion, or a variable's name) from what is left.
    pub fn spend(&mut self, bytes: usize) -> Result<(), TooLong> {
        let (_, why) = self.next();
        self.left = self.left.checked_sub(bytes).ok_or(why)?;
        Ok(())
    }

    /// `input` expanded against `lookup` (the value of a defined name), taken from the budget.
    pub fn expand<'v>(&mut self, input: &str, lookup: impl Fn(&str) -> Option<&'v str>) -> Result<String, TooLong> {
        let (max, why) = self.next();
        let out = expand(input, lookup, max).map_err(|_| why)?;
        self.left -= out.len();
        Ok(out)
    }

    /// The length `input` expands to against `length` (the length of a defined name's value),
    /// taken from the budget, without making the text.
    pub fn expanded_len(&mut self, input: &str, length: impl Fn(&str) -> Option<usize>) -> Result<usize, TooLong> {
        let (max, why) = self.next();
        let len = expanded_len(input, length, max).map_err(|_| why)?;
        self.left -= len;
        Ok(len)
    }
}

/// `input` expanded against `lookup`, or `Err` as soon as it would pass `max` bytes.
pub fn expand<'v>(input: &str, lookup: impl Fn(&str) -> Option<&'v str>, max: usize) -> Result<String, TooLong> {
    let mut out = String::with_capacity(input.len().min(max));
    let mut push = |s: &str| {
        if out.len() + s.len() > max {
            return Err(TooLong::Value);
        }
        out.push_str(s);
        Ok(())
    };
    pieces(
        input,
        |name| lookup(name).is_some(),
        |piece| match piece {
            Piece::Text(t) => push(t),
            Piece::Var(name) => push(lookup(name).unwrap_or_default()),
        },
    )?;
    Ok(out)
}

/// The length `input` expands to against `length`, or `Err` as soon as it would pass `max`.
pub fn expanded_len(input: &str, length: impl Fn(&str) -> Option<usize>, max: usize) -> Result<usize, TooLong> {
    let mut len = 0usize;
    pieces(
        input,
        |name| length(name).is_some(),
        |piece| {
            let add = match piece {
                Piece::Text(t) => t.len(),
                Piece::Var(name) => length(name).unwrap_or(0),
            };
            len = len.saturating_add(add);
            if len > max {
                Err(TooLong::Value)
            } else {
                Ok(())
            }
        },
    )?;
    Ok(len)
}

/// One part of an expansion's result: text as written, or a defined variable's value.
enum Piece<'a> {
    Text(&'a str),
    Var(&'a str),
}

/// The expansion algorithm of the kubelet's `expansion.Expand` with `MappingFuncFor`: hands
/// `piece` each part of the result in order, and stops at its first `Err`. `$(NAME)` with NAME
/// defined is its value; an undefined reference stays as written; `$$` is `$`; an unclosed `$(`
/// stays. `$`, `(` and `)` are ASCII, so every slice boundary falls on a char boundary.
fn pieces<'a>(
    input: &'a str,
    defined: impl Fn(&str) -> bool,
    mut piece: impl FnMut(Piece<'a>) -> Result<(), TooLong>,
) -> Result<(), TooLong> {
    let mut rest = input;
    while let Some(at) = rest.find('$') {
        piece(Piece::Text(&rest[..at]))?;
        let after = &rest[at + 1..];
        rest = match after.as_bytes().first() {
            // `$$` is an escaped `$`; the character after it is not looked at again.
            Some(b'$') => {
                piece(Piece::Text(&after[..1]))?;
                &after[1..]
            }
            Some(b'(') => match after[1..].find(')') {
                Some(len) => {
                    let name = &after[1..1 + len];
                    if defined(name) {
                        piece(Piece::Var(name))?;
                    } else {
                        piece(Piece::Text(&rest[at..at + len + 3]))?;
                    }
                    &after[len + 2..]
                }
                // No closing parenthesis anywhere: `$(` stays, and scanning goes on after it.
                None => {
                    piece(Piece::Text(&rest[at..at + 2]))?;
                    &after[1..]
                }
            },
            // A `$` before anything else, or at the very end, is kept as written.
            _ => {
                piece(Piece::Text(&rest[at..=at]))?;
                after
            }
        };
    }
    piece(Piece::Text(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<&'a str> {
        move |name| vars.iter().rev().find(|(k, _)| *k == name).map(|(_, v)| *v)
    }

    #[test]
    fn lengths_agree_with_the_text() {
        let vars = [("A", "xyz"), ("B", ""), ("C", "$(A)")];
        for input in ["", "$(A)", "$$(A)", "$(A)$(B)$(C)$(D)", "$(", "$(A", "a$", "$$$", "ü$(A)€", "$()"] {
            let text = expand(input, table(&vars), usize::MAX).unwrap();
            let len = expanded_len(input, |n| table(&vars)(n).map(str::len), usize::MAX).unwrap();
            assert_eq!(text.len(), len, "{input:?}");
        }
        assert_eq!(expand("$(C)$(D)", table(&vars), usize::MAX).unwrap(), "$(A)$(D)", "values are not expanded again");
    }

    #[test]
    fn expansion_stops_at_the_bound() {
        let vars = [("A", "0123456789")];
        assert_eq!(expand("$(A)$(A)", table(&vars), 20).unwrap().len(), 20);
        assert_eq!(expand("$(A)$(A)x", table(&vars), 20), Err(TooLong::Value));
        assert_eq!(expanded_len("$(A)$(A)x", |_| Some(usize::MAX), 20), Err(TooLong::Value), "never overflows");
    }

    #[test]
    fn a_doubling_chain_is_refused_where_it_passes_the_bound() {
        let mut budget = Budget::new(Bound::Env);
        let mut lens: Vec<usize> = vec![1];
        let refused = (1..64).find_map(|i| {
            let prev = lens[i - 1];
            match budget.expanded_len("$(P)$(P)", |_| Some(prev)) {
                Ok(len) => {
                    lens.push(len);
                    None
                }
                Err(e) => Some((i, e)),
            }
        });
        // 2^21 B is the value bound itself, allowed; with it the environment holds 4 MiB - 2 B,
        // which 2^22 B passes.
        assert_eq!(refused, Some((22, TooLong::Env)));
        let mut budget = Budget::new(Bound::Command);
        assert_eq!(budget.expanded_len("$(P)$(P)", |_| Some(MAX_VALUE_BYTES)), Err(TooLong::Value));
        budget.spend(MAX_TOTAL_BYTES - 10).unwrap();
        assert_eq!(budget.expanded_len("$(P)", |_| Some(11)), Err(TooLong::Command));
        assert_eq!(budget.spend(11), Err(TooLong::Command));
    }
}
