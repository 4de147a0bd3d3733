//! Kubernetes resource quantities (`250m`, `64Mi`, `1G`, `0.5`, `1e3`), parsed exactly as the
//! API server does: a decimal number with an optional binary (Ki..Ei), decimal (n, u, m, k..E)
//! or exponent (e3, E-2) suffix. Values are held in nano-units, so `1m` CPU and `1` byte both
//! stay exact, and rounding happens only where Kubernetes rounds (always up).

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quantity {
    nanos: i128,
}

/// Why a string is not a quantity, in the API server's words where it has them
/// (apimachinery `pkg/api/resource/quantity.go`, `ErrFormatWrong` and `ErrSuffix`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    #[error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")]
    Format,
    #[error("unable to parse quantity's suffix")]
    Suffix,
    #[error("unable to parse numeric part of quantity")]
    Numeric,
    /// A well-formed quantity the API server accepts (it holds any magnitude, in an `inf.Dec`)
    /// but podrun cannot hold: its magnitude is beyond 128 bits of nano-units. The sign is
    /// kept, because a negative one is refused for being negative.
    #[error("is too large: podrun holds quantities up to {MAX_UNITS} in magnitude")]
    TooLarge { negative: bool },
}

const NANO: i128 = 1_000_000_000;

/// The largest whole number of units podrun can hold (`i128::MAX` nano-units), for messages.
const MAX_UNITS: i128 = i128::MAX / NANO;

/// A binary-suffixed quantity is capped at 2^63-1 units, as `ParseQuantity` caps it
/// ("The max is just a simple cap": `9Ei` and `8Ei` both read as 9223372036854775807).
const BINARY_SI_MAX_NANOS: i128 = i64::MAX as i128 * NANO;

impl Quantity {
    /// `ParseQuantity` of Kubernetes (apimachinery `pkg/api/resource/quantity.go`, as of
    /// Kubernetes 1.36), after `UnmarshalJSON` trims surrounding space: the same accepted
    /// forms (including `1.`, `.5`, `-` and `+`, which read as 0), the same suffixes, the same
    /// rounding (a non-zero magnitude rounds up to the next nano-unit), the same cap on binary
    /// suffixes. The arithmetic is exact; only magnitudes beyond 128 bits of nano-units,
    /// which the API server accepts, are refused ([`QuantityError::TooLarge`]).
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(QuantityError::Format);
        }
        let parts = split(s)?;
        let (base, exponent) = interpret(parts.suffix)?;
        // Without a digit ("Mi", ".", "-"), the fast path of ParseQuantity reads 0; where it
        // hands over to inf.Dec (a scale below nano, or Pi and Ei), inf.Dec finds no number.
        if !parts.has_digits && matches!((&base, exponent), (Base::Ten, ..=-10) | (Base::Two(50..), _)) {
            return Err(QuantityError::Numeric);
        }
        let digits = parts.num.bytes().chain(parts.denom.bytes());
        let mantissa = BigUint::from_digits(digits);
        if mantissa.is_zero() {
            return Ok(Quantity { nanos: 0 });
        }
        // The value is mantissa × 10^e10 × 2^e2; in nano-units, 10^(e10 + 9).
        let (e10, e2) = match base {
            Base::Ten => (i64::from(exponent) - parts.denom.len() as i64, 0),
            Base::Two(e2) => (-(parts.denom.len() as i64), e2),
        };
        let too_large = QuantityError::TooLarge { negative: !parts.positive };
        let Some(magnitude) = nano_magnitude(mantissa, e10 + 9, e2) else {
            return Err(too_large);
        };
        let magnitude = match base {
            Base::Two(_) => magnitude.min(BINARY_SI_MAX_NANOS),
            Base::Ten => magnitude,
        };
        Ok(Quantity { nanos: if parts.positive { magnitude } else { -magnitude } })
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

    /// `Quantity.RoundUp(Milli)`: to whole thousandths, away from zero (`-0.1m` is `-1m`).
    /// The API server does this to every value of a resource list while decoding
    /// (`SetDefaults_ResourceList`), before validation compares them.
    pub fn round_up_to_milli(self) -> Quantity {
        let step = 1_000_000;
        let rest = self.nanos % step;
        if rest == 0 {
            return self;
        }
        let away = if self.nanos > 0 { step - rest } else { -step - rest };
        Quantity { nanos: self.nanos.saturating_add(away) }
    }

    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    /// Saturating at podrun's limits, which no caller comes near (host CPUs and bytes).
    pub fn from_units(units: i128) -> Quantity {
        Quantity { nanos: units.saturating_mul(NANO) }
    }

    pub fn from_millis(millis: i128) -> Quantity {
        Quantity { nanos: millis.saturating_mul(1_000_000) }
    }

    /// The sum, saturating (only reachable with thousands of quantities near podrun's limit).
    pub fn saturating_add(self, other: Quantity) -> Quantity {
        Quantity { nanos: self.nanos.saturating_add(other.nanos) }
    }
}

