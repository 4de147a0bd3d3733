//! Deserialisers that take only what Kubernetes takes for string fields.
//!
//! serde_yaml turns any plain scalar into a `String` when asked for one, so `value: 5` or
//! `args: [--port, 8080]` would load here and then be refused by the API server
//! ("cannot unmarshal number into ... of type string"). podrun promises that what it accepts
//! is valid for Kubernetes, so these refuse non-string scalars, with the YAML location.
//! `null` counts as absent, as it does for Kubernetes.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

struct StrVisitor;

impl Visitor<'_> for StrVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string (quote numbers and booleans)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A string; `null` gives the empty string (the field then counts as unset).
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(d.deserialize_any(StrVisitor)?.unwrap_or_default())
}

pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(StrVisitor)
}

struct StringsVisitor;

impl<'de> Visitor<'de> for StringsVisitor {
    type Value = Option<Vec<String>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(item) = seq.next_element_seed(StrSeed)? {
            out.push(item);
        }
        Ok(Some(out))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

pub fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(d.deserialize_any(StringsVisitor)?.unwrap_or_default())
}

pub fn opt_strings<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    d.deserialize_any(StringsVisitor)
}

struct MapVisitor;

impl<'de> Visitor<'de> for MapVisitor {
    type Value = BTreeMap<String, String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of strings to strings")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key_seed(StrSeed)? {
            let value = map.next_value_seed(StrSeed)?;
            out.insert(key, value);
        }
        Ok(out)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(BTreeMap::new())
    }
}

pub fn string_map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    d.deserialize_any(MapVisitor)
}

/// What a base64 error says; `load/error.rs` recognises it to drop serde_yaml's path before it.
pub const BASE64_ERROR: &str = "illegal base64 data at input byte";

/// A map of base64 strings (a Secret's `data`, a ConfigMap's `binaryData`), each checked as
/// the API server decodes it, so that an error has the value's line and column.
struct Base64MapVisitor {
    field: &'static str,
}

impl<'de> Visitor<'de> for Base64MapVisitor {
    type Value = BTreeMap<String, String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of keys to base64 strings")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key_seed(StrSeed)? {
            let value = map.next_value_seed(Base64Seed { field: self.field, key: &key })?;
            out.insert(key, value);
        }
        Ok(out)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(BTreeMap::new())
    }
}

struct Base64Seed<'k> {
    field: &'static str,
    key: &'k str,
}

impl<'de> de::DeserializeSeed<'de> for Base64Seed<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

impl Visitor<'_> for Base64Seed<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a base64 string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        // The error names the key and the offset, never the value (it may be a secret).
        match crate::manifest::base64_data::decode_base64(v) {
            Ok(_) => Ok(v.to_owned()),
            Err(at) => Err(E::custom(format!("{}[{}]: {BASE64_ERROR} {at}", self.field, self.key))),
        }
    }
}

pub fn secret_data<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    d.deserialize_any(Base64MapVisitor { field: "data" })
}

pub fn binary_data<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    d.deserialize_any(Base64MapVisitor { field: "binaryData" })
}

/// A Kubernetes quantity: written as a string (`250m`, `1Gi`) or a plain number (`0.5`, `2`),
/// kept as text for `quantity.rs` to parse.
struct QuantityVisitor;

impl Visitor<'_> for QuantityVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a quantity (such as 250m, 64Mi or 0.5)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

pub fn opt_quantity<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(QuantityVisitor)
}

struct QuantityMapVisitor;

impl<'de> Visitor<'de> for QuantityMapVisitor {
    type Value = BTreeMap<String, String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of resource names to quantities")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key_seed(StrSeed)? {
            let value = map.next_value_seed(QuantitySeed)?;
            out.insert(key, value);
        }
        Ok(out)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(BTreeMap::new())
    }
}

pub fn quantity_map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    d.deserialize_any(QuantityMapVisitor)
}

struct QuantitySeed;

impl<'de> de::DeserializeSeed<'de> for QuantitySeed {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        match d.deserialize_any(QuantityVisitor)? {
            Some(s) => Ok(s),
            None => Err(de::Error::invalid_type(de::Unexpected::Unit, &QuantityVisitor)),
        }
    }
}

