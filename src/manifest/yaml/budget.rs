//! Reading a YAML document into a generic value with a bound on the values aliases may make.
//!
//! An alias repeats its anchor's value, so a few lines (`a: &a [x, x]`, `b: &b [*a, *a]`, ...)
//! can stand for billions of values, which serde_yaml would build one by one until memory ran
//! out. Kubernetes' YAML reader (go-yaml) refuses "excessive aliasing" past about 400,000
//! values made by aliases; this reader allows every value written in the text (at most about
//! two per byte) plus [`ALIAS_ALLOWANCE`], so the work stays proportional to the input, and
//! refuses more with the place it happened.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_yaml::mapping::Entry;
use serde_yaml::value::{Tag, TaggedValue};
use serde_yaml::{Mapping, Number, Value};

use super::trail::quoted_key_text;

/// Values beyond those written out that aliases may add to one input, as go-yaml allows.
pub const ALIAS_ALLOWANCE: usize = 400_000;

/// What the error says; `load/error.rs` recognises it to add the allowance to the message.
pub const TOO_MANY: &str = "aliases repeat values beyond what the text holds";

/// The values `text` may be read into: two per byte (`[a,a]` is the densest YAML writes)
/// plus the allowance.
pub fn for_text(text: &str) -> usize {
    text.len().saturating_mul(2).saturating_add(ALIAS_ALLOWANCE)
}

/// Reads one value, counting it and everything in it against `left`.
pub struct Budgeted<'a> {
    pub left: &'a mut usize,
}

impl Budgeted<'_> {
    fn spend<E: de::Error>(&mut self) -> Result<(), E> {
        match self.left.checked_sub(1) {
            Some(left) => {
                *self.left = left;
                Ok(())
            }
            None => Err(E::custom(TOO_MANY)),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Budgeted<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Budgeted<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(mut self, b: bool) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(mut self, i: i64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E: de::Error>(mut self, u: u64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(u.into()))
    }

    /// Integers past 64 bits: a float, as go-yaml reads them.
    fn visit_i128<E: de::Error>(mut self, i: i128) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(Number::from(i as f64)))
    }

    fn visit_u128<E: de::Error>(mut self, u: u128) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(Number::from(u as f64)))
    }

    fn visit_f64<E: de::Error>(mut self, f: f64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E: de::Error>(mut self, s: &str) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(mut self, s: String) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(mut self) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(mut self) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut out = Vec::new();
        while let Some(item) = seq.next_element_seed(Budgeted { left: &mut *self.left })? {
            out.push(item);
        }
        Ok(Value::Sequence(out))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut out = Mapping::new();
        while let Some(key) = map.next_key_seed(Budgeted { left: &mut *self.left })? {
            match out.entry(key) {
                Entry::Occupied(e) => {
                    return Err(de::Error::custom(format!("duplicate entry with key {}", quoted_key_text(e.key()))));
                }
                Entry::Vacant(e) => {
                    e.insert(map.next_value_seed(Budgeted { left: &mut *self.left })?);
                }
            }
        }
        Ok(Value::Mapping(out))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, contents) = data.variant::<String>()?;
        if tag.is_empty() {
            return Err(de::Error::custom("empty YAML tag is not allowed"));
        }
        let value = contents.newtype_variant_seed(self)?;
        Ok(Value::Tagged(Box::new(TaggedValue { tag: Tag::new(tag), value })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, mut left: usize) -> Result<Value, serde_yaml::Error> {
        Budgeted { left: &mut left }.deserialize(serde_yaml::Deserializer::from_str(text))
    }

    #[test]
    fn reads_what_serde_yaml_reads() {
        for text in ["a: [1, -2, 3.5, x, null, true, !t {b: c}]\n", "x\n", "{? [a]: b}\n"] {
            let plain: Value = serde_yaml::from_str(text).unwrap();
            assert_eq!(plain, read(text, 1000).unwrap(), "{text}");
        }
        // serde_yaml's own Value refuses these; go-yaml reads a float.
        assert_eq!(read("- 18446744073709551616\n", 10).unwrap()[0].as_f64(), Some(18446744073709551616.0));
        assert!(read("{a: 1, a: 2}", 100).unwrap_err().to_string().contains("duplicate entry with key \"a\""));
        let collection = read("{? [a]: 1, ? [a]: 2}", 100).unwrap_err().to_string();
        assert!(collection.contains("duplicate entry with key <non-scalar key>"), "{collection}");
    }

    #[test]
    fn alias_bombs_run_out_with_a_place() {
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (name, prev) in ["b", "c", "d", "e", "f", "g"].iter().zip(["a", "b", "c", "d", "e", "f"]) {
            bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 10].join(", ")));
        }
        // serde_yaml's own repetition limit stops this one first (see load/error.rs); a smaller
        // budget shows this one's.
        assert!(read(&bomb, for_text(&bomb)).is_err());
        let e = read(&bomb, 1000).unwrap_err();
        assert!(e.to_string().contains(TOO_MANY), "{e}");
        assert!(e.location().is_some(), "{e}");
    }
}
