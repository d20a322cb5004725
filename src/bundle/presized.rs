//! Reading a histogram's lists into room for 64 numbers, trimmed after, instead of growing them
//! from 4 through 8, 16 and 32: a 50 MB bundle holds 200,000 such lists, and the growing cost
//! three allocations and copies each (JSON says nothing of a list's length up front).

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// `deserialize_with` for a `Vec` of numbers; reads what serde's own `Vec` reads, with its message.
pub(crate) fn numbers<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Numbers<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Numbers<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(64).min(4096));
            while let Some(x) = seq.next_element()? {
                out.push(x);
            }
            // Gives back the room not used, in place.
            out.shrink_to_fit();
            Ok(out)
        }
    }
    d.deserialize_seq(Numbers(PhantomData))
}

#[cfg(test)]
mod tests {
    use crate::bundle::Histogram;

    #[test]
    fn reads_lists_of_any_length_exactly_and_trims_them() {
        for n in [0usize, 1, 63, 64, 65, 1000] {
            let bounds: Vec<f64> = (0..n).map(|i| i as f64 + 0.5).collect();
            let counts: Vec<u64> = (0..n as u64).collect();
            let text = serde_json::json!({"upper_bounds_ms": bounds, "counts": counts}).to_string();
            let h: Histogram = serde_json::from_str(&text).unwrap();
            assert_eq!((h.upper_bounds_ms, h.counts.clone()), (bounds, counts));
            assert_eq!(h.counts.capacity(), n, "no room is kept beyond the list");
        }
        let e = serde_json::from_str::<Histogram>(r#"{"upper_bounds_ms": 3, "counts": []}"#).unwrap_err();
        assert!(e.to_string().contains("expected a sequence"), "{e}");
        assert!(serde_json::from_str::<Histogram>(r#"{"upper_bounds_ms": [1, "x"], "counts": []}"#).is_err());
    }
}
