//! A run's transactions as the ingest worker hands them to the page: a flat little-endian binary
//! the page reads in one pass, with no tree and no field names (a big bundle is mostly
//! transactions and their histograms; read through `serde_json::Value` they cost the page about
//! 30 ms per 2,000, as one long task per run).
//!
//! Written by hand rather than with a serde binary format: bincode and postcard need every field
//! present, and the bundle types skip absent ones (`skip_serializing_if`), so they would misread;
//! a serde format would also compile the bundle types' derived code a second time into the page.
//!
//! Layout: `u32` count, then per transaction its name, a `u16` mask of the fields present (bit i
//! for field i of `FIELDS` order: samples, errors, mean, median, p90, p95, p99, min, max,
//! throughput, run throughput, bytes received, bytes sent, percentiles, histogram, note), then
//! those fields in that order: integers as `u64`, numbers as `f64`, percentiles as a `u32` count
//! of (name, `f64`), a histogram as a `u32` count of bounds (`f64`) and a `u32` count of counts
//! (`u64`), strings as a `u32` byte length and UTF-8.

use crate::bundle::{Histogram, Transaction};

/// Appends the encoding of `txs` to `out`.
pub fn encode(txs: &[Transaction], out: &mut Vec<u8>) {
    let u32_of = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let str_to = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&u32_of(s.len()).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    out.extend_from_slice(&u32_of(txs.len()).to_le_bytes());
    for t in txs {
        // Every field by name, no `..`: a field added to `Transaction` fails to compile here
        // until the wire carries it.
        let Transaction {
            name,
            samples,
            errors,
            mean_ms,
            median_ms,
            p90_ms,
            p95_ms,
            p99_ms,
            min_ms,
            max_ms,
            throughput_per_s,
            throughput_run_per_s,
            bytes_received,
            bytes_sent,
            percentiles,
            histogram,
            note,
        } = t;
        str_to(out, name);
        let ints = [*samples, *errors];
        let nums = [
            *mean_ms,
            *median_ms,
            *p90_ms,
            *p95_ms,
            *p99_ms,
            *min_ms,
            *max_ms,
            *throughput_per_s,
            *throughput_run_per_s,
        ];
        let bytes = [*bytes_received, *bytes_sent];
        let mut mask = 0u16;
        let mut bit = 0;
        let mut flag = |present: bool| {
            if present {
                mask |= 1 << bit;
            }
            bit += 1;
        };
        ints.iter().for_each(|v| flag(v.is_some()));
        nums.iter().for_each(|v| flag(v.is_some()));
        bytes.iter().for_each(|v| flag(v.is_some()));
        flag(!percentiles.is_empty());
        flag(histogram.is_some());
        flag(note.is_some());
        out.extend_from_slice(&mask.to_le_bytes());
        ints.iter().flatten().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        nums.iter().flatten().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        bytes.iter().flatten().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        if !percentiles.is_empty() {
            out.extend_from_slice(&u32_of(percentiles.len()).to_le_bytes());
            for (k, v) in percentiles {
                str_to(out, k);
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        if let Some(h) = histogram {
            out.extend_from_slice(&u32_of(h.upper_bounds_ms.len()).to_le_bytes());
            h.upper_bounds_ms.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            out.extend_from_slice(&u32_of(h.counts.len()).to_le_bytes());
            h.counts.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        if let Some(n) = note {
            str_to(out, n);
        }
    }
}

/// Reads what `encode` wrote, from the start of `bytes`. Errors say what was wrong and where
/// (`transactions[i]`). A number that is not finite reads as missing where a field is optional
/// and fails in a histogram, as it would through the page's JSON data model.
pub fn decode(bytes: &[u8]) -> Result<Vec<Transaction>, String> {
    let mut r = Reader { bytes, at: 0 };
    let n = r.u32()? as usize;
    // Each transaction takes at least 6 bytes: a count beyond that is a damaged answer.
    if n > bytes.len() / 6 {
        return Err(format!("{n} transactions announced in {} bytes", bytes.len()));
    }
    let mut txs = Vec::with_capacity(n);
    for i in 0..n {
        txs.push(r.transaction().map_err(|e| format!("{e} at transactions[{i}]"))?);
    }
    Ok(txs)
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let b = self
            .bytes
            .get(self.at..self.at + N)
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or("the data ends early")?;
        self.at += N;
        Ok(b)
    }
    fn u16(&mut self) -> Result<u16, String> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, String> {
        self.take().map(u64::from_le_bytes)
    }
    fn f64(&mut self) -> Result<f64, String> {
        self.take().map(f64::from_le_bytes)
    }
    fn string(&mut self) -> Result<String, String> {
        let len = self.u32()? as usize;
        let s = self.bytes.get(self.at..self.at.saturating_add(len)).ok_or("the data ends early")?;
        self.at += len;
        String::from_utf8(s.to_vec()).map_err(|_| "a name that is not UTF-8".to_string())
    }
    /// A count of items of at least `size` bytes each, checked against what is left.
    fn count(&mut self, size: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.bytes.len() - self.at {
            return Err("the data ends early".into());
        }
        Ok(n)
    }

    /// A counted list of 8-byte words, as an exact-size iterator: the page reads 100,000s of
    /// histograms, and collecting through a `Result` per item grew each vector four times.
    fn words(&mut self) -> Result<impl ExactSizeIterator<Item = [u8; 8]> + 'b, String> {
        let n = self.count(8)?;
        let bytes: &'b [u8] = self.bytes.get(self.at..self.at + n * 8).ok_or("the data ends early")?;
        self.at += n * 8;
        Ok(bytes.chunks_exact(8).map(|w| <[u8; 8]>::try_from(w).unwrap_or_default()))
    }

    fn transaction(&mut self) -> Result<Transaction, String> {
        let mut t = Transaction { name: self.string()?, ..Default::default() };
        let mask = self.u16()?;
        let mut bit = 0;
        let mut has = || {
            bit += 1;
            mask & (1 << (bit - 1)) != 0
        };
        let (samples, errors) = (has(), has());
        let nums: [bool; 9] = std::array::from_fn(|_| has());
        let (received, sent, percentiles, histogram, note) = (has(), has(), has(), has(), has());
        if samples {
            t.samples = Some(self.u64()?);
        }
        if errors {
            t.errors = Some(self.u64()?);
        }
        let mut values = [None; 9];
        for (v, present) in values.iter_mut().zip(nums) {
            if present {
                *v = Some(self.f64()?).filter(|x| x.is_finite());
            }
        }
        [
            t.mean_ms,
            t.median_ms,
            t.p90_ms,
            t.p95_ms,
            t.p99_ms,
            t.min_ms,
            t.max_ms,
            t.throughput_per_s,
            t.throughput_run_per_s,
        ] = values;
        if received {
            t.bytes_received = Some(self.u64()?);
        }
        if sent {
            t.bytes_sent = Some(self.u64()?);
        }
        if percentiles {
            for _ in 0..self.count(12)? {
                let k = self.string()?;
                if let Some(v) = Some(self.f64()?).filter(|x| x.is_finite()) {
                    t.percentiles.insert(k, v);
                }
            }
        }
        if histogram {
            let bounds: Vec<f64> = self.words()?.map(f64::from_le_bytes).collect();
            if bounds.iter().any(|b| !b.is_finite()) {
                return Err("a histogram bound that is not a finite number".into());
            }
            let counts: Vec<u64> = self.words()?.map(u64::from_le_bytes).collect();
            t.histogram = Some(Histogram { upper_bounds_ms: bounds, counts });
        }
        if note {
            t.note = Some(self.string()?);
        }
        Ok(t)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A transaction with every field present (`wire`'s tests use it too).
    pub(crate) fn full() -> Transaction {
        Transaction {
            name: "GET /items, \"quoted\" · ünïcode".into(),
            samples: Some(u64::MAX),
            errors: Some(0),
            mean_ms: Some(1.5),
            median_ms: Some(0.1 + 0.2),
            p90_ms: Some(3.0),
            p95_ms: Some(4.0),
            p99_ms: Some(5.0),
            min_ms: Some(-0.0),
            max_ms: Some(1e300),
            throughput_per_s: Some(12.5),
            throughput_run_per_s: Some(11.0),
            bytes_received: Some(1 << 40),
            bytes_sent: Some(7),
            percentiles: [("p75".to_string(), 2.5), ("p99.9".to_string(), 9.0)].into_iter().collect(),
            histogram: Some(Histogram { upper_bounds_ms: vec![1.0, 2.0, 5.5], counts: vec![3, 0, 1] }),
            note: Some("approximate".into()),
        }
    }

    /// `full()`, an empty one, each field absent in turn, and a histogram whose lengths differ (a
    /// malformed bundle is carried as it is; the analysis refuses it later).
    pub(crate) fn variants() -> Vec<Transaction> {
        let mut txs = vec![full(), Transaction { name: String::new(), ..Default::default() }];
        for i in 0..16 {
            let mut t = full();
            match i {
                0 => t.samples = None,
                1 => t.errors = None,
                2 => t.mean_ms = None,
                3 => t.median_ms = None,
                4 => t.p90_ms = None,
                5 => t.p95_ms = None,
                6 => t.p99_ms = None,
                7 => t.min_ms = None,
                8 => t.max_ms = None,
                9 => t.throughput_per_s = None,
                10 => t.throughput_run_per_s = None,
                11 => t.bytes_received = None,
                12 => t.bytes_sent = None,
                13 => t.percentiles.clear(),
                14 => t.histogram = Some(Histogram { upper_bounds_ms: vec![1.0], counts: vec![] }),
                _ => t.note = None,
            }
            txs.push(t);
        }
        txs
    }

    #[test]
    fn every_field_and_every_absence_round_trips() {
        let txs = variants();
        let mut bytes = Vec::new();
        encode(&txs, &mut bytes);
        let back = decode(&bytes).unwrap();
        assert_eq!(back.len(), txs.len());
        for (a, b) in back.iter().zip(&txs) {
            assert_eq!(a, b);
            assert_eq!(a.min_ms.map(f64::to_bits), b.min_ms.map(f64::to_bits), "bit for bit (−0 stays −0)");
        }
    }

    #[test]
    fn truncated_or_damaged_data_is_an_error_never_a_panic() {
        let mut bytes = Vec::new();
        encode(&[full(), full()], &mut bytes);
        for cut in 0..bytes.len() {
            let e = decode(&bytes[..cut]).unwrap_err();
            assert!(e.contains("ends early") || e.contains("announced"), "cut at {cut}: {e}");
        }
        // Every byte flipped in turn: an error or some transactions, never a panic.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            let _ = decode(&b);
        }
        let mut nan = full();
        nan.p95_ms = Some(f64::NAN);
        nan.percentiles.insert("p50".into(), f64::INFINITY);
        let mut bytes = Vec::new();
        encode(&[nan], &mut bytes);
        let t = &decode(&bytes).unwrap()[0];
        assert_eq!((t.p95_ms, t.percentiles.get("p50")), (None, None), "not finite reads as missing");
        let mut bad = full();
        bad.histogram = Some(Histogram { upper_bounds_ms: vec![f64::NAN], counts: vec![1] });
        let mut bytes = Vec::new();
        encode(&[full(), bad], &mut bytes);
        assert_eq!(decode(&bytes).unwrap_err(), "a histogram bound that is not a finite number at transactions[1]");
    }
}
