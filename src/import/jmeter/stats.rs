//! JMeter dashboard `statistics.json`, written next to the HTML report (`jmeter -g results.jtl -o
//! report/`): https://jmeter.apache.org/usermanual/generating-dashboard.html . Fields as JMeter's
//! `JsonExporter` writes them: an object keyed by label, each entry with `transaction`,
//! `sampleCount`, `errorCount`, `errorPct`, `meanResTime`, `medianResTime` (JMeter 5.3 and later),
//! `minResTime`, `maxResTime`, `pct1ResTime`..`pct3ResTime`, `throughput`,
//! `receivedKBytesPerSec`, `sentKBytesPerSec`. The entries come from a Java HashMap, so `Total`
//! (the overall row) may come anywhere; it becomes the run's KPIs.
//!
//! `pct1..3` are the percentiles set by `aggregate_rpt_pct1..3`
//! (https://jmeter.apache.org/usermanual/properties_reference.html#reports), 90, 95 and 99 by
//! default: they are read as p90/p95/p99 and a note says the mapping assumes the defaults. They
//! are JMeter's estimates (Apache Commons Math `Percentile`, LEGACY interpolation), not runlens'
//! nearest rank. Before JMeter 5.4 the file was written in the platform's encoding (Windows:
//! windows-1252, GBK, …); it is decoded by `text` like any other file, never guessed silently.

use crate::bundle::{Direction, Kpi, LoadError, LoadErrorKind, Run, Transaction, Unit};
use crate::import::Head;
use crate::import::{common::names, common::text, read_whole_text, Ctx};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::io::Read;

/// The labels JMeter gives its overall row (`reportgenerator_summary_total`, by locale).
const TOTAL_LABELS: [&str; 2] = ["Total", "총계"];

/// Content detection: a JSON object whose entries carry the dashboard's statistics fields.
pub fn detect(h: &Head) -> bool {
    h.is_json_object() && h.text.contains("\"sampleCount\"") && h.text.contains("ResTime\"")
}

/// The top-level object's entries in file order (serde_json's map would sort them).
struct Entries(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object keyed by label")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// One entry's numbers; a field that is absent, null, or not a finite number is `None` (with a
/// warning unless it is absent).
struct Entry<'a> {
    label: &'a str,
    fields: &'a serde_json::Map<String, Value>,
}

impl Entry<'_> {
    fn num(&self, ctx: &mut Ctx, field: &str) -> Option<f64> {
        let v = self.fields.get(field)?;
        let parsed = match v {
            Value::Null => return None,
            Value::Number(n) => n.as_f64(),
            // Jackson writes NaN and Infinity as strings ("NaN"): a label without samples.
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        match parsed {
            Some(x) if x.is_finite() => Some(x),
            _ => {
                ctx.warn(format!("{}.{field}", self.label), format!("{v} is not a number; read as missing"));
                None
            }
        }
    }

    fn count(&self, ctx: &mut Ctx, field: &str) -> Option<u64> {
        let x = self.num(ctx, field)?;
        if x >= 0.0 && x.fract() == 0.0 && x < 9.0e15 {
            Some(x as u64)
        } else {
            ctx.warn(format!("{}.{field}", self.label), format!("{x} is not a count; read as missing"));
            None
        }
    }

    fn transaction(&self, ctx: &mut Ctx) -> Transaction {
        Transaction {
            name: self.label.to_string(),
            samples: self.count(ctx, "sampleCount"),
            errors: self.count(ctx, "errorCount"),
            mean_ms: self.num(ctx, "meanResTime"),
            median_ms: self.num(ctx, "medianResTime"),
            p90_ms: self.num(ctx, "pct1ResTime"),
            p95_ms: self.num(ctx, "pct2ResTime"),
            p99_ms: self.num(ctx, "pct3ResTime"),
            min_ms: self.num(ctx, "minResTime"),
            max_ms: self.num(ctx, "maxResTime"),
            throughput_per_s: self.num(ctx, "throughput"),
            ..Default::default()
        }
    }
}

/// Run KPIs from the `Total` row, with the names and meaning of `samples::run_kpis`.
fn total_kpis(t: &Transaction, error_pct: Option<f64>) -> Vec<Kpi> {
    let from = "from the Total row of JMeter's dashboard";
    let kpi = |name: &str, value: f64, unit, direction, note: String| Kpi {
        name: name.into(),
        value,
        unit,
        direction: Some(direction),
        note: Some(note),
    };
    let mut out = Vec::new();
    if let Some(n) = t.samples {
        out.push(kpi("Samples", n as f64, Unit::Count, Direction::Neutral, from.into()));
    }
    let rate = match (t.errors, t.samples) {
        (Some(e), Some(n)) if n > 0 => Some(e as f64 * 100.0 / n as f64),
        _ => error_pct,
    };
    if let Some(r) = rate {
        out.push(kpi("Error rate", r, Unit::Percent, Direction::LowerIsBetter, from.into()));
    }
    if let Some(x) = t.throughput_per_s {
        out.push(kpi(
            "Throughput",
            x,
            Unit::PerSecond,
            Direction::HigherIsBetter,
            format!("all samples over the run's first start to last end, {from}"),
        ));
    }
    if let Some(x) = t.mean_ms {
        out.push(kpi("Mean response time", x, Unit::Ms, Direction::LowerIsBetter, format!("all samples, {from}")));
    }
    if let Some(x) = t.p95_ms {
        out.push(kpi(
            "p95 response time",
            x,
            Unit::Ms,
            Direction::LowerIsBetter,
            format!("all samples, JMeter's pct2ResTime (95th percentile by default, interpolated), {from}"),
        ));
    }
    out
}

