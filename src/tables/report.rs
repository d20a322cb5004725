//! The report page: a comparison as one page a wiki accepts as is, laid out like the seed
//! reports (summary, test runs, results tables, resource tables, charts, notes). Tables keep only
//! what regressed or improved beyond noise, plus a total per table. `report_render` writes it as
//! Markdown, Confluence wiki markup or a self-contained HTML file.

use super::build::{compare_table, section_slug, short_time, status_word, RowFilter};
use super::{Cell, Column, Row, Table};
use crate::analysis::{self, summarize, Verdict};
use crate::bundle::{Run, RunStatus, Unit};
use crate::format;
use crate::model::{Family, Section, Thresholds, Workspace};

/// A chart of the page: its title, the file name a wiki attachment would have, and the PNG
/// itself as a `data:image/png;base64,` URL when the browser rendered it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportChart {
    pub title: String,
    pub file_name: String,
    pub png: Option<String>,
}

impl ReportChart {
    /// The data URL if it is a base64 PNG and nothing else (it goes into markup verbatim).
    pub fn safe_png(&self) -> Option<&str> {
        let p = self.png.as_deref()?;
        let body = p.strip_prefix("data:image/png;base64,")?;
        (!body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))).then_some(p)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReportPage {
    pub title: String,
    /// One statement per candidate (see `analysis::Summary::sentence`).
    pub summary: Vec<String>,
    /// The report author's own summary, quoted.
    pub author_summary: Vec<String>,
    pub runs: Table,
    /// Duration, KPIs, latency, errors, tenants.
    pub results: Vec<Table>,
    /// Resources and index sizes.
    pub resources: Vec<Table>,
    pub charts: Vec<ReportChart>,
    pub notes: Vec<String>,
}

const RESULT_SECTIONS: [Section; 5] =
    [Section::Duration, Section::Kpi, Section::Transaction, Section::Error, Section::Tenant];
const RESOURCE_SECTIONS: [Section; 2] = [Section::Resource, Section::Index];

/// How the verdicts were reached, in one paragraph (the page's notes and the docs say the same).
pub const METHOD: &str = "Verdicts: a change counts as improved or regressed only when it is beyond its metric family's threshold and, where both runs carry latency histograms, when the 95% bootstrap interval of the change in median and p95 (1,000 multinomial resamples of each run's histogram, nearest-rank quantiles) excludes no change; error rates are compared as errors per sample with Newcombe's score interval. The bootstrap assumes independent samples and resolves no finer than the histogram's buckets. Transactions with too few samples are not judged; a failed or aborted run is not comparable.";

/// The test-runs table: what ran, when, how long, and how it ended.
fn runs_table(runs: &[&Run]) -> Table {
    let rows = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let when = match (r.start.as_deref(), r.end.as_deref()) {
                (Some(s), Some(e)) => format!("{} – {}", short_time(s), short_time(e)),
                (Some(s), None) => short_time(s),
                _ => String::new(),
            };
            let status = match (r.status, &r.status_reason) {
                (RunStatus::Completed, _) => String::from("completed"),
                (s, Some(why)) => format!("{}: {why}", status_word(s)),
                (s, None) => status_word(s).to_string(),
            };
            let mut status_cell = Cell::text(status);
            if matches!(r.status, RunStatus::Failed | RunStatus::Aborted) {
                status_cell.verdict = Some(Verdict::Regressed);
            }
            let role = if i == 0 { "baseline" } else { "candidate" };
            Row::new(
                vec![
                    Cell::text(&r.label),
                    Cell::text(role),
                    Cell::text(r.conditions.join("; ")),
                    Cell::text(when),
                    Cell::value(r.duration_s, Unit::S),
                    status_cell,
                ],
                i,
            )
        })
        .collect();
    let columns = ["Test", "Role", "Test conditions", "Start – end", "Duration", "Status"]
        .into_iter()
        .map(|c| if c == "Duration" { Column::num(c) } else { Column::text(c) })
        .collect();
    Table { id: "report-runs".into(), caption: "Test runs".into(), columns, rows }
}

/// The rows worth a report: beyond noise, or a regression (a vanished transaction, a new error).
fn noteworthy(r: &analysis::Row) -> bool {
    r.cells.iter().skip(1).any(|c| c.verdict.is_beyond_noise() || c.is_regression())
}

