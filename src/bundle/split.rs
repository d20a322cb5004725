//! A big bundle cut into groups of runs without parsing it, so that several ingest workers each
//! parse some of the runs (`split_load`): one pass over the JSON's structure (strings, brackets,
//! the top-level keys and the commas of the `runs` array) finds where each run begins and ends.
//!
//! Written by hand: serde_json has no way to stop at a value's boundaries without building it
//! (`RawValue` still parses every byte, and as slowly as the typed parse, which is what this
//! avoids). The pass takes 64 bytes at a time, in blocks of sixteen (SSE2 on x86-64, SIMD128 in wasm, a byte loop
//! elsewhere): a block inside a run, with no backslash, is settled from bit masks (the quotes'
//! running parity says which brackets are inside strings); any other block goes byte by byte.
//!
//! The cut is only a proposal: whatever the scan gets wrong (text that is not JSON, a `runs` key
//! written with escapes, a duplicate key) makes some parse fail, and a failure anywhere sends the
//! whole file through the one-pass loader, which says what is wrong with it.

/// The bundle cut into groups of whole runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The bundle with only the first group's runs (everything before and after `runs` kept).
    pub head: Vec<u8>,
    /// Each later group: the index of its first run in the bundle, and its runs as a JSON array.
    pub parts: Vec<(usize, Vec<u8>)>,
}

/// Cuts `bytes` into `groups` groups of runs of about equal size, or None when it is not worth it
/// or not possible (`Cut::new`).
pub fn split(bytes: &[u8], groups: usize) -> Option<Split> {
    let cut = Cut::new(bytes, &run_separators(bytes)?, groups)?;
    let parts = (0..cut.parts.len()).map(|i| (cut.parts[i].0, cut.part(bytes, i))).collect();
    // The head copied from the two slices around the later groups (`Cut::head` makes it in place
    // from an owned file instead).
    let mut head = Vec::with_capacity(cut.head_end + (bytes.len() - cut.close));
    head.extend_from_slice(&bytes[..cut.head_end]);
    head.extend_from_slice(&bytes[cut.close..]);
    Some(Split { head, parts })
}

/// The head's group of runs is this many times the size of each other group (a 50 MB bundle on
/// two workers in Chromium: the other worker's half took 195 ms from the cut to its answer, the
/// head's 166 with its runs encoded for the page).
pub const HEAD_SHARE: f64 = 1.15;

/// Where to cut a bundle, as positions in its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The head is the bytes before this (the runs' `[` and the first group) ...
    head_end: usize,
    /// ... and those from this on (the `runs` array's `]` and what follows it).
    close: usize,
    /// Each later group: its first run's index, and the separators before and after it.
    pub parts: Vec<(usize, usize, usize)>,
}

impl Cut {
    /// Groups of whole runs from the separators `run_separators` found, or None: fewer than two
    /// runs, text that is not UTF-8 JSON starting with `{` (a gzip or UTF-16 bundle is decoded by
    /// the one-pass loader). The first group (the head's, parsed by the worker that also cut the
    /// file) is `HEAD_SHARE` times the size of the others: the others' workers first receive
    /// their bytes, and their runs travel to the page once more.
    pub fn new(bytes: &[u8], seps: &[usize], groups: usize) -> Option<Cut> {
        if groups < 2 {
            return None;
        }
        let runs = Cut::runs(bytes, seps)?;
        // Group boundaries: the first separator past each share of the array's bytes.
        let (open, close) = (seps[0], seps[runs]);
        let groups = groups.min(runs);
        let shares = HEAD_SHARE + (groups - 1) as f64;
        let mut cuts = vec![0usize];
        for g in 1..groups {
            let target = open + ((close - open) as f64 * (HEAD_SHARE + (g - 1) as f64) / shares) as usize;
            let prev = *cuts.last()?;
            let at = seps.iter().position(|&s| s >= target).unwrap_or(runs).clamp(prev + 1, runs - (groups - g));
            cuts.push(at);
        }
        cuts.push(runs);
        let parts = cuts.windows(2).skip(1).map(|w| (w[0], seps[w[0]], seps[w[1]])).collect();
        Some(Cut { head_end: seps[cuts[1]], close, parts })
    }

