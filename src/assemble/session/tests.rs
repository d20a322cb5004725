//! The import panel's grouping: defaults, moves, renames and the bundle they make.

use super::*;
use crate::bundle::{IndexStats, Resource, Run, Transaction, Unit};

fn file(id: &str, t: bool, r: bool, i: bool) -> Bundle {
    let run = Run {
        id: id.into(),
        label: id.into(),
        transactions: if t {
            vec![Transaction { name: format!("{id}-tx"), samples: Some(1), ..Default::default() }]
        } else {
            vec![]
        },
        resources: if r {
            vec![Resource {
                service: format!("{id}-svc"),
                metric: "cpu".into(),
                unit: Unit::Percent,
                peak: Some(1.0),
                ..Default::default()
            }]
        } else {
            vec![]
        },
        indices: if i { vec![IndexStats { index: format!("{id}-idx"), ..Default::default() }] } else { vec![] },
        ..Default::default()
    };
    crate::import::bundle_around(id, crate::import::Format::JmeterCsv, vec![run])
}

#[test]
fn files_dropped_together_form_one_run_unless_they_are_of_one_kind() {
    let mut s = Session::default();
    let a = s.add(1, "poppy-20u.jtl", "JTL", 10, file("poppy-20u", true, false, false));
    let b = s.add(1, "cpu.json", "CloudWatch", 0, file("cpu", false, true, false));
    let c = s.add(1, "indices.txt", "_cat", 0, file("indices", false, false, true));
    let d = s.add(1, "orchid.jtl", "JTL", 10, file("orchid", true, false, false));
    let e = s.add(2, "mem.json", "CloudWatch", 0, file("mem", false, true, false));
    assert_eq!((a, b, c), (0, 0, 0), "a JTL, a CloudWatch export and _cat/indices of one drop: one run");
    assert_eq!(d, 1, "a second JTL of the same drop is another run");
    assert_eq!(e, 2, "a later drop starts its own run");
    assert_eq!(s.runs[0].spec.dimensions.get("users").map(String::as_str), Some("20"), "the name suggests users=20");
    let (bundle, warnings) = s.bundle().unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(bundle.runs.len(), 3);
    let merged = &bundle.runs[0];
    assert_eq!(
        (merged.id.as_str(), merged.transactions.len(), merged.resources.len(), merged.indices.len()),
        ("poppy-20u", 1, 1, 1)
    );
}

#[test]
fn moving_renaming_and_dimensions_make_the_bundle() {
    let mut s = Session::default();
    s.add(1, "a.jtl", "JTL", 1, file("a", true, false, false));
    s.add(2, "b.json", "CloudWatch", 1, file("b", false, true, false));
    assert_eq!(s.runs.len(), 2);
    s.move_file(1, Some(0)).unwrap();
    assert_eq!(s.runs.len(), 1, "the emptied run goes away");
    assert_eq!(s.rename(0, "Poppy 20 users"), Some(("a".into(), "poppy-20-users".into())));
    s.set_dimension(0, "release", "Poppy");
    let (b, _) = s.bundle().unwrap();
    assert_eq!((b.runs[0].id.as_str(), b.runs[0].label.as_str()), ("poppy-20-users", "Poppy 20 users"));
    assert_eq!(b.runs[0].dimensions.get("release").map(String::as_str), Some("Poppy"));
    assert_eq!(b.runs[0].resources.len(), 1);
    s.move_file(1, None).unwrap();
    assert_eq!(s.runs.len(), 2, "a file moved out gets a run of its own");
    s.remove_file(0);
    assert_eq!((s.files.len(), s.runs.len()), (1, 1));
    assert_eq!(s.files[0].run, 0, "file indices follow the removal");
}

#[test]
fn a_history_keeps_its_runs_and_ids_stay_unique() {
    let mut s = Session::default();
    let mut history = file("night-1", true, false, false);
    history.runs.push(Run { id: "night-2".into(), label: "night-2".into(), ..Default::default() });
    s.add(1, "history.csv", "Aggregate", 2, history);
    s.add(1, "x.jtl", "JTL", 1, file("x", true, false, false));
    s.add(2, "x.jtl", "JTL", 1, file("x", true, false, false));
    assert!(s.move_file(0, Some(1)).is_err(), "a history cannot join a run");
    assert_eq!(s.runs[2].spec.id, "x-2");
    assert_eq!(s.rename(2, "x").map(|(_, new)| new), Some("x-2".to_string()), "renaming cannot take another run's id");
    let (b, _) = s.bundle().unwrap();
    let ids: Vec<&str> = b.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["night-1", "night-2", "x", "x-2"]);
}

#[test]
fn dimensions_are_typed_as_key_equals_value() {
    assert_eq!(parse_dimension(" users = 20 "), Some(("users".into(), "20".into())));
    assert_eq!(parse_dimension("users"), None);
    assert_eq!(parse_dimension("=20"), None);
    assert_eq!(parse_dimension("a=b=c"), Some(("a".into(), "b=c".into())));
}
