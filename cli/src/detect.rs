//! `runlens detect`: the format of each file, as the importer would detect it from the name and
//! the first 64 KiB, with the text encoding it would read.

use runlens::import::{self, common::text, HEAD_BYTES};
use std::io::Read;
use std::path::PathBuf;

/// Prints one line per file; `false` when a file is unreadable or not recognised.
pub fn run(files: &[PathBuf]) -> bool {
    let mut ok = true;
    for path in files {
        let name = if path.as_os_str() == "-" { "stdin".to_string() } else { path.to_string_lossy().into_owned() };
        let head = if path.as_os_str() == "-" {
            read_head(std::io::stdin().lock())
        } else {
            std::fs::File::open(path).and_then(read_head)
        };
        let head = match head {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: {name}: the file could not be read ({e})");
                ok = false;
                continue;
            }
        };
        match import::detect(&name, &head) {
            Ok(f) => println!("{name}: {} ({}), {}", f.slug(), f.title(), text::sniff(&head).name()),
            Err(message) => {
                eprintln!("error: {name}: {message}");
                ok = false;
            }
        }
    }
    ok
}

fn read_head(r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    r.take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    Ok(head)
}
