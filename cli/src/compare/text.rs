//! The report for a terminal: the verdict, then per candidate the viewer's summary, the failed
//! criteria, what could not be judged, and the worst five changes.

use super::escape::line;
use super::gate::Gate;
use runlens::analysis::criteria::Status;
use std::fmt::Write;

pub fn render(g: &Gate) -> String {
    let mut out = format!("runlens compare {}\n", g.verdict());
    for c in &g.candidates {
        let _ = write!(out, "\n{}\n", line(&c.summary.statement(&g.labels)));
        let failed: Vec<_> = c.checks.iter().filter(|k| k.status == Status::Failed).collect();
        if !failed.is_empty() {
            out.push_str("Failed criteria:\n");
        }
        for k in failed {
            for f in &k.findings {
                let what =
                    if f.metric.is_empty() { line(&k.key) } else { format!("{} · {}", line(&k.key), line(&f.metric)) };
                let _ = writeln!(
                    out,
                    "  {}: {what}: {} → {} ({}): {}",
                    g.rule_title(k),
                    f.base,
                    f.cand,
                    f.change,
                    line(&f.why)
                );
            }
        }
        let skipped: Vec<_> = c.checks.iter().filter(|k| k.status == Status::NotEnoughData).collect();
        if !skipped.is_empty() {
            out.push_str("Not enough data (skipped):\n");
        }
        for k in skipped {
            let _ = writeln!(out, "  {}: {}: {}", g.rule_title(k), line(&k.key), k.skipped);
        }
        if c.summary.worst.is_empty() {
            out.push_str("No regression beyond noise.\n");
        } else {
            out.push_str("Worst changes:\n");
            for w in &c.summary.worst {
                let _ = writeln!(out, "  {}: {}", line(&w.key), line(&w.what));
            }
        }
    }
    if let Some(h) = &g.history {
        h.text(&mut out);
    }
    if let Some(link) = &g.link {
        let _ = write!(out, "\nIn the viewer: {link}\n");
    }
    out
}
