//! The Pod API's `int32` fields (ports, probe timings and thresholds, file modes), held as i64
//! like the rest but refused at decode when out of the int32 range, as the API server's JSON
//! decoding refuses them (`cannot unmarshal number 2147483648 into Go struct field
//! ContainerPort.spec.containers.ports.containerPort of type int32`), before any validation
//! rule sees a wrapped or clamped number. `int64` fields are plain i64, which serde refuses
//! beyond 2^63-1 the same way.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use crate::manifest::yaml::strict;

const EXPECTED: &str = "an int32 (a whole number from -2147483648 to 2147483647)";

/// The error for `v`, through `E::invalid_value`, so serde_yaml adds the field path and line.
pub(super) fn out_of_range<E: de::Error>(v: i128) -> E {
    match i64::try_from(v) {
        Ok(v) => E::invalid_value(de::Unexpected::Signed(v), &EXPECTED),
        Err(_) => E::invalid_value(de::Unexpected::Unsigned(u64::try_from(v).unwrap_or(u64::MAX)), &EXPECTED),
    }
}

pub(super) fn in_range<E: de::Error>(v: i128) -> Result<i64, E> {
    i32::try_from(v).map(i64::from).map_err(|_| out_of_range(v))
}

struct Int32Visitor;

impl Visitor<'_> for Int32Visitor {
    type Value = Option<i64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        in_range(i128::from(v)).map(Some)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        in_range(i128::from(v)).map(Some)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        in_range(v).map(Some)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        in_range(i128::try_from(v).unwrap_or(i128::MAX)).map(Some)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A required int32 (`containerPort`, a gRPC probe's `port`); `null` reads as 0, unset.
pub fn int32<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(Int32Visitor).map(Option::unwrap_or_default)
}

/// An optional int32 (`hostPort`, probe timings and thresholds).
pub fn opt_int32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    d.deserialize_any(Int32Visitor)
}

/// A file mode (`mode`, `defaultMode`, an `*int32`), read as [`strict::opt_file_mode`] reads
/// it (`0644` is octal), then held to the int32 range.
pub fn opt_file_mode<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match strict::opt_file_mode(d)? {
        Some(v) => in_range(i128::from(v)).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct T {
        #[serde(default, deserialize_with = "super::int32")]
        port: i64,
        #[serde(default, deserialize_with = "super::opt_int32")]
        period: Option<i64>,
        #[serde(default, deserialize_with = "super::opt_file_mode")]
        mode: Option<i64>,
    }

    fn load(y: &str) -> Result<T, serde_yaml::Error> {
        serde_yaml::from_str(y)
    }

    #[test]
    fn the_int32_range_is_taken_to_its_edges() {
        let t = load("port: 2147483647\nperiod: -2147483648\nmode: 0644\n").unwrap();
        assert_eq!((t.port, t.period, t.mode), (i64::from(i32::MAX), Some(i64::from(i32::MIN)), Some(0o644)));
        let t = load("period: ~\nmode: null\n").unwrap();
        assert_eq!((t.port, t.period, t.mode), (0, None, None));
    }

    #[test]
    fn beyond_int32_is_a_decode_error_with_its_place() {
        for (y, shown) in [
            ("port: 2147483648\n", "2147483648"),
            ("port: -2147483649\n", "-2147483649"),
            ("period: 4294967296\n", "4294967296"),
            ("period: 18446744073709551615\n", "18446744073709551615"),
            ("mode: 2147483648\n", "2147483648"),
            ("mode: 020000000000\n", "2147483648"),
        ] {
            let e = load(y).unwrap_err();
            assert!(e.location().is_some(), "{y}: {e}");
            let text = e.to_string();
            assert!(text.contains(shown) && text.contains("expected an int32"), "{y}: {text}");
        }
        assert!(load("port: '80'\n").is_err(), "a string is no number");
        assert!(load("port: 1.5\n").is_err());
    }

    #[test]
    fn int64_fields_stop_at_i64() {
        use crate::manifest::types::{PodSecurityContext, PodSpec};
        let spec: PodSpec = serde_yaml::from_str("terminationGracePeriodSeconds: 9223372036854775807\n").unwrap();
        assert_eq!(spec.termination_grace_period_seconds, Some(i64::MAX));
        let e = serde_yaml::from_str::<PodSpec>("terminationGracePeriodSeconds: 9223372036854775808\n").unwrap_err();
        assert!(e.location().is_some() && e.to_string().contains("i64"), "{e}");
        let e = serde_yaml::from_str::<PodSecurityContext>("runAsUser: -9223372036854775809\n").unwrap_err();
        assert!(e.location().is_some(), "{e}");
    }
}
