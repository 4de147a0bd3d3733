//! A deserializer that leaves out the keys a tree of trails names, as if they were not in the
//! document: what `--validate=warn|ignore` drops (fields unknown to the schema), as the
//! kubelet's file source drops them. It wraps serde_yaml's own deserializer, so everything
//! else it reads keeps its line and column in errors.
//!
//! Dropping has to happen here, not by serde ignoring what it does not know: a volume keeps
//! the sources podrun lacks in a flattened map (an unknown `empty-dir` would land there as a
//! source), and serde reads an integer key as a field's index (`0: x` would set the first
//! field).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_yaml::Value;

use super::trail::{key_text, Step, Tree};

/// `inner` without the keys `drop` marks (and with everything below the others as it is).
pub struct Pruned<'t, D> {
    inner: D,
    drop: &'t Tree<()>,
}

impl<'t, D> Pruned<'t, D> {
    pub fn new(inner: D, drop: &'t Tree<()>) -> Self {
        Pruned { inner, drop }
    }
}

/// Reads a `T` from `d` without the keys `drop` marks.
pub fn read<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(d: D, drop: &Tree<()>) -> Result<T, D::Error> {
    if drop.is_empty() {
        T::deserialize(d)
    } else {
        T::deserialize(Pruned::new(d, drop))
    }
}

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.inner.$method(Wrap { inner: visitor, drop: self.drop })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Pruned<'_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq
        deserialize_map deserialize_identifier
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.inner.deserialize_ignored_any(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_unit_struct(name, Wrap { inner: visitor, drop: self.drop })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(name, Wrap { inner: visitor, drop: self.drop })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple(len, Wrap { inner: visitor, drop: self.drop })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple_struct(name, len, Wrap { inner: visitor, drop: self.drop })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(name, fields, Wrap { inner: visitor, drop: self.drop })
    }

    // The schema walk finds no unknown keys inside an enum's value (podrun's enums are strings).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A visitor whose maps and lists (and what they hold) are pruned.
struct Wrap<'t, V> {
    inner: V,
    drop: &'t Tree<()>,
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64) visit_i128(i128)
        visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64) visit_u128(u128) visit_f32(f32)
        visit_f64(f64) visit_char(char) visit_str(&str) visit_borrowed_str(&'de str) visit_string(String)
        visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Pruned::new(d, self.drop))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Pruned::new(d, self.drop))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(Seq { inner: seq, drop: self.drop, index: 0 })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(Map { inner: map, drop: self.drop, below: None })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(data)
    }
}

/// A seed whose value is read pruned by `drop`.
struct Seeded<'t, S> {
    inner: S,
    drop: &'t Tree<()>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seeded<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(Pruned::new(d, self.drop))
    }
}

struct Seq<'t, A> {
    inner: A,
    drop: &'t Tree<()>,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let step = Step::Index(self.index);
        self.index += 1;
        match self.drop.child(&step) {
            Some(below) => self.inner.next_element_seed(Seeded { inner: seed, drop: below }),
            None => self.inner.next_element_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct Map<'t, A> {
    inner: A,
    drop: &'t Tree<()>,
    /// What to prune below the key just read.
    below: Option<&'t Tree<()>>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        // Each key is read as a value first, to know whether it goes; the one kept is handed
        // on as read.
        while let Some(key) = self.inner.next_key::<Value>()? {
            let step = Step::Key(key_text(&key));
            if self.drop.mark(&step).is_some() {
                self.inner.next_value::<IgnoredAny>()?;
                continue;
            }
            self.below = self.drop.child(&step);
            return seed.deserialize(key).map(Some).map_err(de::Error::custom);
        }
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.below.take() {
            Some(below) => self.inner.next_value_seed(Seeded { inner: seed, drop: below }),
            None => self.inner.next_value_seed(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::Pod;
    use crate::manifest::yaml::trail::Trail;

    fn drop_tree(trails: &[Trail]) -> Tree<()> {
        let mut tree = Tree::new();
        for t in trails {
            tree.insert(t, ());
        }
        tree
    }

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    #[test]
    fn dropped_keys_are_gone_and_the_rest_is_read_as_written() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a, 0: x}\nspec:\n  containers:\n  \
                    - {name: c, image: b, comand: [sh]}\n  volumes:\n  - {name: v, empty-dir: {}}\n";
        let drop = drop_tree(&[
            vec![key("metadata"), key("0")],
            vec![key("spec"), key("containers"), Step::Index(0), key("comand")],
            vec![key("spec"), key("volumes"), Step::Index(0), key("empty-dir")],
        ]);
        let pod: Pod = read(serde_yaml::Deserializer::from_str(text), &drop).unwrap();
        assert_eq!(pod.metadata.name, "a", "not overwritten by the key 0, read as field 0");
        assert_eq!(pod.spec.containers[0].image, "b");
        assert!(pod.spec.volumes[0].other_sources.is_empty(), "{:?}", pod.spec.volumes[0]);

        let unpruned: Pod = serde_yaml::from_str(text).unwrap();
        assert!(unpruned.spec.volumes[0].other_sources.contains_key("empty-dir"), "why pruning is needed");
    }

    #[test]
    fn errors_elsewhere_keep_their_place() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a, typo: 1}\nspec:\n  containers:\n  \
                    - {name: c, image: 5}\n";
        let drop = drop_tree(&[vec![key("metadata"), key("typo")]]);
        let e = read::<Pod, _>(serde_yaml::Deserializer::from_str(text), &drop).unwrap_err();
        let at = e.location().expect("a place");
        assert_eq!((at.line(), at.column()), (6, 22), "{e}");
    }
}
