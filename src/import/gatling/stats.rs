//! Gatling's report statistics (https://docs.gatling.io/reference/stats/reports/): `js/stats.json`
//! (a GROUP tree: `stats` of all requests, `contents` keyed by ids with REQUEST and GROUP nodes),
//! its JavaScript twin `js/stats.js` (`var stats = {…}` with unquoted keys, numbers as strings and
//! `-` for "no value"), and `js/global_stats.json` (the root's stats alone). Written by
//! gatling-charts `StatsJsTemplate`/`GlobalStatsJsonTemplate` from Gatling 2 to 3.13.
//!
//! Figures are Gatling's: counts and min/max exact; mean and standard deviation rounded to whole
//! ms; percentiles estimated with a t-digest (com.tdunning AVLTreeDigest, compression 100,
//! linear interpolation between centroids) and rounded to whole ms. `percentiles1..4` are the
//! ranks set in gatling.conf `charting.indicators.percentile1..4`, 50/75/95/99 by default; the
//! files never say which (only a `name` naming the rank would, and is honoured when present), so
//! the defaults are assumed and the run notes say so. Requests in groups are named with their
//! group path (`group / request`, the node's `path`); groups are transactions of their own
//! (cumulated response time by default, group duration with `useGroupDurationMetric`).

use crate::bundle::{Direction, Kpi, LoadError, LoadErrorKind, Run, Transaction, Unit};
use crate::import::k6::metrics::count;
use crate::import::Head;
use crate::import::{common::names, common::text, Ctx};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::io::Read;

/// A number as Gatling writes it: a JSON number, or (stats.js) a string, `-` for none.
#[derive(Debug, Default, Clone, Copy)]
struct Num(Option<f64>);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(f64),
            S(String),
            Null(()),
        }
        Ok(Num(match Raw::deserialize(d)? {
            Raw::N(v) => Some(v),
            Raw::S(s) if s.trim() == "-" || s.trim().is_empty() => None,
            Raw::S(s) => {
                Some(s.trim().parse::<f64>().map_err(|_| serde::de::Error::custom(format!("{s:?} is not a number")))?)
            }
            Raw::Null(()) => None,
        }))
    }
}

#[derive(Debug, Default, Deserialize)]
struct Pair {
    #[serde(default)]
    total: Num,
    #[serde(default)]
    ko: Num,
    /// Not written by Gatling; a rank (`response time 99th percentile`) if a file carries one.
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stats {
    #[serde(default)]
    number_of_requests: Pair,
    #[serde(default)]
    min_response_time: Pair,
    #[serde(default)]
    max_response_time: Pair,
    #[serde(default)]
    mean_response_time: Pair,
    #[serde(default)]
    percentiles1: Pair,
    #[serde(default)]
    percentiles2: Pair,
    #[serde(default)]
    percentiles3: Pair,
    #[serde(default)]
    percentiles4: Pair,
    #[serde(default)]
    mean_number_of_requests_per_second: Pair,
}

#[derive(Debug, Default, Deserialize)]
struct Node {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    path: String,
    #[serde(default)]
    stats: Option<Stats>,
    #[serde(default, deserialize_with = "in_order")]
    contents: Vec<(String, Node)>,
}

/// `contents` in file order (serde_json's map would sort the ids).
fn in_order<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, Node)>, D::Error> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, Node)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of requests and groups")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry::<String, Node>()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Entries)
}

/// `js/stats.json` or `js/stats.js`.
pub fn detect(h: &Head) -> bool {
    let js = h.trimmed().starts_with("var stats") && h.text.contains("numberOfRequests");
    let json = h.is_json_object()
        && h.has_key("type", &['"'])
        && h.has_key("contents", &['{'])
        && h.has_key("numberOfRequests", &['{']);
    js || json
}

/// `js/global_stats.json`.
pub fn detect_global(h: &Head) -> bool {
    h.is_json_object()
        && h.has_key("numberOfRequests", &['{'])
        && h.has_key("meanNumberOfRequestsPerSecond", &['{'])
        && !h.has_key("contents", &[])
}

