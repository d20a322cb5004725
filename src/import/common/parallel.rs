//! One file read by several workers at once: the file is cut into byte ranges, each range starts
//! at the first line break after its nominal start, and each worker aggregates its range exactly
//! (`jmeter_csv::aggregate_range`). The parts merge into the same run a single pass gives: a part
//! that does not start where the previous one stopped (a quoted line break sat on the boundary)
//! is read again from that stop. Only files that benefit are split: JMeter CSV, UTF-8, large.
//!
//! The same code drives native threads (tests, CLI, benchmarks) and the browser's ingest workers;
//! they differ only in how they read a byte range (`RangeSource`).

use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::jmeter::csv::{self as jmeter_csv, Layout, Part};
use crate::import::{common::text, Ctx, Format, Imported, Progress, HEAD_BYTES};
use std::io::Read;

/// Files smaller than this are read by one worker (splitting costs more than it saves).
pub const MIN_PARALLEL_BYTES: u64 = 16 << 20;

/// Random access to the bytes of one file.
pub trait RangeSource {
    fn size(&self) -> u64;
    /// Up to `len` bytes from `offset` (fewer at the end of the file).
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>>;
    /// A reader from `offset` to the end of the file.
    fn reader_from(&self, offset: u64) -> std::io::Result<Box<dyn Read + '_>>;
}

/// How a file will be read: whole by one worker, or in ranges.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Plan {
    pub layout: Layout,
    /// Nominal byte ranges, in file order; range 0 starts at 0.
    pub ranges: Vec<(u64, u64)>,
}

/// Splits `src` into `workers` ranges when it is a large UTF-8 JMeter CSV; `None` otherwise.
pub fn plan(name: &str, head: &[u8], size: u64, workers: usize) -> Option<Plan> {
    if workers < 2 {
        return None;
    }
    Some(Plan { layout: range_layout(name, head, size)?, ranges: jmeter_csv::split(size, workers) })
}

/// The layout of a file that can be read in byte ranges (a large UTF-8 JMeter CSV); `None` for
/// any other. One worker reads such a file as one range too, with its reads ahead of its parsing.
pub fn range_layout(name: &str, head: &[u8], size: u64) -> Option<Layout> {
    if size < MIN_PARALLEL_BYTES || text::sniff(head) != encoding_rs::UTF_8 {
        return None;
    }
    if crate::import::detect(name, head).ok()? != Format::JmeterCsv {
        return None;
    }
    jmeter_csv::layout(&text::lossy(head).0)
}

fn io_err(name: &str, e: std::io::Error) -> LoadError {
    LoadError::new(LoadErrorKind::Io, name, format!("the file could not be read ({e})"))
}

/// The offset of the first record at or after nominal `start` (> 0): just after the first line
/// break at or after `start - 1`; the file's size when there is none.
fn record_start(src: &dyn RangeSource, start: u64) -> std::io::Result<u64> {
    let mut at = start - 1;
    while at < src.size() {
        let probe = src.read_at(at, HEAD_BYTES)?;
        if probe.is_empty() {
            break;
        }
        if let Some(p) = jmeter_csv::first_record_start(at + 1, &probe) {
            return Ok(p);
        }
        at += probe.len() as u64;
    }
    Ok(src.size())
}

/// Where range `index` of `plan` starts its first record, and where it ends. A range with
/// `first >= end` (past range 0) lies inside one record, which the previous range reads: its part
/// is `Part::empty_at(first)`.
pub fn range_bounds(name: &str, src: &dyn RangeSource, plan: &Plan, index: usize) -> Result<(u64, u64), LoadError> {
    let (start, end) = plan.ranges.get(index).copied().unwrap_or((0, 0));
    let first = if index > 0 {
        record_start(src, start).map_err(|e| io_err(name, e))?
    } else if src.read_at(0, 3).map_err(|e| io_err(name, e))? == b"\xEF\xBB\xBF" {
        // A byte order mark is not part of the first record (a headerless file's first timestamp).
        3
    } else {
        0
    };
    Ok((first, end))
}

/// A parse error of a range as a load error of the file.
pub fn syntax_err(name: &str, (line, message): (u64, String)) -> LoadError {
    LoadError::new(LoadErrorKind::Syntax, name, message).at(line as usize, None)
}

/// Aggregates range `index` of `plan` (what one worker does).
pub fn read_range(
    name: &str,
    src: &dyn RangeSource,
    plan: &Plan,
    index: usize,
    on_records: &mut dyn FnMut(u64),
) -> Result<Part, LoadError> {
    let (first, end) = range_bounds(name, src, plan, index)?;
    if first >= end && index > 0 {
        return Ok(Part::empty_at(first));
    }
    let reader = src.reader_from(first).map_err(|e| io_err(name, e))?;
    jmeter_csv::aggregate_range(&plan.layout, reader, first, Some(end), index == 0 && plan.layout.header, on_records)
        .map_err(|e| syntax_err(name, e))
}