/// The pieces of a quantity string: `parseQuantityString` of quantity.go, ported as it is.
struct Parts<'a> {
    positive: bool,
    /// Digits before the point, leading zeros stripped ("0" when none are left).
    num: &'a str,
    /// Digits after the point, possibly empty.
    denom: &'a str,
    suffix: &'a str,
    /// Whether any digit came before the suffix.
    has_digits: bool,
}

fn split(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut positive = true;
    let mut pos = 0;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    let zero = Parts { positive, num: "0", denom: "", suffix: "", has_digits: true };
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok(zero);
    }
    let digits_from = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let num_end = digits_from(pos);
    let num = if num_end == pos { "0" } else { &s[pos..num_end] };
    pos = num_end;
    let mut denom = "";
    if pos < end && b[pos] == b'.' {
        let denom_end = digits_from(pos + 1);
        denom = &s[pos + 1..denom_end];
        pos = denom_end;
    }
    let suffix_start = pos;
    pos += b[pos..].iter().take_while(|c| b"eEinumkKMGTP".contains(c)).count();
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    if digits_from(pos) != end {
        // Something other than a suffix, a sign and digits follows the number.
        return Err(QuantityError::Format);
    }
    let has_digits = b[..suffix_start].iter().any(u8::is_ascii_digit);
    Ok(Parts { positive, num, denom, suffix: &s[suffix_start..], has_digits })
}

enum Base {
    Ten,
    /// A binary suffix, with its power of two.
    Two(u32),
}

/// `suffixHandler.interpret` of suffix.go: the power of ten (or two) a suffix stands for.
fn interpret(suffix: &str) -> Result<(Base, i32), QuantityError> {
    let ten = |e| Ok((Base::Ten, e));
    let two = |e: u32| Ok((Base::Two(e), 0));
    match suffix {
        "" => ten(0),
        "n" => ten(-9),
        "u" => ten(-6),
        "m" => ten(-3),
        "k" => ten(3),
        "M" => ten(6),
        "G" => ten(9),
        "T" => ten(12),
        "P" => ten(15),
        "E" => ten(18),
        "Ki" => two(10),
        "Mi" => two(20),
        "Gi" => two(30),
        "Ti" => two(40),
        "Pi" => two(50),
        "Ei" => two(60),
        e if e.len() > 1 && e.starts_with(['e', 'E']) => {
            // strconv.ParseInt(.., 10, 64), then int32(parsed): Go truncates to 32 bits.
            let parsed: i64 = e[1..].parse().map_err(|_| QuantityError::Suffix)?;
            ten(parsed as i32)
        }
        _ => Err(QuantityError::Suffix),
    }
}

/// ceil(mantissa × 10^e10 × 2^e2), when it fits in an i128.
fn nano_magnitude(mut m: BigUint, e10: i64, e2: u32) -> Option<i128> {
    for _ in 0..e2 {
        m.mul_small(2);
    }
    if e10 >= 0 {
        // m ≥ 1, so 10^39 and more cannot fit (i128::MAX < 1.8 × 10^38).
        if e10 > 38 {
            return None;
        }
        for _ in 0..e10 {
            m.mul_small(10);
        }
        return m.to_i128();
    }
    let shift = e10.unsigned_abs();
    // m < 10^digits: when the divisor is larger still, the value is a positive fraction of a
    // nano-unit, which rounds up to one.
    if shift > m.decimal_digits_bound() {
        return Some(1);
    }
    let mut inexact = false;
    let mut left = shift;
    while left > 0 {
        let step = left.min(9);
        inexact |= m.div_small(10u32.pow(step as u32)) != 0;
        left -= step;
    }
    let q = m.to_i128()?;
    if inexact {
        q.checked_add(1)
    } else {
        Some(q)
    }
}

/// Just enough of an unsigned big integer to read any number of digits exactly (base 2^32,
/// least significant limb first).
struct BigUint(Vec<u32>);

