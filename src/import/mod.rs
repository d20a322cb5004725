//! Importers of raw tool output: one file per format, each opening with a link to the tool's own
//! documentation and exposing a `detect` (by content) + `import` pair that turns one file into
//! bundle runs. No UI and no I/O beyond `std::io::Read`: the same code runs natively (tests, the
//! CLI) and in the ingest Web Worker.
//!
//! `import` is the one entry point: it reads the head of the input, detects the format (by file
//! name first, then by content), decodes the text encoding, and hands a byte stream to the
//! format's importer. Every importer returns runs or a `LoadError` with a position; warnings are
//! collected, capped, in a `Ctx`.

pub mod civil;
pub mod detect;
pub mod dump;
pub mod jmeter_csv;
pub mod names;
pub mod samples;
pub mod text;

pub use detect::{detect, detect_by_content, detect_by_name, Format, Head};

use crate::bundle::{self, Bundle, LoadError, LoadErrorKind, Report, Run, Warning};
use std::cell::Cell;
use std::io::{BufReader, Read};

/// Bytes read before detection: enough for headers, XML declarations and the first records.
pub const HEAD_BYTES: usize = 64 << 10;
/// Warnings kept per file; the rest are counted in a last warning (a file of 100,000 bad rows
/// must not make 100,000 notices).
pub const MAX_WARNINGS: usize = 200;
/// Whole-file formats (JSON summaries, bundles) are read into memory up to this size.
pub const MAX_WHOLE_FILE_BYTES: u64 = 512 << 20;

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
    warnings: Vec<Warning>,
    dropped: u64,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, progress: &'a Progress) -> Ctx<'a> {
        Ctx { source, progress, warnings: Vec::new(), dropped: 0 }
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
        LoadError {
            kind,
            source: self.source.to_string(),
            path: None,
            line: line.map(|l| l as usize),
            column: None,
            message: message.into(),
        }
    }

    /// An error at a JSON path (`Total.sampleCount`, `metrics.http_req_duration`).
    pub fn error_at(&self, kind: LoadErrorKind, path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError { path: Some(path.into()), ..self.error(kind, None, message) }
    }

    fn finish_warnings(mut self) -> Vec<Warning> {
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
    mut reader: impl Read,
    format: Option<Format>,
    on_progress: &mut dyn FnMut(u64, u64),
) -> Result<Imported, LoadError> {
    let progress = Progress::default();
    let io_err = |e: std::io::Error| LoadError {
        kind: LoadErrorKind::Io,
        source: name.to_string(),
        path: None,
        line: None,
        column: None,
        message: format!("the file could not be read ({e})"),
    };
    let head = read_head(&mut reader).map_err(io_err)?;
    let format = match format {
        Some(f) => f,
        None => detect(name, &head).map_err(|message| LoadError {
            kind: if head.is_empty() { LoadErrorKind::Empty } else { LoadErrorKind::UnknownFormat },
            source: name.to_string(),
            path: None,
            line: None,
            column: None,
            message,
        })?,
    };
    let encoding = text::sniff(&head);
    let whole = std::io::Cursor::new(head).chain(reader);
    let counted = Counted { inner: whole, progress: &progress, on_progress, next_report: 1 << 20 };
    let mut ctx = Ctx::new(name, &progress);
    let runs_or_bundle = run_importer(format, encoding, &mut ctx, counted)?;
    let bundle = match runs_or_bundle {
        Output::Bundle(b, warnings) => {
            for w in warnings {
                ctx.warn(w.path, w.message);
            }
            b
        }
        Output::Runs(runs) => bundle_around(name, format, runs),
    };
    let records = progress.records.get();
    Ok(Imported { format, bundle, warnings: ctx.finish_warnings(), records })
}

/// What an importer produced.
pub enum Output {
    /// A runlens bundle, with the loader's warnings.
    Bundle(Bundle, Vec<Warning>),
    /// Runs of a raw file (a history file gives several).
    Runs(Vec<Run>),
}

fn run_importer(format: Format, enc: text::Enc, ctx: &mut Ctx, input: impl Read) -> Result<Output, LoadError> {
    match format {
        Format::Bundle => {
            let bytes = read_whole(ctx, input)?;
            let loaded = bundle::load_bundle(ctx.source, &bytes)?;
            Ok(Output::Bundle(loaded.bundle, loaded.warnings))
        }
        Format::JmeterCsv => {
            jmeter_csv::import(ctx, text::stream(enc, input)).map(|r| Output::Runs(vec![r]))
        }
        other => Err(ctx.error(
            LoadErrorKind::Unsupported,
            None,
            format!("{} files are recognised but this build cannot import them yet", other.title()),
        )),
    }
}

/// Reads a whole-document input into memory, refusing more than `MAX_WHOLE_FILE_BYTES`.
pub fn read_whole(ctx: &Ctx, input: impl Read) -> Result<Vec<u8>, LoadError> {
    let mut out = Vec::new();
    input.take(MAX_WHOLE_FILE_BYTES + 1).read_to_end(&mut out).map_err(|e| {
        ctx.error(LoadErrorKind::Io, None, format!("the file could not be read ({e})"))
    })?;
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
    }
}

/// Convenience for tests and the CLI: imports a file from bytes already in memory.
pub fn import_bytes(name: &str, bytes: &[u8]) -> Result<Imported, LoadError> {
    import(name, bytes, None, &mut |_, _| {})
}

/// A `BufRead` over any reader, with a buffer sized for fast parsing.
pub fn buffered<R: Read>(r: R) -> BufReader<R> {
    BufReader::with_capacity(256 << 10, r)
}

