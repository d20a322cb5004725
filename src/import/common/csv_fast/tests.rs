//! The splitter against the csv crate: the same records, fields and positions on awkward input.

use super::*;

/// Records as the csv crate reads them (flexible, no headers), with the position of each
/// record's first byte. (The csv crate reports a record after `\r\n` as starting at the `\n`;
/// the splitter reports the record's own first byte and its line, which is what messages need.)
fn with_csv_crate(text: &[u8], delim: u8) -> Vec<(Vec<Vec<u8>>, Pos)> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(delim).from_reader(text);
    let mut out = Vec::new();
    let mut rec = csv::ByteRecord::new();
    while r.read_byte_record(&mut rec).unwrap() {
        let mut byte = rec.position().unwrap().byte() as usize;
        while byte < text.len() && matches!(text[byte], b'\r' | b'\n') {
            byte += 1;
        }
        let line = 1 + text[..byte].iter().filter(|b| **b == b'\n').count() as u64;
        out.push((rec.iter().map(<[u8]>::to_vec).collect(), Pos { byte: byte as u64, line }));
    }
    out
}

fn with_splitter(text: &[u8], delim: u8, read_size: usize) -> Vec<(Vec<Vec<u8>>, Pos)> {
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut s = Splitter::new(Trickle(text, read_size), delim);
    let mut out = Vec::new();
    while let Some((rec, pos)) = s.next_record().unwrap() {
        out.push((rec.iter().map(<[u8]>::to_vec).collect(), pos));
    }
    out
}

/// A small deterministic generator (xorshift) of text made of the pieces of `alphabet`.
fn text_of(alphabet: &[&[u8]], seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.max(1);
    let mut out = Vec::new();
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(alphabet[(x % alphabet.len() as u64) as usize]);
    }
    out
}

/// Text made of CSV's awkward characters.
fn awkward(seed: u64, len: usize) -> Vec<u8> {
    text_of(
        &[b"a", b"bc", b",", b",", b"\"", b"\"\"", b"\n", b"\r\n", b"\r", b" ", "é".as_bytes(), b"\t", b"12", b"\n\n"],
        seed,
        len,
    )
}

/// The splitter gives the csv crate's records for `text`, whatever the delimiter and read size.
fn assert_agrees(seed: u64, text: &[u8], read_sizes: &[usize]) {
    for delim in [b',', b'\t'] {
        let want = with_csv_crate(text, delim);
        for &read_size in read_sizes {
            assert_eq!(
                with_splitter(text, delim, read_size),
                want,
                "seed {seed}, read size {read_size}: {:?}",
                String::from_utf8_lossy(text)
            );
        }
    }
}

#[test]
fn agrees_with_the_csv_crate_on_awkward_text() {
    for seed in 1..400u64 {
        assert_agrees(seed, &awkward(seed, (seed as usize * 7) % 300 + 1), &[1, 3, 64, 1 << 20]);
    }
}

#[test]
fn agrees_on_jtl_shaped_rows() {
    let text = b"timeStamp,elapsed,label\r\n1,2,\"a, \"\"b\"\"\nc\"\r\n\r\n3,4,plain\n5,6,x\"y\n7,8,\"z\"tail\n9,10,";
    assert_eq!(with_splitter(text, b',', 5), with_csv_crate(text, b','));
    assert_eq!(with_splitter(text, b',', 5).len(), 6);
}

#[test]
fn refuses_a_record_without_end() {
    let mut text = b"\"".to_vec();
    text.resize(MAX_RECORD_BYTES + 10, b'a');
    let mut s = Splitter::new(&text[..], b',');
    let e = s.next_record().err().expect("a quoted field over the limit is refused");
    assert!(matches!(e, SplitError::TooLong { line: 1 }), "{e}");
    assert!(e.to_string().contains("longer than 4 MiB"), "{e}");
}

#[test]
fn max_fields_stops_early_and_keeps_the_first_fields_whole() {
    let line = b"aaaaaaa,bb,cccccccccccc,d,eeeeeeeeeeeeeeeeeee,f\n";
    for n in 1..8 {
        let mut s = Splitter::new(&line[..], b',').with_max_fields(n);
        let (rec, _) = s.next_record().unwrap().unwrap();
        let want: Vec<&[u8]> = line[..line.len() - 1].split(|c| *c == b',').take(n).collect();
        assert_eq!(rec.iter().collect::<Vec<_>>(), want, "{n}");
    }
}

/// Text of long fields and quoted fields (the fast path's blocks of 16 bytes, quoted fields taken
/// in place), with the awkward characters between them.
fn awkward_long(seed: u64, len: usize) -> Vec<u8> {
    let alphabet: &[&[u8]] = &[
        b"1700000000000",
        b",",
        b",",
        b",",
        b"\"GET /search?q=a,b&n=17\"",
        b"\"x\"",
        b"\"\"",
        b"\"a\"\"b\"",
        b"\n",
        b"\r\n",
        b"\r",
        b"Thread Group 1-17",
        "é".as_bytes(),
        b"\t",
        b"\"multi\nline\"",
        b"q\"q",
        b"\"t\"ail",
        b"abcdefghijklmnopqrstuvwxyz",
    ];
    text_of(alphabet, seed, len)
}

#[test]
fn agrees_with_the_csv_crate_on_long_fields_at_every_field_limit() {
    for seed in 1..300u64 {
        let text = awkward_long(seed, (seed as usize * 13) % 700 + 1);
        assert_agrees(seed, &text, &[7, 64, 1 << 20]);
        // With a field limit the first fields are the same and at least as many are given.
        let want = with_csv_crate(&text, b',');
        for max in [1usize, 3, 11] {
            let mut s = Splitter::new(&text[..], b',').with_max_fields(max);
            for (fields, pos) in &want {
                let (rec, at) = s.next_record().unwrap().unwrap();
                let n = max.min(fields.len());
                assert!(rec.len() >= n, "seed {seed}, max {max}");
                assert_eq!(
                    (rec.iter().take(n).map(<[u8]>::to_vec).collect::<Vec<_>>(), at),
                    (fields[..n].to_vec(), *pos),
                    "seed {seed}, max {max}"
                );
            }
            assert!(s.next_record().unwrap().is_none());
        }
    }
}

/// A field past the split ones, read without splitting, is the csv crate's field; on plain rows
/// (no quotes) it is always found.
#[test]
fn far_fields_are_the_csv_crates_fields() {
    let plain = |seed| text_of(&[b"a", b"12", b",", b",", b"\n", b"\r\n", b" "], seed, 200);
    for seed in 1..200u64 {
        for (text, all_found) in [(awkward(seed, 150), false), (plain(seed), true)] {
            let want = with_csv_crate(&text, b',');
            for n in 1..5 {
                let mut s = Splitter::new(&text[..], b',').with_max_fields(n);
                let mut k = 0;
                while let Some((rec, _)) = s.next_record().unwrap() {
                    let fields = &want[k].0;
                    for i in 0..fields.len() + 2 {
                        let got = rec.get_far(i, b',');
                        if got.is_some() || all_found {
                            assert_eq!(got, fields.get(i).map(Vec::as_slice), "seed {seed}, record {k}, field {i}");
                        }
                    }
                    k += 1;
                }
                assert_eq!(k, want.len());
            }
        }
    }
}