/// Run id and label: the file's stem, or its folder's name for a file called `statistics.json`
/// (every dashboard's file has that name).
fn run_name(source: &str) -> String {
    let stem = names::file_stem(source);
    if !stem.eq_ignore_ascii_case("statistics") {
        return stem.to_string();
    }
    let path = source.split(['?', '#']).next().unwrap_or(source);
    let mut parts = path.rsplit(['/', '\\']).filter(|s| !s.is_empty());
    parts.next();
    parts.next().map_or(stem, |dir| dir).to_string()
}

/// Imports a whole `statistics.json`.
pub fn import(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<Run, LoadError> {
    let text = read_whole_text(ctx, enc, input)?;
    let entries: Entries = serde_json::from_str(text.trim_start_matches('\u{FEFF}')).map_err(|e| {
        ctx.error(LoadErrorKind::Syntax, None, format!("statistics.json cannot be read: {e}"))
            .at(e.line(), Some(e.column()))
    })?;
    let (mut transactions, mut kpis, mut has_median) = (Vec::new(), Vec::new(), false);
    for (label, value) in &entries.0 {
        let Value::Object(fields) = value else {
            return Err(ctx.error_at(
                LoadErrorKind::Syntax,
                label.clone(),
                "each label's statistics must be an object",
            ));
        };
        let entry = Entry { label, fields };
        has_median |= fields.contains_key("medianResTime");
        let t = entry.transaction(ctx);
        if TOTAL_LABELS.contains(&label.as_str()) && kpis.is_empty() {
            let pct = entry.num(ctx, "errorPct");
            kpis = total_kpis(&t, pct);
        } else {
            transactions.push(t);
        }
    }
    if transactions.is_empty() && kpis.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "statistics.json has no labels"));
    }
    if kpis.is_empty() {
        ctx.warn("Total", "there is no Total row: the run has no KPIs");
    }
    let name = run_name(ctx.source);
    let mut notes = vec![
        format!("Imported from JMeter's dashboard statistics ({}): counts, mean, min and max are JMeter's; percentiles are JMeter's estimates (Apache Commons Math, interpolated between neighbouring samples, over at most the last 20,000 samples of each label), not runlens' nearest rank.", names::file_name(ctx.source)),
        "pct1ResTime, pct2ResTime and pct3ResTime are read as p90, p95 and p99: this assumes JMeter's default aggregate_rpt_pct1..3 (90, 95, 99).".to_string(),
    ];
    if !has_median {
        notes.push("This statistics.json has no medianResTime (JMeter before 5.3): there is no median.".into());
    }
    let mut run =
        Run { id: names::run_id(&name), label: name.clone(), transactions, kpis, notes, ..Default::default() };
    run.dimensions.extend(names::suggested_dimensions(&name));
    Ok(run)
}

#[cfg(test)]
mod tests {
    use crate::import::{import_bytes, Format};

    const ENTRY: &str = r#""sampleCount" : 4, "errorCount" : 1, "errorPct" : 25.0, "meanResTime" : 2.5E1, "medianResTime" : 20.0,
        "minResTime" : 10.0, "maxResTime" : 40.0, "pct1ResTime" : 40.0, "pct2ResTime" : 40.0, "pct3ResTime" : 40.0,
        "throughput" : 6.1894261494177E-4, "receivedKBytesPerSec" : 1.0, "sentKBytesPerSec" : 2.0"#;

    #[test]
    fn labels_keep_file_order_and_total_becomes_kpis_wherever_it_is() {
        let text = format!("{{ \"b\" : {{ \"transaction\" : \"b\", {ENTRY} }}, \"Total\" : {{ \"transaction\" : \"Total\", {ENTRY} }}, \"a\" : {{ {ENTRY} }} }}");
        let imp = import_bytes("nightly/statistics.json", text.as_bytes()).unwrap();
        assert_eq!(imp.format, Format::JmeterStatistics);
        let run = &imp.bundle.runs[0];
        assert_eq!(run.id, "nightly");
        assert_eq!(run.transactions.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["b", "a"]);
        let t = &run.transactions[0];
        assert_eq!((t.samples, t.errors, t.mean_ms, t.p99_ms), (Some(4), Some(1), Some(25.0), Some(40.0)));
        assert_eq!(t.throughput_per_s, Some(6.1894261494177E-4));
        let kpi = |n: &str| run.kpis.iter().find(|k| k.name == n).map(|k| k.value);
        assert_eq!((kpi("Samples"), kpi("Error rate"), kpi("p95 response time")), (Some(4.0), Some(25.0), Some(40.0)));
        assert!(run.notes.iter().any(|n| n.contains("assumes JMeter's default aggregate_rpt_pct1..3")));
    }

    #[test]
    fn nan_strings_and_bad_shapes_are_reported_not_panicked_on() {
        let text = r#"{"x": {"sampleCount": 0, "meanResTime": "NaN", "errorPct": "NaN"}}"#;
        let imp = import_bytes("s.json", text.as_bytes()).unwrap();
        assert!(imp.warnings.iter().any(|w| w.path == "x.meanResTime"), "{:?}", imp.warnings);
        assert_eq!(imp.bundle.runs[0].transactions[0].mean_ms, None);
        let err = import_bytes("statistics.json", br#"{"x": 3}"#).unwrap_err();
        assert_eq!(err.path.as_deref(), Some("x"));
        let err = import_bytes("statistics.json", b"{\"x\": {\"sampleCount\": 1,}").unwrap_err();
        assert_eq!(err.line, Some(1));
    }
}
