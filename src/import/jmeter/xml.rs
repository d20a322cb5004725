//! JMeter XML results (JTL), as written with `jmeter.save.saveservice.output_format=xml`.
//! Format: https://jmeter.apache.org/usermanual/listeners.html#xmlformat2.1 ; attribute names as
//! JMeter's `SampleResultConverter` writes them: `t` elapsed, `ts` time stamp, `s` success, `lb`
//! label, `rc` (older files: `rs`) and `rm` response code and message, `by`/`sby` bytes received
//! and sent, `sc`/`ec` sample and error counts (`lt ct it tn dt de ng na hn` are not needed);
//! the first `<assertionResult><failureMessage>` of a sample is its failure message (errors by
//! cause read it as the CSV's `failureMessage`).
//!
//! Every top-level child of `<testResults>` is a sample: `httpSample`, `sample`, or any element
//! carrying sample attributes (plugins' result classes). An element without attributes whose
//! children are named like `SampleResult`'s fields (`label`, `elapsedTime`, `startTime`, … as
//! XStream writes an unregistered class, e.g. the WebDriver sampler's `SampleResultWithSubs`) is
//! read from those children. Samples nested in a sample (redirects, embedded resources, a
//! Transaction Controller's children) are not counted: JMeter's listeners (Aggregate and Summary
//! Report: `StatVisualizer.add`, `SamplingStatCalculator.addSample`) add the result they are given,
//! not its sub-results. (Since JMeter 5.0 a CSV JTL holds sub-results as rows of their own, named
//! `parent-N`, so a dashboard made from CSV counts them; XML keeps them nested.)
//!
//! The input is streamed through quick-xml (whose `encoding` feature is off, so the declaration's
//! encoding is not applied a second time: `text::stream_valid` has already decoded the bytes to
//! valid UTF-8, an undecodable byte as U+FFFD, which quick-xml requires).
//! Response bodies, headers, assertion results and every other child are skipped byte by byte
//! up to their next markup, never held in memory.

use crate::bundle::{LoadError, LoadErrorKind, Run};
use crate::import::common::causes::normalise::is_controller_message;
use crate::import::common::samples::Sample;
use crate::import::jmeter::csv::{finish_parts, Part};
use crate::import::Head;
use crate::import::{common::civil, Ctx};
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use std::borrow::Cow;
use std::io::{self, BufRead, Read};

/// Content detection: markup that opens a `<testResults>` element.
pub fn detect(h: &Head) -> bool {
    let t = h.trimmed();
    t.starts_with('<') && t.contains("<testResults")
}

/// A `BufRead` that counts the line breaks it has handed out, so warnings can name lines.
struct Lines<R> {
    inner: R,
    breaks: u64,
}

impl<R: BufRead> Read for Lines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.breaks += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Lines<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        // The bytes being consumed are still in the buffer: fill_buf returns them without I/O.
        if let Ok(buf) = self.inner.fill_buf() {
            self.breaks += memchr::memchr_iter(b'\n', &buf[..amt.min(buf.len())]).count() as u64;
        }
        self.inner.consume(amt);
    }
}

/// Consumes text up to (not including) the next `<`, in chunks: a response body is never held.
fn skip_text(mut r: impl BufRead) -> io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = memchr::memchr(b'<', buf) {
            r.consume(i);
            return Ok(());
        }
        let n = buf.len();
        r.consume(n);
    }
}

/// Element text with XML escapes resolved (kept as written if an escape is unknown); `true`
/// when it holds U+FFFD (bytes the decoder could not read).
fn text_of(raw: &str) -> (String, bool) {
    let s = quick_xml::escape::unescape(raw).map_or_else(|_| raw.to_string(), Cow::into_owned);
    let replaced = s.contains('\u{FFFD}');
    (s, replaced)
}

