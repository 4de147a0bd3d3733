//! Quoted text in a template (`{"\t"}`, `'web'`), unquoted as Go's `strconv.UnquoteChar` does
//! (client-go's `UnquoteExtend`): the escapes `\a \b \f \n \r \t \v \\ \' \"`, `\xHH`, `\ooo`,
//! `\uHHHH`, `\UHHHHHHHH`; an unknown escape or a bare quote is refused.

/// The text `quoted` (with its quotes) stands for; `None` when Go would refuse it.
pub(super) fn unquote(quoted: &str) -> Option<String> {
    let quote = quoted.chars().next()?;
    let body = quoted.strip_prefix(quote)?.strip_suffix(quote)?;
    if !matches!(quote, '"' | '\'') {
        return None;
    }
    let mut out = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == quote {
            return None;
        }
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next()? {
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(11),
            '\\' => out.push(b'\\'),
            q @ ('\'' | '"') if q == quote => out.push(q as u8),
            'x' => out.push(u8::try_from(hex(&mut chars, 2)?).ok()?),
            e @ ('u' | 'U') => {
                let c = char::from_u32(hex(&mut chars, if e == 'u' { 4 } else { 8 })?)?;
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            d @ '0'..='7' => {
                let mut v = d.to_digit(8)?;
                for _ in 0..2 {
                    v = v * 8 + chars.next()?.to_digit(8)?;
                }
                out.push(u8::try_from(v).ok()?);
            }
            _ => return None,
        }
    }
    // Go keeps the bytes an `\x` escape makes even when they are not UTF-8; they print as U+FFFD.
    Some(String::from_utf8_lossy(&out).into_owned())
}

fn hex(chars: &mut std::str::Chars<'_>, n: usize) -> Option<u32> {
    let mut v = 0u32;
    for _ in 0..n {
        v = v.checked_mul(16)? + chars.next()?.to_digit(16)?;
    }
    Some(v)
}
