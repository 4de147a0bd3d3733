//! Kubernetes resource quantities (`250m`, `64Mi`, `1G`, `0.5`, `1e3`), parsed exactly as the
//! API server does: a decimal number with an optional binary (Ki..Ei), decimal (n, u, m, k..E)
//! or exponent (e3, E-2) suffix. Values are held in nano-units, so `1m` CPU and `1` byte both
//! stay exact, and rounding happens only where Kubernetes rounds (always up).

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quantity {
    nanos: i128,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")]
pub struct QuantityError;

const NANO: i128 = 1_000_000_000;

fn pow(base: i128, exp: u32) -> Option<i128> {
    base.checked_pow(exp)
}

impl Quantity {
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        let s = s.trim();
        let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-')).unwrap_or(s.len());
        let (number, suffix) = s.split_at(split);
        let (negative, digits) = match number.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, number.strip_prefix('+').unwrap_or(number)),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
            return Err(QuantityError);
        }
        // The number in nano-units, before the suffix; fraction digits beyond nano round up.
        let mut nanos: i128 = 0;
        for b in int.bytes() {
            nanos = nanos.checked_mul(10).and_then(|n| n.checked_add(i128::from(b - b'0'))).ok_or(QuantityError)?;
        }
        nanos = nanos.checked_mul(NANO).ok_or(QuantityError)?;
        let mut scale = NANO / 10;
        let mut rest_nonzero = false;
        for b in frac.bytes() {
            if scale > 0 {
                nanos += i128::from(b - b'0') * scale;
                scale /= 10;
            } else if b != b'0' {
                rest_nonzero = true;
            }
        }
        // (numerator, denominator) of the suffix's multiplier.
        let (num, den): (i128, i128) = match suffix {
            "" => (1, 1),
            "n" => (1, NANO),
            "u" => (1, 1_000_000),
            "m" => (1, 1000),
            "k" => (1000, 1),
            "M" => (pow(10, 6).ok_or(QuantityError)?, 1),
            "G" => (pow(10, 9).ok_or(QuantityError)?, 1),
            "T" => (pow(10, 12).ok_or(QuantityError)?, 1),
            "P" => (pow(10, 15).ok_or(QuantityError)?, 1),
            "E" => (pow(10, 18).ok_or(QuantityError)?, 1),
            "Ki" => (1 << 10, 1),
            "Mi" => (1 << 20, 1),
            "Gi" => (1 << 30, 1),
            "Ti" => (1 << 40, 1),
            "Pi" => (1 << 50, 1),
            "Ei" => (1 << 60, 1),
            e if e.starts_with(['e', 'E']) => {
                let exp: i32 = e[1..].parse().map_err(|_| QuantityError)?;
                if exp.unsigned_abs() > 30 {
                    return Err(QuantityError);
                }
                if exp >= 0 {
                    (pow(10, exp as u32).ok_or(QuantityError)?, 1)
                } else {
                    (1, pow(10, exp.unsigned_abs()).ok_or(QuantityError)?)
                }
            }
            _ => return Err(QuantityError),
        };
        let scaled = nanos.checked_mul(num).ok_or(QuantityError)?;
        let mut nanos = scaled / den;
        if scaled % den != 0 || rest_nonzero {
            nanos += 1; // below a nano-unit: round up, as Kubernetes does
        }
        Ok(Quantity { nanos: if negative { -nanos } else { nanos } })
    }

    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// In thousandths, rounded up (CPU millicores).
    pub fn milli_ceil(&self) -> i128 {
        ceil_div(self.nanos, 1_000_000)
    }

    /// In whole units, rounded up (bytes, whole CPUs).
    pub fn value_ceil(&self) -> i128 {
        ceil_div(self.nanos, NANO)
    }

    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    pub fn from_units(units: i128) -> Quantity {
        Quantity { nanos: units * NANO }
    }

    pub fn from_millis(millis: i128) -> Quantity {
        Quantity { nanos: millis * 1_000_000 }
    }

    pub fn from_nanos(nanos: i128) -> Quantity {
        Quantity { nanos }
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && (a > 0) == (b > 0) {
        q + 1
    } else {
        q
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.nanos % NANO == 0 {
            write!(f, "{}", self.nanos / NANO)
        } else if self.nanos % 1_000_000 == 0 {
            write!(f, "{}m", self.nanos / 1_000_000)
        } else {
            write!(f, "{}n", self.nanos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|_| panic!("{s}"))
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(q("250m").milli_ceil(), 250);
        assert_eq!(q("0.5").milli_ceil(), 500);
        assert_eq!(q("1").milli_ceil(), 1000);
        assert_eq!(q("64Mi").value_ceil(), 64 << 20);
        assert_eq!(q("1G").value_ceil(), 1_000_000_000);
        assert_eq!(q("1Gi").value_ceil(), 1 << 30);
        assert_eq!(q("128974848").value_ceil(), 128974848);
        assert_eq!(q("129e6").value_ceil(), 129_000_000);
        assert_eq!(q("123Mi").value_ceil(), 123 << 20);
        assert_eq!(q("1.5Gi").value_ceil(), 3 << 29);
        assert_eq!(q("100n").nanos(), 100);
        assert_eq!(q("1u").nanos(), 1000);
        assert_eq!(q("10k").value_ceil(), 10_000);
        assert_eq!(q("1e-3").milli_ceil(), 1);
        assert_eq!(q("+2").value_ceil(), 2);
        assert!(q("-1").is_negative());
    }

    #[test]
    fn rounds_up_below_precision() {
        assert_eq!(q("0.0000000001").nanos(), 1);
        assert_eq!(q("1.5m").milli_ceil(), 2);
        assert_eq!(q("100m").value_ceil(), 1);
    }

    #[test]
    fn refuses_what_kubernetes_refuses() {
        for bad in ["", "abc", "1x", "1.2.3", "Mi", "1 Mi", "1MiB", ".", "1e", "1e100"] {
            assert!(Quantity::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn displays_canonically() {
        assert_eq!(q("0.5").to_string(), "500m");
        assert_eq!(q("2").to_string(), "2");
        assert_eq!(q("1Ki").to_string(), "1024");
    }
}
