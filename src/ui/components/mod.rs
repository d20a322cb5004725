//! The parts pages and the shell share: tables, charts, view controls and the empty state, the run
//! picker, the import panel, the label-rule editor, notices, the busy bar, share and open buttons,
//! the verdict summary, the two-dimension grid, the report export and the window bar. Components
//! import no view and not the app.

pub mod busy;
pub mod chart;
pub mod controls;
pub mod grid;
pub mod import_panel;
pub mod label_rules;
pub mod no_data;
pub mod notices;
pub mod open_button;
pub mod report_export;
pub mod run_picker;
pub mod share;
pub mod table_view;
pub mod verdict_summary;
pub mod window_bar;

use crate::analysis::Verdict;

/// CSS class of a verdict (its colour; the arrow beside a delta follows the change, not this).
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Improved => "v-better",
        Verdict::Regressed => "v-worse",
        Verdict::WithinNoise => "v-same",
        Verdict::NotEnoughData => "v-nodata",
        Verdict::NotComparable => "v-nocompare",
        Verdict::Changed => "v-changed",
        Verdict::Added => "v-added",
        Verdict::Removed => "v-removed",
        Verdict::Baseline | Verdict::Missing => "v-none",
    }
}
