//! OpenSearch / Elasticsearch `_cat/indices` output, as text (`?v`, pasted from a terminal or a
//! wiki) and as JSON (`?format=json`, OpenSearch's `_list/indices`). Formats:
//! https://opensearch.org/docs/latest/api-reference/cat/cat-indices/ ,
//! https://www.elastic.co/guide/en/elasticsearch/reference/current/cat-indices.html ; the text
//! layout is `RestTable` in either server (`rest/action/cat/RestTable.java`).
//!
//! Text: columns are found by the header's names or `_cat`'s aliases (`i`, `dc`, `ss`, …), in any
//! subset and order; other columns (`dataset.size`, `creation.date`) are skipped. Cells are split
//! on tabs or pipes when the line has them (wiki and Confluence pastes keep empty cells that way),
//! else on spaces. A row with fewer cells than the header (a red index prints blank counts) is
//! placed by position: `RestTable` pads every cell and its header to the column's width on the
//! same side, so each cell overlaps its own header name and no other. Text before the first header
//! (a curl command, a title) is skipped; a second header starts a second run, labelled with the
//! line above it ("Test #2"), so one paste of several tables gives several runs. Without any
//! header (`_cat/indices` without `?v`), rows are read in the default column order when every
//! value fits it; see `headerless`.

mod headerless;
mod json;

pub use json::{detect as detect_json, import as import_json};

use crate::bundle::{parse_human_size, ByteSize, IndexStats, LoadError, LoadErrorKind, Run};
use crate::import::Head;
use crate::import::{common::names, Ctx};

/// The columns runlens keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Health,
    Status,
    Index,
    Uuid,
    Pri,
    Rep,
    DocsCount,
    DocsDeleted,
    StoreSize,
    PriStoreSize,
}

/// Prefixes of other `_cat/indices` columns (recognised in a header, not kept).
const OTHER_PREFIXES: [&str; 20] = [
    "dataset.",
    "creation.",
    "pri.",
    "completion.",
    "fielddata.",
    "query_cache.",
    "request_cache.",
    "flush.",
    "get.",
    "indexing.",
    "merges.",
    "refresh.",
    "search.",
    "segments.",
    "warmer.",
    "suggest.",
    "memory.",
    "bulk.",
    "cd",
    "cds",
];

/// A header name: `Some(Some(field))` when kept, `Some(None)` for another `_cat/indices` column.
pub(crate) fn field_of(name: &str) -> Option<Option<Field>> {
    let n = name.trim().to_ascii_lowercase();
    let f = match n.as_str() {
        "health" | "h" => Field::Health,
        "status" | "s" => Field::Status,
        "index" | "i" | "idx" => Field::Index,
        "uuid" | "id" => Field::Uuid,
        "pri" | "p" | "shards.primary" | "shardsprimary" => Field::Pri,
        "rep" | "r" | "shards.replica" | "shardsreplica" => Field::Rep,
        "docs.count" | "dc" | "docscount" => Field::DocsCount,
        "docs.deleted" | "dd" | "docsdeleted" => Field::DocsDeleted,
        "store.size" | "ss" | "storesize" => Field::StoreSize,
        "pri.store.size" => Field::PriStoreSize,
        _ if OTHER_PREFIXES.iter().any(|p| n.starts_with(p)) => return Some(None),
        _ => return None,
    };
    Some(Some(f))
}

/// One cell of a text line, with its character span (for aligned layouts).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    pub text: String,
    pub span: (usize, usize),
}

/// How a line's cells are separated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sep {
    Tab,
    Pipe,
    Spaces,
}

