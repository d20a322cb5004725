//! A bundle borrowed from runs kept elsewhere (the workspace's shared runs, the import panel's
//! files), to hand to the writer worker without a copy of a run: borsh writes a `BundleRef` as it
//! writes the `Bundle` it stands for, and the worker reads it as one (`wire::write`).

use super::{Bundle, Comparison, LabelRule, Report, Run, Thresholds};
use borsh::BorshSerialize;
use std::borrow::Cow;

/// `Bundle`'s fields, in its order, borrowed where they can be (a test holds the two layouts
/// equal).
#[derive(Debug, Clone, BorshSerialize)]
pub struct BundleRef<'a> {
    pub format: &'a str,
    pub version: u32,
    pub report: Cow<'a, Report>,
    pub runs: Vec<&'a Run>,
    pub comparisons: Cow<'a, [Comparison]>,
    pub thresholds: Option<&'a Thresholds>,
    pub label_rules: Cow<'a, [LabelRule]>,
}

impl<'a> BundleRef<'a> {
    pub fn of(b: &'a Bundle) -> Self {
        BundleRef {
            format: &b.format,
            version: b.version,
            report: Cow::Borrowed(&b.report),
            runs: b.runs.iter().collect(),
            comparisons: Cow::Borrowed(&b.comparisons),
            thresholds: b.thresholds.as_ref(),
            label_rules: Cow::Borrowed(&b.label_rules),
        }
    }

    /// The bundle it stands for (its runs copied).
    pub fn to_bundle(&self) -> Bundle {
        Bundle {
            format: self.format.to_string(),
            version: self.version,
            report: self.report.clone().into_owned(),
            runs: self.runs.iter().copied().cloned().collect(),
            comparisons: self.comparisons.to_vec(),
            thresholds: self.thresholds.cloned(),
            label_rules: self.label_rules.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borsh_writes_a_borrowed_bundle_as_the_bundle() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/public/examples/folio-reindex-orchid-vs-poppy.json");
        let b = super::super::load_bundle_str("x", &std::fs::read_to_string(path).unwrap()).unwrap().bundle;
        assert!(!b.runs.is_empty() && !b.comparisons.is_empty() && !b.report.notes.is_empty());
        assert_eq!(borsh::to_vec(&BundleRef::of(&b)).unwrap(), borsh::to_vec(&b).unwrap());
        let mut t = b.clone();
        t.thresholds = Some(Thresholds { latency: Some(3.0), min_samples: Some(7), ..Default::default() });
        t.label_rules =
            vec![LabelRule { kind: super::super::LabelRuleKind::Rename, pattern: "a*".into(), to: Some("a".into()) }];
        assert_eq!(borsh::to_vec(&BundleRef::of(&t)).unwrap(), borsh::to_vec(&t).unwrap());
        assert_eq!(BundleRef::of(&t).to_bundle(), t);
    }
}
