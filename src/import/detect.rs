//! Which format a file is in: by its name first (`statistics.json`, `simulation.log`,
//! `*_stats.csv`), then by its content (the first `HEAD_BYTES`). Each format's content test lives
//! in that format's module; this file only orders them.

use super::Head;

/// Every input runlens recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// A runlens bundle (JSON, or gzip-compressed JSON).
    Bundle,
    /// JMeter CSV results (JTL written by SimpleDataWriter / `jmeter -l`).
    JmeterCsv,
    /// JMeter XML results (JTL with `<testResults>`).
    JmeterXml,
    /// JMeter dashboard `statistics.json`.
    JmeterStatistics,
    /// JMeter Aggregate Report / Summary Report CSV, or a history of them.
    JmeterSummary,
    /// k6 `handleSummary` JSON (the summary object k6 hands to handleSummary).
    K6Summary,
    /// k6 legacy `--summary-export` JSON.
    K6SummaryExport,
    /// k6 `--out csv` raw metric points.
    K6Csv,
    /// k6 `--out json` raw metric points (NDJSON).
    K6Json,
    /// k6 end-of-test console summary (text).
    K6Console,
    /// Gatling `js/stats.json` or `js/stats.js`.
    GatlingStats,
    /// Gatling `js/global_stats.json`.
    GatlingGlobalStats,
    /// Gatling `simulation.log` (text, Gatling 2 to 3.10).
    GatlingLog,
    /// Gatling 3.11+ binary `simulation.log` (refused with advice).
    GatlingBinaryLog,
    /// Locust `*_stats.csv`.
    LocustStats,
    /// Locust `*_stats_history.csv`.
    LocustHistory,
    /// Locust `*_failures.csv`.
    LocustFailures,
    /// Locust `*_exceptions.csv`.
    LocustExceptions,
    /// OpenSearch / Elasticsearch `_cat/indices` text.
    CatIndices,
    /// `_cat/indices?format=json` or `_list/indices`.
    CatIndicesJson,
    /// AWS CloudWatch `get-metric-data` output.
    CloudWatchMetricData,
    /// AWS CloudWatch `get-metric-statistics` output.
    CloudWatchStatistics,
    /// The JSON source of a CloudWatch dashboard widget.
    CloudWatchWidget,
    /// `docker stats` captured as a table, CSV or JSON lines.
    DockerStats,
}

impl Format {
    pub const ALL: [Format; 24] = [
        Format::Bundle,
        Format::JmeterCsv,
        Format::JmeterXml,
        Format::JmeterStatistics,
        Format::JmeterSummary,
        Format::K6Summary,
        Format::K6SummaryExport,
        Format::K6Csv,
        Format::K6Json,
        Format::K6Console,
        Format::GatlingStats,
        Format::GatlingGlobalStats,
        Format::GatlingLog,
        Format::GatlingBinaryLog,
        Format::LocustStats,
        Format::LocustHistory,
        Format::LocustFailures,
        Format::LocustExceptions,
        Format::CatIndices,
        Format::CatIndicesJson,
        Format::CloudWatchMetricData,
        Format::CloudWatchStatistics,
        Format::CloudWatchWidget,
        Format::DockerStats,
    ];

