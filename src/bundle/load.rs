//! Loading a bundle from text: syntax, format/version check, typed parse with JSON paths, then
//! validation. Never panics; errors carry a kind and a position, warnings a JSON path.

use super::error::{LoadError, LoadErrorKind};
use super::warnings::{Warning, Warnings};
use super::{Bundle, FORMAT_NAME, FORMAT_VERSION};
use crate::limits::MAX_RUNS;
use serde::Deserialize;
use std::fmt;

/// A bundle that loaded, with its warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub bundle: Bundle,
    pub warnings: Vec<Warning>,
}

/// The top-level `format` and `version`, read before the typed parse. Only a JSON object is
/// accepted: serde's derived impls would also take a sequence (`["runlens-bundle", 1]`), which
/// made a top-level array either pass as a header or fail as "trailing characters".
struct Header {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

impl<'de> Deserialize<'de> for Header {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Header;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Header, A::Error> {
                let mut h = Header { format: None, version: None };
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "format" => h.format = Some(m.next_value()?),
                        "version" => h.version = Some(m.next_value()?),
                        _ => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(h)
            }
            // Read the whole array first so that a syntax error inside it is still reported as one.
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Header, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Err(A::Error::invalid_type(Unexpected::Seq, &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// Loads a bundle from bytes: JSON in UTF-8 (or UTF-16 with a byte-order mark), possibly
/// gzip-compressed (`.json.gz`, recognised by content). `source` names the file in messages.
pub fn load_bundle(source: &str, bytes: &[u8]) -> Result<Loaded, LoadError> {
    let text = super::decode::bundle_text(source, bytes)?;
    load_bundle_str(source, &text)
}

/// Loads a bundle from JSON text. `source` names the file in messages.
pub fn load_bundle_str(source: &str, text: &str) -> Result<Loaded, LoadError> {
    let err = |kind, path: Option<String>, line: Option<usize>, column, message: String| {
        let e = LoadError::new(kind, source, message);
        let e = match line {
            Some(l) => e.at(l, column),
            None => e,
        };
        match path {
            Some(p) => e.at_path(p),
            None => e,
        }
    };
    if text.trim().is_empty() {
        return Err(err(LoadErrorKind::Empty, None, None, None, "the file is empty".into()));
    }
    let mut warnings = Warnings::default();
    let cleaned = super::nonfinite::replace_nonfinite(text, &mut warnings);
    let text = cleaned.as_deref().unwrap_or(text);

    // Fast path: one typed pass that records unknown fields. The header scan and the path to an
    // error (serde_path_to_error tracks it at every value, a third of the time) are only needed
    // to explain a failure, so a bundle that loads never pays for them.
    if let Some((bundle, fast_ignored)) = parse_fast(text) {
        return finish(source, bundle, warnings, fast_ignored);
    }

    let header: Header = serde_json::from_str(text).map_err(|e| {
        let (kind, msg) = if e.is_data() {
            (LoadErrorKind::NotABundle, "expected a JSON object with \"format\": \"runlens-bundle\"".to_string())
        } else {
            (LoadErrorKind::Syntax, syntax_message(&e))
        };
        err(kind, None, Some(e.line()), Some(e.column()), msg)
    })?;
    match header.format.as_ref().and_then(|v| v.as_str()) {
        Some(FORMAT_NAME) => {}
        Some(other) => {
            return Err(err(
                LoadErrorKind::NotABundle,
                Some("format".into()),
                None,
                None,
                format!("this is not a runlens bundle (format is {other:?}, expected {FORMAT_NAME:?})"),
            ))
        }
        None => {
            return Err(err(
                LoadErrorKind::NotABundle,
                Some("format".into()),
                None,
                None,
                format!("this is not a runlens bundle: there is no \"format\": \"{FORMAT_NAME}\" field"),
            ))
        }
    }
    match header.version.as_ref().and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(FORMAT_VERSION) => {}
        Some(v) => {
            return Err(err(
                LoadErrorKind::UnsupportedVersion,
                Some("version".into()),
                None,
                None,
                format!("bundle version {v} is not supported; this runlens reads version {FORMAT_VERSION}"),
            ))
        }
        None => {
            return Err(err(
                LoadErrorKind::UnsupportedVersion,
                Some("version".into()),
                None,
                None,
                format!("\"version\" must be the number {FORMAT_VERSION}"),
            ))
        }
    }

    let mut ignored = Warnings::default();
    let bundle: Bundle = {
        let mut json = serde_json::Deserializer::from_str(text);
        let mut on_ignored = record_ignored(&mut ignored);
        let typed = serde_ignored::Deserializer::new(&mut json, &mut on_ignored);
        serde_path_to_error::deserialize(typed).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let message =
                if inner.is_syntax() || inner.is_eof() { syntax_message(&inner) } else { strip_position(&inner) };
            err(LoadErrorKind::Schema, Some(path), Some(inner.line()), Some(inner.column()), message)
        })?
    };
    finish(source, bundle, warnings, ignored)
}

/// The one typed pass of a bundle that loads: the bundle and its unknown fields' warnings, or
/// None when anything is wrong (the caller then finds out what).
///
/// Parsed first with only a flag for skipped fields (`skipped`); only a bundle with unknown
/// fields is parsed again through `serde_ignored`, which names them.
pub(crate) fn parse_fast(text: &str) -> Option<(Bundle, Warnings)> {
    let mut ignored = Warnings::default();
    let bundle = {
        let (bundle, skipped): (Bundle, bool) = super::skipped::from_str(text)?;
        if skipped {
            let mut json = serde_json::Deserializer::from_str(text);
            let mut on_ignored = record_ignored(&mut ignored);
            Bundle::deserialize(serde_ignored::Deserializer::new(&mut json, &mut on_ignored))
                .and_then(|b| json.end().map(|()| b))
                .ok()?
        } else {
            bundle
        }
    };
    // (serde reads a struct from an array too: a bundle is an object, which the header scan checks.)
    let object = text.trim_start().starts_with('{');
    (object && bundle.format == FORMAT_NAME && bundle.version == FORMAT_VERSION).then_some((bundle, ignored))
}

/// What serde_ignored calls with each unknown field: a warning with its path (capped).
pub(crate) fn record_ignored(ignored: &mut Warnings) -> impl FnMut(serde_ignored::Path<'_>) + '_ {
    move |p| {
        if ignored.full() {
            ignored.count_dropped();
        } else {
            ignored.push(json_path(&p), "unknown field, ignored");
        }
    }
}

/// Limits and validation of a parsed bundle, with the unknown fields' warnings.
fn finish(source: &str, bundle: Bundle, warnings: Warnings, ignored: Warnings) -> Result<Loaded, LoadError> {
    finish_with_later(source, bundle, &[], warnings, ignored)
}

/// `finish` of a bundle whose runs after `bundle.runs` were loaded elsewhere: `later` are their
/// ids (`split_load`).
pub(crate) fn finish_with_later(
    source: &str,
    bundle: Bundle,
    later: &[String],
    mut warnings: Warnings,
    ignored: Warnings,
) -> Result<Loaded, LoadError> {
    let err = |kind, path: Option<String>, message: String| match path {
        Some(p) => LoadError::new(kind, source, message).at_path(p),
        None => LoadError::new(kind, source, message),
    };
    for w in ignored.finish() {
        warnings.push(w.path, w.message);
    }
    let runs = bundle.runs.len() + later.len();
    if runs > MAX_RUNS {
        return Err(err(
            LoadErrorKind::TooLarge,
            Some("runs".into()),
            format!(
                "the bundle has {} runs; runlens shows at most {} at once",
                crate::format::number(runs as f64),
                crate::format::number(MAX_RUNS as f64)
            ),
        ));
    }
    super::validate::validate_with_later(&bundle, later, &mut warnings)
        .map_err(|(path, message)| err(LoadErrorKind::Invalid, Some(path), message))?;
    Ok(Loaded { bundle, warnings: warnings.finish() })
}

/// serde_json's syntax error in plain words: a file that ends early is probably cut off, and a
/// nesting deeper than serde_json's limit (128) is named as such.
fn syntax_message(e: &serde_json::Error) -> String {
    let s = strip_position(e);
    if e.is_eof() {
        format!("the JSON ends before it is complete; the file looks cut off ({s})")
    } else if s.contains("recursion limit exceeded") {
        "the JSON is nested more than 128 levels deep; no bundle is".into()
    } else {
        format!("not valid JSON: {s}")
    }
}

/// A serde_ignored path in the loader's notation, `runs[0].transactions[1].histogram.extra`
/// (serde_ignored itself prints `runs.0.transactions.1.histogram.?.extra`).
fn json_path(p: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path as P;
    match p {
        P::Root => String::new(),
        P::Seq { parent, index } => format!("{}[{index}]", json_path(parent)),
        P::Map { parent, key } => match json_path(parent) {
            s if s.is_empty() => key.clone(),
            s => format!("{s}.{key}"),
        },
        P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => json_path(parent),
    }
}

/// serde_json's message without its trailing " at line L column C" (we report those separately).
fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
