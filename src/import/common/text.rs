//! Text encodings of imported files, by the WHATWG Encoding Standard (encoding_rs): UTF-8 with or
//! without a BOM, UTF-16 with a BOM, and legacy single- and double-byte encodings, by declaration
//! (`<?xml … encoding="windows-1255"?>`) or by detection (chardetng) when the head of the file is
//! not UTF-8. Importers only ever see UTF-8: a byte that cannot be decoded becomes U+FFFD, and the
//! importer warns, naming the row (see `lossy`).

use crate::import::Ctx;
use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read};

/// A text encoding.
pub type Enc = &'static Encoding;

/// The encoding of a file from its first bytes: a BOM, an XML declaration, valid UTF-8, or
/// chardetng's guess.
pub fn sniff(head: &[u8]) -> Enc {
    if let Some((enc, _)) = Encoding::for_bom(head) {
        return enc;
    }
    if let Some(enc) = xml_declared(head) {
        return enc;
    }
    if mostly_utf8(head) {
        return UTF_8;
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(head, false);
    det.guess(None, chardetng::Utf8Detection::Deny)
}

/// A warning when the encoding was guessed from the bytes (no BOM, no declaration, not UTF-8):
/// the labels are decoded, but a wrong guess would show wrong characters, so the user is told.
pub fn guessed(head: &[u8], enc: Enc) -> Option<String> {
    if enc == UTF_8 || Encoding::for_bom(head).is_some() || xml_declared(head).is_some() {
        return None;
    }
    Some(format!(
        "the file is not UTF-8 and does not say its encoding; its text was read as {}, the encoding its bytes suggest",
        enc.name()
    ))
}

/// UTF-8 unless it has more undecodable sequences than valid multi-byte ones: a UTF-8 file with one
/// broken label stays UTF-8 (the label shows U+FFFD and a warning), a Latin-1 file does not.
fn mostly_utf8(head: &[u8]) -> bool {
    let (mut valid_multi, mut invalid, mut rest) = (0usize, 0usize, head);
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                valid_multi += s.bytes().filter(|b| *b >= 0xC0).count();
                break;
            }
            Err(e) => {
                let (ok, after) = rest.split_at(e.valid_up_to());
                valid_multi += ok.iter().filter(|b| **b >= 0xC0).count();
                match e.error_len() {
                    // A character cut off at the end of the head is not an error.
                    None => break,
                    Some(n) => {
                        invalid += 1;
                        rest = &after[n..];
                    }
                }
            }
        }
    }
    invalid == 0 || invalid * 10 <= valid_multi
}

/// The `encoding` of an XML declaration at the start of the head, if it names a known one.
fn xml_declared(head: &[u8]) -> Option<Enc> {
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let decl = &head[start..];
    if !decl.starts_with(b"<?xml") {
        return None;
    }
    let end = decl.iter().take(200).position(|b| *b == b'>')?;
    let decl = std::str::from_utf8(&decl[..end]).ok()?;
    let at = decl.find("encoding")? + "encoding".len();
    let rest = decl[at..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let label = rest[1..].split(quote).next()?;
    // A UTF-16 declaration without a BOM is read as what the bytes are (ASCII-compatible here).
    Encoding::for_label(label.as_bytes()).map(|e| e.output_encoding())
}

/// A UTF-8 byte stream of the input: UTF-8 passes through (its BOM skipped); anything else is
/// transcoded as it streams. A line longer than `MAX_LINE_BYTES` ends the stream with an error
/// (see `LineCap`).
pub fn stream<'a>(enc: Enc, input: impl Read + 'a) -> Box<dyn BufRead + 'a> {
    if enc == UTF_8 {
        let mut r = BufReader::with_capacity(256 << 10, LineCap::new(input));
        if r.fill_buf().is_ok_and(|b| b.starts_with(b"\xEF\xBB\xBF")) {
            r.consume(3);
        }
        Box::new(r)
    } else {
        stream_valid(enc, input)
    }
}

/// Fills each read as far as the input allows (see `read`), and fails a read once a line grows
/// past `MAX_LINE_BYTES`: line-oriented importers buffer a record
/// until its line ends, and a damaged file (or a 2 GB file with no line break) must not be
/// buffered whole. The error is an `io::Error` of kind `InvalidData`, which importers report
/// with the line they were reading.
pub struct LineCap<R> {
    inner: R,
    since_break: usize,
    /// An error met after some bytes were read: returned by the next read.
    pending: Option<std::io::Error>,
}

impl<R> LineCap<R> {
    pub fn new(inner: R) -> LineCap<R> {
        LineCap { inner, since_break: 0, pending: None }
    }
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.since_break > crate::limits::MAX_LINE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "a line is longer than {} MiB, the most runlens reads as one line; the file looks damaged",
                    crate::limits::MAX_LINE_BYTES >> 20
                ),
            ));
        }
        // Reads of at most 256 KiB, so that the cap is overshot by no more than that; filled as
        // far as the input goes, because a transcoder's first read returns only the few bytes it
        // sniffed for a BOM, and importers read their head from the first `fill_buf`.
        let len = buf.len().min(256 << 10);
        let mut n = 0;
        while n < len {
            match self.inner.read(&mut buf[n..len]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if n > 0 => {
                    self.pending = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        self.since_break = match memchr::memrchr(b'\n', &buf[..n]) {
            Some(i) => n - i - 1,
            None => self.since_break + n,
        };
        Ok(n)
    }
}

/// A reader whose reads fill the buffer they are given unless the input ends: the decoder returns
/// a few bytes on its first read, and importers look at their first `fill_buf` for the header.
struct Filling<R>(R);

impl<R: Read> Read for Filling<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.0.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if n == 0 => return Err(e),
                Err(_) => break,
            }
        }
        Ok(n)
    }
}

