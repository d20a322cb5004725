//! Benchmark of the work behind a baseline/candidate switch on a large bundle: `analysis::compare`
//! and the latency table for 2 runs × 2,000 transactions. Run: `cargo bench --bench compare`.
//! Prints the median of 31 runs (no timing assertions anywhere).

use runlens::analysis::compare;
use runlens::bundle::{Run, Transaction};
use runlens::tables::{latency_table, RowFilter};
use std::time::Instant;

fn run(id: &str, n: usize, k: f64) -> Run {
    Run {
        id: id.into(),
        label: id.into(),
        transactions: (0..n)
            .map(|i| {
                let b = 50.0 + (i % 97) as f64 * 3.0 * k;
                Transaction {
                    name: format!("tx{i:04}"),
                    samples: Some(1000),
                    errors: Some(1),
                    mean_ms: Some(b),
                    median_ms: Some(b * 0.9),
                    p90_ms: Some(b * 1.5),
                    p95_ms: Some(b * 1.8),
                    p99_ms: Some(b * 2.5),
                    min_ms: Some(b * 0.2),
                    max_ms: Some(b * 4.0),
                    throughput_per_s: Some(12.5),
                    ..Default::default()
                }
            })
            .collect(),
        ..Default::default()
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let (a, b) = (run("a", 2000, 1.0), run("b", 2000, 1.1));
    let labels = vec!["a".to_string(), "b".to_string()];
    let (mut t_cmp, mut t_tab) = (Vec::new(), Vec::new());
    for _ in 0..31 {
        let t0 = Instant::now();
        let rows = compare(&[&a, &b], 0.05);
        t_cmp.push(t0.elapsed().as_secs_f64() * 1e3);
        let t1 = Instant::now();
        let t = latency_table(&rows, &labels, &RowFilter::default());
        t_tab.push(t1.elapsed().as_secs_f64() * 1e3);
        assert_eq!(t.rows.len(), 4000);
    }
    println!("compare 2x2000: median {:.2} ms; latency_table: median {:.2} ms", median(t_cmp), median(t_tab));
}
