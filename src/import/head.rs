//! `Head`: the first `HEAD_BYTES` of a file, raw and decoded, which every format's content test
//! reads. Formats depend on this file, and detection (`detect.rs`) on the formats, one way.

use super::common::text;
use std::borrow::Cow;

/// The first bytes of a file, raw and decoded.
pub struct Head<'a> {
    pub bytes: &'a [u8],
    /// Decoded in the sniffed encoding, BOM removed (lossy).
    pub text: Cow<'a, str>,
}

impl<'a> Head<'a> {
    pub fn new(bytes: &'a [u8]) -> Head<'a> {
        Head { bytes, text: text::head_text(bytes) }
    }

    /// The text without leading whitespace.
    pub fn trimmed(&self) -> &str {
        self.text.trim_start()
    }

    /// The first line (without its line break).
    pub fn first_line(&self) -> &str {
        let t = self.trimmed();
        t.split(['\n', '\r']).next().unwrap_or("")
    }

    /// Whether the text starts like a JSON object.
    pub fn is_json_object(&self) -> bool {
        self.trimmed().starts_with('{')
    }

    /// Whether `"key"` appears as an object key whose value starts with one of `starts` (any
    /// value when `starts` is empty), e.g. `has_key("metrics", &['{'])`.
    pub fn has_key(&self, key: &str, starts: &[char]) -> bool {
        let pat = format!("\"{key}\"");
        self.text.match_indices(&pat).any(|(i, _)| {
            let Some(rest) = self.text[i + pat.len()..].trim_start().strip_prefix(':') else { return false };
            let first = rest.trim_start().chars().next();
            starts.is_empty() || first.is_some_and(|c| starts.contains(&c))
        })
    }
}
