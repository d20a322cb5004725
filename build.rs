//! Bakes a build id into both wasm binaries (page and ingest worker) so the page can tell a stale,
//! cached worker from the one it was built with. The id is a hash of the sources (`src/`,
//! `Cargo.toml`, `Cargo.lock`): the page and the worker are built by separate cargo runs with
//! different profiles, and a hash gives both the same id where a clock would not.
//! `RUNLENS_BUILD` from the environment (CI) wins.
use std::hash::{Hash, Hasher};
use std::path::Path;

fn hash_dir(root: &Path, dir: &Path, h: &mut impl Hasher) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            hash_dir(root, &p, h);
        } else if let Ok(bytes) = std::fs::read(&p) {
            p.strip_prefix(root).unwrap_or(&p).to_string_lossy().hash(h);
            bytes.hash(h);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=RUNLENS_BUILD");
    let id = std::env::var("RUNLENS_BUILD").unwrap_or_else(|_| {
        // FNV-1a over the sources (std's DefaultHasher is not stable across Rust releases, which
        // would only cost a cache miss, but FNV is as short to write and stable).
        struct Fnv(u64);
        impl Hasher for Fnv {
            fn finish(&self) -> u64 {
                self.0
            }
            fn write(&mut self, bytes: &[u8]) {
                for b in bytes {
                    self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        hash_dir(root, &root.join("src"), &mut h);
        for f in ["Cargo.toml", "Cargo.lock"] {
            if let Ok(bytes) = std::fs::read(root.join(f)) {
                bytes.hash(&mut h);
            }
        }
        format!("{:012x}", h.finish() & 0xffff_ffff_ffff)
    });
    println!("cargo:rustc-env=RUNLENS_BUILD={id}");
}
