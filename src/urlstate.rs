//! The URL contract (a public one: wiki pages link to it for years): one typed struct with
//! `parse` and `to_query`. An unknown or invalid parameter is dropped with a notice; the rest
//! still applies. Parameters are documented in README.md.

use crate::analysis::window::{Shift, WindowSpec};
use crate::bundle::{LabelRule, LabelRuleKind};
use crate::model::{Family, Thresholds};

/// Which view is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    Overview,
    Compare,
    Latency,
    Resources,
    Indices,
    Trends,
    Timeline,
    Config,
}

impl View {
    pub const ALL: [View; 8] = [
        View::Overview,
        View::Compare,
        View::Latency,
        View::Resources,
        View::Indices,
        View::Timeline,
        View::Trends,
        View::Config,
    ];

    /// Whether the view draws charts (Plotly.js is then worth loading before its data is read).
    pub fn has_charts(self) -> bool {
        matches!(self, View::Latency | View::Resources | View::Indices | View::Trends | View::Timeline)
    }

    pub fn slug(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Compare => "compare",
            View::Latency => "latency",
            View::Resources => "resources",
            View::Indices => "indices",
            View::Trends => "trends",
            View::Timeline => "timeline",
            View::Config => "config",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            View::Overview => "Overview",
            View::Compare => "Compare",
            View::Latency => "Latency",
            View::Resources => "Resources",
            View::Indices => "Index sizes",
            View::Trends => "Trends",
            View::Timeline => "Timeline",
            View::Config => "Configuration",
        }
    }

    pub fn from_slug(s: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.slug() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// Everything a link restores.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UrlState {
    /// Bundles to fetch, in order (`src`, repeatable).
    pub src: Vec<String>,
    pub view: View,
    /// Baseline run id (`base`).
    pub base: Option<String>,
    /// Candidate run id (`cand`).
    pub cand: Option<String>,
    /// Runs for N-run views, baseline first (`runs=a,b,c`).
    pub runs: Vec<String>,
    /// `embed=1`: only the view, for iframes.
    pub embed: bool,
    /// `theme=light|dark`; absent follows the system.
    pub theme: Option<Theme>,
    /// Thresholds the link sets (`threshold`, `threshold.<family>`, `min_samples`).
    pub thresholds: ThresholdParams,
    /// Name filter (`filter=`).
    pub filter: String,
    /// Show only regressions (`regressions=1`).
    pub regressions_only: bool,
    /// Sort column (`sort=p95`, prefix `-` for descending; `change`: biggest changes first).
    pub sort: Option<String>,
    /// Trends: the dimension runs are ordered by (`order=release`, `start`, …).
    pub order: Option<String>,
    /// Trends: the metric shown (`metric=Run duration`, `metric=search · p95`).
    pub metric: Option<String>,
    /// Ingest workers that may share one large file (`workers=1..8`; default: the cores, at most 4).
    pub workers: Option<u8>,
    /// The part of each run every view judges (`window=FROM-TO` seconds of test time, `window=auto`).
    pub window: WindowSpec,
    /// Per-run offsets of the window (`shift=RUN:SECONDS`, repeatable).
    pub shifts: Vec<Shift>,
    /// Timeline: the latency percentile drawn (`pct=50|90|95|99`; default 95).
    pub pct: Option<u8>,
    /// Timeline: one transaction instead of all samples (`tx=NAME`).
    pub tx: Option<String>,
    /// Timeline: wall-clock time on the x axis instead of elapsed test time (`clock=1`).
    pub clock: bool,
    /// Label rules, after the bundle's (`label=`, repeatable, in order; `label_param`).
    pub labels: Vec<LabelRule>,
}

/// Percentiles the Timeline view can draw.
pub const TIMELINE_PERCENTILES: [u8; 4] = [50, 90, 95, 99];

/// `sort` value for "biggest changes first".
pub const SORT_BY_CHANGE: &str = "change";
/// Largest threshold a link may set, in percent or percentage points.
const MAX_THRESHOLD: f64 = 1000.0;

