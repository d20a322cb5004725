//! Byte sizes: integers in the model, accepted from bundles as integers or as the human sizes that
//! `_cat/indices` prints ("122.9gb", "832b", "15.5kb"; binary multiples, as OpenSearch uses).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A size in bytes. Serialized as an integer; deserialized from an integer or a human size string.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
pub struct ByteSize(pub u64);

const UNITS: &[(&str, u64)] = &[
    ("pb", 1 << 50),
    ("tb", 1 << 40),
    ("gb", 1 << 30),
    ("mb", 1 << 20),
    ("kb", 1 << 10),
    ("pib", 1 << 50),
    ("tib", 1 << 40),
    ("gib", 1 << 30),
    ("mib", 1 << 20),
    ("kib", 1 << 10),
    ("p", 1 << 50),
    ("t", 1 << 40),
    ("g", 1 << 30),
    ("m", 1 << 20),
    ("k", 1 << 10),
    ("b", 1),
];

/// Parses "122.9gb", "832b", "15.5 KiB", "1024" into bytes (binary multiples, rounded to the
/// nearest byte). Returns a message saying what is wrong otherwise.
pub fn parse_human_size(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err("empty size".into());
    }
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim();
    let value: f64 = crate::number::parse_f64(num).ok_or_else(|| format!("{text:?} does not start with a number"))?;
    let mult = if unit.is_empty() {
        1
    } else {
        UNITS
            .iter()
            .find(|(u, _)| *u == unit)
            .map(|(_, m)| *m)
            .ok_or_else(|| format!("{text:?} has an unknown unit {unit:?} (use b, kb, mb, gb, tb, pb)"))?
    };
    let bytes = (value * mult as f64).round();
    if !bytes.is_finite() || bytes > u64::MAX as f64 {
        return Err(format!("{text:?} is too large"));
    }
    Ok(bytes as u64)
}

impl Serialize for ByteSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ByteSize;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a byte count (integer) or a size such as \"122.9gb\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ByteSize, E> {
                Ok(ByteSize(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ByteSize, E> {
                u64::try_from(v).map(ByteSize).map_err(|_| E::custom("a byte size cannot be negative"))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ByteSize, E> {
                if v.is_finite() && v >= 0.0 {
                    Ok(ByteSize(v.round() as u64))
                } else {
                    Err(E::custom("a byte size cannot be negative"))
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ByteSize, E> {
                parse_human_size(v).map(ByteSize).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for ByteSize {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ByteSize".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Bytes: an integer, or a human size with binary multiples such as \"122.9gb\", \"832b\", \"15.5kb\" (written back as an integer).",
            "oneOf": [
                { "type": "integer", "minimum": 0 },
                { "type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]+)?\\s*([kKmMgGtTpP]?[iI]?[bB]?)\\s*$" }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cat_indices_sizes() {
        assert_eq!(parse_human_size("832b").unwrap(), 832);
        assert_eq!(parse_human_size("15.5kb").unwrap(), 15872);
        assert_eq!(parse_human_size("233.1mb").unwrap(), 244_423_066);
        assert_eq!(parse_human_size("122.9gb").unwrap(), 131_962_870_170);
        assert_eq!(parse_human_size("1 GiB").unwrap(), 1 << 30);
        assert_eq!(parse_human_size("1024").unwrap(), 1024);
    }

    #[test]
    fn rejects_garbage_sizes() {
        assert!(parse_human_size("").is_err());
        assert!(parse_human_size("gb").unwrap_err().contains("number"));
        assert!(parse_human_size("12 parsecs").unwrap_err().contains("unknown unit"));
    }

    #[test]
    fn deserializes_numbers_and_strings() {
        let v: Vec<ByteSize> = serde_json::from_str(r#"[832, "2.4kb", 1.6]"#).unwrap();
        assert_eq!(v, vec![ByteSize(832), ByteSize(2458), ByteSize(2)]);
        assert!(serde_json::from_str::<ByteSize>("-1").is_err());
        assert_eq!(serde_json::to_string(&ByteSize(5)).unwrap(), "5");
    }
}
