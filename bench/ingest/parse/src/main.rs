//! The same import natively: reads FILE into memory, then times `import` on it (the first run,
//! and the median of REPS more), printing one JSON line for bench/ingest/run.py.
//!
//!     parse-native FILE [REPS]

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: parse-native FILE [REPS]");
        std::process::exit(2);
    };
    let reps: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(4);
    let data = match std::fs::read(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut times = Vec::new();
    let mut table = String::new();
    for _ in 0..=reps {
        let t0 = std::time::Instant::now();
        match runlens_bench_parse::import(&data) {
            Ok(t) => table = t,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        }
        times.push(t0.elapsed().as_secs_f64());
    }
    let first = times[0];
    let mut warm = times[1..].to_vec();
    warm.sort_by(f64::total_cmp);
    let warm = warm.get(warm.len() / 2).copied().unwrap_or(first);
    let table: serde_json::Value = serde_json::from_str(&table).unwrap_or_default();
    println!("{}", serde_json::json!({"secs": first, "warm_s": warm, "table": table}));
}
