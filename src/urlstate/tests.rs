//! Tests of the URL contract: every parameter parsed, written back, and refused with a notice.

use super::*;

#[test]
fn round_trips_a_full_state() {
    let s = UrlState {
        src: vec!["examples/a.json".into(), "https://x.test/b c.json".into()],
        view: View::Latency,
        base: Some("orchid".into()),
        cand: Some("poppy-t2".into()),
        runs: vec!["a".into(), "b,".replace(',', "")],
        embed: true,
        theme: Some(Theme::Dark),
        thresholds: ThresholdParams {
            all: Some(2.5),
            family: [Some(7.5), None, Some(0.25), None, None, None, None, Some(10.0)],
            min_samples: Some(100),
        },
        filter: "search & co".into(),
        regressions_only: true,
        sort: Some("-p95".into()),
        order: Some("release".into()),
        metric: Some("search · p95".into()),
        workers: Some(2),
        window: WindowSpec::Range { from_s: 120, to_s: 3480 },
        shifts: vec![Shift { run: "poppy-t2".into(), seconds: -30 }, Shift { run: "a:b".into(), seconds: 5 }],
        pct: Some(99),
        tx: Some("search & co".into()),
        clock: true,
        labels: vec![
            LabelRule { kind: LabelRuleKind::Ids, pattern: String::new(), to: None },
            LabelRule { kind: LabelRuleKind::Rename, pattern: "GET /a?b=*&c:d".into(), to: Some("a → b=>c".into()) },
            LabelRule { kind: LabelRuleKind::Ids, pattern: "GET *".into(), to: None },
            LabelRule { kind: LabelRuleKind::Include, pattern: "search*".into(), to: None },
            LabelRule { kind: LabelRuleKind::Exclude, pattern: "*, #1 & x".into(), to: None },
        ],
    };
    let q = s.to_query();
    let (back, notices) = UrlState::parse(&q);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, s);
    assert_eq!(UrlState::parse(&format!("?{q}")).0, s);
}

/// The WHATWG URL parser (the `url` crate implements the same standard as the browser's
/// `new URL(src, base)`), resolving against a page under a sub-path, as the UI does.
fn check(src: &str) -> Result<(), String> {
    let base = url::Url::parse("https://owner.github.io/runlens/?view=latency").unwrap();
    let resolved = base.join(src).ok();
    check_src(src, resolved.as_ref().map(|u| format!("{}:", u.scheme())).as_deref())
}

#[test]
fn bad_window_parameters_are_dropped_alone() {
    let (s, notices) = UrlState::parse("window=90-30&shift=nocolon&pct=42&view=timeline&window=auto");
    assert_eq!((s.view, s.window, s.shifts.len(), s.pct), (View::Timeline, WindowSpec::Auto, 0, None));
    assert_eq!(notices.len(), 3, "{notices:?}");
}

#[test]
fn a_bad_worker_count_is_dropped_alone() {
    let (s, notices) = UrlState::parse("view=latency&workers=0&filter=x");
    assert_eq!((s.view, s.workers, s.filter.as_str()), (View::Latency, None, "x"));
    assert_eq!(notices.len(), 1);
    assert_eq!(UrlState::parse("workers=9").0.workers, None);
}

#[test]
fn src_schemes_by_the_resolved_url() {
    for ok in [
        "examples/a.json",
        "/runlens/examples/a.json?x=1:2",
        "https://x.test/a.json",
        "HTTP://x.test/a.json",
        "//elsewhere.test/a.json",
        "\\\\elsewhere.test\\a.json",
        "?src=x",
    ] {
        assert_eq!(check(ok), Ok(()), "{ok}");
    }
    for (bad, scheme) in [
        ("javascript:alert(1)", "javascript:"),
        ("  JavaScript:alert(1)", "javascript:"),
        ("java\tscript:alert(1)", "javascript:"),
        ("java\nscript:alert(1)", "javascript:"),
        ("\u{0}javascript:alert(1)", "javascript:"),
        ("file:///etc/passwd", "file:"),
        ("data:application/json,{}", "data:"),
        ("blob:https://owner.github.io/0a1b", "blob:"),
        ("ftp://x.test/a.json", "ftp:"),
    ] {
        let e = check(bad).unwrap_err();
        assert!(e.contains(&format!("the {scheme} scheme")), "{bad:?}: {e}");
    }
    assert!(check("https://[::1").unwrap_err().contains("not a URL"));
    assert!(check("   ").unwrap_err().contains("empty"));
}

