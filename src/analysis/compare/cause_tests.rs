//! Errors by cause in comparisons: a cause new in a candidate is a regression, one gone from it an
//! improvement, counts judged as rates as before; entries without code or transaction (bundles
//! written before those fields) keep matching by message.

use super::*;
use crate::bundle::{ErrorEntry, Transaction};

/// A run of one transaction with `samples` samples and the errors `causes` (transaction, code,
/// message, count).
fn run(id: &str, samples: u64, causes: &[(&str, &str, &str, u64)]) -> Run {
    let failed: u64 = causes.iter().map(|c| c.3).sum();
    Run {
        id: id.into(),
        duration_s: Some(600.0),
        transactions: vec![Transaction {
            name: "login".into(),
            samples: Some(samples),
            errors: Some(failed),
            ..Default::default()
        }],
        errors: causes
            .iter()
            .map(|(t, code, m, n)| ErrorEntry {
                message: m.to_string(),
                count: Some(*n),
                transaction: (!t.is_empty()).then(|| t.to_string()),
                code: (!code.is_empty()).then(|| code.to_string()),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn row<'r>(rows: &'r [Row], key: &str) -> &'r Row {
    let row = rows.iter().find(|r| r.section == Section::Error && &*r.key == key);
    row.unwrap_or_else(|| panic!("no error row {key:?}"))
}

#[test]
fn new_causes_regress_gone_causes_improve_and_counts_are_rates() {
    let base =
        run("a", 10_000, &[("login", "500", "Internal Server Error", 10), ("login", "", "timeout after {n} ms", 5)]);
    let cand =
        run("b", 10_000, &[("login", "500", "Internal Server Error", 11), ("login", "503", "Service Unavailable", 4)]);
    let rows = compare(&[&base, &cand], &Thresholds::default());
    // The key is `transaction: code/message`.
    let same = row(&rows, "login: 500/Internal Server Error");
    assert_eq!(same.cells[1].verdict, Verdict::WithinNoise, "10 → 11 of 10,000 samples: {}", same.reason(1));
    let new = &row(&rows, "login: 503/Service Unavailable").cells[1];
    assert_eq!((new.verdict, new.is_regression()), (Verdict::Added, true));
    let gone = row(&rows, "login: timeout after {n} ms");
    assert_eq!((gone.cells[1].verdict, gone.cells[1].is_regression()), (Verdict::Improved, false));
    assert!(gone.reason(1).starts_with("gone"), "{}", gone.reason(1));
    // Gone also from a candidate without any error, as long as it counts failed samples.
    let clean = run("c", 10_000, &[]);
    let rows = compare(&[&base, &clean], &Thresholds::default());
    assert_eq!(row(&rows, "login: 500/Internal Server Error").cells[1].verdict, Verdict::Improved);
    let summary = crate::analysis::summarize(&rows, 1);
    assert_eq!(summary.others.improved, 2, "{summary:?}");
}

#[test]
fn errors_without_code_or_transaction_keep_their_keys() {
    // Bundles written before causes: the message is the key, judged as before.
    let a = run("a", 1000, &[("", "", "500/Internal Server Error", 10)]);
    let b = run("b", 1000, &[("", "", "500/Internal Server Error", 40)]);
    let rows = compare(&[&a, &b], &Thresholds::default());
    let r = row(&rows, "500/Internal Server Error");
    assert_eq!(r.cells[1].verdict, Verdict::Regressed, "1 % to 4 %: {}", r.reason(1));
}
