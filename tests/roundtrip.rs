#![cfg(not(target_arch = "wasm32"))]
//! Property: any valid bundle, loaded, saved ("Save bundle" writes `Workspace::to_bundle`) and
//! loaded again, gives an equal workspace: nothing a user loaded is lost or changed by saving.
//! Bundles are generated with proptest over every field of the format, with any Unicode text
//! (markup included) and any finite number.

use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use runlens::bundle::*;
use runlens::model::Workspace;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,12}",
        Just("<a href=\"?src=https://elsewhere.example/x.json\">click</a>".to_string()),
        Just("<span style=\"font-size:60px\">x</span>\\|*_`".to_string()),
        "[a-z]{1,6}",
    ]
}

fn num() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("JSON numbers are finite", |v| v.is_finite()),
        -1e6..1e6f64,
        Just(0.0),
        Just(-0.0)
    ]
}

fn opt_num() -> impl Strategy<Value = Option<f64>> {
    option::of(num())
}

fn unit() -> impl Strategy<Value = Unit> {
    prop_oneof![
        Just(Unit::Ms),
        Just(Unit::S),
        Just(Unit::Percent),
        Just(Unit::Count),
        Just(Unit::Bytes),
        Just(Unit::PerSecond),
        Just(Unit::None)
    ]
}

fn transaction() -> impl Strategy<Value = Transaction> {
    (
        (text(), option::of(any::<u64>()), option::of(any::<u64>()), opt_num(), opt_num(), opt_num(), opt_num()),
        (opt_num(), opt_num(), opt_num(), opt_num(), opt_num(), option::of(any::<u64>()), option::of(any::<u64>())),
        (
            btree_map("p[0-9]{1,2}(\\.9)?", num(), 0..3),
            option::of((vec(num(), 0..4), vec(any::<u64>(), 0..4))),
            option::of(text()),
        ),
    )
        .prop_map(
            |(
                (name, samples, errors, mean_ms, median_ms, p90_ms, p95_ms),
                (p99_ms, min_ms, max_ms, throughput_per_s, throughput_run_per_s, bytes_received, bytes_sent),
                (percentiles, histogram, note),
            )| Transaction {
                name,
                samples,
                errors,
                mean_ms,
                median_ms,
                p90_ms,
                p95_ms,
                p99_ms,
                min_ms,
                max_ms,
                throughput_per_s,
                throughput_run_per_s,
                bytes_received,
                bytes_sent,
                percentiles,
                histogram: histogram.map(|(upper_bounds_ms, counts)| Histogram { upper_bounds_ms, counts }),
                note,
            },
        )
}

fn resource() -> impl Strategy<Value = Resource> {
    (
        text(),
        text(),
        unit(),
        opt_num(),
        opt_num(),
        opt_num(),
        vec((text(), opt_num(), opt_num()), 0..2),
        option::of((vec(num(), 0..5), vec(num(), 0..5))),
        option::of(text()),
    )
        .prop_map(|(service, metric, unit, peak, average, min, phases, series, note)| Resource {
            service,
            metric,
            unit,
            peak,
            average,
            min,
            phases: phases.into_iter().map(|(label, average, peak)| Phase { label, average, peak }).collect(),
            series: series.map(|(t_s, values)| TimeSeries { t_s, values }),
            note,
        })
}

fn index() -> impl Strategy<Value = IndexStats> {
    (
        text(),
        option::of(text()),
        option::of(any::<u32>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()).prop_map(|b| b.map(ByteSize)),
    )
        .prop_map(|(index, health, pri, docs_count, store_size)| IndexStats {
            index,
            health,
            pri,
            docs_count,
            store_size,
            ..Default::default()
        })
}

fn kpi() -> impl Strategy<Value = Kpi> {
    let direction = option::of(prop_oneof![
        Just(Direction::LowerIsBetter),
        Just(Direction::HigherIsBetter),
        Just(Direction::Neutral)
    ]);
    (text(), num(), unit(), direction, option::of(text())).prop_map(|(name, value, unit, direction, note)| Kpi {
        name,
        value,
        unit,
        direction,
        note,
    })
}