    /// What users call it, for messages and the import panel.
    pub fn title(self) -> &'static str {
        match self {
            Format::Bundle => "runlens bundle",
            Format::JmeterCsv => "JMeter CSV results (JTL)",
            Format::JmeterXml => "JMeter XML results (JTL)",
            Format::JmeterStatistics => "JMeter dashboard statistics.json",
            Format::JmeterSummary => "JMeter Aggregate/Summary Report CSV",
            Format::K6Summary => "k6 summary (handleSummary JSON)",
            Format::K6SummaryExport => "k6 --summary-export JSON",
            Format::K6Csv => "k6 --out csv points",
            Format::K6Json => "k6 --out json points",
            Format::K6Console => "k6 end-of-test summary text",
            Format::GatlingStats => "Gatling stats.json",
            Format::GatlingGlobalStats => "Gatling global_stats.json",
            Format::GatlingLog => "Gatling simulation.log",
            Format::GatlingBinaryLog => "Gatling binary simulation.log (3.11+)",
            Format::LocustStats => "Locust stats CSV",
            Format::LocustHistory => "Locust stats history CSV",
            Format::LocustFailures => "Locust failures CSV",
            Format::LocustExceptions => "Locust exceptions CSV",
            Format::CatIndices => "_cat/indices text",
            Format::CatIndicesJson => "_cat/indices JSON",
            Format::CloudWatchMetricData => "CloudWatch get-metric-data JSON",
            Format::CloudWatchStatistics => "CloudWatch get-metric-statistics JSON",
            Format::CloudWatchWidget => "CloudWatch dashboard widget source",
            Format::DockerStats => "docker stats output (table, CSV or JSON lines)",
        }
    }

    /// A stable identifier (CLI `--format`, worker messages, tests).
    pub fn slug(self) -> &'static str {
        match self {
            Format::Bundle => "bundle",
            Format::JmeterCsv => "jmeter-csv",
            Format::JmeterXml => "jmeter-xml",
            Format::JmeterStatistics => "jmeter-statistics",
            Format::JmeterSummary => "jmeter-summary",
            Format::K6Summary => "k6-summary",
            Format::K6SummaryExport => "k6-summary-export",
            Format::K6Csv => "k6-csv",
            Format::K6Json => "k6-json",
            Format::K6Console => "k6-console",
            Format::GatlingStats => "gatling-stats",
            Format::GatlingGlobalStats => "gatling-global-stats",
            Format::GatlingLog => "gatling-log",
            Format::GatlingBinaryLog => "gatling-binary-log",
            Format::LocustStats => "locust-stats",
            Format::LocustHistory => "locust-history",
            Format::LocustFailures => "locust-failures",
            Format::LocustExceptions => "locust-exceptions",
            Format::CatIndices => "cat-indices",
            Format::CatIndicesJson => "cat-indices-json",
            Format::CloudWatchMetricData => "cloudwatch-metric-data",
            Format::CloudWatchStatistics => "cloudwatch-statistics",
            Format::CloudWatchWidget => "cloudwatch-widget",
            Format::DockerStats => "docker-stats",
        }
    }

    pub fn from_slug(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.slug() == s)
    }
}

/// A format from the file name alone, where the name is specific enough. `.jtl` names a family
/// whose member is decided by content.
pub fn detect_by_name(name: &str) -> Option<Format> {
    let file = super::common::names::file_name(name).to_ascii_lowercase();
    let file = file.strip_suffix(".gz").unwrap_or(&file);
    let exact = [
        ("statistics.json", Format::JmeterStatistics),
        ("global_stats.json", Format::GatlingGlobalStats),
        ("stats.json", Format::GatlingStats),
        ("stats.js", Format::GatlingStats),
        ("simulation.log", Format::GatlingLog),
    ];
    if let Some((_, f)) = exact.iter().find(|(n, _)| file == *n) {
        return Some(*f);
    }
    let suffixes = [
        ("_stats_history.csv", Format::LocustHistory),
        ("_stats.csv", Format::LocustStats),
        ("_failures.csv", Format::LocustFailures),
        ("_exceptions.csv", Format::LocustExceptions),
    ];
    suffixes.iter().find(|(s, _)| file.ends_with(s)).map(|(_, f)| *f)
}

/// A format from the content alone (the first `HEAD_BYTES` of the file).
pub fn detect_by_content(head: &[u8]) -> Option<Format> {
    if head.starts_with(&[0x1f, 0x8b]) {
        // gzip: only bundles are read compressed.
        return Some(Format::Bundle);
    }
    let h = Head::new(head);
    CONTENT_TESTS.iter().find(|(_, t)| t(&h)).map(|(f, _)| *f)
}

type ContentTest = fn(&Head) -> bool;

