//! Tests of the CloudWatch importer: pages, order, statuses, naming, statistics and the shapes
//! that are refused.

use crate::bundle::{LoadErrorKind, Resource, Run, Unit};
use crate::import::{import_bytes, Format, Imported};

fn imp(name: &str, text: &str) -> Imported {
    import_bytes(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn res<'a>(run: &'a Run, service: &str, metric: &str) -> &'a Resource {
    run.resources
        .iter()
        .find(|r| r.service == service && r.metric == metric)
        .unwrap_or_else(|| panic!("no {service} · {metric} in {:?}", run.resources))
}

const PAGE_NEWEST_FIRST: &str = r#"{"MetricDataResults":[{"Id":"a","Label":"svc CPUUtilization","Timestamps":["2024-01-01T00:10:00Z","2024-01-01T00:05:00Z"],"Values":[30,20],"StatusCode":"Complete"}],"NextToken":"t1","Messages":[]}"#;
const PAGE_OLDER: &str = r#"{"MetricDataResults":[{"Id":"a","Label":"svc CPUUtilization","Timestamps":["2024-01-01T00:00:00Z","2024-01-01T00:05:00Z"],"Values":[10,20],"StatusCode":"Complete"}],"Messages":[]}"#;

#[test]
fn pages_merge_by_id_sorted_in_time_without_repeats() {
    let text = format!("{PAGE_NEWEST_FIRST}\n{PAGE_OLDER}\n");
    let i = imp("pasted text", &text);
    assert_eq!(i.format, Format::CloudWatchMetricData);
    let run = &i.bundle.runs[0];
    let r = res(run, "svc", "cpu");
    let s = r.series.as_ref().unwrap();
    assert_eq!(
        (s.t_s.clone(), s.values.clone()),
        (vec![0.0, 300.0, 600.0], vec![10.0, 20.0, 30.0]),
        "the repeated 00:05 value counts once"
    );
    assert_eq!((r.unit, r.peak, r.average, r.min), (Unit::Percent, Some(30.0), Some(20.0), Some(10.0)));
    assert_eq!((run.start.as_deref(), run.duration_s), (Some("2024-01-01T00:00:00Z"), Some(600.0)));
    assert!(i.warnings.is_empty(), "the NextToken of the first page is followed: {:?}", i.warnings);
    let array = format!("[{PAGE_OLDER},{PAGE_NEWEST_FIRST}]");
    let j = imp("pages.json", &array);
    assert_eq!(res(&j.bundle.runs[0], "svc", "cpu").series, r.series);
    assert!(j.warnings.iter().any(|w| w.path == "NextToken"), "the last page still points at more: {:?}", j.warnings);
}

#[test]
fn partial_data_and_messages_warn() {
    let text = r#"{"MetricDataResults":[{"Id":"m1","Label":"x CPUUtilization","Timestamps":["2024-01-01T00:00:00+00:00"],"Values":[1.5],"StatusCode":"PartialData","Messages":[{"Code":"ArithmeticError","Value":"division by zero"}]}],"Messages":[{"Code":"MaxQueryTimeRangeExceed","Value":"too long"}]}"#;
    let i = imp("p.json", text);
    let all: Vec<String> = i.warnings.iter().map(|w| w.to_string()).collect();
    assert!(all.iter().any(|w| w.contains("PartialData")), "{all:?}");
    assert!(all.iter().any(|w| w.contains("ArithmeticError: division by zero")), "{all:?}");
    assert!(all.iter().any(|w| w.contains("MaxQueryTimeRangeExceed")), "{all:?}");
}

#[test]
fn default_labels_fall_back_to_ids_and_say_so() {
    let text = r#"{"MetricDataResults":[
      {"Id":"m1","Label":"CPUUtilization","Timestamps":["2024-01-01 00:00:00+00:00"],"Values":[5],"StatusCode":"Complete"},
      {"Id":"m2","Label":"CPUUtilization","Timestamps":["2024-01-01 00:00:00+00:00"],"Values":[7],"StatusCode":"Complete"}]}"#;
    let i = imp("d.json", text);
    let run = &i.bundle.runs[0];
    assert_eq!((res(run, "m1", "cpu").peak, res(run, "m2", "cpu").peak), (Some(5.0), Some(7.0)));
    assert!(i.warnings.iter().any(|w| w.message.contains("PROP('Dim.ServiceName')")), "{:?}", i.warnings);
}

