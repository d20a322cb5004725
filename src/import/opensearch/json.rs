//! `_cat/indices?format=json` (an array of rows whose values are all strings) and OpenSearch's
//! `_list/indices?format=json` (`{"next_token": …, "indices": [rows]}`, 2.18+), one page or
//! several saved one after another. Keys are the column names or the aliases asked for with `?h=`;
//! `-` and null are missing values. https://opensearch.org/docs/latest/api-reference/list/list-indices/

use super::{field_of, index_stats};
use crate::bundle::{LoadError, LoadErrorKind, Run};
use crate::import::common::json_docs::{self, text_of};
use crate::import::Head;
use crate::import::{common::names, Ctx};
use serde_json::{Map, Value};

/// The object keys in a JSON text (`"key":`), for detection on a head that may be cut off.
fn keys(t: &str) -> impl Iterator<Item = &str> {
    t.split('"')
        .collect::<Vec<_>>()
        .windows(2)
        .filter_map(|w| w[1].trim_start().starts_with(':').then_some(w[0]))
        .collect::<Vec<_>>()
        .into_iter()
}

/// Content detection: JSON whose keys are `_cat/indices` columns (or their aliases, `?h=i,dc`),
/// among them the index name, or a `_list/indices` page.
pub fn detect(h: &Head) -> bool {
    let t = h.trimmed();
    if !t.starts_with(['[', '{']) {
        return false;
    }
    // One-letter aliases (`h`, `s`, `p`) and `id` are common keys elsewhere: they count only in pairs.
    let (mut index, mut strong, mut weak) = (false, 0, 0);
    for k in keys(t) {
        match field_of(k) {
            Some(Some(super::Field::Index)) => index = true,
            Some(_) if k.len() > 2 || k == "dc" || k == "dd" || k == "ss" => strong += 1,
            Some(_) => weak += 1,
            None => {}
        }
    }
    index && (strong > 0 || weak > 1)
}

/// Adds the rows of one JSON value (a page, an array of rows or of pages) to `rows`.
fn collect<'a>(
    ctx: &mut Ctx,
    v: &'a Value,
    path: String,
    rows: &mut Vec<(String, &'a Map<String, Value>)>,
    more: &mut bool,
) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect(ctx, item, format!("{path}[{i}]"), rows, more);
            }
        }
        Value::Object(o) if o.contains_key("indices") => {
            *more = o.get("next_token").is_some_and(|t| !t.is_null());
            match o.get("indices") {
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        collect(ctx, item, format!("{path}.indices[{i}]"), rows, more);
                    }
                }
                _ => ctx.warn(format!("{path}.indices"), "not a list of indices; skipped"),
            }
        }
        Value::Object(o) => rows.push((path, o)),
        _ => ctx.warn(path, "not an index row (an object); skipped"),
    }
}

/// Imports the JSON form: one run.
pub fn import(ctx: &mut Ctx, text: &str) -> Result<Run, LoadError> {
    let docs = json_docs::parse(ctx, text)?;
    let mut rows = Vec::new();
    let mut more = false;
    for (d, doc) in docs.iter().enumerate() {
        let path = if docs.len() == 1 { String::new() } else { format!("document {}", d + 1) };
        collect(ctx, doc, path, &mut rows, &mut more);
    }
    let mut run =
        Run { id: names::run_id(ctx.source), label: names::file_stem(ctx.source).to_string(), ..Default::default() };
    for (path, row) in rows {
        let place = if path.is_empty() { "(top level)".to_string() } else { path };
        let values: Vec<_> =
            row.iter().filter_map(|(k, v)| field_of(k).flatten().map(|f| (f, text_of(Some(v))))).collect();
        match index_stats(ctx, &place, values.iter().map(|(f, v)| (*f, v.as_deref()))) {
            Some(x) => run.indices.push(x),
            None => ctx.warn(place, "a row without an index name; skipped"),
        }
    }
    if more {
        ctx.warn("next_token", "the last page has a next_token: there are more indices than this file holds (ask for the next page with it)");
    }
    if run.indices.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the JSON holds no _cat/indices rows"));
    }
    ctx.record(run.indices.len() as u64);
    run.notes.push(format!(
        "{} indices imported from _cat/indices JSON in {}.",
        run.indices.len(),
        names::file_name(ctx.source)
    ));
    run.dimensions.extend(names::suggested_dimensions(ctx.source));
    Ok(run)
}
