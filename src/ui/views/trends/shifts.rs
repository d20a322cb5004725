//! The change points of the trend in words, under the chart: one line per persistent shift
//! ("p95 of search · shifted +12.3% at nightly-34 (p = 0.005), …: a regression"), and what the
//! rest means: regressions on the baseline's level are blips, excluded runs are left out.

use crate::analysis::changepoint::history::ShiftKind;
use crate::analysis::changepoint::DEFAULT;
use crate::analysis::trend::Trend;
use crate::analysis::Why;
use leptos::prelude::*;

/// The list of shifts and the line that explains them (`data` is the page's trend memo).
#[component]
pub(super) fn ShiftList(data: Memo<Option<(Trend, Vec<String>, f64)>>) -> impl IntoView {
    let lines = move || {
        data.with(|d| {
            let (t, ..) = d.as_ref()?;
            let items = t.shifts.iter().map(|s| {
                let class = match s.kind {
                    ShiftKind::Regression => "summary-line v-worse",
                    ShiftKind::Improvement => "summary-line v-better",
                    ShiftKind::Expected => "summary-line v-expected",
                    ShiftKind::Change => "summary-line v-nocompare",
                };
                view! { <li class=class><p>{s.sentence()}</p></li> }
            });
            Some(items.collect_view())
        })
    };
    view! {
        <section class="shifts" aria-label="Change points">
            <ul class="verdict-summary" data-testid="trend-shifts">{lines}</ul>
            <p class="hint">{move || data.with(|d| d.as_ref().map(|(t, ..)| explain(t)))}</p>
        </section>
    }
}

/// What the change points say beyond the list: none found, blips, excluded runs, the method.
fn explain(t: &Trend) -> String {
    let n = t.row.cells.len();
    let blips = (0..n).filter(|&i| t.is_blip(i)).count();
    let excluded = t.row.cells.iter().filter(|c| c.why == Why::Excluded).count();
    let mut out = if !t.could_shift {
        format!("Too few runs for change points: at least {} with a value are needed.", 2 * DEFAULT.min_segment)
    } else if t.shifts.is_empty() {
        "No persistent shift in this metric.".to_string()
    } else {
        String::new()
    };
    if blips > 0 {
        let runs = crate::format::count(blips, "run judged regressed is a blip", "runs judged regressed are blips");
        out.push_str(&format!(" {runs}: on the baseline's level, no shift."));
    }
    if excluded > 0 {
        let runs = crate::format::count(excluded, "run is", "runs are");
        out.push_str(&format!(" {runs} excluded by an annotation."));
    }
    out.push_str(&format!(
        " Change points: E-divisive means with a permutation test ({} shuffles), p ≤ {}, at least {} runs on each side.",
        DEFAULT.permutations,
        crate::decimal::fixed(DEFAULT.alpha, 2),
        DEFAULT.min_segment
    ));
    out.trim_start().to_string()
}