/// The cells of a line: on tabs, on pipes (`| a | b |`, Confluence's `||a||b||` header), else on
/// runs of spaces.
pub(crate) fn cells(line: &str) -> (Sep, Vec<Cell>) {
    let line = line.trim_end();
    if line.contains('\t') || line.contains('|') {
        let (sep, parts): (Sep, Vec<String>) = if line.contains('\t') {
            (Sep::Tab, line.split('\t').map(str::to_string).collect())
        } else {
            let l = line.trim();
            let l = if l.starts_with("||") { l.replace("||", "|") } else { l.to_string() };
            let l = l.strip_prefix('|').unwrap_or(&l);
            let l = l.strip_suffix('|').unwrap_or(l);
            (Sep::Pipe, l.split('|').map(str::to_string).collect())
        };
        let cells = parts.into_iter().map(|p| Cell { text: p.trim().to_string(), span: (0, 0) }).collect();
        return (sep, cells);
    }
    let mut out = Vec::new();
    let mut start: Option<(usize, String)> = None;
    for (i, ch) in line.chars().enumerate() {
        match (&mut start, ch.is_whitespace()) {
            (Some(_), true) => {
                if let Some((s, text)) = start.take() {
                    out.push(Cell { text, span: (s, i) });
                }
            }
            (Some((_, text)), false) => text.push(ch),
            (None, false) => start = Some((i, ch.to_string())),
            (None, true) => {}
        }
    }
    if let Some((s, text)) = start {
        let end = s + text.chars().count();
        out.push(Cell { text, span: (s, end) });
    }
    (Sep::Spaces, out)
}

/// A header line: its columns and cells.
#[derive(Debug, Clone)]
pub(crate) struct Header {
    pub fields: Vec<Option<Field>>,
    pub cells: Vec<Cell>,
    pub sep: Sep,
}

/// The header in a line, if it is one: an index column and mostly `_cat/indices` column names.
pub(crate) fn header_of(line: &str) -> Option<Header> {
    let (sep, cells) = cells(line);
    let known: Vec<Option<Option<Field>>> = cells.iter().map(|c| field_of(&c.text)).collect();
    let n_known = known.iter().filter(|k| k.is_some()).count();
    let has_index = known.contains(&Some(Some(Field::Index)));
    if !has_index || n_known < 2 || n_known * 2 < cells.len() {
        return None;
    }
    Some(Header { fields: known.into_iter().map(Option::flatten).collect(), cells, sep })
}

/// A row's cells by header column: positionally when the counts agree, else (spaces only) by
/// which header name each cell overlaps.
pub(crate) fn place<'a>(h: &Header, sep: Sep, row: &'a [Cell]) -> Result<Vec<Option<&'a str>>, String> {
    if row.len() == h.cells.len() {
        return Ok(row.iter().map(|c| Some(c.text.as_str())).collect());
    }
    let n = (row.len(), h.cells.len());
    if sep != Sep::Spaces || h.sep != Sep::Spaces || row.len() > h.cells.len() {
        return Err(format!("{} values for {} columns", n.0, n.1));
    }
    let mut out: Vec<Option<&str>> = vec![None; h.cells.len()];
    for c in row {
        let overlaps: Vec<usize> =
            (0..h.cells.len()).filter(|i| c.span.0 < h.cells[*i].span.1 && h.cells[*i].span.0 < c.span.1).collect();
        match overlaps.as_slice() {
            [i] if out[*i].is_none() => out[*i] = Some(c.text.as_str()),
            _ => {
                return Err(format!(
                    "{} values for {} columns, and {:?} is not under one column name",
                    n.0, n.1, c.text
                ))
            }
        }
    }
    Ok(out)
}

/// Builds index statistics from (column, value) pairs; a bad value warns at `place` and is left
/// out. `None` when there is no index name.
pub(crate) fn index_stats<'a>(
    ctx: &mut Ctx,
    place: &str,
    values: impl Iterator<Item = (Field, Option<&'a str>)>,
) -> Option<IndexStats> {
    let mut x = IndexStats::default();
    let mut named = false;
    for (f, v) in values {
        let Some(v) = v.map(str::trim).filter(|v| !v.is_empty() && *v != "-") else { continue };
        let mut bad = |what: &str, why: String| ctx.warn(place.to_string(), format!("{what} {v:?} {why}; left out"));
        let size = |v: &str| parse_human_size(v).map(ByteSize);
        match f {
            Field::Index => {
                x.index = v.to_string();
                named = true;
            }
            Field::Health => x.health = Some(v.to_string()),
            Field::Status => x.status = Some(v.to_string()),
            Field::Uuid => x.uuid = Some(v.to_string()),
            Field::Pri => x.pri = v.parse().map_err(|_| bad("pri", "is not a shard count".into())).ok(),
            Field::Rep => x.rep = v.parse().map_err(|_| bad("rep", "is not a replica count".into())).ok(),
            Field::DocsCount => x.docs_count = v.parse().map_err(|_| bad("docs.count", "is not a count".into())).ok(),
            Field::DocsDeleted => {
                x.docs_deleted = v.parse().map_err(|_| bad("docs.deleted", "is not a count".into())).ok()
            }
            Field::StoreSize => {
                x.store_size = size(v).map_err(|e| bad("store.size", format!("is not a size ({e})"))).ok()
            }
            Field::PriStoreSize => {
                x.pri_store_size = size(v).map_err(|e| bad("pri.store.size", format!("is not a size ({e})"))).ok()
            }
        }
    }
    named.then_some(x)
}