fn uint(s: &str) -> Option<u64> {
    let s = s.trim();
    (!s.is_empty() && s.len() < 20 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// The fields of one top-level sample, from its attributes or (XStream form) its children.
#[derive(Default)]
struct Fields {
    /// Element name and the line of its start tag.
    element: String,
    line: u64,
    /// Whether it carried any sample attribute.
    attributes: bool,
    /// Why (some of) its attributes could not be read.
    attribute_error: Option<String>,
    label: Option<(String, bool)>,
    elapsed: Option<String>,
    stamp: Option<String>,
    start_time: Option<String>,
    end_time: Option<String>,
    success: Option<String>,
    code: String,
    message: String,
    bytes: Option<String>,
    sent: Option<String>,
    count: Option<String>,
    errors: Option<String>,
    /// The first failure message of its `<assertionResult>` children.
    failure: String,
    all_threads: Option<String>,
    grp_threads: Option<String>,
}

impl Fields {
    fn from_attributes(e: &BytesStart, line: u64) -> Fields {
        let element = e.name().as_ref().to_string();
        let mut f = Fields { element, line, ..Default::default() };
        for a in e.attributes().with_checks(false) {
            let a = match a {
                Ok(a) => a,
                Err(err) => {
                    f.attribute_error.get_or_insert(err.to_string());
                    continue;
                }
            };
            // Attribute-value normalization as XML readers (and JMeter) do it; JMeter writes
            // line breaks in labels as `&#10;`, which survive it.
            let value =
                a.normalized_value(XmlVersion::Implicit1_0).map_or_else(|_| a.value.to_string(), Cow::into_owned);
            let replaced = value.contains('\u{FFFD}');
            f.attributes |= f.set(a.key.as_ref(), value, replaced);
        }
        f
    }

    /// Stores a field by its attribute name or `SampleResult` field name; false if unknown.
    fn set(&mut self, name: &str, value: String, replaced: bool) -> bool {
        match name {
            "lb" | "label" => self.label = Some((value, replaced)),
            "t" | "elapsedTime" => self.elapsed = Some(value),
            "ts" | "timeStamp" => self.stamp = Some(value),
            "startTime" => self.start_time = Some(value),
            "endTime" => self.end_time = Some(value),
            "s" | "success" => self.success = Some(value),
            "rc" | "rs" | "responseCode" => self.code = value,
            "rm" | "responseMessage" => self.message = value,
            "by" | "bytes" => self.bytes = Some(value),
            "sby" | "sentBytes" => self.sent = Some(value),
            "sc" | "sampleCount" => self.count = Some(value),
            "ec" | "errorCount" => self.errors = Some(value),
            "na" | "allThreads" => self.all_threads = Some(value),
            "ng" | "grpThreads" => self.grp_threads = Some(value),
            _ => return false,
        }
        true
    }

    fn is_sample(&self) -> bool {
        self.attributes || self.label.is_some() || self.elapsed.is_some()
    }

    /// Adds the sample to `part`, or warns (naming its line) why it cannot be counted.
    fn add_to(self, part: &mut Part) {
        let line = self.line;
        if let Some(err) = &self.attribute_error {
            let err = err.clone();
            part.warn(line, || format!("some attributes of this sample cannot be read ({err}); the others are used"));
        }
        let mut s = Sample::default();
        if let Some(t) = &self.elapsed {
            match uint(t) {
                Some(e) => s.elapsed_ms = Some(e),
                None => {
                    let shown = t.clone();
                    part.warn(line, || {
                        format!("elapsed time {shown:?} is not a whole number of milliseconds; the sample is skipped")
                    });
                    return;
                }
            }
        }
        // XStream form: a start time of 0 means unset; the time stamp may then be the start.
        let start = self.start_time.as_deref().and_then(uint).filter(|t| *t > 0);
        let stamp = self.stamp.as_deref();
        s.start_ms = match (start, stamp) {
            (Some(t), _) => Some(t as i64),
            (None, Some(ts)) => match uint(ts) {
                Some(0) if !self.attributes => None,
                Some(t) => Some(t as i64),
                None => match civil::parse_datetime(ts) {
                    Some((t, _)) => Some(t),
                    None => {
                        let shown = ts.to_string();
                        part.warn(line, || {
                            format!("time stamp {shown:?} is not a time; the sample counts without one")
                        });
                        None
                    }
                },
            },
            (None, None) => None,
        };
        if s.elapsed_ms.is_none() {
            let end = self.end_time.as_deref().and_then(uint).filter(|t| *t > 0);
            if let (Some(st), Some(en)) = (start, end) {
                s.elapsed_ms = en.checked_sub(st);
            }
        }
        let ok = match self.success.as_deref().map(str::trim) {
            Some(b) if b.eq_ignore_ascii_case("true") => true,
            Some(b) if b.eq_ignore_ascii_case("false") => false,
            Some(other) => {
                let shown = other.to_string();
                part.warn(line, || format!("success {shown:?} is neither true nor false; counted as a success"));
                true
            }
            None => uint(&self.code).is_none_or(|code| code < 400),
        };
        s.count = self.count.as_deref().and_then(uint).unwrap_or(1).max(1);
        s.errors = match self.errors.as_deref().and_then(uint) {
            Some(e) => e.min(s.count),
            None => u64::from(!ok) * s.count,
        };
        s.bytes_received = self.bytes.as_deref().and_then(uint);
        s.bytes_sent = self.sent.as_deref().and_then(uint);
        let (label, replaced) = self.label.unwrap_or_default();
        let id = {
            let warnings = &mut part.warnings;
            part.agg.label_id(label.as_bytes(), line, || {
                if replaced {
                    warnings.push((
                        line,
                        format!("label {label:?} has bytes that are not valid text; they show as \u{FFFD}"),
                    ));
                }
                label.clone()
            })
        };
        let threads = self.all_threads.as_deref().or(self.grp_threads.as_deref()).and_then(uint);
        if let (Some(t), Some(n)) = (s.start_ms, threads) {
            part.agg.users.add(t, n);
        }
        let stats = &mut part.agg.labels[id];
        stats.add(&s);
        stats.is_controller |= is_controller_message(self.message.as_bytes());
        if s.errors > 0 {
            let (code, message, failure) = (self.code.as_bytes(), self.message.as_bytes(), self.failure.as_bytes());
            part.count_error(id, code, message, failure, s.start_ms, s.errors);
        }
        part.records += 1;
    }
}

/// What the reader is inside of.
#[derive(Default)]
struct State {
    depth: usize,
    sample: Option<Fields>,
    /// A `SampleResult` field of an attribute-less sample (or an assertion's failure message)
    /// whose text is being collected.
    capture: Option<(String, String)>,
    /// Inside an `<assertionResult>` of the current sample.
    in_assertion: bool,
    sub_samples: u64,
    /// Top-level elements that are not samples: (name, line of the first), one per name.
    ignored: Vec<(String, u64)>,
}

const MAX_FIELD_TEXT: usize = 4096;

/// What a pass over the file found.
struct Parsed {
    part: Part,
    sub_samples: u64,
    /// The largest event buffer quick-xml needed: tags and short texts, never a response body.
    #[cfg_attr(not(test), allow(dead_code))]
    largest_event: usize,
}

/// Reads every top-level sample into a `Part`; warnings go to the part (by line) or to `ctx`.
fn parse(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Parsed, LoadError> {
    let mut reader = Reader::from_reader(Lines { inner: input, breaks: 0 });
    reader.config_mut().check_end_names = true;
    let (mut part, mut st, mut buf, mut largest_event) = (Part::default(), State::default(), Vec::new(), 0);
    let progress = ctx.progress;
    let mut broken = false;
    loop {
        largest_event = largest_event.max(buf.capacity());
        buf.clear();
        let line = reader.get_ref().breaks + 1;
        let event = match reader.read_event_into(&mut buf) {
            Ok(e) => e,
            Err(e) => {
                let at = reader.get_ref().breaks + 1;
                if part.records == 0 {
                    return Err(ctx.error(LoadErrorKind::Syntax, Some(at), format!("the XML cannot be read: {e}")));
                }
                part.warn(at, || format!("the XML cannot be read past here ({e}); the samples before it are imported"));
                broken = true;
                break;
            }
        };
        let mut skip = false;
        match event {
            Event::Start(e) => {
                st.depth += 1;
                skip = start(ctx, &mut st, &e, line, false)?;
            }
            Event::Empty(e) => {
                st.depth += 1;
                start(ctx, &mut st, &e, line, true)?;
                end(&mut st, &mut part);
                st.depth -= 1;
            }
            Event::End(_) => {
                end(&mut st, &mut part);
                st.depth = st.depth.saturating_sub(1);
            }
            Event::Text(t) => collect(&mut st, &t),
            Event::GeneralRef(r) => collect(&mut st, &format!("&{};", &*r)),
            Event::CData(c) => collect(&mut st, &quick_xml::escape::escape(&*c)),
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
        if skip {
            skip_text(reader.stream())
                .map_err(|e| ctx.error(LoadErrorKind::Io, Some(line), format!("the file could not be read ({e})")))?;
        }
        progress.records.set(part.records);
    }
    if let Some(f) = st.sample.take() {
        let (at, counted) = (f.line, f.attributes);
        if counted {
            f.add_to(&mut part);
        }
        let why = if broken {
            "the error cuts this sample off"
        } else {
            "the file ends inside this sample (was the test stopped?)"
        };
        let how = if counted { "it is counted from its attributes" } else { "it is not counted" };
        part.warn(at, || format!("{why}; {how}"));
    } else if st.depth > 0 && !broken {
        let at = reader.get_ref().breaks + 1;
        part.warn(at, || "the file ends without </testResults> (was the test still running?)".into());
    }
    for (name, line) in std::mem::take(&mut st.ignored) {
        ctx.warn(format!("line {line}"), format!("<{name}> elements carry no sample fields and are ignored"));
    }
    part.lines = reader.get_ref().breaks;
    progress.records.set(part.records);
    Ok(Parsed { part, sub_samples: st.sub_samples, largest_event })
}

/// Imports a whole XML JTL in one pass.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let parsed = parse(ctx, input)?;
    let mut run = finish_parts(ctx, vec![parsed.part])?;
    if parsed.sub_samples > 0 {
        run.notes.push(format!(
            "{} sub-samples (samples nested in another: redirects, embedded resources, a Transaction Controller's children) are not counted, as in JMeter's Aggregate and Summary Reports; the sample they belong to is.",
            parsed.sub_samples
        ));
    }
    Ok(run)
}

/// Handles an opening tag at `st.depth`; returns whether the element's text is to be skipped.
fn start(ctx: &Ctx, st: &mut State, e: &BytesStart, line: u64, empty: bool) -> Result<bool, LoadError> {
    match st.depth {
        1 => {
            if e.name().as_ref() != "testResults" {
                let name = e.name().as_ref().to_string();
                return Err(ctx.error(
                    LoadErrorKind::Syntax,
                    Some(line),
                    format!("the root element is <{name}>, not JMeter's <testResults>"),
                ));
            }
            Ok(false)
        }
        2 => {
            st.sample = Some(Fields::from_attributes(e, line));
            Ok(st.sample.as_ref().is_some_and(|f| f.attributes))
        }
        3 if e.name().as_ref() == "assertionResult" => {
            st.in_assertion = !empty;
            Ok(true)
        }
        4 if st.in_assertion
            && !empty
            && e.name().as_ref() == "failureMessage"
            && st.sample.as_ref().is_some_and(|f| f.failure.is_empty()) =>
        {
            st.capture = Some(("failureMessage".into(), String::new()));
            Ok(false)
        }
        3 => {
            let sample_key = |a: quick_xml::events::attributes::Attribute| SAMPLE_ATTRIBUTES.contains(&a.key.as_ref());
            if e.attributes().with_checks(false).flatten().any(sample_key) {
                st.sub_samples += 1;
            } else if !empty
                && st.sample.as_ref().is_some_and(|f| !f.attributes)
                && FIELD_NAMES.contains(&e.name().as_ref())
            {
                st.capture = Some((e.name().as_ref().to_string(), String::new()));
                return Ok(false);
            }
            Ok(true)
        }
        _ => Ok(true),
    }
}

/// The attributes that make an element a sample (as `SampleResultConverter` writes them).
const SAMPLE_ATTRIBUTES: [&str; 11] = ["t", "ts", "s", "lb", "rc", "rs", "rm", "by", "sby", "sc", "ec"];

/// `SampleResult` field names read from an attribute-less sample's children.
const FIELD_NAMES: [&str; 12] = [
    "label",
    "elapsedTime",
    "timeStamp",
    "startTime",
    "endTime",
    "success",
    "responseCode",
    "responseMessage",
    "bytes",
    "sentBytes",
    "sampleCount",
    "errorCount",
];

/// Appends escaped text to the field being captured (up to `MAX_FIELD_TEXT` bytes).
fn collect(st: &mut State, t: &str) {
    if let Some((_, text)) = &mut st.capture {
        if text.len() < MAX_FIELD_TEXT {
            text.push_str(t);
        }
    }
}

/// Handles a closing tag at `st.depth` (before it is decremented).
fn end(st: &mut State, part: &mut Part) {
    match st.depth {
        4 => {
            if let (Some((_, text)), Some(f)) = (st.capture.take(), st.sample.as_mut()) {
                f.failure = text_of(&text).0.trim().to_string();
            }
        }
        3 => {
            st.in_assertion = false;
            if let (Some((name, text)), Some(f)) = (st.capture.take(), st.sample.as_mut()) {
                let (value, replaced) = text_of(&text);
                f.set(&name, value.trim().to_string(), replaced);
            }
        }
        2 => {
            if let Some(f) = st.sample.take() {
                if f.is_sample() {
                    f.add_to(part);
                } else if st.ignored.len() < 20 && !st.ignored.iter().any(|(n, _)| *n == f.element) {
                    st.ignored.push((f.element, f.line));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
