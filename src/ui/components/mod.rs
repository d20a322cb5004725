//! Reusable components: tables, charts, the run picker, notices, share buttons.

pub mod chart;
pub mod notices;
pub mod run_picker;
pub mod share;
pub mod table_view;

use crate::analysis::Verdict;

/// CSS class of a verdict (colour plus an icon for those who cannot tell colours apart).
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Better => "v-better",
        Verdict::Worse => "v-worse",
        Verdict::Same => "v-same",
        Verdict::Changed => "v-changed",
        Verdict::Added => "v-added",
        Verdict::Removed => "v-removed",
        Verdict::Baseline | Verdict::Missing => "v-none",
    }
}