/// Content detection of the text form: a `_cat/indices` header anywhere in the head (a paste may
/// start with a title or a whole report), or one of the first lines a row in
/// the default column order.
pub fn detect(h: &Head) -> bool {
    let t = h.trimmed();
    if t.starts_with(['{', '[', '<']) {
        return false;
    }
    let lines: Vec<&str> = t.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.iter().any(|l| header_of(l).is_some()) || lines.iter().take(5).any(|l| headerless::is_default_row(l))
}

/// A table being read: its header (none: default order), label, header line, indices, and the
/// lines after it that are not rows.
struct Table {
    header: Option<Header>,
    label: Option<String>,
    line: usize,
    indices: Vec<IndexStats>,
    other_lines: Vec<usize>,
}

/// A text line that may label the table below it ("Test #2", "Indexing size").
fn label_candidate(line: &str) -> Option<String> {
    let l = line.trim().trim_start_matches(['#', '*', '-', '=']).trim();
    (!l.is_empty()
        && l.chars().count() <= 80
        && !l.starts_with("curl")
        && !l.starts_with("GET ")
        && !l.starts_with('$'))
    .then(|| l.to_string())
}

/// Whether a line that is not a row still looks like one (a broken row worth its own warning,
/// rather than text after the table): it has a health or status word as a value.
fn looks_like_row(line: &str) -> bool {
    let words = ["green", "yellow", "red", "open", "close"];
    cells(line).1.iter().any(|x| words.contains(&x.text.as_str()))
}

/// Imports `_cat/indices` text: one run per table.
pub fn import(ctx: &mut Ctx, text: &str) -> Result<Vec<Run>, LoadError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut tables: Vec<Table> = Vec::new();
    let mut last_text: Option<String> = None;
    let mut skipped_before = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let at = format!("line {}", i + 1);
        if line.trim().chars().all(|c| matches!(c, '|' | '-' | ':' | '+' | '=') || c.is_whitespace()) {
            continue;
        }
        if let Some(header) = header_of(line) {
            let label = last_text.take();
            if tables.is_empty() && label.is_some() {
                // The line above the first header is its label, not skipped text.
                skipped_before = skipped_before.saturating_sub(1);
            }
            tables.push(Table {
                header: Some(header),
                label,
                line: i + 1,
                indices: Vec::new(),
                other_lines: Vec::new(),
            });
            continue;
        }
        if tables.is_empty() {
            if !headerless::is_default_row(line) {
                skipped_before += 1;
                last_text = label_candidate(line);
                continue;
            }
            ctx.warn(&at, headerless::WARNING);
            tables.push(Table {
                header: None,
                label: last_text.take(),
                line: i + 1,
                indices: Vec::new(),
                other_lines: Vec::new(),
            });
        }
        let Some(table) = tables.last_mut() else { continue };
        let row = match &table.header {
            Some(h) => read_row(ctx, &at, h, line),
            None => headerless::read(ctx, &at, line),
        };
        match row {
            Ok(x) => table.indices.push(x),
            // A text line just above the next header labels that table; it is not a bad row.
            Err(_) if header_follows(&lines, i) => last_text = label_candidate(line),
            Err(msg) if looks_like_row(line) => ctx.warn(&at, format!("not a row of the table above ({msg}); skipped")),
            Err(_) => table.other_lines.push(i + 1),
        }
    }
    finish(ctx, tables, skipped_before)
}

