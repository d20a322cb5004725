//! A CSV record splitter for large result files (RFC 4180: https://www.rfc-editor.org/rfc/rfc4180).
//!
//! Written by hand because it is the hot path of every raw import: the `csv` crate's byte-at-a-time
//! state machine costs about 14 instructions per byte (measured with callgrind on a JTL), while
//! most rows of a results file hold no quote at all, or only simple quoted fields. A record is
//! split in one pass sixteen bytes at a time (`fast`: SIMD) and its fields, quoted ones too, are
//! slices of the read buffer; a record with a doubled quote, a quoted line break or other oddities
//! takes a full RFC 4180 path that copies the unescaped fields. `tests` checks every result against the `csv` crate on generated
//! awkward input, so the two agree field for field: blank lines are skipped, `\r\n` ends a record
//! like `\n`, a quote inside an unquoted field is literal, text after a closing quote is kept.

use std::io::Read;

/// Records longer than this are refused: a results file has no such rows, and a file without
/// line breaks must not make the tab allocate without end (see `crate::limits`).
pub const MAX_RECORD_BYTES: usize = crate::limits::MAX_LINE_BYTES;
const BUF_BYTES: usize = 1 << 20;

/// One record's fields; valid until the next call to `Splitter::next_record`.
pub struct Record<'a> {
    src: &'a [u8],
    bounds: &'a [(u32, u32)],
    /// Where the record ends in `src` when the fields past `bounds` were left unsplit (the fast
    /// path with `with_max_fields`); 0 when every field is in `bounds`.
    end: u32,
}

impl<'a> Record<'a> {
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        self.bounds.get(i).map(|(a, b)| &self.src[*a as usize..*b as usize])
    }

    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    /// Field `i`, also past the fields the splitter was asked for, if it is a plain field
    /// (no quote in it or before it among the unsplit ones): read without splitting the rest.
    #[inline(always)]
    pub fn get_far(&self, i: usize, delim: u8) -> Option<&'a [u8]> {
        if i < self.bounds.len() {
            return self.get(i);
        }
        let z = self.bounds.last()?.1 as usize;
        let rest = self.src.get(z..self.end as usize)?;
        // The field starts after `wanted` delimiters (the first ends the last split field).
        let wanted = i - self.bounds.len() + 1;
        if let Some(f) = self.src.get(z..z + 16).and_then(|w| near(w, rest.len(), wanted, delim)) {
            return rest.get(f.0..f.1);
        }
        let (mut seen, mut start) = (0, 0);
        for (j, &b) in rest.iter().enumerate() {
            // Digits and letters pass with two comparisons.
            if b > b'"' && b != delim {
                continue;
            }
            if b == delim {
                seen += 1;
                if seen == wanted {
                    start = j + 1;
                } else if seen > wanted {
                    return rest.get(start..j);
                }
            } else if b == b'\n' || b == b'\r' {
                return if seen == wanted { rest.get(start..j) } else { None };
            } else if b == b'"' {
                return None;
            }
        }
        if seen == wanted {
            rest.get(start..)
        } else {
            None
        }
    }

    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// `get_far` for a field that ends within the 16 bytes `w` after the last split field (those of
/// the record are its first `len`): the special bytes of all 16 found at once (`fast::mask16`),
/// the field is (start, end) in `w` when the first `wanted` of them are delimiters and the next
/// ends the field. `None`: decide byte by byte.
#[inline(always)]
fn near(w: &[u8], len: usize, wanted: usize, delim: u8) -> Option<(usize, usize)> {
    let mut bits = fast::mask16(w.try_into().ok()?, delim);
    let mut start = 0;
    for _ in 0..wanted {
        let k = bits.trailing_zeros() as usize;
        if k >= len || w.get(k) != Some(&delim) {
            return None;
        }
        bits &= bits - 1;
        start = k + 1;
    }
    let k = bits.trailing_zeros() as usize;
    (k < len && w.get(k).is_some_and(|&b| b == delim || b == b'\n' || b == b'\r')).then_some((start, k))
}

/// Where a record starts: byte offset from the start of the input, and 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub byte: u64,
    pub line: u64,
}

pub struct Splitter<R> {
    input: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    delim: u8,
    /// Offset and line of `buf[start]`.
    pos: Pos,
    bounds: Vec<(u32, u32)>,
    scratch: Vec<u8>,
    /// Fields after the first `max_fields` of a plain record are not split (a reader that needs
    /// only the first columns skips scanning the rest).
    max_fields: usize,
}

/// Why a record could not be split.
#[derive(Debug)]
pub enum SplitError {
    Io(std::io::Error),
    TooLong { line: u64 },
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SplitError::Io(e) => write!(f, "the file could not be read ({e})"),
            SplitError::TooLong { .. } => write!(
                f,
                "a line is longer than {} MiB, the most runlens reads as one line; the file looks damaged (an unclosed quote, or no line breaks)",
                MAX_RECORD_BYTES >> 20
            ),
        }
    }
}

impl<R: Read> Splitter<R> {
    pub fn new(input: R, delim: u8) -> Splitter<R> {
        Splitter {
            input,
            buf: vec![0; BUF_BYTES],
            start: 0,
            end: 0,
            eof: false,
            delim,
            pos: Pos { byte: 0, line: 1 },
            bounds: Vec::with_capacity(32),
            scratch: Vec::new(),
            max_fields: usize::MAX,
        }
    }

    /// Only the first `n` fields of each record will be asked for.
    pub fn with_max_fields(mut self, n: usize) -> Self {
        self.max_fields = n.max(1);
        self
    }

    /// Where the next record starts (after any blank lines it will skip: not yet known).
    pub fn position(&self) -> Pos {
        self.pos
    }