/// A file mode (`mode`, `defaultMode`): an integer, where `0644` is octal.
///
/// Kubernetes reads YAML 1.1, in which a leading zero makes an integer octal, so the API's own
/// examples write `mode: 0644`. serde_yaml reads YAML 1.2, in which `0644` is the string
/// "0644"; without this, those examples would be refused. Such a string is read as octal (a
/// quoted "0644" too: a visitor cannot tell quoted from plain, and this one leniency is rare).
struct FileModeVisitor;

impl Visitor<'_> for FileModeVisitor {
    type Value = Option<i64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a file mode (an integer such as 0644 or 420)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        i64::try_from(v).map(Some).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let octal = v.strip_prefix('0').filter(|d| !d.is_empty() && d.bytes().all(|b| (b'0'..=b'7').contains(&b)));
        match octal.map(|d| i64::from_str_radix(d, 8)) {
            Some(Ok(mode)) => Ok(Some(mode)),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

pub fn opt_file_mode<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    d.deserialize_any(FileModeVisitor)
}

/// One string inside a list or map, where `null` is not a string either.
struct StrSeed;

impl<'de> de::DeserializeSeed<'de> for StrSeed {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        match d.deserialize_any(StrVisitor)? {
            Some(s) => Ok(s),
            None => Err(de::Error::invalid_type(de::Unexpected::Unit, &StrVisitor)),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct T {
        #[serde(default, deserialize_with = "super::opt_string")]
        s: Option<String>,
        #[serde(default, deserialize_with = "super::opt_strings")]
        v: Option<Vec<String>>,
        #[serde(default, deserialize_with = "super::string_map")]
        m: std::collections::BTreeMap<String, String>,
    }

    fn load(y: &str) -> Result<T, serde_yaml::Error> {
        serde_yaml::from_str(y)
    }

    #[derive(Deserialize, Debug)]
    struct Mode {
        #[serde(default, deserialize_with = "super::opt_file_mode")]
        mode: Option<i64>,
    }

    fn mode(y: &str) -> Result<Option<i64>, serde_yaml::Error> {
        serde_yaml::from_str::<Mode>(y).map(|m| m.mode)
    }

    #[test]
    fn file_modes_read_a_leading_zero_as_octal_as_kubernetes_does() {
        assert_eq!(mode("mode: 0644\n").unwrap(), Some(0o644));
        assert_eq!(mode("mode: 0o644\n").unwrap(), Some(0o644));
        assert_eq!(mode("mode: 420\n").unwrap(), Some(420));
        assert_eq!(mode("mode: 0\n").unwrap(), Some(0));
        assert_eq!(mode("mode: -1\n").unwrap(), Some(-1), "range is validation's business");
        assert_eq!(mode("mode: ~\n").unwrap(), None);
        for bad in ["mode: 0648\n", "mode: rw\n", "mode: 1.5\n", "mode: [1]\n"] {
            let e = mode(bad).unwrap_err();
            assert!(e.location().is_some(), "{bad}: {e}");
        }
    }

    #[test]
    fn strings_load() {
        let t = load("s: hello\nv: [a, 'b']\nm: {k: v}\n").unwrap();
        assert_eq!(t.s.as_deref(), Some("hello"));
        assert_eq!(t.v.unwrap(), vec!["a", "b"]);
        assert_eq!(t.m["k"], "v");
    }

    #[test]
    fn quoted_numbers_are_strings() {
        let t = load("s: '5'\nv: [\"8080\"]\nm: {k: 'true'}\n").unwrap();
        assert_eq!(t.s.as_deref(), Some("5"));
        assert_eq!(t.v.unwrap(), vec!["8080"]);
        assert_eq!(t.m["k"], "true");
    }

    #[test]
    fn null_is_absent() {
        let t = load("s: null\nv: ~\nm: null\n").unwrap();
        assert!(t.s.is_none() && t.v.is_none() && t.m.is_empty());
    }

    #[test]
    fn numbers_and_booleans_are_refused_with_location() {
        for y in ["s: 5\n", "v: [--port, 8080]\n", "m: {k: true}\n", "v: [a, null]\n"] {
            let e = load(y).unwrap_err();
            assert!(e.location().is_some(), "{y}: {e}");
            assert!(e.to_string().contains("invalid type"), "{y}: {e}");
        }
    }
}
