//! Ties the schema table to the serde types: every field the table marks implemented is a field
//! of the type podrun reads it into, and every field of those types is a Kubernetes field the
//! table knows. The types' fields are read from their own `Deserialize` impls, through a
//! deserializer that follows one path of keys and records what the type asks for at its end
//! (`deserialize_struct` hands over the struct's field names), so no list is kept by hand.

use std::any::type_name;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::de::value::{Error, StrDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::field::{Field, Shape, Support};
use super::table::{CONFIG_MAP, POD, SECRET, VOLUME};
use crate::manifest::types::{ConfigMap, Pod, Secret};

/// What a type asks the deserializer for at a path.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    /// A struct with these (serde) field names.
    Struct(&'static [&'static str]),
    /// A map: a `BTreeMap`, or a struct with a `#[serde(flatten)]` field, whose field names
    /// serde does not hand over.
    Map,
    /// Anything else, by the visitor's type (a scalar, an enum, a `serde_yaml::Value`, or a
    /// flattened struct's catch-all buffer).
    Leaf(&'static str),
}

/// A deserializer that walks `path` (one key per struct or map; lists are stepped into
/// without a key) and records what is asked for at its end, then fails to stop the walk.
struct Probe<'a> {
    path: &'a [&'a str],
    found: &'a RefCell<Option<Node>>,
}

impl Probe<'_> {
    fn record<T>(&self, node: Node) -> Result<T, Error> {
        *self.found.borrow_mut() = Some(node);
        Err(de::Error::custom("recorded"))
    }
}

/// A map holding one entry: `key`, whose value is walked on.
struct OneEntry<'a> {
    key: Option<&'a str>,
    value: Option<Probe<'a>>,
}

impl<'de> MapAccess<'de> for OneEntry<'_> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.key.take() {
            Some(key) => seed.deserialize(StrDeserializer::<Error>::new(key)).map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(probe) => seed.deserialize(probe),
            None => Err(de::Error::custom("no value")),
        }
    }
}

/// A list holding one element, walked on.
struct OneElement<'a>(Option<Probe<'a>>);