/// Merges the parts of every range into the import of the whole file, re-reading any range that
/// did not start where the previous one stopped.
pub fn finish(name: &str, src: &dyn RangeSource, plan: &Plan, mut parts: Vec<Part>) -> Result<Imported, LoadError> {
    while let Some(i) = jmeter_csv::first_misaligned(&parts) {
        parts[i] = reread(name, src, plan, &parts[..i], i)?;
    }
    let progress = Progress::default();
    progress.records.set(parts.iter().map(|p| p.records).sum());
    progress.bytes.set(src.size());
    let mut ctx = Ctx::new(name, &progress);
    let run = jmeter_csv::finish(&mut ctx, &plan.layout, parts)?;
    let records = progress.records.get();
    let warnings = ctx.into_warnings();
    Ok(Imported {
        format: Format::JmeterCsv,
        bundle: crate::import::bundle_around(name, Format::JmeterCsv, vec![run]),
        warnings,
        records,
    })
}

/// Range `i` read again from where the range before it stopped (`before`: the parts of the ranges
/// before it); an error names its line in the whole file.
fn reread(name: &str, src: &dyn RangeSource, plan: &Plan, before: &[Part], i: usize) -> Result<Part, LoadError> {
    let from = before.last().map_or(0, |p| p.stop);
    let lines_before: u64 = before.iter().map(|p| p.lines).sum();
    let limit = plan.ranges.get(i).map_or(src.size(), |r| r.1).max(from);
    let reader = src.reader_from(from).map_err(|e| io_err(name, e))?;
    jmeter_csv::aggregate_range(&plan.layout, reader, from, Some(limit), false, &mut |_| {}).map_err(|(line, msg)| {
        LoadError::new(LoadErrorKind::Syntax, name, msg).at((line + lines_before) as usize, None)
    })
}

/// Encodes a part for another worker.
pub fn encode_part(p: &Part) -> Vec<u8> {
    // Allocated once at its size: grown by doubling, a part of a large file's range (its samples
    // by second: megabytes) took up to twice its size more in a wasm memory that keeps its
    // largest size (decision 0062).
    let Ok(len) = borsh::object_length(p) else { return Vec::new() };
    let mut out = Vec::with_capacity(len);
    match borsh::BorshSerialize::serialize(p, &mut out) {
        Ok(()) => out,
        Err(_) => Vec::new(),
    }
}

pub fn decode_part(bytes: &[u8]) -> Result<Part, String> {
    borsh::from_slice(bytes).map_err(|e| format!("a worker's partial result could not be read ({e})"))
}

/// Bytes in memory as a range source (tests, benchmarks of the importer on bytes).
pub struct MemSource(pub Vec<u8>);

impl RangeSource for MemSource {
    fn size(&self) -> u64 {
        self.0.len() as u64
    }
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let a = (offset as usize).min(self.0.len());
        Ok(self.0[a..(a + len).min(self.0.len())].to_vec())
    }
    fn reader_from(&self, offset: u64) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(&self.0[(offset as usize).min(self.0.len())..]))
    }
}

/// A file on disk as a range source (tests, CLI, benchmarks).
#[cfg(not(target_arch = "wasm32"))]
pub struct FileSource {
    pub path: std::path::PathBuf,
    pub size: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl RangeSource for FileSource {
    fn size(&self) -> u64 {
        self.size
    }
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        use std::io::{Seek, SeekFrom};
        let mut f = std::fs::File::open(&self.path)?;
        f.seek(SeekFrom::Start(offset))?;
        let mut out = Vec::with_capacity(len);
        f.take(len as u64).read_to_end(&mut out)?;
        Ok(out)
    }
    fn reader_from(&self, offset: u64) -> std::io::Result<Box<dyn Read + '_>> {
        use std::io::{Seek, SeekFrom};
        let mut f = std::fs::File::open(&self.path)?;
        f.seek(SeekFrom::Start(offset))?;
        Ok(Box::new(f))
    }
}

/// Imports a file with `threads` threads when `plan` allows, else in one pass (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn import_file(path: &std::path::Path, threads: usize) -> Result<Imported, LoadError> {
    import_file_as(path, threads, None)
}

