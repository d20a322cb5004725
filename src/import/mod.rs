//! Importers of raw tool output. One folder per tool (`jmeter`, `k6`, `gatling`, `locust`,
//! `opensearch`, `cloudwatch`, `docker`), whose `mod.rs` links the tool's documentation; each
//! format there has a content test (`fn(&Head) -> bool`) and an import function. What importers
//! share (text decoding, the CSV splitter, exact statistics, series, names, timestamps, the
//! parallel read of one file, the snapshot dump) is in `common`, and nowhere else. `formats` is
//! the registry: one row per format with its slug, title, file names, content test and importer.
//! No UI and no I/O beyond `std::io::Read`: the same code runs natively (tests, the CLI) and in
//! the ingest Web Worker. Grouping files into runs is not importing: see `crate::assemble`.
//!
//! `import` is the one entry point: it reads the head of the input (`Head`), detects the format
//! (`detect`: by file name first, then by content, in the registry's order), decodes the text
//! encoding, and hands a byte stream to the format's importer. Every importer returns runs or a
//! `LoadError` with a position; warnings are collected, capped, in a `Ctx`.

pub mod cloudwatch;
pub mod common;
pub mod detect;
pub mod docker;
pub mod formats;
pub mod gatling;
mod head;
pub mod jmeter;
pub mod k6;
pub mod locust;
pub mod opensearch;

pub use detect::{detect, detect_by_content, detect_by_name};
pub use formats::Format;
pub use head::Head;

use common::{names, text};

use crate::bundle::{self, Bundle, LoadError, LoadErrorKind, Report, Run, Warning};
use std::cell::Cell;
use std::io::{BufReader, Read};

/// Bytes read before detection: enough for headers, XML declarations and the first records.
pub const HEAD_BYTES: usize = 64 << 10;
/// Warnings kept per file; the rest are counted in a last warning (see `crate::limits`).
pub const MAX_WARNINGS: usize = crate::limits::MAX_WARNINGS;
/// Downloads (`?src=`) larger than this are refused (see `crate::limits`).
pub const MAX_DOWNLOAD_BYTES: u64 = crate::limits::MAX_DOWNLOAD_BYTES;
/// The longest line a line-by-line importer reads (see `crate::limits`).
pub const MAX_LINE_BYTES: u64 = crate::limits::MAX_LINE_BYTES as u64;
/// Whole-file formats (JSON summaries, bundles) are read into memory up to this size (see
/// `crate::limits`).
pub const MAX_WHOLE_FILE_BYTES: u64 = crate::limits::MAX_DOCUMENT_BYTES;

/// What one file turned into: a bundle (its own, or one made around the imported runs).
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: Format,
    pub bundle: Bundle,
    pub warnings: Vec<Warning>,
    /// Records read (rows, samples, lines); 0 for whole-document formats.
    pub records: u64,
}

/// Progress shared between the byte counter and the importer (rows).
#[derive(Debug, Default)]
pub struct Progress {
    pub bytes: Cell<u64>,
    pub records: Cell<u64>,
}

/// What an importer gets besides its input: the file name, warnings, progress.
pub struct Ctx<'a> {
    /// File name or URL, for messages.
    pub source: &'a str,
    pub progress: &'a Progress,
    /// The input's size when it is known (a `Blob`'s): a file read whole goes into one allocation.
    pub size: Option<u64>,
    warnings: Vec<Warning>,
    dropped: u64,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, progress: &'a Progress) -> Ctx<'a> {
        Ctx { source, progress, size: None, warnings: Vec::new(), dropped: 0 }
    }

    /// Adds a warning at `place` ("row 12", "line 3", "Total"); past `MAX_WARNINGS` only counted.
    pub fn warn(&mut self, place: impl Into<String>, message: impl Into<String>) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { path: place.into(), message: message.into() });
        } else {
            self.dropped += 1;
        }
    }

    /// Counts warnings an importer dropped itself (it keeps its own cap per part).
    pub fn count_dropped(&mut self, n: u64) {
        self.dropped += n;
    }

    pub fn warning_count(&self) -> usize {
        self.warnings.len() + self.dropped as usize
    }

    /// Counts records for the progress display.
    pub fn record(&self, n: u64) {
        self.progress.records.set(self.progress.records.get() + n);
    }

    /// An error of `kind` at an optional line, in this file.
    pub fn error(&self, kind: LoadErrorKind, line: Option<u64>, message: impl Into<String>) -> LoadError {
        let e = LoadError::new(kind, self.source, message);
        match line {
            Some(l) => e.at(l as usize, None),
            None => e,
        }
    }

    /// An error at a JSON path (`Total.sampleCount`, `metrics.http_req_duration`).
    pub fn error_at(&self, kind: LoadErrorKind, path: impl Into<String>, message: impl Into<String>) -> LoadError {
        self.error(kind, None, message).at_path(path)
    }

    pub fn into_warnings(mut self) -> Vec<Warning> {
        if self.dropped > 0 {
            self.warnings.push(Warning {
                path: "…".into(),
                message: format!("{} more warnings not listed (only the first {MAX_WARNINGS} are kept)", self.dropped),
            });
        }
        self.warnings
    }
}