/// The rows a report's change chart shows: beyond noise and with a change to draw, biggest
/// first, at most `n`.
pub fn biggest_changes(rows: &[analysis::Row], n: usize) -> Vec<&analysis::Row> {
    let mut list: Vec<(&analysis::Row, f64)> = rows
        .iter()
        .filter(|r| r.cells.iter().skip(1).any(|c| c.verdict.is_beyond_noise() && c.change.is_some()))
        .filter_map(|r| super::build::change_rank(r).map(|k| (r, k)))
        .collect();
    crate::order::sort_by(&mut list, |a, b| b.1.total_cmp(&a.1));
    list.into_iter().take(n).map(|(r, _)| r).collect()
}

/// A section's table: noteworthy rows, and a total row counting every row of the section.
fn section_table(rows: &[analysis::Row], labels: &[String], section: Section) -> Option<Table> {
    let all: Vec<&analysis::Row> = rows.iter().filter(|r| r.section == section).collect();
    if all.is_empty() {
        return None;
    }
    let kept: Vec<analysis::Row> = all.iter().filter(|r| noteworthy(r)).map(|r| (*r).clone()).collect();
    let count = |f: &dyn Fn(&analysis::Cell) -> bool| all.iter().filter(|r| r.cells.iter().skip(1).any(f)).count();
    let noise = all.iter().filter(|r| r.cells.iter().skip(1).all(|c| c.verdict == Verdict::WithinNoise)).count();
    if kept.is_empty() && noise == 0 {
        return None; // nothing of this section could be compared (e.g. the baseline lacks it)
    }
    let mut t = compare_table(&kept, labels, section, &RowFilter::default());
    t.id = format!("report-{}", section_slug(section));
    let regressed = count(&|c| c.is_regression());
    let improved = count(&|c| c.verdict == Verdict::Improved);
    let total = format!(
        "{} compared: {} regressed, {} improved, {} within noise, {} not judged",
        all.len(),
        regressed,
        improved,
        noise,
        all.len().saturating_sub(kept.len() + noise)
    );
    let mut cells = vec![Cell::text("Total"), Cell::text(total)];
    cells.resize_with(t.columns.len(), || Cell::text(""));
    t.rows.push(Row::new(cells, usize::MAX));
    t.caption = format!("{} (beyond noise)", section.title());
    Some(t)
}

fn thresholds_note(th: &Thresholds) -> String {
    let parts: Vec<String> = Family::ALL
        .iter()
        .map(|f| {
            let unit = match f {
                Family::ErrorRate => " pp",
                Family::Cpu | Family::Memory => " (pp for percentages)",
                _ => "",
            };
            let pct = if *f == Family::ErrorRate { "" } else { "%" };
            format!("{} {}{pct}{unit}", f.title(), format::number(th.of(*f)))
        })
        .collect();
    format!("Thresholds: {}; at least {} samples per transaction.", parts.join(", "), th.min_samples)
}

/// The report page of `runs` (baseline first) compared in `rows`.
pub fn report_page(
    ws: &Workspace,
    runs: &[&Run],
    rows: &[analysis::Row],
    labels: &[String],
    th: &Thresholds,
    charts: Vec<ReportChart>,
) -> ReportPage {
    let report = ws.sources.first().map(|s| &s.report);
    let title = report.map_or_else(|| "Performance comparison".to_string(), |r| r.title.clone());
    let summary = (1..labels.len()).map(|ci| summarize(rows, ci).sentence(labels)).collect();
    let tables =
        |sections: &[Section]| sections.iter().filter_map(|s| section_table(rows, labels, *s)).collect::<Vec<_>>();
    let sources: Vec<&str> = ws.sources.iter().map(|s| s.name.as_str()).collect();
    let notes =
        vec![thresholds_note(th), METHOD.to_string(), format!("Made with runlens from {}.", sources.join(", "))];
    ReportPage {
        title,
        summary,
        author_summary: report.map(|r| r.summary.clone()).unwrap_or_default(),
        runs: runs_table(runs),
        results: tables(&RESULT_SECTIONS),
        resources: tables(&RESOURCE_SECTIONS),
        charts,
        notes,
    }
}

#[cfg(test)]
mod tests;
