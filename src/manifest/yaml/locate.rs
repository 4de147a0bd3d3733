//! Where keys are in the text: the line and column of the last key of each trail, found in one
//! pass over a document's YAML, for the problems the schema walk finds on a `Value` (which
//! keeps no positions).
//!
//! serde_yaml gives a position only with an error, and gives it to every error raised while it
//! reads a scalar. So the walk raises one when it reads a key it looks for, takes the position
//! from that error, and reads on: the key's event is consumed by then, so the map goes on with
//! the key's value as if nothing had happened.

use std::cell::RefCell;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::trail::{Place, Step, Trail, Tree, NON_SCALAR_KEY};

/// What the key visitor raises to learn a key's place.
const FOUND: &str = "podrun: a key looked for";

/// The place of the last key of each of `trails` in `doc`, in order; none where the key is not
/// there (or sits behind a YAML tag, an alias used as a key, or a key that is a collection).
pub fn keys<'de, D: Deserializer<'de>>(doc: D, trails: &[Trail]) -> Vec<Option<Place>> {
    let mut tree = Tree::new();
    for (i, trail) in trails.iter().enumerate() {
        tree.insert(trail, i);
    }
    let out = RefCell::new(vec![None; trails.len()]);
    // A document that cannot be read to its end still gives what was found before.
    let _ = Seed { node: &tree, out: &out }.deserialize(doc);
    out.into_inner()
}

/// The place serde_yaml gives an error, from its `Debug` form (`Error("...", line: 6, column:
/// 31)`), which always shows it (its `Display` leaves out line 1, column 1). Not from
/// `serde_yaml::Error::location`: the walk catches the error inside serde's `Visitor` methods,
/// where its type is a generic `MapAccess`'s `A::Error`, which can be neither named nor
/// downcast (it need not be `'static`, and the crate has no unsafe code); letting it rise to
/// `keys`, where its type is known, would end the pass at each key found.
fn place_of(error: &impl fmt::Debug) -> Option<Place> {
    let text = format!("{error:?}");
    let rest = &text[text.rfind(", line: ")? + ", line: ".len()..];
    let (line, rest) = rest.split_once(", column: ")?;
    let column = rest.strip_suffix(')')?;
    Some(Place { line: line.parse().ok()?, column: column.parse().ok()? })
}

#[derive(Clone, Copy)]
struct Seed<'t> {
    node: &'t Tree<usize>,
    out: &'t RefCell<Vec<Option<Place>>>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for i in 0.. {
            let more = match self.node.child(&Step::Index(i)) {
                Some(child) => seq.next_element_seed(Seed { node: child, ..self })?.is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                break;
            }
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        loop {
            let hit = std::cell::Cell::new(None);
            match map.next_key_seed(KeySeed { node: self.node, hit: &hit }) {
                Ok(None) => return Ok(()),
                Ok(Some(Some(child))) => map.next_value_seed(Seed { node: child, ..self })?,
                Ok(Some(None)) => drop(map.next_value::<IgnoredAny>()?),
                Err(e) => match hit.get() {
                    Some(i) => {
                        if let Some(slot) = self.out.borrow_mut().get_mut(i) {
                            *slot = place_of(&e);
                        }
                        map.next_value::<IgnoredAny>()?;
                    }
                    None => return Err(e),
                },
            }
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        // A tagged value (`!foo {...}`): the schema walk looks through the tag, and so does this.
        let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}

/// Reads a key: the subtree below it (`Some(None)`: nothing below it is looked for), or the
/// error that places it when it is a key looked for.
struct KeySeed<'t, 'h> {
    node: &'t Tree<usize>,
    hit: &'h std::cell::Cell<Option<usize>>,
}

impl<'de, 't> DeserializeSeed<'de> for KeySeed<'t, '_> {
    type Value = Option<&'t Tree<usize>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'t> KeySeed<'t, '_> {
    fn step<E: de::Error>(&self, key: String) -> Result<Option<&'t Tree<usize>>, E> {
        let step = Step::Key(key);
        if let Some(&i) = self.node.mark(&step) {
            self.hit.set(Some(i));
            return Err(E::custom(FOUND));
        }
        Ok(self.node.child(&step))
    }
}

impl<'de, 't> Visitor<'de> for KeySeed<'t, '_> {
    type Value = Option<&'t Tree<usize>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.step(v.to_owned())
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.step(v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.step(v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.step(v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.step(serde_yaml::Number::from(v).to_string())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.step("null".to_owned())
    }

    // A collection as a key is read whole and never placed: raising an error inside it would
    // leave the collection half read.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.node.child(&Step::Key(NON_SCALAR_KEY.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(self.node.child(&Step::Key(NON_SCALAR_KEY.to_owned())))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
        variant.newtype_variant::<IgnoredAny>()?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::trail::of_prefix;

    fn at(text: &str, trails: &[&str]) -> Vec<Option<(usize, usize)>> {
        let trails: Vec<Trail> = trails.iter().map(|t| parse(t)).collect();
        keys(serde_yaml::Deserializer::from_str(text), &trails)
            .into_iter()
            .map(|p| p.map(|p| (p.line, p.column)))
            .collect()
    }

    /// `a.b[2].c` as steps.
    fn parse(path: &str) -> Trail {
        let mut steps = Vec::new();
        for part in path.split('.') {
            let mut pieces = part.split('[');
            steps.extend(of_prefix(pieces.next().unwrap_or_default()));
            for index in pieces {
                steps.push(Step::Index(index.trim_end_matches(']').parse().unwrap()));
            }
        }
        steps
    }

    #[test]
    fn keys_are_placed_in_block_and_flow_style_and_the_rest_is_read_on() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a, lables: {x: y}}\nspec:\n  containers:\n  \
                    - name: c\n    comand: [sh]\n    image: b\n  - {name: d, imagePullpolicy: Always}\n  nodeName: n\n";
        assert_eq!(
            at(
                text,
                &["metadata.lables", "spec.containers[0].comand", "spec.containers[1].imagePullpolicy", "spec.nope"]
            ),
            [Some((3, 21)), Some((7, 5)), Some((9, 15)), None]
        );
    }

    #[test]
    fn the_first_character_of_the_input_and_odd_keys_are_placed() {
        assert_eq!(at("\"\": x\nkind: Pod\n", &[""]), [None], "an empty trail names no key");
        let empty = vec![Step::Key(String::new())];
        let places = keys(serde_yaml::Deserializer::from_str("\"\": x\nkind: Pod\n"), &[empty]);
        assert_eq!(places, [Some(Place { line: 1, column: 1 })], "Display would not show 1:1");
        assert_eq!(
            at("a:\n  1: x\n  true: y\n  ~: z\n", &["a.1", "a.true", "a.null"]),
            [Some((2, 3)), Some((3, 3)), Some((4, 3))]
        );
    }

    #[test]
    fn tags_collections_as_keys_and_aliases_do_not_stop_the_walk() {
        let text = "x: &a {p: 1}\ny: *a\n? [k]\n: v\nz: !tag {q: 2}\nw: {r: 3}\n";
        assert_eq!(at(text, &["z.q", "w.r"]), [Some((5, 10)), Some((6, 5))]);
    }

    #[test]
    fn a_document_among_several_is_placed_in_the_whole_text() {
        let text = "kind: A\n---\nkind: B\nspec: {typo: 1}\n";
        let second = serde_yaml::Deserializer::from_str(text).nth(1).unwrap();
        assert_eq!(keys(second, &[parse("spec.typo")]), [Some(Place { line: 4, column: 8 })]);
    }
}