/// Reads the first `HEAD_BYTES` (fewer if the input is shorter).
fn read_head(reader: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    reader.take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Counts bytes as they are read and calls `on_progress(bytes, records)` about every MiB.
struct Counted<'p, R> {
    inner: R,
    progress: &'p Progress,
    on_progress: &'p mut dyn FnMut(u64, u64),
    next_report: u64,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let done = self.progress.bytes.get() + n as u64;
        self.progress.bytes.set(done);
        if done >= self.next_report {
            self.next_report = done + (1 << 20);
            (self.on_progress)(done, self.progress.records.get());
        }
        Ok(n)
    }
}

/// Imports one file: detects its format (by `name`, then by content, unless `format` is given),
/// decodes its text and runs the format's importer. `on_progress(bytes, records)` is called as
/// the input is consumed.
pub fn import(
    name: &str,
    reader: impl Read,
    format: Option<Format>,
    on_progress: &mut dyn FnMut(u64, u64),
) -> Result<Imported, LoadError> {
    import_sized(name, reader, None, format, on_progress)
}

/// `import` of an input whose size is known: a file that is read whole (a bundle, a JSON
/// document) is read into one allocation of that size, not a vector that doubles as it fills
/// (50 MB copied about twice over, and the browser's memory grown in steps).
pub fn import_sized(
    name: &str,
    mut reader: impl Read,
    size: Option<u64>,
    format: Option<Format>,
    on_progress: &mut dyn FnMut(u64, u64),
) -> Result<Imported, LoadError> {
    let progress = Progress::default();
    let io_err =
        |e: std::io::Error| LoadError::new(LoadErrorKind::Io, name, format!("the file could not be read ({e})"));
    let head = read_head(&mut reader).map_err(io_err)?;
    let format = match format {
        Some(f) => f,
        None => detect(name, &head).map_err(|message| {
            LoadError::new(
                if head.is_empty() { LoadErrorKind::Empty } else { LoadErrorKind::UnknownFormat },
                name,
                message,
            )
        })?,
    };
    // Gatling's binary log is refused even when the text log's format is asked for.
    let format = match format {
        Format::GatlingLog if gatling::log::detect_binary(&Head::new(&head)) => Format::GatlingBinaryLog,
        f => f,
    };
    let encoding = text::sniff(&head);
    // A bundle decodes itself (gzip, BOMs, UTF-8 only): guessing a legacy encoding of its bytes
    // would only warn about the gzip header.
    let guessed = if format == Format::Bundle { None } else { text::guessed(&head, encoding) };
    let whole = std::io::Cursor::new(head).chain(reader);
    let mut counted = Counted { inner: whole, progress: &progress, on_progress, next_report: 1 << 20 };
    let mut ctx = Ctx::new(name, &progress);
    ctx.size = size;
    if let Some(w) = guessed {
        ctx.warn("encoding", w);
    }
    let runs_or_bundle = formats::run(format, encoding, &mut ctx, &mut counted)?;
    let bundle = match runs_or_bundle {
        Output::Bundle(b, warnings) => {
            // The loader caps its own list and counts the rest in its last warning; re-capping
            // here would drop that count.
            ctx.warnings.extend(warnings);
            *b
        }
        Output::Runs(runs) => bundle_around(name, format, runs),
    };
    let records = progress.records.get();
    Ok(Imported { format, bundle, warnings: ctx.into_warnings(), records })
}

/// What an importer produced.
pub enum Output {
    /// A runlens bundle, with the loader's warnings (boxed: `Runs` is the common case, and
    /// need not be the size of a bundle).
    Bundle(Box<Bundle>, Vec<Warning>),
    /// Runs of a raw file (a history file gives several).
    Runs(Vec<Run>),
}

