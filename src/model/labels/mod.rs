//! Label rules (`bundle::LabelRule`): transaction labels mapped before runs are compared, so
//! that labels that differ slightly between runs still match. `rules.rs` compiles and matches
//! the rules; `merge.rs` applies them to a run, merging the transactions that end up with one name.

mod merge;
mod rules;
mod timeline;

pub use merge::{apply, merge_transactions, with_label_rules};
pub use rules::{collapse_ids, describe, problem, Rules, ID};

#[cfg(test)]
mod tests;