#[test]
fn saved_queries_name_services_units_and_statistics() {
    let text = r#"{"MetricDataQueries":[{"Id":"lat","MetricStat":{"Metric":{"Namespace":"AWS/ApplicationELB","MetricName":"TargetResponseTime","Dimensions":[{"Name":"LoadBalancer","Value":"app/folio/1"}]},"Period":60,"Stat":"p95","Unit":"Microseconds"}},
      {"Id":"e1","Expression":"lat*2","Label":"Doubled"}],
     "MetricDataResults":[{"Id":"lat","Label":"TargetResponseTime","Timestamps":[1704067200,1704067260],"Values":[1500,2500]},
                          {"Id":"e1","Label":"Doubled","Timestamps":[1704067200000],"Values":[3000]}]}"#;
    let i = imp("q.json", text);
    let run = &i.bundle.runs[0];
    let lat = res(run, "app/folio/1", "TargetResponseTime");
    assert_eq!((lat.unit, lat.peak, lat.min), (Unit::Ms, Some(2.5), Some(1.5)), "microseconds become milliseconds");
    assert!(lat.note.as_deref().is_some_and(|n| n.contains("p95 of TargetResponseTime per 60 s")), "{:?}", lat.note);
    assert_eq!(res(run, "Doubled", "value").peak, Some(3000.0));
    assert_eq!(run.start.as_deref(), Some("2024-01-01T00:00:00Z"), "epoch seconds and milliseconds");
}

#[test]
fn statistics_keep_maximum_minimum_and_weigh_the_average() {
    let text = r#"{"Label":"CPUUtilization","Datapoints":[
      {"Timestamp":"2024-01-01T00:05:00Z","Average":40,"Maximum":90,"Minimum":10,"SampleCount":1,"Unit":"Percent"},
      {"Timestamp":"2024-01-01T00:00:00Z","Average":10,"Maximum":20,"Minimum":5,"SampleCount":3,"Unit":"Percent"}]}"#;
    let i = imp("mod-search-cpu.json", text);
    assert_eq!(i.format, Format::CloudWatchStatistics);
    let r = res(&i.bundle.runs[0], "mod-search-cpu", "cpu");
    assert_eq!((r.peak, r.min, r.average), (Some(90.0), Some(5.0), Some((40.0 + 30.0) / 4.0)));
    assert_eq!(r.series.as_ref().map(|s| s.values.clone()), Some(vec![10.0, 40.0]), "the Average series in time order");
    let odd = r#"{"Label":"ReadThroughput","Datapoints":[{"Timestamp":"2024-01-01T00:00:00Z","Sum":3,"Unit":"Kilobytes/Second"}]}"#;
    let r = imp("x.json", odd).bundle.runs.remove(0).resources.remove(0);
    assert_eq!((r.unit, r.peak), (Unit::None, Some(3.0)));
    assert!(r.note.as_deref().is_some_and(|n| n.contains("CloudWatch unit Kilobytes/Second")), "{:?}", r.note);
}

#[test]
fn python_print_widgets_and_broken_json_are_refused_clearly() {
    let repr = "{'MetricDataResults': [{'Id': 'm1', 'Timestamps': [datetime.datetime(2024, 1, 1, 0, 0, tzinfo=tzutc())], 'Values': [1.0]}]}";
    let e = import_bytes("pasted text", repr.as_bytes()).unwrap_err();
    assert!(e.message.contains("json.dump(response, f, default=str)"), "{e}");
    let widget = r#"{"metrics":[["AWS/ECS","CPUUtilization","ServiceName","a","ClusterName","c"],["...","b",".","."]],"view":"timeSeries","stat":"Average","period":60,"region":"us-east-1"}"#;
    let e = import_bytes("pasted text", widget.as_bytes()).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Unsupported);
    assert!(
        e.message.contains("2 metrics: AWS/ECS CPUUtilization of a, b, Average per 60 s")
            && e.message.contains("get-metric-data"),
        "{e}"
    );
    let e = import_bytes("x.json", br#"{"MetricDataResults":[{"Id":"a","Values":[1,2"#).unwrap_err();
    assert_eq!((e.kind, e.line), (LoadErrorKind::Syntax, Some(1)));
    let e = import_bytes("x.json", br#"{"MetricDataResults":[]}"#).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Empty);
}

#[test]
fn ragged_and_huge_values_warn_without_failing() {
    let text = r#"{"MetricDataResults":[{"Id":"a","Label":"s CPUUtilization","Timestamps":["2024-01-01T00:00:00Z","not a time","2024-01-01T00:01:00Z"],"Values":[1,2,"x",4],"StatusCode":"Complete"}]}"#;
    let i = imp("r.json", text);
    assert_eq!(res(&i.bundle.runs[0], "s", "cpu").peak, Some(1.0));
    assert_eq!(i.warnings.len(), 2, "{:?}", i.warnings);
    let e = import_bytes(
        "h.json",
        br#"{"MetricDataResults":[{"Id":"a","Timestamps":["2024-01-01T00:00:00Z"],"Values":[1e400]}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Syntax, "serde_json refuses a number out of range: {e}");
}