/// `import_file` with the format forced (`None`: detected); only a JMeter CSV is read in ranges.
#[cfg(not(target_arch = "wasm32"))]
pub fn import_file_as(path: &std::path::Path, threads: usize, format: Option<Format>) -> Result<Imported, LoadError> {
    let name = path.to_string_lossy().into_owned();
    let size = std::fs::metadata(path).map_err(|e| io_err(&name, e))?.len();
    let src = FileSource { path: path.to_path_buf(), size };
    let head = src.read_at(0, HEAD_BYTES).map_err(|e| io_err(&name, e))?;
    let planned = plan(&name, &head, size, threads).filter(|_| format.is_none_or(|f| f == Format::JmeterCsv));
    // A big bundle is cut into groups of runs, each parsed on a thread (`bundle::split_load`).
    let bundle = format.map_or_else(|| crate::import::detect(&name, &head).ok(), Some) == Some(Format::Bundle);
    if bundle
        && threads >= 2
        && (crate::bundle::split_load::MIN_SPLIT_BYTES..=crate::import::MAX_WHOLE_FILE_BYTES).contains(&size)
    {
        let bytes = std::fs::read(path).map_err(|e| io_err(&name, e))?;
        return crate::bundle::split_load::load_bundle_threads(&name, &bytes, threads)
            .map(crate::import::imported_bundle);
    }
    let Some(plan) = planned else {
        let f = std::fs::File::open(path).map_err(|e| io_err(&name, e))?;
        return crate::import::import(&name, f, format, &mut |_, _| {});
    };
    let parts: Vec<Result<Part, LoadError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..plan.ranges.len())
            .map(|i| {
                let (src, plan, name) = (&src, &plan, &name);
                s.spawn(move || read_range(name, src, plan, i, &mut |_| {}))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(io_err(&name, std::io::Error::other("a thread failed")))))
            .collect()
    });
    let parts = settle(&name, &src, &plan, parts)?;
    finish(&name, &src, &plan, parts)
}