/// Like `stream`, but UTF-8 is decoded too: every byte that is not valid UTF-8 becomes U+FFFD as
/// the text streams, for parsers that refuse invalid UTF-8 (quick-xml). The importer warns where
/// a value it keeps holds U+FFFD.
pub fn stream_valid<'a>(enc: Enc, input: impl Read + 'a) -> Box<dyn BufRead + 'a> {
    let decoded = encoding_rs_io::DecodeReaderBytesBuilder::new().encoding(Some(enc)).bom_override(true).build(input);
    Box::new(BufReader::with_capacity(256 << 10, Filling(decoded)))
}

/// Decodes a whole document; undecodable bytes become U+FFFD and one warning names the line of
/// the first.
pub fn decode_whole(ctx: &mut Ctx, enc: Enc, bytes: &[u8]) -> String {
    let (text, _, had_errors) = enc.decode(bytes);
    if had_errors {
        let line = text.find('\u{FFFD}').map_or(1, |i| text[..i].bytes().filter(|b| *b == b'\n').count() + 1);
        ctx.warn(format!("line {line}"), format!("bytes that are not valid {} were replaced by \u{FFFD}", enc.name()));
    }
    text.into_owned()
}

/// A field as text. Invalid UTF-8 becomes U+FFFD; the second value says whether that happened,
/// so the importer can warn with the row.
pub fn lossy(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    let s = String::from_utf8_lossy(bytes);
    let replaced = matches!(s, Cow::Owned(_)) || s.contains('\u{FFFD}');
    (s, replaced)
}

/// The head decoded for content detection (lossy, BOM removed).
pub fn head_text(head: &[u8]) -> Cow<'_, str> {
    let enc = sniff(head);
    let (text, _, _) = enc.decode(head);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_boms_declarations_and_legacy_text() {
        assert_eq!(sniff(b"\xEF\xBB\xBFa,b"), UTF_8);
        assert_eq!(sniff(b"\xFF\xFEa\0,\0"), encoding_rs::UTF_16LE);
        assert_eq!(sniff(b"<?xml version=\"1.0\" encoding=\"windows-1255\"?><a/>"), encoding_rs::WINDOWS_1255);
        assert_eq!(sniff("label,Требование".as_bytes()), UTF_8);
        // French labels in windows-1252: bytes that are not UTF-8 and no valid multi-byte text.
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(
            "timeStamp,label\n1,Requête HTTP,Groupe d'unités,Réponse reçue,Élément supprimé,Données sécurisées\n",
        );
        assert_eq!(sniff(&latin), encoding_rs::WINDOWS_1252);
        // GBK: two-byte Chinese text.
        let (gbk, _, _) = encoding_rs::GBK.encode("登录页面,搜索结果,用户信息,订单列表,购物车结算页面");
        assert_eq!(sniff(&gbk), encoding_rs::GBK);
    }

    #[test]
    fn one_broken_sequence_keeps_utf8() {
        let mut text = "Тест.Эхо,Тест.Эхо,Тест.Эхо\n".repeat(3).into_bytes();
        text.extend_from_slice(b"bad \xff label\n");
        assert_eq!(sniff(&text), UTF_8);
    }

    #[test]
    fn streams_transcode_and_skip_the_bom() {
        let mut out = String::new();
        stream(UTF_8, &b"\xEF\xBB\xBFa,b"[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "a,b");
        let (bytes, _, _) = encoding_rs::WINDOWS_1255.encode("שלום,1");
        out.clear();
        stream(encoding_rs::WINDOWS_1255, &bytes[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "שלום,1");
        out.clear();
        stream(encoding_rs::UTF_16LE, &b"\xFF\xFEa\0b\0"[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "ab");
        // The first fill_buf holds the whole header, not the decoder's first few bytes.
        let (gbk, _, _) = encoding_rs::GBK.encode("timeStamp,elapsed,label,success\n1,2,登录,true\n");
        let mut r = stream(encoding_rs::GBK, &gbk[..]);
        assert!(std::str::from_utf8(r.fill_buf().unwrap())
            .unwrap()
            .starts_with("timeStamp,elapsed,label,success\n1,2,登录"));
    }

    #[test]
    fn the_first_read_of_a_transcoded_stream_holds_the_head() {
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("timeStamp,elapsed,label\n1,2,Requête\n");
        let mut s = stream(encoding_rs::WINDOWS_1252, &latin1[..]);
        assert_eq!(s.fill_buf().unwrap(), "timeStamp,elapsed,label\n1,2,Requête\n".as_bytes());
    }

    #[test]
    fn an_endless_line_is_refused_after_the_cap() {
        let endless = std::io::repeat(b'x');
        let mut out = Vec::new();
        let e = stream(UTF_8, b"label,elapsed\n".chain(endless)).read_to_end(&mut out).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("longer than 4 MiB"), "{e}");
        assert!(out.len() <= crate::limits::MAX_LINE_BYTES + (512 << 10), "stopped early: {}", out.len());
        // Many short lines are no problem, however many.
        let lines = b"a,1\n".repeat(3 << 20);
        out.clear();
        stream(UTF_8, &lines[..]).read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), lines.len());
    }

    #[test]
    fn lossy_flags_replacements() {
        assert_eq!(lossy(b"ok"), ("ok".into(), false));
        let (s, bad) = lossy(b"a\xffb");
        assert_eq!((s.as_ref(), bad), ("a\u{FFFD}b", true));
    }
}