/// Thresholds set by a link, over the bundle's and the defaults: `threshold` sets every family,
/// `threshold.<family>` one family (it wins over `threshold`), `min_samples` the minimum sample
/// count of a transaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ThresholdParams {
    pub all: Option<f64>,
    pub family: [Option<f64>; 8],
    pub min_samples: Option<u64>,
}

impl ThresholdParams {
    pub fn get(&self, f: Family) -> Option<f64> {
        Family::ALL.iter().position(|x| *x == f).and_then(|i| self.family[i])
    }

    pub fn set(&mut self, f: Family, v: Option<f64>) {
        if let Some(i) = Family::ALL.iter().position(|x| *x == f) {
            self.family[i] = v;
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == ThresholdParams::default()
    }

    /// `base` (the bundle's thresholds over the defaults) with this link's on top.
    pub fn apply(&self, base: Thresholds) -> Thresholds {
        let mut t = base;
        for f in Family::ALL {
            if let Some(v) = self.get(f).or(self.all) {
                t.set(f, v);
            }
        }
        if let Some(n) = self.min_samples {
            t.min_samples = n;
        }
        t
    }
}

fn threshold_value(v: &str) -> Option<f64> {
    crate::number::parse_f64(v).filter(|t| t.is_finite() && (0.0..=MAX_THRESHOLD).contains(t))
}

/// Separates a rename's pattern from its new name in a `label=` value.
pub const RENAME_ARROW: &str = "=>";

/// A label rule as a `label=` value: `ids`, `ids:GLOB`, `rename:GLOB=>NAME`, `include:GLOB`,
/// `exclude:GLOB`. `None` for a rule a link cannot carry: one with a `model::labels::problem`, or
/// a rename whose pattern holds `=>` (write `=?` there).
pub fn label_param(r: &LabelRule) -> Option<String> {
    if crate::model::labels::problem(r).is_some() {
        return None;
    }
    let p = &r.pattern;
    Some(match r.kind {
        LabelRuleKind::Ids if p.is_empty() => "ids".into(),
        LabelRuleKind::Ids => format!("ids:{p}"),
        LabelRuleKind::Rename if p.contains(RENAME_ARROW) => return None,
        LabelRuleKind::Rename => format!("rename:{p}{RENAME_ARROW}{}", r.to.as_deref().unwrap_or_default()),
        LabelRuleKind::Include => format!("include:{p}"),
        LabelRuleKind::Exclude => format!("exclude:{p}"),
    })
}

/// The rule a `label=` value stands for (`label_param`), if it is a usable one.
pub fn parse_label(v: &str) -> Option<LabelRule> {
    let (kind, rest) = v.split_once(':').unwrap_or((v, ""));
    let (kind, pattern, to) = match kind {
        "ids" => (LabelRuleKind::Ids, rest, None),
        "rename" => {
            let (p, to) = rest.split_once(RENAME_ARROW)?;
            (LabelRuleKind::Rename, p, Some(to.to_string()))
        }
        "include" => (LabelRuleKind::Include, rest, None),
        "exclude" => (LabelRuleKind::Exclude, rest, None),
        _ => return None,
    };
    let r = LabelRule { kind, pattern: pattern.to_string(), to };
    crate::model::labels::problem(&r).is_none().then_some(r)
}

fn flag(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "yes" => Some(true),
        "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

impl UrlState {
    /// Parses a query string (with or without the leading `?`). Returns the state and a notice
    /// for each parameter that was ignored.
    pub fn parse(query: &str) -> (UrlState, Vec<String>) {
        let mut s = UrlState::default();
        let mut notices = Vec::new();
        let query = query.strip_prefix('?').unwrap_or(query);
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            let (k, v) = (k.as_ref(), v.as_ref());
            let ok = match k {
                "src" => (!v.is_empty()).then(|| s.src.push(v.to_string())).is_some(),
                "view" => View::from_slug(v).map(|x| s.view = x).is_some(),
                "base" => (!v.is_empty()).then(|| s.base = Some(v.to_string())).is_some(),
                "cand" => (!v.is_empty()).then(|| s.cand = Some(v.to_string())).is_some(),
                "runs" => {
                    s.runs = v.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect();
                    true
                }
                "embed" => flag(v).map(|b| s.embed = b).is_some(),
                "theme" => match v {
                    "light" => {
                        s.theme = Some(Theme::Light);
                        true
                    }
                    "dark" => {
                        s.theme = Some(Theme::Dark);
                        true
                    }
                    _ => false,
                },
                "threshold" => threshold_value(v).map(|t| s.thresholds.all = Some(t)).is_some(),
                "min_samples" => v
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n <= 1_000_000_000)
                    .map(|n| s.thresholds.min_samples = Some(n))
                    .is_some(),
                _ if k.starts_with("threshold.") && Family::from_slug(&k["threshold.".len()..]).is_some() => {
                    let f = Family::from_slug(&k["threshold.".len()..]);
                    match (f, threshold_value(v)) {
                        (Some(f), Some(t)) => {
                            s.thresholds.set(f, Some(t));
                            true
                        }
                        _ => false,
                    }
                }
                "order" => (!v.is_empty()).then(|| s.order = Some(v.to_string())).is_some(),
                "metric" => (!v.is_empty()).then(|| s.metric = Some(v.to_string())).is_some(),
                "filter" => {
                    s.filter = v.to_string();
                    true
                }
                "regressions" => flag(v).map(|b| s.regressions_only = b).is_some(),
                "sort" => (!v.is_empty()).then(|| s.sort = Some(v.to_string())).is_some(),
                "window" => WindowSpec::parse(v).map(|w| s.window = w).is_some(),
                "shift" => Shift::parse(v).map(|x| s.shifts.push(x)).is_some(),
                "pct" => {
                    v.parse::<u8>().ok().filter(|p| TIMELINE_PERCENTILES.contains(p)).map(|p| s.pct = Some(p)).is_some()
                }
                "tx" => (!v.is_empty()).then(|| s.tx = Some(v.to_string())).is_some(),
                "clock" => flag(v).map(|b| s.clock = b).is_some(),
                "label" => parse_label(v).map(|r| s.labels.push(r)).is_some(),
                "workers" => {
                    v.parse::<u8>().ok().filter(|n| (1..=8).contains(n)).map(|n| s.workers = Some(n)).is_some()
                }
                _ => {
                    notices.push(format!("Ignored the unknown link parameter “{k}”."));
                    continue;
                }
            };
            if !ok {
                notices.push(format!("Ignored “{k}={v}”: not a valid value."));
            }
        }
        (s, notices)
    }