// Specific before general: JMeter's XML, JSON and summary CSV, Gatling's binary and text logs,
// k6's line formats, JSON shapes by their keys, the console text before the JTL CSV sniffing,
// then the other tools' JSON and text tables, and the custom-k6-summary catch-all last.
static CONTENT_TESTS: &[(Format, ContentTest)] = &[
    (Format::Bundle, is_bundle),
    (Format::JmeterXml, super::jmeter::xml::detect),
    (Format::JmeterStatistics, super::jmeter::stats::detect),
    (Format::JmeterSummary, super::jmeter::summary::detect),
    (Format::GatlingBinaryLog, super::gatling::log::detect_binary),
    (Format::GatlingLog, super::gatling::log::detect),
    (Format::K6Json, super::k6::json::detect),
    (Format::K6Csv, super::k6::csv::detect),
    (Format::K6Summary, super::k6::summary::detect),
    (Format::K6SummaryExport, super::k6::summary::detect_export),
    (Format::GatlingStats, super::gatling::stats::detect),
    (Format::GatlingGlobalStats, super::gatling::stats::detect_global),
    (Format::K6Console, super::k6::console::detect),
    (Format::JmeterCsv, super::jmeter::csv::detect),
    // JSON of named keys first; `_cat/indices` JSON only has generic ones ("index", "health").
    (Format::CloudWatchMetricData, super::cloudwatch::detect_metric_data),
    (Format::CloudWatchStatistics, super::cloudwatch::detect_statistics),
    (Format::CloudWatchWidget, super::cloudwatch::detect_widget),
    (Format::CatIndicesJson, super::opensearch::detect_json),
    // Locust: the history header also has Name and counts, so it goes before the stats test.
    (Format::LocustHistory, super::locust::detect_history),
    (Format::LocustFailures, super::locust::detect_failures),
    (Format::LocustExceptions, super::locust::detect_exceptions),
    (Format::LocustStats, super::locust::detect),
    // Text tables last: a `_cat/indices` header may sit below a title or a curl command.
    (Format::CatIndices, super::opensearch::detect),
    (Format::DockerStats, super::docker::detect),
    (Format::K6Summary, super::k6::summary::detect_custom),
];

fn is_bundle(h: &Head) -> bool {
    h.is_json_object() && h.text.contains("\"runlens-bundle\"")
}

/// The format of a file: by name where the name says it, else by content. The error lists what
/// is supported.
pub fn detect(name: &str, head: &[u8]) -> Result<Format, String> {
    if let Some(f) = detect_by_name(name) {
        // A name can lie (a bundle saved as statistics.json): content that is clearly a bundle wins.
        if f != Format::Bundle && is_bundle(&Head::new(head)) {
            return Ok(Format::Bundle);
        }
        // simulation.log is text up to Gatling 3.10 and binary from 3.11.
        if f == Format::GatlingLog && super::gatling::log::detect_binary(&Head::new(head)) {
            return Ok(Format::GatlingBinaryLog);
        }
        // Nor is a name a promise the other way: JMeter's statistics.json saved as stats.json
        // (Gatling's name). Content that fails the named format's own tests and passes another's
        // is read as what it is. (Compressed content is left to the name: only bundles are.)
        let h = Head::new(head);
        let has_own_test = CONTENT_TESTS.iter().any(|(g, _)| *g == f);
        let passes_own_test = || CONTENT_TESTS.iter().any(|(g, t)| *g == f && t(&h));
        if !head.starts_with(&[0x1f, 0x8b]) && has_own_test && !passes_own_test() {
            if let Some(c) = detect_by_content(head) {
                return Ok(c);
            }
        }
        return Ok(f);
    }
    detect_by_content(head).ok_or_else(|| {
        if head.is_empty() {
            "the file is empty".to_string()
        } else {
            format!("runlens does not recognise this file. It reads: {}.", supported_list())
        }
    })
}

/// The supported formats as one sentence.
pub fn supported_list() -> String {
    let mut names: Vec<&str> =
        Format::ALL.iter().filter(|f| **f != Format::GatlingBinaryLog).map(|f| f.title()).collect();
    names.dedup();
    names.join(", ")
}