    /// How many runs `seps` separates when the text can be cut at all: at least two, separators
    /// in order and inside the text, and the text a JSON object (not gzip or UTF-16, which the
    /// one-pass loader decodes).
    pub(super) fn runs(bytes: &[u8], seps: &[usize]) -> Option<usize> {
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return None;
        }
        let runs = seps.len().checked_sub(1)?;
        (runs >= 2 && seps.windows(2).all(|w| w[0] < w[1]) && seps[runs] < bytes.len()).then_some(runs)
    }

    /// A cut whose head keeps the bytes before `head_end` and from `close` on, and whose later
    /// groups are `parts` (`stream_cut`).
    pub(super) fn from_parts(head_end: usize, close: usize, parts: Vec<(usize, usize, usize)>) -> Cut {
        Cut { head_end, close, parts }
    }

    /// The later group `i` as a JSON array of runs.
    pub fn part(&self, bytes: &[u8], i: usize) -> Vec<u8> {
        let inner = self.part_inner(bytes, i);
        let mut part = Vec::with_capacity(inner.len() + 2);
        part.push(b'[');
        part.extend_from_slice(inner);
        part.push(b']');
        part
    }

    /// The later group `i`'s runs with the commas between them, without brackets.
    pub fn part_inner<'b>(&self, bytes: &'b [u8], i: usize) -> &'b [u8] {
        group_inner(bytes, self.parts[i])
    }

    /// The bundle with only the first group's runs, made in place from the whole file's bytes, and
    /// what it replaced (`restore` puts it back).
    pub fn head(&self, mut bytes: Vec<u8>) -> (Vec<u8>, (usize, Vec<u8>)) {
        let tail = bytes[self.close..].to_vec();
        let replaced = bytes.split_off(self.head_end);
        bytes.extend_from_slice(&tail);
        (bytes, (self.head_end, replaced))
    }

    /// The whole file's bytes again, from `head`'s answer.
    pub fn restore(mut head: Vec<u8>, (at, replaced): (usize, Vec<u8>)) -> Vec<u8> {
        head.truncate(at);
        head.extend_from_slice(&replaced);
        head
    }
}

/// The runs of a group (`Cut::parts`' `(first, from, to)`: the separators before and after it)
/// with the commas between them, without brackets.
pub fn group_inner(bytes: &[u8], (_, from, to): (usize, usize, usize)) -> &[u8] {
    &bytes[from + 1..to]
}

/// The positions of the top-level `runs` array's `[`, the commas between its elements and its
/// `]`: element i lies between separators i and i + 1. None when there is no such array (or the
/// key appears twice, or the text ends first), or when the text holds `NaN` or `Infinity` (the
/// one-pass loader reads them as missing values, with a warning naming each line).
pub fn run_separators(b: &[u8]) -> Option<Vec<usize>> {
    let mut s = Scanner::default();
    s.feed(b);
    s.finish(b)
}

/// `run_separators` over text that arrives in pieces: `feed` it the text so far each time more
/// has come (a download), `finish` it with the whole.
#[derive(Default)]
pub struct Scanner {
    scan: Scan,
    /// How far the text has been scanned (a multiple of 64 until `finish`).
    pos: usize,
    /// How far it has been searched for `NaN` and `Infinity`.
    searched: usize,
    failed: bool,
    /// Every block byte by byte (the tests' reference).
    slow: bool,
}

