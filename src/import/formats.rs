//! The registry: every format runlens reads, one row each in `formats!` below, with its slug, its
//! title, the file names that say it, its content test and its importer. The rows' order is the
//! order of detection by content (specific before general); the `Format` enum's order is the order
//! formats are listed in (CLI `--format`, the list of supported formats, the landing page).
//!
//! Adding a format: a folder (or a file in its tool's folder) with a content test
//! (`fn(&Head) -> bool`) and an import function, a `Format` variant, and one row here.
//!
//! The rows become two tables: `LISTING` (names only, which the page may link without linking any
//! importer) and `READING` (names, tests and importers, for `detect` and `import`).

use super::common::text::{self, Enc};
use super::{
    cloudwatch, docker, gatling, jmeter, k6, locust, opensearch, read_whole, read_whole_text, Ctx, Head, Output,
};
use crate::bundle::{self, LoadError, LoadErrorKind, Run};
use std::io::Read;

/// Every input runlens recognises, in the order they are listed.
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

/// Whether the head of a file looks like a format.
pub type ContentTest = fn(&Head) -> bool;

/// A format's importer: the file's text encoding and its whole input (the head included) to runs,
/// or to a bundle.
pub type Importer = fn(&mut Ctx, Enc, &mut dyn Read) -> Result<Output, LoadError>;

