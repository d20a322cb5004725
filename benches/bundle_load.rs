//! Benchmark of loading a big bundle natively: the 50 MB bundle of the UI benchmark (50 runs ×
//! 2,000 transactions, each with a 32-bucket histogram: `support::bundle::numbered(50, 2000, 32)`),
//! through `bundle::load_bundle` (one pass), and cut by `bundle::split` (the scan alone, then the
//! groups parsed on 2 threads, as the ingest workers parse them); then one run of it through the
//! worker's answer to the page (`wire`: the run in borsh, its transactions in the flat binary of
//! `wire/transactions.rs`) beside its transactions in borsh, the format the flat binary was kept
//! over. Run: `cargo bench --bench bundle_load`. Prints medians of 5 (no timing assertions).

use std::time::Instant;
use support::stats::median_high;

fn main() {
    let text = support::bundle::numbered(50, 2000, 32);
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let time = |f: &dyn Fn()| {
        median_high(
            &mut (0..rounds)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect::<Vec<f64>>(),
        )
    };
    let one = runlens::bundle::load_bundle("bench.json", text.as_bytes()).expect("the bundle loads");
    assert_eq!(one.bundle.runs.len(), 50);
    let load = time(&|| assert!(runlens::bundle::load_bundle("bench.json", text.as_bytes()).is_ok()));
    let seps = time(&|| assert!(runlens::bundle::split::run_separators(text.as_bytes()).is_some()));
    let cut = runlens::bundle::split::split(text.as_bytes(), 2).unwrap();
    let head = time(&|| assert!(runlens::bundle::split_load::parse_head(&cut.head).is_some()));
    let part = time(&|| assert!(runlens::bundle::split_load::load_runs(&cut.parts[0].1, cut.parts[0].0).is_some()));
    let scan = time(&|| assert!(runlens::bundle::split::split(text.as_bytes(), 2).is_some()));
    assert_eq!(runlens::bundle::split_load::load_bundle_threads("bench.json", text.as_bytes(), 2).as_ref(), Ok(&one));
    let threads =
        time(&|| assert!(runlens::bundle::split_load::load_bundle_threads("bench.json", text.as_bytes(), 2).is_ok()));
    println!(
        "{:.1} MB bundle, 50 runs x 2,000 transactions with histograms (medians of {rounds}):",
        text.len() as f64 / 1e6
    );
    println!("  load_bundle, one pass:             {load:6.1} ms");
    println!("  run_separators (the scan alone):   {seps:6.1} ms");
    println!("  split (scan and copies), 2 groups: {scan:6.1} ms");
    println!("  the head's group alone:            {head:6.1} ms (HEAD_SHARE {})", runlens::bundle::split::HEAD_SHARE);
    println!("  the later group alone:             {part:6.1} ms");
    println!("  load_bundle_threads, 2 threads:    {threads:6.1} ms ({:.2}x)", load / threads);

    // One run of 2,000 transactions, as the worker hands it to the page, read 20 times a round.
    let run = one.bundle.runs[0].clone();
    let piece = runlens::wire::encode_run(run.clone());
    assert_eq!(runlens::wire::decode_run(&piece, 0).as_ref(), Ok(&run));
    let as_borsh = borsh::to_vec(&run.transactions).unwrap();
    assert_eq!(borsh::from_slice::<Vec<runlens::bundle::Transaction>>(&as_borsh).unwrap(), run.transactions);
    let per = |ms: f64| ms * 1e3 / 20.0;
    let wire = time(&|| (0..20).for_each(|_| assert!(runlens::wire::decode_run(&piece, 0).is_ok())));
    let borsh_txs = time(&|| {
        (0..20).for_each(|_| assert!(borsh::from_slice::<Vec<runlens::bundle::Transaction>>(&as_borsh).is_ok()))
    });
    let encode = time(&|| (0..20).for_each(|_| assert!(!runlens::wire::encode_run(run.clone()).is_empty())));
    let clone = time(&|| (0..20).for_each(|_| assert!(!run.clone().transactions.is_empty())));
    println!(
        "one run of 2,000 transactions on the wire ({} B; its transactions in borsh: {} B):",
        piece.len(),
        as_borsh.len()
    );
    println!("  decode_run (borsh + flat binary): {:7.0} µs", per(wire));
    println!("  the transactions in borsh alone:  {:7.0} µs ({:.2}x)", per(borsh_txs), borsh_txs / wire);
    println!("  encode_run, with a clone of it:   {:7.0} µs (the clone alone {:.0} µs)", per(encode), per(clone));
}