impl BigUint {
    fn from_digits(digits: impl Iterator<Item = u8>) -> BigUint {
        let mut n = BigUint(Vec::new());
        for d in digits {
            n.mul_small(10);
            n.add_small(u32::from(d - b'0'));
        }
        n
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(k) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn add_small(&mut self, k: u32) {
        let mut carry = u64::from(k);
        for limb in &mut self.0 {
            if carry == 0 {
                return;
            }
            let v = u64::from(*limb) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Divides in place; returns the remainder.
    fn div_small(&mut self, k: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*limb);
            *limb = (v / u64::from(k)) as u32;
            rem = v % u64::from(k);
        }
        rem as u32
    }

    /// A number of decimal digits the value has no more of (each limb holds < 10^10).
    fn decimal_digits_bound(&self) -> u64 {
        self.0.len() as u64 * 10
    }

    fn to_i128(&self) -> Option<i128> {
        let mut v: u128 = 0;
        for (i, &limb) in self.0.iter().enumerate() {
            if limb == 0 {
                continue;
            }
            if i >= 4 {
                return None;
            }
            v |= u128::from(limb) << (32 * i);
        }
        i128::try_from(v).ok()
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
        // TestQuantityParse's `invalid` table (quantity_test.go), plus a few more.
        for bad in ["1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-"] {
            assert!(Quantity::parse(bad).is_err(), "{bad:?}");
        }
        for bad in ["", "abc", "1x", "1.2.3", "1 Mi", "1MiB", "1e", "1e+", "1_000"] {
            assert!(Quantity::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Quantity::parse("1x"), Err(QuantityError::Format));
        assert_eq!(Quantity::parse("1ki"), Err(QuantityError::Suffix));
        assert_eq!(Quantity::parse("1e"), Err(QuantityError::Suffix));
        // No digit at all: 0 on ParseQuantity's fast path, no number for inf.Dec otherwise.
        assert_eq!(Quantity::parse("Pi"), Err(QuantityError::Numeric));
        assert_eq!(Quantity::parse("e-10"), Err(QuantityError::Numeric));
    }

    #[test]
    fn odd_forms_the_api_server_takes() {
        // "Things written by trolls" of TestQuantityParse, and what the scanner lets through.
        assert_eq!(q("0.000000000001Ki").nanos(), 2, "1.024n rounds up to 2n");
        assert_eq!(q(".001").milli_ceil(), 1);
        assert_eq!(q(".0001k").milli_ceil(), 100);
        assert_eq!(q("1.").value_ceil(), 1);
        assert_eq!(q("1.G").value_ceil(), 1_000_000_000);
        for zero in ["0", "-", "+", ".", "Mi", "00", "-0.000", "0e100", "0Ei"] {
            assert!(q(zero).is_zero(), "{zero:?}");
        }
        assert_eq!(q(" 1Gi ").value_ceil(), 1 << 30, "UnmarshalJSON trims space");
    }

    #[test]
    fn rounding_as_in_the_saturate_table() {
        for (text, nanos) in [
            ("3.001n", 4),
            ("1.1E-9", 2),
            ("0.0000000005", 1),
            ("0.5e-9", 1),
            ("0.9n", 1),
            ("0.00000012345", 124),
            ("0.00000012354", 124),
            ("1e-1000000", 1),
            ("-0.9n", -1),
        ] {
            assert_eq!(q(text).nanos(), nanos, "{text}");
        }
        assert_eq!(q("100.035Ki").nanos(), 102_435_840_000_000);
        assert_eq!(q("0.5Mi").value_ceil(), 1 << 19);
        assert_eq!(q("1.3E+6").value_ceil(), 1_300_000);
        assert_eq!(q("12E").value_ceil(), 12_000_000_000_000_000_000);
        // More significant digits than 128 bits hold, all of them counted.
        assert_eq!(q("0.0000000010000000000000000000000000000000000000001").nanos(), 2);
        assert_eq!(q("1.0000000000000000000000000000000000000000000000000").nanos(), 1_000_000_000);
    }

    #[test]
    fn binary_suffixes_are_capped_at_2_63_minus_1() {
        assert_eq!(q("9Ei").value_ceil(), i128::from(i64::MAX));
        assert_eq!(q("8Ei").value_ceil(), i128::from(i64::MAX));
        assert_eq!(q("9223372036854775807Ki").value_ceil(), i128::from(i64::MAX));
        assert_eq!(q("-9Ei").value_ceil(), -i128::from(i64::MAX));
        assert_eq!(q("7Ei").value_ceil(), 7 << 60);
        // Decimal suffixes are not capped.
        assert_eq!(q("9223372036854775808").value_ceil(), 1 << 63);
    }

    #[test]
    fn magnitudes_beyond_128_bits_are_refused_with_their_sign_never_wrapped() {
        let max = "170141183460469231731687303715.884105727";
        assert_eq!(q(max).nanos(), i128::MAX);
        assert_eq!(q(&format!("-{max}")).nanos(), -i128::MAX);
        for (text, negative) in [
            ("170141183460469231731687303715.884105728", false),
            ("-170141183460469231731687303715.999999999", true),
            ("170141183460469231731687303715.999999999", false),
            ("1e100", false),
            ("-1e30", true),
            ("1e2000000000", false),
            ("99999999999999999999999999999999999999999999999", false),
        ] {
            assert_eq!(Quantity::parse(text), Err(QuantityError::TooLarge { negative }), "{text}");
        }
        let e = QuantityError::TooLarge { negative: false };
        assert_eq!(
            e.to_string(),
            "is too large: podrun holds quantities up to 170141183460469231731687303715 in magnitude"
        );
    }

    #[test]
    fn rounds_up_to_milli_away_from_zero() {
        assert_eq!(q("100.1m").round_up_to_milli(), q("101m"));
        assert_eq!(q("1n").round_up_to_milli(), q("1m"));
        assert_eq!(q("-0.1m").round_up_to_milli(), q("-1m"));
        assert_eq!(q("-1.5m").round_up_to_milli(), q("-2m"));
        assert_eq!(q("2m").round_up_to_milli(), q("2m"));
        assert_eq!(q("0").round_up_to_milli(), q("0"));
    }

    #[test]
    fn displays_canonically() {
        assert_eq!(q("0.5").to_string(), "500m");
        assert_eq!(q("2").to_string(), "2");
        assert_eq!(q("1Ki").to_string(), "1024");
    }
}
