//! ARCHITECTURE.md stays short and true: every repository path its code map names in backticks
//! exists, and the whole file is at most 1,500 words.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

const MAX_WORDS: usize = 1500;

fn architecture() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text between each pair of backticks on a line (code spans; fenced blocks have none).
fn code_spans(text: &str) -> Vec<&str> {
    text.lines().flat_map(|line| line.split('`').skip(1).step_by(2)).collect()
}

/// Whether a code span names a file or folder of the repository, relative to its root.
fn looks_like_path(token: &str) -> bool {
    const EXTENSIONS: [&str; 7] = [".rs", ".md", ".sh", ".toml", ".json", ".js", ".html"];
    let skipped = token.is_empty()
        || token.contains(char::is_whitespace)
        || token.contains("::")
        || token.contains('*')
        || token.contains("://");
    !skipped && (token.contains('/') || EXTENSIONS.iter().any(|e| token.ends_with(e)))
}

#[test]
fn every_path_the_code_map_names_exists() {
    let text = architecture();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let paths: Vec<&str> = code_spans(&text).into_iter().filter(|t| looks_like_path(t)).collect();
    assert!(paths.len() > 20, "the code map names paths: {paths:?}");
    let missing: Vec<&str> = paths.iter().copied().filter(|p| !root.join(p).exists()).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn architecture_is_at_most_1500_words() {
    let words = architecture().split_whitespace().count();
    assert!(words <= MAX_WORDS, "ARCHITECTURE.md has {words} words, more than {MAX_WORDS}");
}

#[test]
fn path_tokens_are_told_apart() {
    assert!(looks_like_path("src/import/"));
    assert!(looks_like_path("Cargo.toml"));
    assert!(!looks_like_path("wire::Pieces"));
    assert!(!looks_like_path("k6_*.rs"));
    assert!(!looks_like_path("trunk build --release"));
    assert!(!looks_like_path("https://example.com/a.js"));
    assert_eq!(code_spans("a `x` b `y/z` c"), vec!["x", "y/z"]);
}
