//! The orders kubectl's `--sort-by` uses for strings: quantities (`100m`, `1Gi`) by their
//! amount when both strings are quantities, else natural order (`sortorder.NaturalLess`:
//! runs of digits by their number, `pod2` before `pod10`).

use std::cmp::Ordering;

/// `sortorder.NaturalLess` as an ordering.
pub(super) fn natural(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (da, db) = (a[i].is_ascii_digit(), b[j].is_ascii_digit());
        if da != db {
            // Digits before other characters.
            return if da { Ordering::Less } else { Ordering::Greater };
        }
        if !da {
            if a[i] != b[j] {
                return a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
            continue;
        }
        let (zi, zj) = (skip(a, i, |c| c == b'0'), skip(b, j, |c| c == b'0'));
        let (ei, ej) = (skip(a, zi, |c| c.is_ascii_digit()), skip(b, zj, |c| c.is_ascii_digit()));
        // A longer number is a larger one; then the digits; then fewer leading zeros first.
        let by = (ei - zi).cmp(&(ej - zj)).then_with(|| a[zi..ei].cmp(&b[zj..ej])).then(zi.cmp(&zj));
        if by != Ordering::Equal {
            return by;
        }
        (i, j) = (ei, ej);
    }
    (a.len() - i).cmp(&(b.len() - j))
}

fn skip(s: &[u8], from: usize, while_: impl Fn(u8) -> bool) -> usize {
    from + s[from..].iter().take_while(|c| while_(**c)).count()
}

/// The amount a Kubernetes quantity stands for (`1.5`, `100m`, `2Ki`, `1e3`); `None` for a
/// string that is not one.
pub(super) fn quantity(s: &str) -> Option<f64> {
    let digits_end = s
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || *c == '.' || (*i == 0 && (*c == '+' || *c == '-'))))
        .map_or(s.len(), |(i, _)| i);
    let (number, suffix) = s.split_at(digits_end);
    if !number.bytes().any(|c| c.is_ascii_digit()) || number.matches('.').count() > 1 {
        return None;
    }
    let n: f64 = number.parse().ok()?;
    let scale = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        e => {
            let exp: i32 = e.strip_prefix(['e', 'E'])?.parse().ok()?;
            10f64.powi(exp)
        }
    };
    Some(n * scale)
}
