//! Generated inputs for the ingest worker's warm-up (`worker::warm`): a JTL in JMeter's default
//! layout and a bundle of transactions with histograms, small, but shaped like real files so that
//! every branch of the hot paths runs.

use std::fmt::Write;

/// Records of the warm-up file: enough for V8 to tier the hot functions up (about 3 MB).
pub const RECORDS: usize = 16_000;

/// A JTL in JMeter's default layout, with some quoted labels (commas inside) and some failures,
/// so that every branch of the hot path runs.
pub fn jtl() -> String {
    let mut s = String::with_capacity(RECORDS * 200);
    s.push_str("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n");
    for i in 0..RECORDS {
        let label = i % 23;
        let elapsed = 20 + (i * 7919) % 1400;
        let ok = i % 53 != 0;
        let _ = if label % 5 == 0 {
            write!(s, "{},{elapsed},\"GET /search?q=a,b&n={label}\",", 1_700_000_000_000u64 + i as u64 * 37)
        } else {
            write!(s, "{},{elapsed},GET /instances/{label},", 1_700_000_000_000u64 + i as u64 * 37)
        };
        let (code, msg) = if ok { ("200", "OK") } else { ("500", "Internal Server Error") };
        let _ = writeln!(
            s,
            "{code},{msg},Thread Group 1-{},text,{ok},,{},{},20,20,http://localhost:8080/instances/{label},{},0,{}",
            i % 20 + 1,
            900 + i % 4000,
            300 + i % 200,
            elapsed.saturating_sub(3),
            i % 4
        );
    }
    s
}

/// A bundle of two runs of transactions with histograms (about 0.5 MB), in the shape runlens
/// writes: the parse of a large bundle is one call, so its hot functions must be optimized
/// before it starts.
pub fn bundle() -> String {
    let mut s = String::with_capacity(600 << 10);
    s.push_str(r#"{"format":"runlens-bundle","version":1,"report":{"title":"warm-up"},"runs":["#);
    for r in 0..2 {
        let _ = write!(s, r#"{}{{"id":"r{r}","label":"run {r}","transactions":["#, if r > 0 { "," } else { "" });
        for i in 0..400 {
            let base = 50.0 + (i % 97) as f64 * 3.1;
            let _ = write!(
                s,
                r#"{}{{"name":"tx{i:04}","samples":{},"errors":{},"mean_ms":{base},"median_ms":{},"p90_ms":{},"p95_ms":{},"p99_ms":{},"min_ms":{},"max_ms":{},"throughput_per_s":12.5,"histogram":{{"upper_bounds_ms":["#,
                if i > 0 { "," } else { "" },
                1000 + i,
                i % 5,
                base * 0.9,
                base * 1.5,
                base * 1.8,
                base * 2.5,
                base * 0.2,
                base * 4.0
            );
            let bounds: Vec<String> =
                (0..32).map(|k| format!("{}", (base * 0.3 * 1.12f64.powi(k)).round() + f64::from(k))).collect();
            let counts: Vec<String> = (0..32).map(|k| format!("{}", 1 + (k * 7 + i) % 100)).collect();
            let _ = write!(s, r#"{}],"counts":[{}]}}}}"#, bounds.join(","), counts.join(","));
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_warm_up_inputs_import_as_what_they_stand_for() {
        let text = super::jtl();
        let imp = crate::import::import_sized("warm-up.jtl", text.as_bytes(), None, None, &mut |_, _| {}).unwrap();
        assert_eq!((imp.format, imp.records), (crate::import::Format::JmeterCsv, super::RECORDS as u64));
        assert_eq!(imp.bundle.runs[0].transactions.len(), 23);
        assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
        let text = super::bundle();
        let imp = crate::import::import_sized("warm-up.json", text.as_bytes(), None, None, &mut |_, _| {}).unwrap();
        assert_eq!(imp.format, crate::import::Format::Bundle);
        assert_eq!(imp.bundle.runs.iter().map(|r| r.transactions.len()).sum::<usize>(), 800);
        assert!(imp.bundle.runs[1].transactions[399].histogram.is_some());
        assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
    }
}
