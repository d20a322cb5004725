//! A bundle as JSON text, compact (links, remembered sessions) or indented (files people read),
//! through one serializer: `serde_json::to_string` and `to_string_pretty` would each compile the
//! bundle types' serialization once more (docs/decisions/0041-one-json-serializer.md). The formatter only chooses the
//! whitespace; it delegates to serde_json's `CompactFormatter` or `PrettyFormatter`
//! (https://docs.rs/serde_json/latest/serde_json/ser/trait.Formatter.html).
use super::Bundle;
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use std::io;

/// The bundle as JSON: indented by two spaces when `pretty`, else on one line.
///
/// It cannot fail in practice (every map key is text, writing to a `Vec` cannot fail and a
/// non-finite number is written as `null`), so a failure is one plain sentence: displaying
/// serde_json's own error would link the text of all its error kinds into the page, its parse
/// errors among them (1.3 KB; the page reads no JSON itself).
pub fn to_json(bundle: &Bundle, pretty: bool) -> Result<String, String> {
    let failed = || "the bundle could not be written as JSON".to_string();
    let mut out = Vec::new();
    let layout = Layout(pretty.then(PrettyFormatter::new));
    bundle.serialize(&mut serde_json::Serializer::with_formatter(&mut out, layout)).map_err(|_| failed())?;
    String::from_utf8(out).map_err(|_| failed())
}

/// `PrettyFormatter` when set, else `CompactFormatter`. These nine methods are the ones
/// `PrettyFormatter` overrides; every other method is the trait's default in both.
struct Layout(Option<PrettyFormatter<'static>>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            match &mut self.0 {
                Some(p) => p.$name(writer $(, $arg)*),
                None => CompactFormatter.$name(writer $(, $arg)*),
            }
        }
    )*};
}

impl Formatter for Layout {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_serde_json_writes_compact_and_pretty() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            // Bundles only: not the gallery's index, nor SOURCES.md.
            if p.file_name().is_some_and(|f| f == "index.json") || p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let b = crate::bundle::load_bundle_str("b", &std::fs::read_to_string(&p).unwrap()).unwrap().bundle;
            assert_eq!(to_json(&b, false).unwrap(), serde_json::to_string(&b).unwrap());
            assert_eq!(to_json(&b, true).unwrap(), serde_json::to_string_pretty(&b).unwrap());
            n += 1;
        }
        assert!(n >= 4);
    }
}