fn run(id: String) -> impl Strategy<Value = Run> {
    let status = prop_oneof![
        Just(RunStatus::Completed),
        Just(RunStatus::Failed),
        Just(RunStatus::Aborted),
        Just(RunStatus::Unknown)
    ];
    (
        (
            text(),
            option::of(text()),
            option::of("20[0-9]{2}-0[1-9]-1[0-9]T10:00:00Z"),
            opt_num(),
            status,
            vec(text(), 0..3),
        ),
        (
            btree_map("[a-z]{1,5}", text(), 0..3),
            vec(transaction(), 0..4),
            vec(resource(), 0..3),
            vec(index(), 0..3),
            vec(kpi(), 0..3),
        ),
        (
            vec(
                (
                    text(),
                    option::of(any::<u64>()),
                    vec(text(), 0..2),
                    (option::of(text()), option::of(text()), opt_num()),
                ),
                0..2,
            ),
            vec((text(), vec(kpi(), 0..2)), 0..2),
            vec((text(), option::of(any::<u32>()), btree_map("[a-z]{1,5}", text(), 0..2)), 0..2),
        ),
    )
        .prop_map(
            move |(
                (label, version, start, duration_s, status, notes),
                (dimensions, transactions, resources, indices, kpis),
                (errors, tenants, modules),
            )| Run {
                id: id.clone(),
                label,
                version,
                start,
                duration_s,
                status,
                notes,
                dimensions,
                transactions,
                resources,
                indices,
                kpis,
                errors: errors
                    .into_iter()
                    .map(|(message, count, services, (code, transaction, first_s))| ErrorEntry {
                        message,
                        count,
                        services,
                        code,
                        transaction,
                        first_s,
                        last_s: first_s.map(|s| s + 1.0),
                        ..Default::default()
                    })
                    .collect(),
                tenants: tenants
                    .into_iter()
                    .map(|(tenant, kpis)| TenantResult { tenant, kpis, ..Default::default() })
                    .collect(),
                modules: modules
                    .into_iter()
                    .map(|(module, cpu_units, settings)| ModuleConfig {
                        module,
                        cpu_units,
                        settings,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
        )
}

fn bundle() -> impl Strategy<Value = Bundle> {
    // Unique ids (the loader refuses duplicates), then runs for them and comparisons among them.
    proptest::collection::btree_set("[a-z][a-z0-9~-]{0,6}", 1..5)
        .prop_flat_map(|ids| {
            let ids: Vec<String> = ids.into_iter().collect();
            let n = ids.len();
            let runs: Vec<_> = ids.iter().cloned().map(run).collect();
            let comparisons = vec((0..n, vec(0..n, 1..3), option::of(text())), 0..2);
            let report = (
                text(),
                option::of(text()),
                vec(text(), 0..3),
                vec((text(), text()), 0..2),
                vec((text(), option::of(text())), 0..2),
            );
            let thresholds = option::of((option::of(0.0..50.0f64), option::of(0.0..5.0f64), option::of(1u64..100)));
            let label_rules = vec((0..4u8, text(), option::of(text())), 0..4);
            (runs, comparisons, report, Just(ids), thresholds, label_rules)
        })
        .prop_map(|(runs, comparisons, (title, purpose, summary, links, tickets), ids, thresholds, rules)| Bundle {
            format: FORMAT_NAME.into(),
            version: FORMAT_VERSION,
            report: Report {
                title,
                purpose,
                summary,
                links: links.into_iter().map(|(label, url)| Link { label, url }).collect(),
                tickets: tickets.into_iter().map(|(id, url)| Ticket { id, url, ..Default::default() }).collect(),
                ..Default::default()
            },
            runs,
            comparisons: comparisons
                .into_iter()
                .map(|(b, cands, title)| Comparison {
                    title,
                    baseline: ids[b].clone(),
                    candidates: cands.into_iter().map(|c| ids[c].clone()).collect(),
                    note: None,
                })
                .collect(),
            thresholds: thresholds.map(|(latency, error_rate, min_samples)| runlens::bundle::Thresholds {
                latency,
                error_rate,
                min_samples,
                ..Default::default()
            }),
            label_rules: label_rules(rules),
        })
}

/// Label rules of every kind (some unusable: the loader keeps them, with a warning), each once
/// (a workspace lists a rule once).
fn label_rules(raw: Vec<(u8, String, Option<String>)>) -> Vec<LabelRule> {
    let mut out: Vec<LabelRule> = Vec::new();
    for (k, pattern, to) in raw {
        let kind =
            [LabelRuleKind::Ids, LabelRuleKind::Rename, LabelRuleKind::Include, LabelRuleKind::Exclude][k as usize];
        let r = LabelRule { kind, pattern, to };
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

fn load(json: &str) -> Workspace {
    let loaded = load_bundle("bundle.json", json.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{json}"));
    let mut ws = Workspace::default();
    ws.add("bundle.json", loaded.bundle, loaded.warnings);
    ws
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn load_save_load_gives_an_equal_workspace(b in bundle()) {
        let first = load(&serde_json::to_string(&b).unwrap());
        let saved = first.to_bundle().expect("a workspace with runs saves");
        let second = load(&serde_json::to_string_pretty(&saved).unwrap());
        prop_assert_eq!(&first, &second);
        // And what was saved is what was generated.
        prop_assert_eq!(&saved, &b);
    }

    /// What the ingest worker hands the page (a head, then each run with its transactions in a
    /// flat binary) reads back as the bundle it was made from, every field and absence alike.
    #[test]
    fn the_workers_answer_reads_back_as_the_bundle(b in bundle()) {
        let imp = runlens::import::Imported { format: runlens::import::Format::Bundle, bundle: b.clone(), warnings: vec![], records: 3 };
        let pieces = runlens::wire::encode_done(imp);
        prop_assert_eq!(pieces.runs.len(), b.runs.len());
        let done = runlens::wire::decode_done(&pieces).unwrap();
        prop_assert_eq!(&done.bundle, &b);
        prop_assert_eq!(done.records, 3);
    }
}
