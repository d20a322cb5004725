//! Writing the bundle: pretty JSON (as the viewer's "Save bundle" writes it), gzip-compressed when
//! the file name ends in `.gz`. Before anything is written the JSON is loaded back with the
//! viewer's own loader, so a bundle the viewer would refuse is never written. A file is written
//! beside its destination and renamed over it, so `--append history.json -o history.json` never
//! leaves half a history behind.

use runlens::bundle::{self, Bundle};
use runlens::limits::MAX_DOCUMENT_BYTES;
use std::io::Write;
use std::path::Path;

/// Writes `bundle` to `path` (standard output when `None`); an error in words.
pub fn write(bundle: &Bundle, path: Option<&Path>) -> Result<(), String> {
    let json =
        serde_json::to_string_pretty(bundle).map_err(|e| format!("the bundle could not be written as JSON ({e})"))?;
    if json.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(format!(
            "the bundle would be {} MiB of JSON; the viewer reads at most {} MiB (import fewer runs into one bundle)",
            json.len() >> 20,
            MAX_DOCUMENT_BYTES >> 20
        ));
    }
    let target = path.map_or_else(|| "the bundle".to_string(), |p| p.display().to_string());
    bundle::load_bundle_str(&target, &json).map_err(|e| format!("runlens would not load the bundle it made: {e}"))?;
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(json.as_bytes())
                .and_then(|_| out.write_all(b"\n"))
                .and_then(|_| out.flush())
                .map_err(|e| format!("standard output could not be written ({e})"))
        }
        Some(p) => write_file(p, json.as_bytes()).map_err(|e| format!("{}: could not be written ({e})", p.display())),
    }
}

fn write_file(path: &Path, json: &[u8]) -> std::io::Result<()> {
    let gzip = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let file_name = path.file_name().map_or_else(|| "bundle".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{file_name}.runlens-{}.tmp", std::process::id()));
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        if gzip {
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            gz.write_all(json)?;
            gz.write_all(b"\n")?;
            gz.finish()?.sync_all()?;
        } else {
            let mut f = std::io::BufWriter::new(file);
            f.write_all(json)?;
            f.write_all(b"\n")?;
            f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