    /// The query string (without `?`) that `parse` turns back into this state. Defaults are
    /// left out so links stay short.
    pub fn to_query(&self) -> String {
        let d = UrlState::default();
        let mut q = form_urlencoded::Serializer::new(String::new());
        for src in &self.src {
            q.append_pair("src", src);
        }
        if self.view != d.view {
            q.append_pair("view", self.view.slug());
        }
        if let Some(b) = &self.base {
            q.append_pair("base", b);
        }
        if let Some(c) = &self.cand {
            q.append_pair("cand", c);
        }
        if !self.runs.is_empty() {
            q.append_pair("runs", &self.runs.join(","));
        }
        if self.embed {
            q.append_pair("embed", "1");
        }
        if let Some(t) = self.theme {
            q.append_pair("theme", if t == Theme::Dark { "dark" } else { "light" });
        }
        if let Some(t) = self.thresholds.all {
            q.append_pair("threshold", &crate::decimal::shortest(t));
        }
        for f in Family::ALL {
            if let Some(t) = self.thresholds.get(f) {
                q.append_pair(&format!("threshold.{}", f.slug()), &crate::decimal::shortest(t));
            }
        }
        if let Some(n) = self.thresholds.min_samples {
            q.append_pair("min_samples", &n.to_string());
        }
        if !self.filter.is_empty() {
            q.append_pair("filter", &self.filter);
        }
        if self.regressions_only {
            q.append_pair("regressions", "1");
        }
        if let Some(s) = &self.sort {
            q.append_pair("sort", s);
        }
        if let Some(o) = &self.order {
            q.append_pair("order", o);
        }
        if let Some(m) = &self.metric {
            q.append_pair("metric", m);
        }
        if let Some(n) = self.workers {
            q.append_pair("workers", &n.to_string());
        }
        if let Some(w) = self.window.to_param() {
            q.append_pair("window", &w);
        }
        for shift in &self.shifts {
            q.append_pair("shift", &shift.to_param());
        }
        if let Some(p) = self.pct {
            q.append_pair("pct", &p.to_string());
        }
        if let Some(t) = &self.tx {
            q.append_pair("tx", t);
        }
        if self.clock {
            q.append_pair("clock", "1");
        }
        for r in &self.labels {
            if let Some(v) = label_param(r) {
                q.append_pair("label", &v);
            }
        }
        q.finish()
    }