/// A file name that says a format (compared lower-cased, without `.gz`).
#[derive(Debug, Clone, Copy)]
pub enum Name {
    /// The whole file name: `statistics.json`.
    Is(&'static str),
    /// The end of the file name: `_stats.csv`.
    EndsWith(&'static str),
}

/// A format's names, and nothing that reads it.
#[derive(Debug, Clone, Copy)]
pub struct Listing {
    pub format: Format,
    /// A stable identifier (CLI `--format`, worker messages, tests).
    pub slug: &'static str,
    /// What users call it, for messages and the import panel.
    pub title: &'static str,
    /// Offered by name (CLI `--format`, the supported list); a format that is only ever detected
    /// (Gatling's binary log, refused with advice) is not.
    pub listed: bool,
}

/// How a format is found and read.
#[derive(Clone, Copy)]
pub struct Reading {
    pub format: Format,
    /// File names that say the format (checked before any content test).
    pub names: &'static [Name],
    pub content: ContentTest,
    /// A catch-all test tried only after every format's `content` test failed.
    pub last_resort: Option<ContentTest>,
    pub import: Importer,
}

/// One row per format; see the module's comment. The fields of a row are always these, in this
/// order.
macro_rules! formats {
    ($(Row {
        format: $format:expr,
        slug: $slug:expr,
        title: $title:expr,
        listed: $listed:expr,
        names: [$($name:expr),* $(,)?],
        content: $content:expr,
        last_resort: $last:expr,
        import: $import:expr $(,)?
    }),* $(,)?) => {
        /// Every format's names, in detection order.
        pub static LISTING: &[Listing] =
            &[$(Listing { format: $format, slug: $slug, title: $title, listed: $listed }),*];
        /// Every format's tests and importer, in detection order.
        pub static READING: &[Reading] = &[$(Reading {
            format: $format,
            names: &[$($name),*],
            content: $content,
            last_resort: $last,
            import: $import,
        }),*];
    };
}

// Specific before general: JMeter's XML, JSON and summary CSV, Gatling's binary and text logs,
// k6's line formats, JSON shapes by their keys, the console text before the JTL CSV sniffing,
// then the other tools' JSON and text tables; the custom-k6-summary catch-all is a last resort.
formats![
    Row {
        format: Format::Bundle,
        slug: "bundle",
        title: "runlens bundle",
        listed: true,
        names: [],
        content: is_bundle,
        last_resort: None,
        import: import_bundle,
    },
    Row {
        format: Format::JmeterXml,
        slug: "jmeter-xml",
        title: "JMeter XML results (JTL)",
        listed: true,
        names: [],
        content: jmeter::xml::detect,
        last_resort: None,
        import: |ctx, enc, input| jmeter::xml::import(ctx, text::stream_valid(enc, input)).map(one),
    },
    Row {
        format: Format::JmeterStatistics,
        slug: "jmeter-statistics",
        title: "JMeter dashboard statistics.json",
        listed: true,
        names: [Name::Is("statistics.json")],
        content: jmeter::stats::detect,
        last_resort: None,
        import: |ctx, enc, input| jmeter::stats::import(ctx, enc, input).map(one),
    },
    Row {
        format: Format::JmeterSummary,
        slug: "jmeter-summary",
        title: "JMeter Aggregate/Summary Report CSV",
        listed: true,
        names: [],
        content: jmeter::summary::detect,
        last_resort: None,
        import: |ctx, enc, input| jmeter::summary::import(ctx, text::stream_valid(enc, input)).map(Output::Runs),
    },
    Row {
        format: Format::GatlingBinaryLog,
        slug: "gatling-binary-log",
        title: "Gatling binary simulation.log (3.11+)",
        listed: false,
        names: [],
        content: gatling::log::detect_binary,
        last_resort: None,
        import: |ctx, _, input| {
            let mut head = Vec::new();
            let _ = input.take(64).read_to_end(&mut head);
            Err(gatling::log::refuse_binary(ctx, &head))
        },
    },
    Row {
        format: Format::GatlingLog,
        slug: "gatling-log",
        title: "Gatling simulation.log",
        listed: true,
        names: [Name::Is("simulation.log")],
        content: gatling::log::detect,
        last_resort: None,
        import: |ctx, enc, input| gatling::log::import(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::K6Json,
        slug: "k6-json",
        title: "k6 --out json points",
        listed: true,
        names: [],
        content: k6::json::detect,
        last_resort: None,
        import: |ctx, enc, input| k6::json::import(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::K6Csv,
        slug: "k6-csv",
        title: "k6 --out csv points",
        listed: true,
        names: [],
        content: k6::csv::detect,
        last_resort: None,
        import: |ctx, enc, input| k6::csv::import(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::K6Summary,
        slug: "k6-summary",
        title: "k6 summary (handleSummary JSON)",
        listed: true,
        names: [],
        content: k6::summary::detect,
        last_resort: Some(k6::summary::detect_custom),
        import: |ctx, enc, input| k6::summary::import(ctx, enc, input).map(one),
    },
    Row {
        format: Format::K6SummaryExport,
        slug: "k6-summary-export",
        title: "k6 --summary-export JSON",
        listed: true,
        names: [],
        content: k6::summary::detect_export,
        last_resort: None,
        import: |ctx, enc, input| k6::summary::import_export(ctx, enc, input).map(one),
    },
    Row {
        format: Format::GatlingStats,
        slug: "gatling-stats",
        title: "Gatling stats.json",
        listed: true,
        names: [Name::Is("stats.json"), Name::Is("stats.js")],
        content: gatling::stats::detect,
        last_resort: None,
        import: |ctx, enc, input| gatling::stats::import(ctx, enc, input).map(one),
    },
    Row {
        format: Format::GatlingGlobalStats,
        slug: "gatling-global-stats",
        title: "Gatling global_stats.json",
        listed: true,
        names: [Name::Is("global_stats.json")],
        content: gatling::stats::detect_global,
        last_resort: None,
        import: |ctx, enc, input| gatling::stats::import_global(ctx, enc, input).map(one),
    },
    Row {
        format: Format::K6Console,
        slug: "k6-console",
        title: "k6 end-of-test summary text",
        listed: true,
        names: [],
        content: k6::console::detect,
        last_resort: None,
        import: |ctx, enc, input| k6::console::import(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::JmeterCsv,
        slug: "jmeter-csv",
        title: "JMeter CSV results (JTL)",
        listed: true,
        names: [],
        content: jmeter::csv::detect,
        last_resort: None,
        import: |ctx, enc, input| jmeter::csv::import(ctx, text::stream(enc, input)).map(one),
    },
    // JSON of named keys first; `_cat/indices` JSON only has generic ones ("index", "health").
    Row {
        format: Format::CloudWatchMetricData,
        slug: "cloudwatch-metric-data",
        title: "CloudWatch get-metric-data JSON",
        listed: true,
        names: [],
        content: cloudwatch::detect_metric_data,
        last_resort: None,
        import: import_cloudwatch,
    },
    Row {
        format: Format::CloudWatchStatistics,
        slug: "cloudwatch-statistics",
        title: "CloudWatch get-metric-statistics JSON",
        listed: true,
        names: [],
        content: cloudwatch::detect_statistics,
        last_resort: None,
        import: import_cloudwatch,
    },
    Row {
        format: Format::CloudWatchWidget,
        slug: "cloudwatch-widget",
        title: "CloudWatch dashboard widget source",
        listed: true,
        names: [],
        content: cloudwatch::detect_widget,
        last_resort: None,
        import: |ctx, enc, input| {
            let text = read_whole_text(ctx, enc, input)?;
            Err(cloudwatch::refuse_widget(ctx, &text))
        },
    },
    Row {
        format: Format::CatIndicesJson,
        slug: "cat-indices-json",
        title: "_cat/indices JSON",
        listed: true,
        names: [],
        content: opensearch::detect_json,
        last_resort: None,
        import: |ctx, enc, input| {
            let text = read_whole_text(ctx, enc, input)?;
            opensearch::import_json(ctx, &text).map(one)
        },
    },
    // Locust: the history header also has Name and counts, so it goes before the stats test.
    Row {
        format: Format::LocustHistory,
        slug: "locust-history",
        title: "Locust stats history CSV",
        listed: true,
        names: [Name::EndsWith("_stats_history.csv")],
        content: locust::detect_history,
        last_resort: None,
        import: |ctx, enc, input| locust::import_history(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::LocustFailures,
        slug: "locust-failures",
        title: "Locust failures CSV",
        listed: true,
        names: [Name::EndsWith("_failures.csv")],
        content: locust::detect_failures,
        last_resort: None,
        import: |ctx, enc, input| locust::import_failures(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::LocustExceptions,
        slug: "locust-exceptions",
        title: "Locust exceptions CSV",
        listed: true,
        names: [Name::EndsWith("_exceptions.csv")],
        content: locust::detect_exceptions,
        last_resort: None,
        import: |ctx, enc, input| locust::import_exceptions(ctx, text::stream(enc, input)).map(one),
    },
    Row {
        format: Format::LocustStats,
        slug: "locust-stats",
        title: "Locust stats CSV",
        listed: true,
        names: [Name::EndsWith("_stats.csv")],
        content: locust::detect,
        last_resort: None,
        import: |ctx, enc, input| locust::import(ctx, text::stream(enc, input)).map(one),
    },
    // Text tables last: a `_cat/indices` header may sit below a title or a curl command.
    Row {
        format: Format::CatIndices,
        slug: "cat-indices",
        title: "_cat/indices text",
        listed: true,
        names: [],
        content: opensearch::detect,
        last_resort: None,
        import: |ctx, enc, input| {
            let text = read_whole_text(ctx, enc, input)?;
            opensearch::import(ctx, &text).map(Output::Runs)
        },
    },
    Row {
        format: Format::DockerStats,
        slug: "docker-stats",
        title: "docker stats output (table, CSV or JSON lines)",
        listed: true,
        names: [],
        content: docker::detect,
        last_resort: None,
        import: |ctx, enc, input| {
            let text = read_whole_text(ctx, enc, input)?;
            docker::import(ctx, &text).map(one)
        },
    },
];

/// The formats a user may name (CLI `--format`, the landing page), in the `Format` enum's order,
/// as (slug, title). Names only: using it links no importer.
pub fn listed() -> impl Iterator<Item = (&'static str, &'static str)> {
    let mut rows: Vec<&Listing> = LISTING.iter().filter(|l| l.listed).collect();
    crate::order::sort_by_key(&mut rows, |l| l.format);
    rows.into_iter().map(|l| (l.slug, l.title))
}

impl Format {
    /// Every format, listed or not, in the enum's order.
    pub fn all() -> Vec<Format> {
        let mut all: Vec<Format> = LISTING.iter().map(|l| l.format).collect();
        all.sort();
        all
    }

    fn listing(self) -> Option<&'static Listing> {
        LISTING.iter().find(|l| l.format == self)
    }

    /// What users call it, for messages and the import panel.
    pub fn title(self) -> &'static str {
        self.listing().map_or("unregistered format", |l| l.title)
    }

    /// A stable identifier (CLI `--format`, worker messages, tests).
    pub fn slug(self) -> &'static str {
        self.listing().map_or("unregistered", |l| l.slug)
    }

    pub fn from_slug(s: &str) -> Option<Format> {
        LISTING.iter().find(|l| l.slug == s).map(|l| l.format)
    }
}

/// Runs `format`'s importer.
pub(super) fn run(format: Format, enc: Enc, ctx: &mut Ctx, input: &mut dyn Read) -> Result<Output, LoadError> {
    match READING.iter().find(|r| r.format == format) {
        Some(r) => (r.import)(ctx, enc, input),
        None => Err(ctx.error(LoadErrorKind::UnknownFormat, None, format!("no importer reads {}", format.slug()))),
    }
}

pub(super) fn is_bundle(h: &Head) -> bool {
    h.is_json_object() && h.text.contains("\"runlens-bundle\"")
}

fn import_bundle(ctx: &mut Ctx, _: Enc, input: &mut dyn Read) -> Result<Output, LoadError> {
    let bytes = read_whole(ctx, input)?;
    let loaded = bundle::load_bundle(ctx.source, &bytes)?;
    Ok(Output::Bundle(Box::new(loaded.bundle), loaded.warnings))
}

fn import_cloudwatch(ctx: &mut Ctx, enc: Enc, input: &mut dyn Read) -> Result<Output, LoadError> {
    let text = read_whole_text(ctx, enc, input)?;
    cloudwatch::import(ctx, &text).map(one)
}

fn one(run: Run) -> Output {
    Output::Runs(vec![run])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_format_and_slug() {
        let all = Format::all();
        let mut dedup = all.clone();
        dedup.dedup();
        assert_eq!(dedup, all);
        assert_eq!(LISTING.len(), READING.len());
        assert!(LISTING.iter().zip(READING).all(|(l, r)| l.format == r.format));
        let mut slugs: Vec<&str> = LISTING.iter().map(|l| l.slug).collect();
        slugs.sort_unstable();
        slugs.dedup();
        assert_eq!(slugs.len(), LISTING.len());
        assert!(all.iter().all(|f| Format::from_slug(f.slug()) == Some(*f)));
    }

    #[test]
    fn listed_formats_are_in_the_enums_order_without_the_binary_log() {
        let slugs: Vec<&str> = listed().map(|(s, _)| s).collect();
        assert_eq!(slugs.first(), Some(&"bundle"));
        assert_eq!(slugs.len(), LISTING.len() - 1);
        assert!(!slugs.contains(&"gatling-binary-log"));
    }
}