/// Whether the next non-empty line after line `i` is a header.
fn header_follows(lines: &[&str], i: usize) -> bool {
    lines.iter().skip(i + 1).find(|l| !l.trim().is_empty()).is_some_and(|l| header_of(l).is_some())
}

fn read_row(ctx: &mut Ctx, at: &str, h: &Header, line: &str) -> Result<IndexStats, String> {
    let (sep, row) = cells(line);
    let placed = place(h, sep, &row)?;
    let pairs: Vec<(Field, Option<&str>)> =
        h.fields.iter().zip(placed).filter_map(|(f, v)| f.map(|f| (f, v))).collect();
    // Free text with as many words as the header has columns is not a row: health and status
    // must be their words, and at most one count or size may be malformed (it is then left out).
    let misfit = |f: &Field, v: &Option<&str>| v.is_some_and(|v| v != "-" && !headerless::fits(Some(*f), v));
    if let Some((f, Some(v))) = pairs.iter().find(|(f, v)| matches!(f, Field::Health | Field::Status) && misfit(f, v)) {
        return Err(format!("{v:?} is not a {}", if *f == Field::Health { "health" } else { "status" }));
    }
    let numeric = |f: &Field| !matches!(f, Field::Health | Field::Status | Field::Index | Field::Uuid);
    if pairs.iter().filter(|(f, v)| numeric(f) && misfit(f, v)).count() > 1 {
        return Err("its values are not counts and sizes where the header has them".into());
    }
    index_stats(ctx, at, pairs.into_iter()).ok_or_else(|| "no index name".to_string())
}

fn finish(ctx: &mut Ctx, tables: Vec<Table>, skipped_before: usize) -> Result<Vec<Run>, LoadError> {
    if skipped_before > 0 {
        ctx.warn("line 1", format!("{skipped_before} line(s) before the first table are not part of it; skipped"));
    }
    for t in &tables {
        let lines = match (t.other_lines.first(), t.other_lines.last()) {
            (Some(a), Some(b)) if a == b => format!("line {a}"),
            (Some(a), Some(b)) => format!("{} lines, {a}–{b}", t.other_lines.len()),
            _ => String::new(),
        };
        match (t.other_lines.first(), t.indices.is_empty()) {
            (Some(_), true) => ctx.warn(
                format!("line {}", t.line),
                format!("a header without rows: what follows it ({lines}) does not fit it; skipped"),
            ),
            (Some(a), false) => {
                ctx.warn(format!("line {a}"), format!("text after the table ({lines}) is not part of it; skipped"))
            }
            (None, true) => ctx.warn(format!("line {}", t.line), "a header without rows; skipped"),
            (None, false) => {}
        }
    }
    let tables: Vec<Table> = tables.into_iter().filter(|t| !t.indices.is_empty()).collect();
    if tables.is_empty() {
        return Err(ctx.error(
            LoadErrorKind::Empty,
            None,
            "no _cat/indices rows were found (a header line such as \"health status index …\" followed by rows)",
        ));
    }
    let n = tables.len();
    let base_id = names::run_id(ctx.source);
    let base_label = names::file_stem(ctx.source).to_string();
    let mut runs: Vec<Run> = Vec::new();
    for (k, t) in tables.into_iter().enumerate() {
        let (mut id, label) = match (n, &t.label) {
            (1, _) => (base_id.clone(), base_label.clone()),
            (_, Some(l)) => (format!("{base_id}-{}", names::slug(l)), format!("{base_label}: {l}")),
            (_, None) => (format!("{base_id}-{}", k + 1), format!("{base_label}: table {}", k + 1)),
        };
        while runs.iter().any(|r| r.id == id) {
            id = format!("{id}-{}", k + 1);
        }
        ctx.record(t.indices.len() as u64);
        let mut run = Run { id, label, indices: t.indices, ..Default::default() };
        run.notes.push(format!(
            "{} indices imported from _cat/indices output in {}.",
            run.indices.len(),
            names::file_name(ctx.source)
        ));
        run.dimensions.extend(names::suggested_dimensions(ctx.source));
        runs.push(run);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests;
