//! Whether a typed parse skipped a value it had no field for: a `Deserializer` wrapper that only
//! raises a flag, for the loaders' fast path.
//!
//! Written by hand because `serde_ignored`, which names every skipped field by its path, copies
//! each map key into a new `String` to keep that path: on the 50 MB bundle of the UI benchmark
//! (1.5 million keys) its typed pass took 296 ms natively against 234 ms without it
//! (`cargo bench --bench bundle_load`). Most bundles have no unknown field, so the loaders parse
//! once with this flag and go through `serde_ignored` again only when it is raised, to name the
//! fields. Derived structs skip an unknown field's value through `deserialize_ignored_any`, the
//! one call this watches, exactly where `serde_ignored` reports it; `tests` holds the two to
//! each other on every example bundle, with unknown fields put in at every level.

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use std::cell::Cell;

/// Parses `T` from `de`; the flag is set if any value was skipped.
pub fn deserialize<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    de: D,
    skipped: &Cell<bool>,
) -> Result<T, D::Error> {
    T::deserialize(Watch { de, skipped })
}

/// `T` from the whole of `text` (nothing but white space after it), and whether a value was
/// skipped; None when the text does not parse as `T`.
pub fn from_str<'de, T: de::Deserialize<'de>>(text: &'de str) -> Option<(T, bool)> {
    let skipped = Cell::new(false);
    let mut json = serde_json::Deserializer::from_str(text);
    let value = deserialize(&mut json, &skipped).ok()?;
    json.end().ok()?;
    Some((value, skipped.get()))
}

struct Watch<'f, D> {
    de: D,
    skipped: &'f Cell<bool>,
}

struct Wrap<'f, X> {
    inner: X,
    skipped: &'f Cell<bool>,
}

impl<'f, X> Wrap<'f, X> {
    fn new(inner: X, skipped: &'f Cell<bool>) -> Self {
        Wrap { inner, skipped }
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.de.$method($($arg,)* Wrap::new(visitor, self.skipped))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Watch<'_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
        deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
        deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_seq(); deserialize_map();
        deserialize_identifier();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.skipped.set(true);
        self.de.deserialize_ignored_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! pass {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    pass! {
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64); visit_i128(i128);
        visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64); visit_u128(u128); visit_f32(f32);
        visit_f64(f64); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str); visit_string(String);
        visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, de: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_some(Watch { de, skipped: self.skipped })
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, de: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(Watch { de, skipped: self.skipped })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(Wrap::new(seq, self.skipped))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(Wrap::new(map, self.skipped))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(Wrap::new(data, self.skipped))
    }
}

/// A value's seed: the value is read through a `Watch`.
impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Wrap<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(Watch { de, skipped: self.skipped })
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Wrap<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.inner.next_element_seed(Wrap::new(seed, self.skipped))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// Keys are read as they are (a key names a field; only a value can be skipped).
impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Wrap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.inner.next_value_seed(Wrap::new(seed, self.skipped))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, 'f, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Wrap<'f, A> {
    type Error = A::Error;
    type Variant = Wrap<'f, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.inner.variant_seed(seed)?;
        Ok((value, Wrap::new(variant, self.skipped)))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Wrap<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.inner.newtype_variant_seed(Wrap::new(seed, self.skipped))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.inner.tuple_variant(len, Wrap::new(visitor, self.skipped))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.inner.struct_variant(fields, Wrap::new(visitor, self.skipped))
    }
}

#[cfg(test)]
mod tests;
