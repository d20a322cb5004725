//! Warnings about a loaded bundle, and the capped list they are collected in: a file with 100,000
//! `NaN`s gives `MAX_WARNINGS` warnings and one that counts the rest, never 100,000.

use crate::limits::MAX_WARNINGS;
use std::fmt;

/// Something odd but usable, shown to the user beside the data (borsh: it crosses from the
/// worker to the page in `wire::Done`).
#[derive(Debug, Clone, PartialEq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Warnings of one file: the first `MAX_WARNINGS` are kept, the rest only counted.
#[derive(Debug, Default)]
pub(crate) struct Warnings {
    list: Vec<Warning>,
    dropped: usize,
}

impl Warnings {
    pub fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        if self.list.len() < MAX_WARNINGS {
            self.list.push(Warning { path: path.into(), message: message.into() });
        } else {
            self.dropped += 1;
        }
    }

    /// Whether another warning would only be counted (callers may skip building its text).
    pub fn full(&self) -> bool {
        self.list.len() >= MAX_WARNINGS
    }

    /// Counts a warning without building it (see `full`).
    pub fn count_dropped(&mut self) {
        self.dropped += 1;
    }

    /// The kept warnings, and one more that counts the dropped ones.
    pub fn finish(mut self) -> Vec<Warning> {
        if self.dropped > 0 {
            self.list.push(Warning {
                path: "…".into(),
                message: format!(
                    "{} more warnings not listed (only the first {MAX_WARNINGS} are kept)",
                    crate::format::number(self.dropped as f64)
                ),
            });
        }
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_and_counts_the_rest() {
        let mut w = Warnings::default();
        for i in 0..MAX_WARNINGS + 1234 {
            w.push(format!("line {i}"), "odd");
        }
        let list = w.finish();
        assert_eq!(list.len(), MAX_WARNINGS + 1);
        assert_eq!(list[0].path, "line 0");
        assert_eq!(
            list[MAX_WARNINGS].message,
            format!("1,234 more warnings not listed (only the first {MAX_WARNINGS} are kept)")
        );
    }
}
