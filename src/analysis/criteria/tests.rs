use super::*;
use crate::analysis::compare;
use crate::bundle::{Criteria, FailWhen, Resource, Run, Transaction, Unit};
use crate::model::Thresholds;

fn tx(name: &str, p95: f64, samples: u64, errors: u64) -> Transaction {
    Transaction {
        name: name.into(),
        p95_ms: Some(p95),
        median_ms: Some(p95 / 2.0),
        samples: Some(samples),
        errors: Some(errors),
        throughput_per_s: Some(samples as f64 / 100.0),
        ..Default::default()
    }
}

fn run(id: &str, txs: Vec<Transaction>) -> Run {
    Run { id: id.into(), transactions: txs, ..Default::default() }
}

fn fail(when: &str) -> FailWhen {
    FailWhen { when: when.into(), ..Default::default() }
}

fn rules(fails: Vec<FailWhen>) -> Rules {
    compile(&Criteria { fail: fails, ..Default::default() }).unwrap()
}

fn statuses(checks: &[Check]) -> Vec<(String, Status)> {
    checks.iter().map(|c| (c.key.to_string(), c.status)).collect()
}

fn pair() -> Vec<compare::Row> {
    let a = run("a", vec![tx("search", 100.0, 1000, 0), tx("login", 100.0, 1000, 0), tx("rare", 100.0, 5, 0)]);
    let b = run("b", vec![tx("search", 130.0, 1000, 30), tx("login", 104.0, 1000, 0), tx("rare", 300.0, 5, 0)]);
    compare(&[&a, &b], &Thresholds::default())
}

#[test]
fn relative_change_fails_only_beyond_the_bound() {
    let checks = evaluate(&rules(vec![fail("p95 > +10%")]), &pair(), 1, 30);
    assert_eq!(
        statuses(&checks),
        vec![
            ("search".into(), Status::Failed),
            ("login".into(), Status::Passed),
            ("rare".into(), Status::NotEnoughData)
        ]
    );
    let f = &checks[0].findings[0];
    assert_eq!(
        (f.metric.as_str(), f.base.as_str(), f.cand.as_str(), f.change.as_str()),
        ("p95", "100 ms", "130 ms", "+30.0%")
    );
    assert!(f.why.starts_with("+30.0% > +10.0%; "), "{}", f.why);
    assert!(checks[2].skipped.contains("too few samples"), "{}", checks[2].skipped);
}

#[test]
fn beyond_noise_is_asked_of_changes_by_default() {
    // +4% is beyond a 3% bound but within the 5% latency threshold: passes unless noise is waived.
    let strict = evaluate(&rules(vec![fail("p95 > +3%")]), &pair(), 1, 30);
    assert_eq!(strict[1].status, Status::Passed);
    let fixed = FailWhen { beyond_noise: Some(false), ..fail("p95 > +3%") };
    assert_eq!(evaluate(&rules(vec![fixed]), &pair(), 1, 30)[1].status, Status::Failed);
}

#[test]
fn absolute_values_convert_units_and_error_rates_are_rates() {
    let checks = evaluate(&rules(vec![fail("p95 > 0.12 s"), fail("error_rate > 1%")]), &pair(), 1, 30);
    let failed: Vec<(usize, String)> =
        checks.iter().filter(|c| c.status == Status::Failed).map(|c| (c.rule, c.key.to_string())).collect();
    assert_eq!(failed, vec![(0, "search".into()), (1, "search".into())]);
    let rate = &checks.iter().find(|c| c.rule == 1 && c.status == Status::Failed).unwrap().findings[0];
    assert_eq!((rate.metric.as_str(), rate.cand.as_str()), ("error rate", "3.00%"));
    assert_eq!(
        evaluate(&rules(vec![fail("error_rate > +2.5 pp")]), &pair(), 1, 30)[0].status,
        Status::Failed,
        "0 % to 3 % is +3 pp"
    );
}

#[test]
fn patterns_ignore_and_minimum_samples() {
    let c = Criteria {
        min_samples: Some(1),
        ignore: vec!["log*".into()],
        fail: vec![FailWhen { transactions: Some("r?re".into()), beyond_noise: Some(false), ..fail("latency > +50%") }],
    };
    let r = compile(&c).unwrap();
    assert_eq!(check_names(&r, &pair()), Ok(()));
    let checks = evaluate(&r, &pair(), 1, 30);
    assert_eq!(statuses(&checks), vec![("rare".into(), Status::Failed)]);
    assert_eq!(checks[0].findings.len(), 2, "median and p95: {checks:?}");
    // Beyond noise, the viewer's own minimum (30 samples) leaves it unjudged.
    let noisy = Criteria { fail: vec![FailWhen { beyond_noise: None, ..c.fail[0].clone() }], ..c };
    assert_eq!(evaluate(&compile(&noisy).unwrap(), &pair(), 1, 30)[0].status, Status::NotEnoughData);
}