#[test]
fn selects_runs_from_url_or_defaults() {
    use crate::bundle::{Bundle, Comparison, Report, Run};
    let mut ws = crate::model::Workspace::default();
    let run = |id: &str| Run { id: id.into(), label: id.into(), ..Default::default() };
    ws.add(
        "b",
        Bundle {
            format: "runlens-bundle".into(),
            version: 1,
            report: Report::default(),
            runs: vec![run("a"), run("b"), run("c")],
            comparisons: vec![Comparison {
                baseline: "c".into(),
                candidates: vec!["a".into(), "b".into()],
                ..Default::default()
            }],
            thresholds: None,
            label_rules: vec![],
        },
        vec![],
    );
    let mut s = UrlState::default();
    assert_eq!(s.selected_runs(&ws), vec!["c", "a", "b"], "the declared comparison, all candidates");
    s.cand = Some("b".into());
    assert_eq!(s.selected_runs(&ws), vec!["c", "b"]);
    s.select_runs(vec!["b".into(), "zz".into(), "a".into(), "c".into()]);
    assert_eq!(s.selected_runs(&ws), vec!["b", "a", "c"], "unknown ids are dropped");
    s.select_runs(vec!["a".into(), "b".into()]);
    assert_eq!((s.base.as_deref(), s.cand.as_deref(), s.runs.len()), (Some("a"), Some("b"), 0));
}

#[test]
fn default_state_is_an_empty_query() {
    assert_eq!(UrlState::default().to_query(), "");
    assert_eq!(UrlState::parse("").0, UrlState::default());
}

#[test]
fn thresholds_from_link_over_bundle_over_defaults() {
    let (s, notices) = UrlState::parse("threshold=3&threshold.latency=8&threshold.error_rate=0.5&min_samples=50");
    assert!(notices.is_empty(), "{notices:?}");
    let bundle =
        crate::bundle::Thresholds { latency: Some(6.0), cpu: Some(2.0), size: Some(9.0), ..Default::default() };
    let t = s.thresholds.apply(Thresholds::default().with_bundle(&bundle));
    assert_eq!(t.of(Family::Latency), 8.0, "a family parameter wins over `threshold`");
    assert_eq!(t.of(Family::Cpu), 3.0, "`threshold` wins over the bundle");
    assert_eq!((t.of(Family::ErrorRate), t.min_samples), (0.5, 50));
    let (only, _) = UrlState::parse("threshold.cpu=1");
    let t = only.thresholds.apply(Thresholds::default().with_bundle(&bundle));
    assert_eq!(
        (t.of(Family::Cpu), t.of(Family::Size), t.of(Family::Latency)),
        (1.0, 9.0, 6.0),
        "the bundle's where the link says nothing"
    );
    assert_eq!(UrlState::parse(&s.to_query()).0, s, "round trip");
}

#[test]
fn bad_threshold_fields_are_dropped_alone() {
    let (s, notices) = UrlState::parse(
        "threshold.latency=fast&threshold.nope=3&min_samples=-1&threshold.cpu=2000&threshold.memory=4&view=trends",
    );
    assert_eq!(s.thresholds.get(Family::Memory), Some(4.0));
    assert_eq!(
        (s.thresholds.get(Family::Latency), s.thresholds.get(Family::Cpu), s.thresholds.min_samples),
        (None, None, None)
    );
    assert_eq!(s.view, View::Trends);
    assert_eq!(notices.len(), 4, "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("threshold.nope")));
}

#[test]
fn bad_fields_are_dropped_not_the_url() {
    let (s, notices) = UrlState::parse("view=nope&base=a&threshold=-3&colour=red&theme=dark&embed=maybe");
    assert_eq!(s.view, View::Overview);
    assert_eq!(s.base.as_deref(), Some("a"));
    assert_eq!(s.thresholds.all, None);
    assert_eq!(s.theme, Some(Theme::Dark));
    assert!(!s.embed);
    assert_eq!(notices.len(), 4, "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("colour")));
}

#[test]
fn label_rules_keep_their_order_and_bad_ones_are_dropped_alone() {
    let (s, notices) =
        UrlState::parse("label=exclude:a*&label=ids&label=rename:x&label=include:&label=bogus:x&label=rename:a%3D%3Eb");
    assert_eq!(notices.len(), 3, "{notices:?}");
    let kinds: Vec<LabelRuleKind> = s.labels.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [LabelRuleKind::Exclude, LabelRuleKind::Ids, LabelRuleKind::Rename]);
    assert_eq!((s.labels[2].pattern.as_str(), s.labels[2].to.as_deref()), ("a", Some("b")));
    // A rename whose pattern holds the arrow cannot be written into a link.
    let arrow = LabelRule { kind: LabelRuleKind::Rename, pattern: "a=>b".into(), to: Some("c".into()) };
    assert_eq!(label_param(&arrow), None);
    // An empty new name is no rule.
    assert_eq!(parse_label("rename:a=>"), None);
}