/// The parts of every range, or the first error with its line in the whole file. A range that
/// failed is read again from where the previous one stopped (it may have started inside a
/// quoted line break, where its first "record" was not one); only a failure then is an error.
/// Lines of a range count from its start, so the lines of the ranges before it are added.
pub fn settle(
    name: &str,
    src: &dyn RangeSource,
    plan: &Plan,
    results: Vec<Result<Part, LoadError>>,
) -> Result<Vec<Part>, LoadError> {
    let mut parts: Vec<Part> = Vec::with_capacity(results.len());
    for (i, result) in results.into_iter().enumerate() {
        let part = match (result, parts.last()) {
            (Ok(p), _) => p,
            (Err(e), None) => return Err(e),
            (Err(_), Some(_)) => reread(name, src, plan, &parts, i)?,
        };
        parts.push(part);
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jtl(rows: usize) -> Vec<u8> {
        let mut s = String::from("timeStamp,elapsed,label,responseCode,responseMessage,success,bytes\n");
        for i in 0..rows {
            let label = if i % 5 == 0 { "\"quoted, with\nbreak\"".to_string() } else { format!("L{}", i % 7) };
            // Every 11th sample fails, with messages that normalise to a few causes.
            let (code, msg) = match (i % 11, i % 3) {
                (0, 0) => ("500", format!("timeout after {} ms", 1000 + i)),
                (0, 1) => {
                    ("", format!("\"Number of samples in transaction : {}, number of failing samples : 1\"", i % 4 + 1))
                }
                _ => ("200", "OK".to_string()),
            };
            s.push_str(&format!("{},{},{label},{code},{msg},{},{}\n", 1_000 + i * 7, (i * 13) % 997, i % 11 != 0, i));
        }
        s.into_bytes()
    }

    #[test]
    fn a_big_bundle_file_is_read_on_threads_as_in_one_pass() {
        use serde_json::json;
        let tx: Vec<_> = (0..2000)
            .map(|i| {
                json!({"name": format!("tx {i}"), "samples": 10 + i, "median_ms": i as f64 + 0.5,
            "histogram": {"upper_bounds_ms": [1.5, 2.5, 40.25, 80.0], "counts": [1, 2, 3, 4]}})
            })
            .collect();
        let runs: Vec<_> =
            (0..40).map(|r| json!({"id": format!("r{r}"), "label": format!("Run {r}"), "transactions": tx})).collect();
        let text =
            json!({"format": "runlens-bundle", "version": 1, "report": {"title": "Big"}, "runs": runs}).to_string();
        assert!(text.len() as u64 >= crate::bundle::split_load::MIN_SPLIT_BYTES, "{} bytes", text.len());
        assert!(crate::bundle::split::split(text.as_bytes(), 2).is_some(), "the file is cut");
        let path = std::env::temp_dir().join(format!("runlens-big-bundle-{}.json", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let one = import_file(&path, 1).unwrap();
        let threads = import_file(&path, 2).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(one.bundle.runs.len(), 40);
        assert_eq!(
            (threads.format, threads.bundle, threads.warnings, threads.records),
            (one.format, one.bundle, one.warnings, one.records)
        );
    }

    #[test]
    fn ranges_merge_into_the_single_pass_result_and_parts_survive_the_wire() {
        let bytes = jtl(3000);
        let one = crate::import::import_bytes("x.jtl", &bytes).unwrap();
        let src = MemSource(bytes.clone());
        for n in [2usize, 3, 5] {
            let plan = Plan {
                layout: jmeter_csv::layout(std::str::from_utf8(&bytes).unwrap()).unwrap(),
                ranges: jmeter_csv::split(bytes.len() as u64, n),
            };
            let parts: Vec<Part> = (0..n)
                .map(|i| read_range("x.jtl", &src, &plan, i, &mut |_| {}).unwrap())
                .map(|p| decode_part(&encode_part(&p)).unwrap())
                .collect();
            let merged = finish("x.jtl", &src, &plan, parts).unwrap();
            assert_eq!(merged.bundle, one.bundle, "{n} ranges");
            assert_eq!(merged.records, one.records);
        }
        // The errors by cause that must agree: several per label, with examples and times.
        let errors = &one.bundle.runs[0].errors;
        assert!(errors.len() > 10 && errors.iter().all(|e| e.first_s.is_some()), "{errors:?}");
        assert!(errors.iter().any(|e| e.example.is_some() && e.message == "timeout after {n} ms"));
    }

    #[test]
    fn an_error_in_a_later_range_names_its_line_in_the_whole_file() {
        // More rows than the long line has bytes, so that the long line starts in the second half.
        let mut bytes = jtl(200_000);
        assert!(bytes.len() > crate::limits::MAX_LINE_BYTES + (1 << 20));
        let line = bytes.split(|b| *b == b'\n').count();
        bytes.extend_from_slice(b"9999,1,");
        bytes.extend(std::iter::repeat_n(b'x', crate::limits::MAX_LINE_BYTES + 10));
        bytes.extend_from_slice(b",200,OK,true,1\n");
        let one = crate::import::import_bytes("x.jtl", &bytes).unwrap_err();
        assert_eq!(one.line, Some(line), "{one}");
        let src = MemSource(bytes.clone());
        let plan = Plan {
            layout: jmeter_csv::layout(std::str::from_utf8(&bytes[..1000]).unwrap()).unwrap(),
            ranges: jmeter_csv::split(bytes.len() as u64, 2),
        };
        let results: Vec<_> = (0..2).map(|i| read_range("x.jtl", &src, &plan, i, &mut |_| {})).collect();
        assert!(results[1].is_err() && results[0].is_ok(), "the long line lies in the last range");
        let e = settle("x.jtl", &src, &plan, results).unwrap_err();
        assert_eq!((e.line, e.message), (one.line, one.message));
    }

    /// A UTF-8 byte order mark is skipped as the one-pass import skips it, with a header or without
    /// (where it would otherwise stick to the first sample's timestamp).
    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_record() {
        let headerless: String = (0..500)
            .map(|i| {
                format!("{},{},L{},200,OK,Thread Group 1-1,text,true,100,5\n", 1_600_000_000_000u64 + i, i % 37, i % 3)
            })
            .collect();
        for body in [jtl(500), headerless.into_bytes()] {
            let bytes = [b"\xEF\xBB\xBF".as_slice(), &body].concat();
            let one = crate::import::import_bytes("x.jtl", &bytes).unwrap();
            assert!(one.warnings.iter().all(|w| !w.message.contains("not a time")), "{:?}", one.warnings);
            let src = MemSource(bytes.clone());
            for n in [1usize, 2] {
                let plan = Plan {
                    layout: jmeter_csv::layout(&String::from_utf8_lossy(&bytes)).unwrap(),
                    ranges: jmeter_csv::split(bytes.len() as u64, n),
                };
                let parts = (0..n).map(|i| read_range("x.jtl", &src, &plan, i, &mut |_| {}).unwrap()).collect();
                let merged = finish("x.jtl", &src, &plan, parts).unwrap();
                assert_eq!((merged.bundle, merged.warnings), (one.bundle.clone(), one.warnings.clone()), "{n} ranges");
            }
        }
    }

    #[test]
    fn only_large_utf8_jmeter_csv_is_split() {
        let head = jtl(10);
        assert!(plan("x.jtl", &head, MIN_PARALLEL_BYTES, 2).is_some());
        assert!(plan("x.jtl", &head, MIN_PARALLEL_BYTES - 1, 2).is_none());
        assert!(plan("x.jtl", &head, MIN_PARALLEL_BYTES, 1).is_none());
        assert!(plan("b.json", br#"{"format":"runlens-bundle"}"#, MIN_PARALLEL_BYTES, 2).is_none());
    }
}