#[test]
fn names_that_match_nothing_and_units_that_do_not_fit_are_errors_with_places() {
    let c = Criteria {
        ignore: vec!["nothing*".into()],
        fail: vec![FailWhen { transactions: Some("serch*".into()), ..fail("p95 > +10%") }, fail("memory > 2 GB")],
        ..Default::default()
    };
    let a = Run {
        resources: vec![Resource {
            service: "db".into(),
            metric: "memory".into(),
            unit: Unit::Percent,
            peak: Some(50.0),
            ..Default::default()
        }],
        ..run("a", vec![tx("search", 100.0, 1000, 0)])
    };
    let rows = compare(&[&a, &a], &Thresholds::default());
    let errs = check_names(&compile(&c).unwrap(), &rows).unwrap_err();
    let places: Vec<String> = errs.iter().map(|e| e.path.to_string()).collect();
    assert_eq!(places, vec!["ignore[0]", "fail[0].transactions", "fail[1].when"]);
    assert!(errs[2].message.contains("db · memory · peak” is a percentage"), "{}", errs[2].message);
    let typo = compile(&Criteria { fail: vec![fail("memory.peek > 90%"), fail("p59 > 1 s")], ..Default::default() });
    let errs = check_names(&typo.unwrap(), &rows).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].message.ends_with("they have peak"), "{}", errs[0].message);
    assert!(errs[1].message.contains("they have median, p95"), "{}", errs[1].message);
}

#[test]
fn resources_are_judged_in_their_own_unit() {
    let res = |peak: f64| Resource {
        service: "db".into(),
        metric: "cpu".into(),
        unit: Unit::Percent,
        peak: Some(peak),
        ..Default::default()
    };
    let a = Run { resources: vec![res(40.0)], ..run("a", vec![]) };
    let b = Run { resources: vec![res(85.0)], ..run("b", vec![]) };
    let rows = compare(&[&a, &b], &Thresholds::default());
    let r = rules(vec![fail("cpu.peak > 80%"), fail("cpu > +20 pp")]);
    assert_eq!(check_names(&r, &rows), Ok(()));
    let checks = evaluate(&r, &rows, 1, 30);
    assert_eq!(checks.iter().map(|c| c.status).collect::<Vec<_>>(), vec![Status::Failed, Status::Failed]);
    assert_eq!(checks[1].findings[0].change, "+45.0 pp");
}

#[test]
fn compile_collects_every_bad_when_with_its_place() {
    let c = Criteria { fail: vec![fail("p95 > +10%"), fail("p95 >> 1"), fail("latency > 5 MB")], ..Default::default() };
    let errs = compile(&c).unwrap_err();
    let places: Vec<String> = errs.iter().map(|e| e.path.to_string()).collect();
    assert_eq!(places, vec!["fail[1].when", "fail[2].when"]);
    assert!(compile(&Criteria::default()).is_err(), "no criterion at all");
}

#[test]
fn unknown_keys_and_wrong_types_come_with_paths() {
    let v = serde_json::json!({"fail": [{"when": "p95 > +1%", "wehn": 1}], "ignor": []});
    let (c, unknown) = from_json(v).unwrap();
    let places: Vec<String> = unknown.iter().map(|e| format!("{}: {}", e.path, e.message)).collect();
    assert_eq!(places, vec!["fail[0].wehn: unknown key", "ignor: unknown key"]);
    // Reported with the other errors, in one go.
    let bad = Criteria { fail: vec![fail("p95 > 3 GB")], ..c };
    let errs = check(&bad, unknown, &pair()).unwrap_err();
    let places: Vec<String> = errs.iter().map(|e| e.path.to_string()).collect();
    assert_eq!(places, vec!["fail[0].wehn", "ignor", "fail[0].when"]);
    let errs = from_json(serde_json::json!({"fail": [{"when": 5}]})).unwrap_err();
    assert_eq!(errs[0].path.to_string(), "fail[0].when");
    assert!(from_json(serde_json::json!({"fail": [{"when": "p95 > 1 s"}]})).is_ok());
}
