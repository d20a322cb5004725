//! Reading a histogram's lists into room for 64 numbers, trimmed after, instead of growing them
//! from 4 through 8, 16 and 32: a 50 MB bundle holds 200,000 such lists, and the growing cost
//! three allocations and copies each (JSON says nothing of a list's length up front). And, from the
//! worker's binary (`wire`), a tenant's transactions into room for all of them at once and maps
//! without a sort.

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

/// borsh's `deserialize_with` for a tenant's transactions: what borsh's own `Vec` reads (a `u32`
/// count, then each one), into room for the count at once. borsh's `Vec` starts with room for
/// 4 KiB (15 transactions) and doubles it, so 2,000 would be copied eight times on the page and
/// take twice their memory (a run's own travel in `wire`'s flat binary). A damaged count gets
/// room for at most 65,536 (18 MB) and fails where the data ends.
pub(crate) fn transactions<R: std::io::Read>(r: &mut R) -> std::io::Result<Vec<super::Transaction>> {
    use borsh::BorshDeserialize;
    let n = u32::deserialize_reader(r)?;
    let mut out = Vec::with_capacity((n as usize).min(1 << 16));
    for _ in 0..n {
        out.push(super::Transaction::deserialize_reader(r)?);
    }
    Ok(out)
}

/// borsh's `deserialize_with` for a map of text keys: a `u32` count, then each pair, inserted one by
/// one. borsh's own reader collects the pairs into the map, which sorts them first: a copy of the
/// standard library's stable sort per map type on the page (3.8 KB each before wasm-opt), where
/// `insert` is there anyway. A damaged count fails where the data ends.
pub(crate) fn map<R: std::io::Read, V: borsh::BorshDeserialize>(
    r: &mut R,
) -> std::io::Result<std::collections::BTreeMap<String, V>> {
    use borsh::BorshDeserialize;
    let n = u32::deserialize_reader(r)?;
    let mut out = std::collections::BTreeMap::new();
    for _ in 0..n {
        let k = String::deserialize_reader(r)?;
        out.insert(k, V::deserialize_reader(r)?);
    }
    Ok(out)
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