/// The object literal after `var stats =` as JSON. Gatling's stats.js differs from JSON only by
/// its unquoted keys (`type: "GROUP"`), so they are quoted here; a JSON5 parser crate would add
/// far more code to the worker than these lines.
fn stats_js_to_json(js: &str) -> Option<String> {
    let at = js.find("var stats")?;
    let body = &js[at + js[at..].find('{')?..];
    let mut out = String::with_capacity(body.len() + body.len() / 8);
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    let mut it = body.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if in_str {
            out.push(c);
            match c {
                _ if esc => esc = false,
                '\\' => esc = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    out.push(c);
                    return Some(out);
                }
            }
            c if c.is_ascii_alphabetic() || c == '_' || c == '$' => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) =
                    it.peek().copied().filter(|(_, d)| d.is_ascii_alphanumeric() || *d == '_' || *d == '$')
                {
                    end = j + d.len_utf8();
                    it.next();
                }
                let word = &body[i..end];
                if body[end..].trim_start().starts_with(':') {
                    out.push('"');
                    out.push_str(word);
                    out.push('"');
                } else {
                    out.push_str(word);
                }
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    None
}

fn parse<'a, T: Deserialize<'a>>(ctx: &Ctx, json: &'a str) -> Result<T, LoadError> {
    let mut de = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let kind = if inner.is_syntax() || inner.is_eof() { LoadErrorKind::Syntax } else { LoadErrorKind::Schema };
        ctx.error(kind, None, inner.to_string()).at(inner.line(), Some(inner.column())).at_path(path)
    })
}

/// Gatling escapes `"` and `\` in names as HTML entities (JsHelper.escapeJsIllegalChars).
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"").replace("&#92;", "\\")
}

/// The rank a `percentilesN` stands for: named in the file, else Gatling's default.
fn ranks(st: &Stats) -> ([f64; 4], bool) {
    let named = |p: &Pair| {
        let name = p.name.as_deref()?;
        let digits: String =
            name.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        digits.parse::<f64>().ok().filter(|r| *r > 0.0 && *r <= 100.0)
    };
    let found = [&st.percentiles1, &st.percentiles2, &st.percentiles3, &st.percentiles4].map(named);
    let defaults = [50.0, 75.0, 95.0, 99.0];
    let all = found.iter().all(Option::is_some);
    (std::array::from_fn(|i| found[i].unwrap_or(defaults[i])), all)
}

fn transaction(name: String, st: &Stats, ranks: &[f64; 4]) -> Transaction {
    let samples = st.number_of_requests.total.0.and_then(count);
    let mut t = Transaction { name, samples, errors: st.number_of_requests.ko.0.and_then(count), ..Default::default() };
    if samples.unwrap_or(0) == 0 {
        return t;
    }
    t.mean_ms = st.mean_response_time.total.0;
    t.min_ms = st.min_response_time.total.0;
    t.max_ms = st.max_response_time.total.0;
    t.throughput_run_per_s = st.mean_number_of_requests_per_second.total.0;
    for (rank, p) in ranks.iter().zip([&st.percentiles1, &st.percentiles2, &st.percentiles3, &st.percentiles4]) {
        let Some(v) = p.total.0 else { continue };
        match *rank {
            50.0 => t.median_ms = Some(v),
            90.0 => t.p90_ms = Some(v),
            95.0 => t.p95_ms = Some(v),
            99.0 => t.p99_ms = Some(v),
            r => {
                t.percentiles.insert(format!("p{r}"), v);
            }
        }
    }
    t
}

fn walk(nodes: &[(String, Node)], ranks: &[f64; 4], parents: &[String], out: &mut Vec<Transaction>) {
    for (id, node) in nodes {
        let own = if node.name.is_empty() { id.clone() } else { unescape(&node.name) };
        let path = if node.path.is_empty() {
            parents.iter().chain([&own]).cloned().collect::<Vec<_>>().join(" / ")
        } else {
            unescape(&node.path)
        };
        let st = node.stats.as_ref();
        if node.kind == "GROUP" {
            if let Some(st) = st {
                let mut t = transaction(path.clone(), st, ranks);
                t.note = Some("Gatling group: cumulated response time of its requests by default (group duration with useGroupDurationMetric)".into());
                out.push(t);
            }
            let mut chain = parents.to_vec();
            chain.push(own);
            walk(&node.contents, ranks, &chain, out);
        } else if let Some(st) = st {
            out.push(transaction(path, st, ranks));
        }
    }
}

