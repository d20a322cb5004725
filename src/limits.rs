//! Every size and count limit of runlens in one place, each with the reason for its number. The
//! limits keep a browser tab alive on hostile or broken input; whatever a limit cuts is said to
//! the user (an error naming the limit, or a note beside what is shown).
//!
//! The budget behind them: a wasm32 module addresses at most 4 GiB, and browsers kill a tab well
//! before that (Chrome's renderer limit is about 4 GiB on 64-bit desktops, less on phones), so
//! runlens plans for about 2 GiB of peak memory.

/// Bytes of one file or HTTP response the page holds in memory before importing it. Whole-file
/// reads reserve the size up front (a file's size is known), so the peak is this plus what the
/// importer builds. Streaming imports (in the ingest worker) do not hold the input and are not
/// bound by this.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Bytes a `?src=` download may have. The ingest worker keeps a download as a Blob (the browser
/// may keep it on disk, outside the tab's memory) and streams it through the importers, so it is
/// bound by what an importer can stream (4 GiB files ingest in a tab), not by memory.
pub const MAX_DOWNLOAD_BYTES: u64 = 4 << 30;

/// Bytes of a document that is parsed whole (a bundle, a JSON summary), after decompression.
/// Parsing keeps the text, a cleaned copy (NaN tokens), the typed values and the workspace's copy
/// alive together: about 4 to 5 times this, so 256 MiB stays near 1 GiB.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// Output of gzip decompression: the same as a document, since only bundles are read compressed.
/// A gzip bomb (a few KiB that inflate to GiBs) stops here, after at most this much output.
pub const MAX_INFLATED_BYTES: u64 = MAX_DOCUMENT_BYTES;

/// Bytes of one line of a line-oriented file (CSV, logs, NDJSON). A JTL line is a few hundred
/// bytes and a failure message with a response excerpt a few KiB; a longer line means a damaged
/// file, and without a cap a file with no line break would be buffered whole as one record.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Characters of a link's `#bundle=` fragment (a shared comparison of local files). Browsers take
/// far longer URLs (Chromium 2 MB), but wikis, chat tools and mail clients cut or refuse links of
/// more than a few hundred KB; 256 KiB of base64 carries about 190 KiB of gzip, a bundle of
/// several hundred transactions with histograms. Larger ones are saved as a file instead.
pub const MAX_SHARE_FRAGMENT_BYTES: usize = 256 << 10;

/// Runs in one bundle. Every view lists runs (the picker, the runs table) and compares the
/// selected ones cell by cell; a thousand is more than any real report has (the seed reports
/// have 2 to 12) and still renders in well under a second.
pub const MAX_RUNS: usize = 1000;

/// Warnings kept per file; the rest are counted in one last warning. A file with 100,000 `NaN`s
/// must not make 100,000 list items.
pub const MAX_WARNINGS: usize = 200;

/// Notices on screen at once; older ones are dropped when more arrive (each dropped file still
/// got its own notice while it was the newest). The stack also scrolls within half the window,
/// so it never covers the header and tabs.
pub const MAX_NOTICES: usize = 6;

/// Items listed in one notice's details, or in one list of the report (summary, notes, errors);
/// the rest are counted in a last item.
pub const MAX_LIST_ITEMS: usize = 200;

/// Table rows per page when a view does not choose its own page size. Every table is paged, so no
/// table ever puts more than this many rows into the page.
pub const TABLE_PAGE_ROWS: usize = 100;

/// Traces (legend entries) in one chart; more are not drawn and the chart says how many were
/// left out. Plotly draws each trace as its own SVG group, and a legend of hundreds is unreadable.
pub const MAX_CHART_TRACES: usize = 40;

/// Categories (bars along an axis) in one chart; the first are kept (views that rank, such as
/// latency's slowest transactions, put the ones that matter first) and the chart says how many
/// were left out.
pub const MAX_CHART_CATEGORIES: usize = 40;

/// Points per line in a time-series chart; longer series are thinned to every n-th point (the
/// table keeps the exact figures). Plotly's SVG scatter slows down past tens of thousands.
pub const MAX_SERIES_POINTS: usize = 5000;

/// Characters of one bundle string shown in a chart (legend, axis, hover); the tables show it
/// whole. A 10 MB transaction name must not reach the SVG renderer.
pub const MAX_CHART_LABEL_CHARS: usize = 80;

// The limits fit together (checked when compiling).
const _: () = assert!(MAX_DOCUMENT_BYTES <= MAX_INPUT_BYTES && MAX_INFLATED_BYTES == MAX_DOCUMENT_BYTES);
const _: () = assert!(TABLE_PAGE_ROWS <= 500, "a few hundred rows at most per page");

/// Whether `n` items exceed `max`; the number left out (for "and N more" notes).
pub fn left_out(n: usize, max: usize) -> usize {
    n.saturating_sub(max)
}

/// "and 1,234 more" for the items a limit left out, or `None` when nothing was cut.
pub fn more_note(n: usize, max: usize) -> Option<String> {
    match left_out(n, max) {
        0 => None,
        k => Some(format!("… and {} more not listed", crate::format::number(k as f64))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_note_counts_what_was_cut() {
        assert_eq!(more_note(200, 200), None);
        assert_eq!(more_note(1434, 200).as_deref(), Some("… and 1,234 more not listed"));
    }
}