impl Scanner {
    /// Scans the whole blocks of 64 bytes of `b` past those already scanned (`b` is the text so
    /// far: what was fed before, then more).
    pub fn feed(&mut self, b: &[u8]) {
        self.search(b);
        while !self.failed && self.pos + 64 <= b.len() {
            let i = self.pos;
            let Ok(block) = <&[u8; 64]>::try_from(&b[i..i + 64]) else { return };
            if self.slow || !self.scan.fast_block(block) {
                self.failed = block.iter().enumerate().any(|(k, &c)| self.scan.byte(c, i + k, b).is_none());
            }
            self.pos += 64;
        }
    }

    /// The separators found so far (none once the scan has failed): element i of the `runs`
    /// array is complete when separator i + 1 is here (`stream_cut` cuts groups from them).
    pub fn seps(&self) -> &[usize] {
        if self.failed {
            &[]
        } else {
            &self.scan.seps
        }
    }

    /// Scans the rest of the whole text `b`: the separators, or None.
    pub fn finish(mut self, b: &[u8]) -> Option<Vec<usize>> {
        self.feed(b);
        self.search(b);
        let i = self.pos;
        let rest_ok =
            !self.failed && b.get(i..)?.iter().enumerate().all(|(k, &c)| self.scan.byte(c, i + k, b).is_some());
        let s = self.scan;
        (rest_ok && s.done && s.depth == 0 && !s.in_string).then_some(s.seps)
    }
}

impl Scanner {
    /// Looks for `NaN` and `Infinity` in what arrived since the last search (from a few bytes
    /// before it, for a token cut between pieces).
    fn search(&mut self, b: &[u8]) {
        let from = self.searched.saturating_sub(b"Infinity".len() - 1);
        let new = &b[from.min(b.len())..];
        if memchr::memmem::find(new, b"NaN").is_some() || memchr::memmem::find(new, b"Infinity").is_some() {
            self.failed = true;
        }
        self.searched = b.len();
    }
}

/// `run_separators` with every block byte by byte.
#[cfg(test)]
fn scan_slowly(b: &[u8]) -> Option<Vec<usize>> {
    let mut s = Scanner { slow: true, ..Scanner::default() };
    s.feed(b);
    s.finish(b)
}

/// The scan's state between bytes.
#[derive(Default)]
struct Scan {
    /// Open brackets outside strings: 1 inside the top-level object, 2 inside its `runs` array.
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// Where the string being read began, when it is a key of the top-level object.
    key_start: Option<usize>,
    /// At depth 1: the next string is a key.
    expect_key: bool,
    /// The last top-level key was `runs` (its value's `[` opens the array).
    runs_key: bool,
    /// Inside the `runs` array (depth 2 is its level).
    found: bool,
    seps: Vec<usize>,
    /// The `runs` array has closed.
    done: bool,
}

impl Scan {
    /// Settles a whole block from its masks when nothing in it can matter below depth 3 (inside a
    /// run) and it holds no backslash; false when it must go byte by byte.
    #[inline(always)]
    fn fast_block(&mut self, block: &[u8; 64]) -> bool {
        if self.escaped {
            return false;
        }
        let m = masks64(block);
        if m.backslash != 0 {
            return false;
        }
        // Which bytes are inside a string: the running parity of the quotes (a quote opening a
        // string counts as inside, one closing it as outside; neither is a bracket).
        let mut inside = m.quote;
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        inside ^= inside << 16;
        inside ^= inside << 32;
        if self.in_string {
            inside = !inside;
        }
        let (open, close) = ((m.open & !inside).count_ones(), (m.close & !inside).count_ones());
        if self.depth < 3 + close {
            return false;
        }
        self.depth = self.depth + open - close;
        self.in_string ^= m.quote.count_ones() % 2 == 1;
        true
    }