    /// Moves the unread bytes to the front and reads more; grows the buffer when a record fills
    /// it. Returns false at the end of input.
    fn fill(&mut self) -> Result<bool, SplitError> {
        if self.eof {
            return Ok(false);
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            if self.buf.len() >= MAX_RECORD_BYTES {
                return Err(SplitError::TooLong { line: self.pos.line });
            }
            self.buf.resize((self.buf.len() * 2).min(MAX_RECORD_BYTES.max(BUF_BYTES)), 0);
        }
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(SplitError::Io(e)),
            }
        }
    }

    /// Skips line breaks between records (blank lines).
    fn skip_blank(&mut self) -> Result<bool, SplitError> {
        loop {
            while self.start < self.end {
                match self.buf[self.start] {
                    b'\n' => {
                        self.pos.line += 1;
                    }
                    b'\r' => {}
                    _ => return Ok(true),
                }
                self.start += 1;
                self.pos.byte += 1;
            }
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    /// The next record and where it started; `None` at the end of input.
    pub fn next_record(&mut self) -> Result<Option<(Record<'_>, Pos)>, SplitError> {
        if !self.skip_blank()? {
            return Ok(None);
        }
        loop {
            match self.scan() {
                Step::Plain { consumed, has_nl } => return Ok(Some(self.take_plain(consumed, has_nl))),
                Step::Quoted { consumed, lines } => return Ok(Some(self.take_quoted(consumed, lines))),
                // The record runs past the buffered bytes: read more and start it over.
                Step::More => {
                    self.fill()?;
                }
            }
        }
    }

    /// Decides how the record at `start` splits, given what is buffered: the one-pass fast path
    /// (`fast::record`), else the full RFC 4180 path.
    fn scan(&mut self) -> Step {
        let rest = &self.buf[self.start..self.end];
        match fast::record(rest, self.eof, self.delim, self.max_fields, self.start, &mut self.bounds) {
            fast::Fast::Done { consumed, has_nl } => Step::Plain { consumed, has_nl },
            fast::Fast::More => Step::More,
            fast::Fast::Slow => match quoted(rest, self.delim, self.eof, &mut self.scratch, &mut self.bounds) {
                Some((consumed, lines)) => Step::Quoted { consumed, lines },
                None => Step::More,
            },
        }
    }

    /// A record the fast path split: its fields are in `bounds`, offsets into `buf`.
    fn take_plain(&mut self, consumed: usize, has_nl: bool) -> (Record<'_>, Pos) {
        let at = self.pos;
        self.start += consumed;
        self.pos.byte += consumed as u64;
        self.pos.line += u64::from(has_nl);
        (Record { src: &self.buf, bounds: &self.bounds, end: self.start as u32 }, at)
    }

    fn take_quoted(&mut self, consumed: usize, lines: u64) -> (Record<'_>, Pos) {
        let at = self.pos;
        self.start += consumed;
        self.pos.byte += consumed as u64;
        self.pos.line += lines;
        (Record { src: &self.scratch, bounds: &self.bounds, end: 0 }, at)
    }
}

enum Step {
    Plain { consumed: usize, has_nl: bool },
    Quoted { consumed: usize, lines: u64 },
    More,
}

/// RFC 4180 split of the record at the start of `b` into `out` (unescaped) and `bounds`, jumping
/// from one special byte to the next with `memchr`. Returns the bytes consumed (with the line
/// break) and the line breaks consumed, or `None` if `b` ends before the record does (and
/// `at_eof` is false).
fn quoted(b: &[u8], delim: u8, at_eof: bool, out: &mut Vec<u8>, bounds: &mut Vec<(u32, u32)>) -> Option<(usize, u64)> {
    out.clear();
    bounds.clear();
    let (mut i, mut lines) = (0usize, 0u64);
    loop {
        let field_start = out.len();
        // A quoted field: up to the closing quote (`""` is a quote), then any text after it.
        if b.get(i) == Some(&b'"') {
            i += 1;
            loop {
                let Some(q) = memchr::memchr(b'"', &b[i..]) else {
                    if !at_eof {
                        return None;
                    }
                    lines += memchr::memchr_iter(b'\n', &b[i..]).count() as u64;
                    out.extend_from_slice(&b[i..]);
                    bounds.push((field_start as u32, out.len() as u32));
                    return Some((b.len(), lines));
                };
                let seg = &b[i..i + q];
                lines += memchr::memchr_iter(b'\n', seg).count() as u64;
                out.extend_from_slice(seg);
                i += q + 1;
                match b.get(i) {
                    Some(b'"') => {
                        out.push(b'"');
                        i += 1;
                    }
                    Some(_) => break,
                    None if at_eof => break,
                    None => return None,
                }
            }
        }
        // Unquoted text (or what follows a closing quote) up to a delimiter or a line break.
        let rest = &b[i..];
        match memchr::memchr3(delim, b'\n', b'\r', rest) {
            None => {
                if !at_eof {
                    return None;
                }
                out.extend_from_slice(rest);
                bounds.push((field_start as u32, out.len() as u32));
                return Some((b.len(), lines));
            }
            Some(k) => {
                out.extend_from_slice(&rest[..k]);
                bounds.push((field_start as u32, out.len() as u32));
                i += k;
                let c = b[i];
                i += 1;
                if c == delim {
                    continue;
                }
                if c == b'\r' {
                    if i >= b.len() && !at_eof {
                        return None;
                    }
                    if b.get(i) == Some(&b'\n') {
                        i += 1;
                    }
                }
                return Some((i, lines + u64::from(b[i - 1] == b'\n')));
            }
        }
    }
}

mod fast;

#[cfg(test)]
mod tests;