fn run_of(ctx: &mut Ctx, st: &Stats, transactions: Vec<Transaction>, from_file: bool) -> Run {
    let kpi = |name: &str, value: f64, unit: Unit, direction: Direction, note: &str| Kpi {
        name: name.into(),
        value,
        unit,
        direction: Some(direction),
        note: Some(note.into()),
    };
    let (ranks, _) = ranks(st);
    let total = st.number_of_requests.total.0.unwrap_or(0.0);
    let mut kpis = vec![kpi("Samples", total, Unit::Count, Direction::Neutral, "requests")];
    if let (Some(ko), true) = (st.number_of_requests.ko.0, total > 0.0) {
        kpis.push(kpi("Error rate", ko * 100.0 / total, Unit::Percent, Direction::LowerIsBetter, "KO requests"));
    }
    let rate = st.mean_number_of_requests_per_second.total.0;
    if let Some(r) = rate {
        kpis.push(kpi(
            "Throughput",
            r,
            Unit::PerSecond,
            Direction::HigherIsBetter,
            "Gatling: requests ÷ the run's duration in whole seconds",
        ));
    }
    if let Some(m) = st.mean_response_time.total.0.filter(|_| total > 0.0) {
        kpis.push(kpi("Mean response time", m, Unit::Ms, Direction::LowerIsBetter, "all requests, rounded by Gatling"));
    }
    let p95 = ranks
        .iter()
        .position(|r| *r == 95.0)
        .and_then(|i| [&st.percentiles1, &st.percentiles2, &st.percentiles3, &st.percentiles4][i].total.0);
    if let Some(p) = p95.filter(|_| total > 0.0) {
        kpis.push(kpi(
            "p95 response time",
            p,
            Unit::Ms,
            Direction::LowerIsBetter,
            "all requests, Gatling's t-digest estimate",
        ));
    }
    let name = ctx.source;
    let mut run = Run {
        id: names::run_id(name),
        label: names::file_stem(name).to_string(),
        duration_s: rate.filter(|r| *r > 0.0).map(|r| (total / r).round()),
        transactions,
        kpis,
        ..Default::default()
    };
    let ranks_text: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
    run.notes.push(if from_file {
        format!("Gatling's figures from {}: percentiles1–4 are p{} as the file names them.", names::file_name(name), ranks_text.join("/p"))
    } else {
        format!(
            "Gatling's figures from {}: percentiles1–4 are read as p50/p75/p95/p99, Gatling's defaults (gatling.conf charting.indicators.percentile1..4); the file does not say which ranks were configured. Means and percentiles are rounded to whole ms by Gatling; percentiles are t-digest estimates. The duration is requests ÷ mean requests per second (whole seconds, as Gatling counts it).",
            names::file_name(name)
        )
    });
    run.dimensions.extend(names::suggested_dimensions(name));
    run
}

/// Imports `js/stats.json` or `js/stats.js`.
pub fn import(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<Run, LoadError> {
    let text = crate::import::read_whole_text(ctx, enc, input)?;
    let json = if text.trim_start().starts_with('{') {
        text
    } else {
        stats_js_to_json(&text).ok_or_else(|| {
            ctx.error(LoadErrorKind::Syntax, None, "no complete `var stats = {…}` object was found in this stats.js")
        })?
    };
    let root: Node = parse(ctx, &json)?;
    let Some(st) = root.stats.as_ref() else {
        return Err(ctx.error_at(LoadErrorKind::Schema, "stats", "the root group has no stats"));
    };
    let (ranks, from_file) = ranks(st);
    let mut transactions = Vec::new();
    walk(&root.contents, &ranks, &[], &mut transactions);
    if transactions.is_empty() {
        return Err(ctx.error_at(LoadErrorKind::Empty, "contents", "the report lists no requests"));
    }
    Ok(run_of(ctx, st, transactions, from_file))
}

/// Imports `js/global_stats.json`: the run's totals, as KPIs and one transaction.
pub fn import_global(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<Run, LoadError> {
    let text = crate::import::read_whole_text(ctx, enc, input)?;
    let st: Stats = parse(ctx, &text)?;
    let (ranks, from_file) = ranks(&st);
    let mut t = transaction("All requests".into(), &st, &ranks);
    t.note = Some("Gatling's Global Information (every request)".into());
    Ok(run_of(ctx, &st, vec![t], from_file))
}

#[cfg(test)]
mod tests;