    /// The thresholds in force: defaults, under the bundle's, under the link's.
    pub fn thresholds(&self, ws: &crate::model::Workspace) -> Thresholds {
        self.thresholds.apply(ws.thresholds())
    }
}

/// Whether a `src` value may be fetched, given the protocol the browser's URL parser resolved it
/// to against the page's address (`"https:"`, `"javascript:"`; `None` when it is not a URL). The
/// resolved protocol is what a fetch would use, so nothing that splits the text by hand can be
/// fooled by whitespace, tabs, case or backslashes: only http(s) is fetched, and every other
/// scheme (file:, javascript:, data:, blob:) is refused with a message.
pub fn check_src(src: &str, resolved_protocol: Option<&str>) -> Result<(), String> {
    let shown = src.trim();
    if shown.is_empty() {
        return Err("an empty src".into());
    }
    match resolved_protocol.map(str::to_ascii_lowercase).as_deref() {
        Some("http:" | "https:") => Ok(()),
        Some(p) => Err(format!("“{shown}” uses the {p} scheme; only relative, http and https URLs can be loaded")),
        None => Err(format!("“{shown}”: it is not a URL")),
    }
}

impl UrlState {
    /// The runs to show, baseline first, keeping only ids the workspace has: `runs` if given,
    /// else `base`/`cand`, else the workspace's default pair.
    pub fn selected_runs(&self, ws: &crate::model::Workspace) -> Vec<String> {
        let exists = |id: &&String| ws.run(id).is_some();
        let mut picked: Vec<String> = Vec::new();
        for id in self.runs.iter().filter(exists) {
            if !picked.contains(id) {
                picked.push(id.clone());
            }
        }
        if !picked.is_empty() {
            return picked;
        }
        let defaults = ws.default_selection();
        let base = self.base.as_ref().filter(exists).cloned();
        let cand = self.cand.as_ref().filter(exists).cloned();
        if base.is_none() && cand.is_none() {
            return defaults;
        }
        let base = base.or_else(|| defaults.first().cloned()).unwrap_or_default();
        let cand = cand.or_else(|| defaults.iter().find(|d| **d != base).cloned()).unwrap_or_default();
        if cand.is_empty() || base == cand {
            vec![base]
        } else {
            vec![base, cand]
        }
    }

    /// Selects runs (baseline first): two as `base`/`cand`, more as `runs`.
    pub fn select_runs(&mut self, ids: Vec<String>) {
        self.runs.clear();
        self.base = ids.first().cloned();
        self.cand = ids.get(1).cloned();
        if ids.len() > 2 {
            self.base = None;
            self.cand = None;
            self.runs = ids;
        }
    }
}

#[cfg(test)]
mod tests;
