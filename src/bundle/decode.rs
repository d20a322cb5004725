//! A bundle's bytes as text. gzip is inflated (up to `MAX_INFLATED_BYTES`); a byte-order mark
//! selects UTF-8 or UTF-16 (PowerShell's `Out-File` writes UTF-16 with one); anything else must be
//! UTF-8, as JSON exchanged between systems is (RFC 8259 §8.1,
//! https://www.rfc-editor.org/rfc/rfc8259#section-8.1). A byte that is not UTF-8 is reported with
//! its line and column, and the encoding the file seems to be in.

use super::error::{LoadError, LoadErrorKind};
use crate::limits::{MAX_DOCUMENT_BYTES, MAX_INFLATED_BYTES};
use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;

fn error(source: &str, kind: LoadErrorKind, pos: Option<(usize, usize)>, message: String) -> LoadError {
    LoadError::new(kind, source, message).at_opt(pos)
}

fn mib(n: u64) -> u64 {
    n >> 20
}

/// The text of a bundle file (see the module comment), or an error naming the file and the place.
pub(crate) fn bundle_text<'a>(source: &str, bytes: &'a [u8]) -> Result<Cow<'a, str>, LoadError> {
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(error(
            source,
            LoadErrorKind::TooLarge,
            None,
            format!(
                "the file is {} MiB; bundles are read whole, and {} MiB is the most a browser tab can safely hold",
                mib(bytes.len() as u64),
                mib(MAX_DOCUMENT_BYTES)
            ),
        ));
    }
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return decode(bytes).map_err(|(pos, m)| error(source, LoadErrorKind::Syntax, pos, m));
    }
    let inflated = gunzip(bytes).map_err(|e| match e {
        Gunzip::TooLarge => error(
            source,
            LoadErrorKind::TooLarge,
            None,
            format!("it decompresses to more than {} MiB, the most a bundle may have", mib(MAX_INFLATED_BYTES)),
        ),
        Gunzip::Corrupt(e) => error(
            source,
            LoadErrorKind::Syntax,
            None,
            format!("the file looks gzip-compressed but could not be decompressed ({e})"),
        ),
    })?;
    let text = match decode(&inflated) {
        // Valid UTF-8 without a BOM: reuse the buffer instead of copying it.
        Ok(Cow::Borrowed(s)) if s.len() == inflated.len() => String::from_utf8(inflated).unwrap_or_default(),
        Ok(s) => s.into_owned(),
        Err((pos, m)) => return Err(error(source, LoadErrorKind::Syntax, pos, format!("{m} (after decompression)"))),
    };
    Ok(Cow::Owned(text))
}

type Position = Option<(usize, usize)>;

fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, (Position, String)> {
    match Encoding::for_bom(bytes) {
        Some((enc, bom)) if enc != UTF_8 => {
            enc.decode_without_bom_handling_and_without_replacement(&bytes[bom..]).ok_or_else(|| {
                (None, format!("the file starts with a {} byte-order mark but is not valid {0}", enc.name()))
            })
        }
        Some((_, bom)) => utf8(&bytes[bom..]),
        None => utf8(bytes),
    }
}

fn utf8(bytes: &[u8]) -> Result<Cow<'_, str>, (Position, String)> {
    std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        // Valid UTF-8 up to here, so counting non-continuation bytes counts characters.
        let column = good[line_start..].iter().filter(|b| (**b & 0xC0) != 0x80).count() + 1;
        let byte = bytes.get(e.valid_up_to()).copied().unwrap_or(0);
        let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        det.feed(&bytes[..bytes.len().min(1 << 20)], true);
        let guess = det.guess(None, chardetng::Utf8Detection::Deny);
        (
            Some((line, column)),
            format!(
                "the text is not UTF-8 (byte 0x{byte:02X} here; the file looks like {}). JSON files must be UTF-8: \
             save it as UTF-8 and open it again",
                guess.name()
            ),
        )
    })
}

enum Gunzip {
    TooLarge,
    Corrupt(std::io::Error),
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, Gunzip> {
    use std::io::Read;
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(64 << 20));
    flate2::read::MultiGzDecoder::new(bytes)
        .take(MAX_INFLATED_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(Gunzip::Corrupt)?;
    if out.len() as u64 > MAX_INFLATED_BYTES {
        return Err(Gunzip::TooLarge);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_select_the_encoding() {
        assert_eq!(bundle_text("a", b"\xEF\xBB\xBF{}").unwrap(), "{}");
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("{\"é\":1}".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(bundle_text("a", &utf16).unwrap(), "{\"é\":1}");
        let e = bundle_text("a", b"\xFE\xFF\xD8\x00").unwrap_err();
        assert!(e.message.contains("UTF-16BE"), "{e}");
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_placed() {
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("{\n  \"title\": \"Requête échouée, données reçues\"\n}");
        let e = bundle_text("fr.json", &latin1).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(17)), "{e}");
        assert!(e.message.contains("0xEA") && e.message.contains("windows-1252"), "{e}");
        assert_eq!(e.to_string().split(':').next(), Some("fr.json, line 2, column 17"));
    }

    #[test]
    fn gzip_bombs_and_corrupt_gzip_are_refused() {
        use std::io::Write;
        // One gzip member of 1 MiB of spaces, repeated: gzip allows several members in a file.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![b' '; 1 << 20]).unwrap();
        let member = gz.finish().unwrap();
        let bomb = member.repeat((MAX_INFLATED_BYTES >> 20) as usize + 1);
        assert!(bomb.len() < 1 << 20, "a small file: {}", bomb.len());
        let e = bundle_text("bomb.json.gz", &bomb).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::TooLarge, "{e}");
        let e = bundle_text("cut.json.gz", &bomb[..100]).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Syntax);
        assert!(e.message.contains("could not be decompressed"), "{e}");
    }
}
