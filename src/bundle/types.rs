//! The types of bundle format v1: serde for bundle files, borsh for the ingest worker's answer to
//! the page (`crate::wire`). Doc comments become the JSON Schema's descriptions.

use super::ByteSize;
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A results bundle: one report with its runs and everything measured in them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Bundle {
    /// Always "runlens-bundle".
    pub format: String,
    /// Format version; this build reads version 1.
    pub version: u32,
    pub report: Report,
    /// The runs, in the order the author wants them listed. Run ids are unique.
    pub runs: Vec<Run>,
    /// Comparisons the author wants shown first (the first one is the default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<Comparison>,
    /// Change thresholds the author judged the runs by; runlens' defaults fill in what is left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<Thresholds>,
    /// Rules that map transaction labels before runs are compared, in order (collapse ids,
    /// rename, include, exclude), so that labels that differ slightly between runs still match.
    /// The runs keep their labels as measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub label_rules: Vec<LabelRule>,
}

/// One label rule. `pattern` is a glob (`*` any text, `?` one character) matched against the
/// whole label; a label equal to the pattern always matches.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct LabelRule {
    pub kind: LabelRuleKind,
    /// The labels the rule applies to; `ids` without a pattern applies to every label.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// `rename`: the new label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// What a label rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LabelRuleKind {
    /// Numbers, UUIDs and long hexadecimal ids between separators become `{id}`:
    /// "GET /users/123" → "GET /users/{id}".
    #[default]
    Ids,
    /// Labels matching `pattern` become `to`.
    Rename,
    /// Only labels matching `pattern` are kept (several `include` rules in a row: any of them).
    Include,
    /// Labels matching `pattern` are left out.
    Exclude,
}

/// Changes smaller than a family's threshold are "within noise". Values are percent for relative
/// changes, percentage points for values in percent and for error rates. Every field is optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Thresholds {
    /// Latency statistics (mean, median, percentiles), percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
    /// Throughput and other rates per second, percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<f64>,
    /// Error rates (errors ÷ samples), percentage points. Default 0.5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_rate: Option<f64>,
    /// CPU utilization: percentage points when in percent, else percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    /// Memory: percentage points when in percent, else percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<f64>,
    /// Sizes (index store sizes, disk), percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Durations (run duration, KPIs in seconds), percent. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    /// Counts and other figures, percent (percentage points when in percent). Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<f64>,
    /// Transactions with fewer samples than this in either run are "not enough data". Default 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_samples: Option<u64>,
    /// What fails `runlens compare` (a CI gate), unless a criteria file is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criteria: Option<super::Criteria>,
}

impl Thresholds {
    /// The threshold of a family by its name (`"latency"`, `"error_rate"`, …).
    pub fn get(&self, family: &str) -> Option<f64> {
        match family {
            "latency" => self.latency,
            "throughput" => self.throughput,
            "error_rate" => self.error_rate,
            "cpu" => self.cpu,
            "memory" => self.memory,
            "size" => self.size,
            "duration" => self.duration,
            "count" => self.count,
            _ => None,
        }
    }
}

/// What the report is about, in the author's words.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Report {
    pub title: String,
    /// Purpose of the test, one paragraph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// Ticket ids with optional links and their relation to the report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tickets: Vec<Ticket>,
    /// Summary findings, one entry per paragraph or bullet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recommendations: Vec<String>,
    /// Free description of the environment (cluster name, data set, region).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    /// Other links (dashboards, artifacts, references).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
    /// Notes about the report itself, e.g. where a transcription was ambiguous.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Ticket {
    /// Ticket key, e.g. "PERF-637".
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// How the ticket relates: "tested", "compared-with", "bug", "follow-up", ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Link {
    pub label: String,
    pub url: String,
}

/// Outcome of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    #[default]
    Completed,
    Failed,
    Aborted,
    Unknown,
}

