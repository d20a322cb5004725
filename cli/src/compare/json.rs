//! The report as a versioned JSON document (`"runlens_compare": 1`, described in
//! docs/criteria.md): the verdict, the criteria's source, and per candidate its summary, worst
//! changes and checks. Built as a `serde_json::Value`: the comparison's rows stay unserializable.

use super::gate::{Candidate, Gate};
use runlens::analysis::criteria::{Check, Status};
use runlens::analysis::Counts;
use serde_json::{json, Value};

fn counts(c: &Counts) -> Value {
    json!({
        "regressed": c.regressed,
        "improved": c.improved,
        "within_noise": c.within_noise,
        "changed": c.changed,
        "not_enough_data": c.not_enough_data,
        "not_comparable": c.not_comparable,
        "unmatched": c.unmatched,
    })
}

fn check(g: &Gate, k: &Check) -> Value {
    let status = match k.status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::NotEnoughData => "not_enough_data",
    };
    let findings: Vec<Value> = k
        .findings
        .iter()
        .map(|f| json!({"metric": f.metric, "baseline": f.base, "candidate": f.cand, "change": f.change, "why": f.why}))
        .collect();
    let mut v = json!({
        "criterion": g.rule_title(k),
        "section": k.section.title(),
        "key": &*k.key,
        "status": status,
        "findings": findings,
    });
    if k.status == Status::NotEnoughData {
        v["skipped"] = Value::from(k.skipped.clone());
    }
    v
}

fn candidate(g: &Gate, c: &Candidate) -> Value {
    let worst: Vec<Value> =
        c.summary.worst.iter().map(|w| json!({"section": w.section.title(), "key": w.key, "what": w.what})).collect();
    json!({
        "id": g.ids.get(c.index),
        "label": g.label(c.index),
        "passed": !c.failed,
        "summary": {
            "statement": c.summary.statement(&g.labels),
            "transactions": counts(&c.summary.transactions),
            "others": counts(&c.summary.others),
            "worst": worst,
        },
        "checks": c.checks.iter().map(|k| check(g, k)).collect::<Vec<_>>(),
    })
}

pub fn render(g: &Gate) -> String {
    let doc = json!({
        "runlens_compare": 1,
        "passed": !g.failed(),
        "verdict": g.verdict(),
        "gate": if g.criteria.is_some() { "criteria" } else { "summary" },
        "criteria_source": g.criteria.as_ref().map(|c| c.source.clone()),
        "baseline": {"id": g.ids.first(), "label": g.label(0)},
        "candidates": g.candidates.iter().map(|c| candidate(g, c)).collect::<Vec<_>>(),
        "link": g.link,
        "history": g.history.as_ref().map(|h| h.json()),
    });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}
