//! The report in Markdown, for `$GITHUB_STEP_SUMMARY` and pull-request comments: a one-line verdict
//! (✅/❌), then per candidate the viewer's summary, a table of failed criteria, the worst five
//! changes, and a link to the comparison in the viewer. Every bundle text is escaped.

use super::escape::{markdown as md, markdown_url};
use super::gate::Gate;
use runlens::analysis::criteria::Status;
use std::fmt::Write;

pub fn render(g: &Gate) -> String {
    let mark = if g.failed() { "❌" } else { "✅" };
    let mut out = format!("{mark} **runlens compare {}**\n", md(&g.verdict()));
    for c in &g.candidates {
        let _ = write!(out, "\n### {}\n\n{}\n", md(&g.title(c)), md(&c.summary.statement(&g.labels)));
        let failed: Vec<_> = c.checks.iter().filter(|k| k.status == Status::Failed).collect();
        if !failed.is_empty() {
            out.push_str("\n| Criterion | Transaction | Baseline | Candidate | Change | Why |\n");
            out.push_str("| --- | --- | --- | --- | --- | --- |\n");
        }
        for k in failed {
            for f in &k.findings {
                let what = if f.metric.is_empty() { k.key.to_string() } else { format!("{} · {}", k.key, f.metric) };
                let cells = [g.rule_title(k), what, f.base.clone(), f.cand.clone(), f.change.clone(), f.why.clone()];
                let cells: Vec<String> = cells.iter().map(|s| md(s)).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
        }
        let skipped = c.checks.iter().filter(|k| k.status == Status::NotEnoughData).count();
        if skipped > 0 {
            let _ = write!(out, "\n{skipped} check(s) skipped: not enough data.\n");
        }
        if !c.summary.worst.is_empty() {
            out.push_str("\n**Worst changes**\n\n");
            for w in &c.summary.worst {
                let _ = writeln!(out, "- {}: {}", md(&w.key), md(&w.what));
            }
        }
    }
    if let Some(h) = &g.history {
        h.markdown(&mut out);
    }
    if let Some(link) = &g.link {
        let _ = write!(out, "\n[Open this comparison in runlens]({})\n", markdown_url(link));
    }
    out
}
