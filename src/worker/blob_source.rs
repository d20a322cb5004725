//! A `Blob` (a dropped `File`, pasted text, a downloaded body) read synchronously in a worker with
//! `FileReaderSync`, in 8 MiB slices: the importers see a plain `std::io::Read`, and no copy of the
//! whole file is ever held. Offsets are u64 (files over 4 GiB exist; wasm32's usize does not reach).

use crate::import::common::parallel::RangeSource;
use std::io::Read;

const SLICE_BYTES: u64 = 8 << 20;

thread_local! {
    /// Milliseconds this worker spent waiting for `FileReaderSync` (reading, not parsing): the
    /// ingest benchmark subtracts it to compare the wasm importer with the native one.
    pub static READ_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

pub struct BlobSource {
    pub blob: web_sys::Blob,
}

fn js_err(what: &str, e: wasm_bindgen::JsValue) -> std::io::Error {
    std::io::Error::other(format!("{what}: {}", e.as_string().unwrap_or_else(|| format!("{e:?}"))))
}

impl BlobSource {
    fn slice(&self, start: u64, end: u64) -> std::io::Result<Vec<u8>> {
        let mut bytes = vec![0; (end - start) as usize];
        let n = self.slice_into(start, &mut bytes)?;
        bytes.truncate(n);
        Ok(bytes)
    }

    /// Reads `dst.len()` bytes (fewer at the end of the blob) from `start` straight into `dst`.
    fn slice_into(&self, start: u64, dst: &mut [u8]) -> std::io::Result<usize> {
        let end = start + dst.len() as u64;
        let part = self
            .blob
            .slice_with_f64_and_f64(start as f64, end as f64)
            .map_err(|e| js_err("the browser refused a slice", e))?;
        let t0 = js_sys::Date::now();
        let reader = web_sys::FileReaderSync::new().map_err(|e| js_err("no FileReaderSync", e))?;
        let buf = reader.read_as_array_buffer(&part).map_err(|e| js_err("the browser could not read the file", e))?;
        let view = js_sys::Uint8Array::new(&buf);
        let n = (view.length() as usize).min(dst.len());
        view.subarray(0, n as u32).copy_to(&mut dst[..n]);
        READ_MS.with(|r| r.set(r.get() + js_sys::Date::now() - t0));
        Ok(n)
    }
}

impl RangeSource for BlobSource {
    fn size(&self) -> u64 {
        self.blob.size() as u64
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let end = (offset + len as u64).min(self.size());
        if offset >= end {
            return Ok(Vec::new());
        }
        self.slice(offset, end)
    }

    fn reader_from(&self, offset: u64) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(BlobReader { src: self, pos: offset, chunk: Vec::new(), at: 0 }))
    }
}

/// Sequential reads over a blob, one slice at a time.
pub struct BlobReader<'a> {
    src: &'a BlobSource,
    pos: u64,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for BlobReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // A large read (a file read whole into a vector of its size) goes straight into `buf`.
        if self.at >= self.chunk.len() && buf.len() as u64 >= SLICE_BYTES / 8 {
            let size = self.src.size();
            let want = (buf.len() as u64).min(SLICE_BYTES).min(size.saturating_sub(self.pos)) as usize;
            let n = if want == 0 { 0 } else { self.src.slice_into(self.pos, &mut buf[..want])? };
            self.pos += n as u64;
            return Ok(n);
        }
        if self.at >= self.chunk.len() {
            let size = self.src.size();
            if self.pos >= size {
                return Ok(0);
            }
            let end = (self.pos + SLICE_BYTES).min(size);
            self.chunk = self.src.slice(self.pos, end)?;
            self.pos = end;
            self.at = 0;
            if self.chunk.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
