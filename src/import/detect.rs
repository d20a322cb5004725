//! Which format a file is in: by its name first (`statistics.json`, `simulation.log`,
//! `*_stats.csv`), then by its content (the first `HEAD_BYTES`). The names and content tests are
//! the registry's (`formats.rs`, in its order); this file only applies them.

use super::formats::{is_bundle, Format, Name, READING};
use super::Head;

/// A format from the file name alone, where the name is specific enough. `.jtl` names a family
/// whose member is decided by content.
pub fn detect_by_name(name: &str) -> Option<Format> {
    let file = super::common::names::file_name(name).to_ascii_lowercase();
    let file = file.strip_suffix(".gz").unwrap_or(&file);
    let named = |says: &dyn Fn(&Name) -> bool| READING.iter().find(|r| r.names.iter().any(says)).map(|r| r.format);
    // Whole names before ends of names.
    named(&|n| matches!(n, Name::Is(whole) if file == *whole))
        .or_else(|| named(&|n| matches!(n, Name::EndsWith(end) if file.ends_with(end))))
}

/// A format from the content alone (the first `HEAD_BYTES` of the file).
pub fn detect_by_content(head: &[u8]) -> Option<Format> {
    if head.starts_with(&[0x1f, 0x8b]) {
        // gzip: only bundles are read compressed.
        return Some(Format::Bundle);
    }
    let h = Head::new(head);
    let first = READING.iter().find(|r| (r.content)(&h));
    first.or_else(|| READING.iter().find(|r| r.last_resort.is_some_and(|t| t(&h)))).map(|r| r.format)
}

/// The format of a file: by name where the name says it, else by content. The error lists what
/// is supported.
pub fn detect(name: &str, head: &[u8]) -> Result<Format, String> {
    if let Some(f) = detect_by_name(name) {
        // A name can lie (a bundle saved as statistics.json): content that is clearly a bundle wins.
        if f != Format::Bundle && is_bundle(&Head::new(head)) {
            return Ok(Format::Bundle);
        }
        // simulation.log is text up to Gatling 3.10 and binary from 3.11.
        if f == Format::GatlingLog && super::gatling::log::detect_binary(&Head::new(head)) {
            return Ok(Format::GatlingBinaryLog);
        }
        // Nor is a name a promise the other way: JMeter's statistics.json saved as stats.json
        // (Gatling's name). Content that fails the named format's own tests and passes another's
        // is read as what it is. (Compressed content is left to the name: only bundles are.)
        let h = Head::new(head);
        let own = READING.iter().find(|r| r.format == f);
        let has_own_test = own.is_some();
        let passes_own_test = || own.is_some_and(|r| (r.content)(&h) || r.last_resort.is_some_and(|t| t(&h)));
        if !head.starts_with(&[0x1f, 0x8b]) && has_own_test && !passes_own_test() {
            if let Some(c) = detect_by_content(head) {
                return Ok(c);
            }
        }
        return Ok(f);
    }
    detect_by_content(head).ok_or_else(|| {
        if head.is_empty() {
            "the file is empty".to_string()
        } else {
            format!("runlens does not recognise this file. It reads: {}.", supported_list())
        }
    })
}

/// The supported formats as one sentence.
pub fn supported_list() -> String {
    let mut names: Vec<&str> = super::formats::listed().map(|(_, title)| title).collect();
    names.dedup();
    names.join(", ")
}