/// Reads a whole-document input into memory, refusing more than `MAX_WHOLE_FILE_BYTES`.
pub fn read_whole(ctx: &Ctx, input: impl Read) -> Result<Vec<u8>, LoadError> {
    // One byte more than the size, so that the end is found without growing the vector.
    let expected = ctx.size.map_or(0, |s| s.min(MAX_WHOLE_FILE_BYTES) as usize + 1);
    let mut out = Vec::new();
    out.try_reserve_exact(expected)
        .map_err(|_| ctx.error(LoadErrorKind::TooLarge, None, "there is not enough memory to read this file"))?;
    input
        .take(MAX_WHOLE_FILE_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| ctx.error(LoadErrorKind::Io, None, format!("the file could not be read ({e})")))?;
    if out.len() as u64 > MAX_WHOLE_FILE_BYTES {
        return Err(ctx.error(
            LoadErrorKind::TooLarge,
            None,
            format!("this kind of file is read whole, and it is over the {} MiB limit", MAX_WHOLE_FILE_BYTES >> 20),
        ));
    }
    Ok(out)
}

/// Reads a whole-document input as text in its detected encoding (UTF-8, UTF-16 with a BOM, or a
/// legacy encoding by declaration or detection); undecodable bytes become U+FFFD with a warning.
pub fn read_whole_text(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<String, LoadError> {
    let bytes = read_whole(ctx, input)?;
    Ok(text::decode_whole(ctx, enc, &bytes))
}

/// A bundle around the runs of one raw file: its title names the file.
pub fn bundle_around(name: &str, format: Format, runs: Vec<Run>) -> Bundle {
    Bundle {
        format: bundle::FORMAT_NAME.into(),
        version: bundle::FORMAT_VERSION,
        report: Report {
            title: names::file_stem(name).to_string(),
            notes: vec![format!("Imported by runlens from {} ({}).", names::file_name(name), format.title())],
            ..Default::default()
        },
        runs,
        comparisons: vec![],
        thresholds: None,
        label_rules: vec![],
    }
}

/// Convenience for tests and the CLI: imports a file from bytes already in memory.
pub fn import_bytes(name: &str, bytes: &[u8]) -> Result<Imported, LoadError> {
    import(name, bytes, None, &mut |_, _| {})
}

/// What `import` makes of a bundle file the loader has read (`bundle::split_load` reads big ones
/// on several workers or threads).
pub fn imported_bundle(loaded: bundle::Loaded) -> Imported {
    Imported { format: Format::Bundle, bundle: loaded.bundle, warnings: loaded.warnings, records: 0 }
}

/// A text stream read line by line into one reused buffer: lines are numbered from 1 and
/// counted for the progress display, and an I/O error names the line it stopped at.
pub struct Lines<'a> {
    input: Box<dyn std::io::BufRead + 'a>,
    buf: Vec<u8>,
    number: u64,
}

impl<'a> Lines<'a> {
    pub fn new(input: Box<dyn std::io::BufRead + 'a>) -> Lines<'a> {
        Lines { input, buf: Vec::with_capacity(1024), number: 0 }
    }

    /// The next line's number and bytes without its line break (`\n` or `\r\n`); `None` at the end.
    /// A line over `MAX_LINE_BYTES` is an error (a file without line breaks must not fill memory).
    pub fn next_line(&mut self, ctx: &Ctx) -> Result<Option<(u64, &[u8])>, LoadError> {
        use std::io::BufRead;
        self.buf.clear();
        let n = (&mut self.input).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut self.buf).map_err(|e| {
            ctx.error(LoadErrorKind::Io, Some(self.number + 1), format!("the file could not be read ({e})"))
        })?;
        if n as u64 > MAX_LINE_BYTES {
            let message = format!(
                "line {} is longer than {} MiB; this is not a line-by-line text file",
                self.number + 1,
                MAX_LINE_BYTES >> 20
            );
            return Err(ctx.error(LoadErrorKind::TooLarge, Some(self.number + 1), message));
        }
        if n == 0 {
            ctx.progress.records.set(self.number);
            return Ok(None);
        }
        self.number += 1;
        if self.number & 0xFFFF == 0 {
            ctx.progress.records.set(self.number);
        }
        let line = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
        Ok(Some((self.number, line.strip_suffix(b"\r").unwrap_or(line))))
    }
}

/// A `BufRead` over any reader, with a buffer sized for fast parsing.
pub fn buffered<R: Read>(r: R) -> BufReader<R> {
    BufReader::with_capacity(256 << 10, r)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_gzip_bundle_gives_no_encoding_warning() {
        use std::io::Write;
        let json = br#"{"format": "runlens-bundle", "version": 1, "report": {"title": "t"}, "runs": [{"id": "a", "label": "A"}]}"#;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(json).unwrap();
        let imp = super::import_bytes("b.json.gz", &gz.finish().unwrap()).unwrap();
        assert_eq!((imp.format, imp.bundle.runs.len()), (super::Format::Bundle, 1));
        assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
    }
}
