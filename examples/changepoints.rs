//! Runs runlens' change-point detector (`analysis::changepoint`, default settings) on series read
//! from a JSON file (`[[1.0, 2.0, …], …]`) and prints one JSON document: for each series its change
//! points (index, p-value, means before and after), and the detector's time per series in
//! milliseconds. `scripts/bench-changepoints.sh` runs it to compare with apache-otava.
//!
//!     cargo run --profile worker --example changepoints -- SERIES.json

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use runlens::analysis::changepoint::{change_points, DEFAULT};
    use serde_json::json;

    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: changepoints SERIES.json");
        std::process::exit(2);
    };
    let series: Vec<Vec<f64>> = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| format!("{}: {e}", std::path::Path::new(&path).display())))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut found = Vec::with_capacity(series.len());
    let mut ms = Vec::with_capacity(series.len());
    for s in &series {
        let t0 = std::time::Instant::now();
        let cps = change_points(s, &DEFAULT);
        ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        found.push(
            cps.iter()
                .map(|c| json!({"index": c.index, "p": c.p_value, "before": c.mean_before, "after": c.mean_after}))
                .collect::<Vec<_>>(),
        );
    }
    let settings =
        json!({"alpha": DEFAULT.alpha, "permutations": DEFAULT.permutations, "min_segment": DEFAULT.min_segment});
    println!("{}", json!({"settings": settings, "change_points": found, "ms": ms}));
}

#[cfg(target_arch = "wasm32")]
fn main() {}