/// One test run and everything measured in it. Every list is optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Run {
    /// Stable id, unique in the bundle; used in URLs (`base=`, `cand=`).
    pub id: String,
    /// Short human label, e.g. "Test #2 (Poppy)".
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// Version or build of the system under test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Start time, ISO 8601 with offset, e.g. "2023-10-01T10:18:00Z".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// End time, ISO 8601 with offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Duration in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub status: RunStatus,
    /// Why the run failed or was aborted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_reason: Option<String>,
    /// Test conditions, one per entry (task counts, scaled instances, settings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Free dimensions such as release=Poppy, users=20, platform=Eureka; they drive N-run grids.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[borsh(deserialize_with = "super::presized::map")]
    pub dimensions: BTreeMap<String, String>,
    /// Latency per transaction.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    // Left out of borsh: `wire` sends a run's transactions in its own flat binary, 3 times as
    // fast to read (`wire/transactions.rs`).
    #[borsh(skip)]
    pub transactions: Vec<Transaction>,
    /// Resource utilization per service and metric.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// Search-index statistics (`_cat/indices`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indices: Vec<IndexStats>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kpis: Vec<Kpi>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ErrorEntry>,
    /// Per-tenant results in multi-tenant tests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tenants: Vec<TenantResult>,
    /// Module (service) configuration during the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<ModuleConfig>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infrastructure: Vec<InfraComponent>,
    /// A person's word on the run for trends: leave it out, or expect the change it brings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotation: Option<Annotation>,
    /// The run over test time (samples, errors, latency distributions, users, error causes per
    /// bucket), from which a window's statistics are computed. Tools that write only summaries
    /// leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<super::Timeline>,
}

/// What a run's annotation says.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Annotation {
    pub kind: AnnotationKind,
    /// Why, in a few words ("load generator restarted", "new index mapping").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// How trends treat an annotated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AnnotationKind {
    /// Shown, marked, but left out of change points and of judgement (a broken environment).
    #[default]
    Excluded,
    /// A deliberate change starts here: a change point at this run is expected, not a regression.
    ExpectedChange,
}

impl Run {
    /// Whether the run's annotation leaves it out of trends' judgement and change points.
    pub fn is_excluded(&self) -> bool {
        self.annotation.as_ref().is_some_and(|a| a.kind == AnnotationKind::Excluded)
    }

    /// The run's timeline when it is well formed (`Timeline::is_well_formed`), else none.
    pub fn usable_timeline(&self) -> Option<&super::Timeline> {
        self.timeline.as_ref().filter(|t| t.is_well_formed())
    }

    /// The note of an expected change starting at this run, if it is one.
    pub fn expected_change(&self) -> Option<&str> {
        self.annotation.as_ref().filter(|a| a.kind == AnnotationKind::ExpectedChange).map(|a| a.note.as_str())
    }
}

/// Latency statistics of one transaction (sampler, request label). Times in milliseconds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Transaction {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u64>,
    /// Failed samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p90_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p95_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p99_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ms: Option<f64>,
    /// Requests per second over the transaction's own window (its first sample's start to its
    /// last sample's end), as JMeter's Aggregate Report and dashboard compute it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_per_s: Option<f64>,
    /// Requests per second over the whole run's window (first start to last end of all samples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_run_per_s: Option<f64>,
    /// Bytes received in all samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_received: Option<u64>,
    /// Bytes sent in all samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_sent: Option<u64>,
    /// Other percentiles in milliseconds, keyed "p75", "p99.9", ...
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[borsh(deserialize_with = "super::presized::map")]
    pub percentiles: BTreeMap<String, f64>,
    /// Latency distribution, so deltas can be judged against noise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histogram: Option<Histogram>,
    /// How the figures were obtained when that matters (e.g. approximate percentiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A latency histogram: `counts[i]` samples fell at or below `upper_bounds_ms[i]` and above the
/// previous bound.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Histogram {
    #[serde(deserialize_with = "super::presized::numbers")]
    pub upper_bounds_ms: Vec<f64>,
    #[serde(deserialize_with = "super::presized::numbers")]
    pub counts: Vec<u64>,
}

/// Unit of a generic value (resources, KPIs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// Percent; CPU percent may exceed 100 (a share of several vCPUs).
    Percent,
    /// A plain count (connections, records, tasks).
    Count,
    /// Bytes.
    Bytes,
    /// Events (operations, requests, documents) per second.
    PerSecond,
    /// No unit.
    #[default]
    None,
}

/// Which way is better for a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    #[default]
    LowerIsBetter,
    HigherIsBetter,
    /// A change is neither good nor bad (shown without a verdict colour).
    Neutral,
}

