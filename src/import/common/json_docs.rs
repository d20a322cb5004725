//! A file of JSON documents as tools and shells save them: one document, several written one after
//! another (`aws cloudwatch get-metric-data … >> out.json` once per page, `_list/indices` pages), or
//! a JSON array holding them (a script that collected the pages). serde_json's stream reader does
//! the parsing; this file only turns its errors into positioned messages and keeps the documents
//! read before a truncated tail.

use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::Ctx;
use serde_json::Value;

/// Every top-level JSON value of `text`, in order. A syntax error before the first value is an
/// error; after it, a warning (a cut-off last page keeps the pages before it).
pub fn parse(ctx: &mut Ctx, text: &str) -> Result<Vec<Value>, LoadError> {
    let mut docs = Vec::new();
    for item in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        match item {
            Ok(v) => docs.push(v),
            Err(e) if docs.is_empty() => {
                return Err(ctx
                    .error(LoadErrorKind::Syntax, None, format!("not valid JSON: {e}"))
                    .at(e.line(), Some(e.column())));
            }
            Err(e) => {
                let what = if e.is_eof() {
                    "the file ends inside a JSON document (cut off?)"
                } else {
                    "what follows is not valid JSON"
                };
                ctx.warn(
                    format!("line {}", e.line()),
                    format!("{what}: {e}; the {} document(s) before it are imported", docs.len()),
                );
                break;
            }
        }
    }
    if docs.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file holds no JSON"));
    }
    Ok(docs)
}

/// A string or number field as text ("12", 12 and 12.0 alike); `None` for null, absent or "-".
pub fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if s.trim().is_empty() || s.trim() == "-" => None,
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Progress;

    #[test]
    fn concatenated_documents_and_a_cut_off_tail() {
        let p = Progress::default();
        let mut ctx = Ctx::new("x.json", &p);
        let docs = parse(&mut ctx, "{\"a\":1}\n{\"a\":2}\n{\"a\":").unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(ctx.warning_count(), 1);
        let e = parse(&mut ctx, "\n\n{\"a\" 1}").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (LoadErrorKind::Syntax, Some(3), Some(6)));
        assert_eq!(parse(&mut ctx, "  ").unwrap_err().kind, LoadErrorKind::Empty);
    }

    #[test]
    fn text_of_reads_strings_and_numbers() {
        let v: Value = serde_json::json!({"a": "12", "b": 12, "c": "-", "d": null, "e": [1]});
        assert_eq!(text_of(v.get("a")), Some("12".into()));
        assert_eq!(text_of(v.get("b")), Some("12".into()));
        assert_eq!(
            (text_of(v.get("c")), text_of(v.get("d")), text_of(v.get("e")), text_of(v.get("z"))),
            (None, None, None, None)
        );
    }
}