    /// One byte at `at` of `b`; None when the text cannot hold a usable `runs` array.
    #[inline(always)]
    fn byte(&mut self, c: u8, at: usize, b: &[u8]) -> Option<()> {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if c == b'\\' {
                self.escaped = true;
            } else if c == b'"' {
                self.in_string = false;
                if let Some(start) = self.key_start.take() {
                    if &b[start + 1..at] == b"runs" {
                        if self.found || self.done {
                            return None;
                        }
                        self.runs_key = true;
                    }
                }
            }
            return Some(());
        }
        match c {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.key_start = Some(at);
                    self.expect_key = false;
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = true;
                } else if self.depth == 2 && self.runs_key {
                    if c != b'[' {
                        return None;
                    }
                    self.found = true;
                    self.seps.push(at);
                }
                self.runs_key = false;
            }
            b'}' | b']' => {
                if self.depth == 0 {
                    return None;
                }
                if self.depth == 2 && self.found {
                    self.seps.push(at);
                    self.found = false;
                    self.done = true;
                }
                self.depth -= 1;
            }
            b',' => {
                if self.depth == 1 {
                    self.expect_key = true;
                    self.runs_key = false;
                } else if self.depth == 2 && self.found {
                    self.seps.push(at);
                }
            }
            b':' | b' ' | b'\t' | b'\n' | b'\r' => {}
            // Any other value of the `runs` key (a number, true, null) is not an array.
            _ if self.depth == 1 && self.runs_key => return None,
            _ => {}
        }
        Some(())
    }
}

/// Bit i says byte i of a block is that character.
struct Masks<T> {
    quote: T,
    backslash: T,
    open: T,
    close: T,
}

/// `masks` of 64 bytes, four blocks of 16.
#[inline(always)]
fn masks64(block: &[u8; 64]) -> Masks<u64> {
    let mut out = Masks { quote: 0, backslash: 0, open: 0, close: 0 };
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        let Ok(chunk) = <&[u8; 16]>::try_from(chunk) else { continue };
        let m = masks(chunk);
        out.quote |= u64::from(m.quote) << (16 * k);
        out.backslash |= u64::from(m.backslash) << (16 * k);
        out.open |= u64::from(m.open) << (16 * k);
        out.close |= u64::from(m.close) << (16 * k);
    }
    out
}

#[inline(always)]
fn masks(block: &[u8; 16]) -> Masks<u32> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; the load is unaligned and reads 16 bytes.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            Masks {
                quote: _mm_movemask_epi8(eq(b'"')) as u32,
                backslash: _mm_movemask_epi8(eq(b'\\')) as u32,
                open: _mm_movemask_epi8(_mm_or_si128(eq(b'['), eq(b'{'))) as u32,
                close: _mm_movemask_epi8(_mm_or_si128(eq(b']'), eq(b'}'))) as u32,
            }
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        // SAFETY: reads the 16 bytes of `block` (an unaligned load is allowed).
        let v = unsafe { v128_load(block.as_ptr().cast()) };
        let eq = |c: u8| u8x16_eq(v, u8x16_splat(c));
        Masks {
            quote: u32::from(u8x16_bitmask(eq(b'"'))),
            backslash: u32::from(u8x16_bitmask(eq(b'\\'))),
            open: u32::from(u8x16_bitmask(v128_or(eq(b'['), eq(b'{')))),
            close: u32::from(u8x16_bitmask(v128_or(eq(b']'), eq(b'}')))),
        }
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        masks_bytes(block)
    }
}

/// `masks` a byte at a time (targets without SIMD, and the tests' reference).
#[cfg_attr(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
fn masks_bytes(block: &[u8; 16]) -> Masks<u32> {
    let bits = |f: &dyn Fn(u8) -> bool| block.iter().enumerate().fold(0u32, |m, (i, &c)| m | (u32::from(f(c)) << i));
    Masks {
        quote: bits(&|c| c == b'"'),
        backslash: bits(&|c| c == b'\\'),
        open: bits(&|c| c == b'[' || c == b'{'),
        close: bits(&|c| c == b']' || c == b'}'),
    }
}

#[cfg(test)]
mod tests;
