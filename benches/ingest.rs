//! Native ingest of a JTL with the same code the browser's workers run: one pass, and split over
//! 2 threads (`import::common::parallel`). Run: `RUNLENS_JTL=path cargo bench --bench ingest` (the file
//! comes from `scripts/gen_jtl.py`; `scripts/bench-ingest.sh` makes it). Prints medians of 5 runs
//! after one warm-up, and checks both ways give the same run.

use runlens::import::{common::parallel, import};
use std::time::Instant;
use support::stats::median_high;

fn main() {
    let Some(path) = std::env::var_os("RUNLENS_JTL") else {
        eprintln!("set RUNLENS_JTL to a JTL file (scripts/gen_jtl.py ROWS OUT makes one)");
        return;
    };
    let path = std::path::PathBuf::from(path);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let one_pass = || {
        let f = std::fs::File::open(&path).expect("open");
        import(&path.to_string_lossy(), f, None, &mut |_, _| {}).expect("import")
    };
    let mut reference = None;
    for (name, threads) in [("one pass (stream)", 1usize), ("2 threads (ranges)", 2)] {
        let mut times = Vec::new();
        for rep in 0..6 {
            let t0 = Instant::now();
            let imp = if threads == 1 { one_pass() } else { parallel::import_file(&path, threads).expect("import") };
            let secs = t0.elapsed().as_secs_f64();
            if rep > 0 {
                times.push(secs);
            }
            match &reference {
                None => reference = Some(imp.bundle),
                Some(r) => assert_eq!(&imp.bundle.runs, &r.runs, "{name} differs from the one-pass result"),
            }
        }
        let m = median_high(&mut times);
        println!("{name:<20} median {m:.3} s  ({:.0} MB/s, {} bytes)", size as f64 / m / 1e6, size);
    }
}