/// Utilization of one metric of one service, e.g. mod-search CPU.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Resource {
    /// Service, module or host, e.g. "mod-search", "RDS writer".
    pub service: String,
    /// Metric name: "cpu", "memory", "db_cpu", "db_connections", or any other.
    pub metric: String,
    pub unit: Unit,
    /// Maximum, or the initial spike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Averages per phase, e.g. "first 2 hours", "after 2 hours".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<TimeSeries>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Phase {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
}

/// Values sampled over time: `values[i]` at `t_s[i]` seconds after the run's start.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TimeSeries {
    pub t_s: Vec<f64>,
    pub values: Vec<f64>,
}

/// One row of `_cat/indices`. Field names with dots (as `_cat/indices?format=json` prints them)
/// are accepted as aliases; sizes accept "122.9gb".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct IndexStats {
    pub index: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// Primary shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pri: Option<u32>,
    /// Replicas per primary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rep: Option<u32>,
    #[serde(default, alias = "docs.count", skip_serializing_if = "Option::is_none")]
    pub docs_count: Option<u64>,
    #[serde(default, alias = "docs.deleted", skip_serializing_if = "Option::is_none")]
    pub docs_deleted: Option<u64>,
    /// Total store size including replicas, bytes.
    #[serde(default, alias = "store.size", skip_serializing_if = "Option::is_none")]
    pub store_size: Option<ByteSize>,
    /// Primary store size, bytes.
    #[serde(default, alias = "pri.store.size", skip_serializing_if = "Option::is_none")]
    pub pri_store_size: Option<ByteSize>,
}

/// A named key figure, e.g. "Reindex duration" in seconds, lower is better.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Kpi {
    pub name: String,
    pub value: f64,
    pub unit: Unit,
    /// Which way is better; when left out, runlens infers it from the name and unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An error seen during the run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ErrorEntry {
    /// The message; importers of raw samples normalise it (numbers and ids replaced by `{n}`,
    /// `{id}`, …) so that one cause is one entry.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Services or modules that logged it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Response code of the failed samples, e.g. "500", "Non HTTP response code: java.net.SocketException".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The transaction (sampler, request) that failed; absent for errors of the run as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction: Option<String>,
    /// One original message before normalisation, when it differs from `message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// Test time (seconds after the run's first sample) of the first occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_s: Option<f64>,
    /// Test time (seconds after the run's first sample) of the last occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_s: Option<f64>,
}

impl ErrorEntry {
    /// The name an error is matched by across runs: `transaction: code/message` with the parts it
    /// has (JMeter's dashboard writes `code/message`); the message alone when it has neither code
    /// nor transaction, as bundles written before these fields.
    pub fn key(&self) -> String {
        let mut k = String::new();
        if let Some(t) = &self.transaction {
            k.push_str(t);
            k.push_str(": ");
        }
        if let Some(c) = &self.code {
            k.push_str(c);
            k.push('/');
        }
        k.push_str(&self.message);
        k
    }
}

/// Results of one tenant in a multi-tenant run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TenantResult {
    pub tenant: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kpis: Vec<Kpi>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[borsh(deserialize_with = "super::presized::transactions")]
    pub transactions: Vec<Transaction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Deployment parameters of one module (ECS service). Memory sizes in MiB, CPU in ECS CPU units
/// (1024 = one vCPU).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ModuleConfig {
    pub module: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_definition: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running_tasks: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_units: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mib: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_reservation_mib: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_metaspace_mib: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xmx_mib: Option<u32>,
    /// Any other setting, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[borsh(deserialize_with = "super::presized::map")]
    pub settings: BTreeMap<String, String>,
}

/// One part of the infrastructure, e.g. the EC2 fleet, the database, Kafka, OpenSearch.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct InfraComponent {
    /// What it is, e.g. "EC2 instances", "Database", "Kafka (MSK)", "OpenSearch".
    pub component: String,
    /// Instance type or class, e.g. "m6i.2xlarge", "db.r6g.xlarge".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Other settings by name, e.g. "Kafka version" = "2.8.0".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[borsh(deserialize_with = "super::presized::map")]
    pub settings: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A comparison the author declares: one baseline run against candidate runs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Comparison {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Run id of the baseline.
    pub baseline: String,
    /// Run ids of the candidates.
    pub candidates: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