impl<'de> SeqAccess<'de> for OneElement<'_> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        match self.0.take() {
            Some(probe) => seed.deserialize(probe).map(Some),
            None => Ok(None),
        }
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        self.record(Node::Leaf(type_name::<V>()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.path.split_first() {
            None => self.record(Node::Struct(fields)),
            Some((key, rest)) => {
                visitor.visit_map(OneEntry { key: Some(key), value: Some(Probe { path: rest, found: self.found }) })
            }
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.path.split_first() {
            None => self.record(Node::Map),
            Some((key, rest)) => {
                visitor.visit_map(OneEntry { key: Some(key), value: Some(Probe { path: rest, found: self.found }) })
            }
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(OneElement(Some(self)))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Error> {
        self.record(Node::Leaf(type_name::<V>()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct tuple tuple_struct identifier ignored_any
    }
}

/// What `T` asks for at `path`.
fn node_at<T: for<'de> Deserialize<'de>>(path: &[&str]) -> Option<Node> {
    let found = RefCell::new(None);
    let _ = T::deserialize(Probe { path, found: &found });
    found.into_inner()
}

/// The names of the fields `T` types at `path`, for a struct with a flattened catch-all: a
/// key the catch-all takes is buffered as serde's private `Content`, a typed field is not.
fn typed_keys<T: for<'de> Deserialize<'de>>(path: &[&str], candidates: &[Field]) -> BTreeSet<&'static str> {
    candidates
        .iter()
        .filter(|f| {
            let mut p = path.to_vec();
            p.push(f.name);
            !matches!(node_at::<T>(&p), Some(Node::Leaf(v)) if v.contains("Content"))
        })
        .map(|f| f.name)
        .collect()
}

/// Fields schema.rs marks implemented that are read before the document is typed, so no serde
/// type holds them: (path, why).
const READ_ELSEWHERE: &[(&str, &str)] = &[
    ("ConfigMap.apiVersion", "documents.rs sorts documents by apiVersion and kind"),
    ("ConfigMap.kind", "documents.rs sorts documents by apiVersion and kind"),
    ("Secret.apiVersion", "documents.rs sorts documents by apiVersion and kind"),
    ("Secret.kind", "documents.rs sorts documents by apiVersion and kind"),
];

/// Compares the table at `path` with the type there, and walks on into object fields both have.
fn compare<T: for<'de> Deserialize<'de>>(root: &str, path: &mut Vec<&'static str>, table: &[Field], out: &mut String) {
    let at = |path: &[&str]| format!("{root}{}{}", if path.is_empty() { "" } else { "." }, path.join("."));
    let serde_fields: BTreeSet<&'static str> = match node_at::<T>(path) {
        Some(Node::Struct(fields)) => fields.iter().copied().collect(),
        Some(Node::Map) => typed_keys::<T>(path, table),
        other => {
            let _ = writeln!(out, "{}: the schema has an object, the serde type reads {other:?}", at(path));
            return;
        }
    };
    for field in table {
        let known = serde_fields.contains(field.name);
        let here = format!("{}.{}", at(path), field.name);
        if field.support == Support::Implemented && !known && !READ_ELSEWHERE.iter().any(|(p, _)| *p == here) {
            let _ = writeln!(out, "{here}: implemented in schema.rs, not a field of the serde type");
        }
        if !known {
            continue;
        }
        if let Shape::Object(inner) | Shape::Objects(inner) = field.shape {
            path.push(field.name);
            match node_at::<T>(path) {
                Some(Node::Struct(_) | Node::Map) => compare::<T>(root, path, inner, out),
                // Kept as written (a serde_yaml::Value) for validation to refuse.
                Some(Node::Leaf(v)) if v.contains("serde_norway") && field.support != Support::Implemented => {}
                other => {
                    let _ = writeln!(out, "{here}: the schema has an object, the serde type reads {other:?}");
                }
            }
            path.pop();
        }
    }
    for name in &serde_fields {
        let here = format!("{}.{name}", at(path));
        if !table.iter().any(|f| f.name == *name) {
            let _ = writeln!(out, "{here}: a field of the serde type, unknown to schema.rs");
        }
    }
}

#[test]
fn schema_and_serde_types_agree_on_fields() {
    let mut out = String::new();
    compare::<Pod>("Pod", &mut Vec::new(), POD, &mut out);
    compare::<ConfigMap>("ConfigMap", &mut Vec::new(), CONFIG_MAP, &mut out);
    compare::<Secret>("Secret", &mut Vec::new(), SECRET, &mut out);
    assert!(out.is_empty(), "schema.rs and manifest/types disagree:\n{out}");
}

/// The probe itself: it must see a struct's fields, a nested struct through Option and Vec,
/// and tell a flattened catch-all's keys from typed ones, or the test above proves nothing.
#[test]
fn the_probe_sees_fields_through_options_lists_and_flatten() {
    let Some(Node::Struct(fields)) = node_at::<Pod>(&[]) else { panic!("Pod is a struct") };
    assert!(fields.contains(&"spec") && fields.contains(&"metadata"));
    let Some(Node::Struct(fields)) = node_at::<Pod>(&["spec", "containers", "livenessProbe", "httpGet"]) else {
        panic!("httpGet is a struct")
    };
    assert!(fields.contains(&"httpHeaders"), "{fields:?}");
    assert_eq!(node_at::<Pod>(&["spec", "volumes"]), Some(Node::Map), "Volume has a flattened field");
    let keys = typed_keys::<Pod>(&["spec", "volumes"], VOLUME);
    assert!(keys.contains("configMap") && keys.contains("name"), "{keys:?}");
    assert!(!keys.contains("nfs"), "nfs goes to the catch-all: {keys:?}");
}
