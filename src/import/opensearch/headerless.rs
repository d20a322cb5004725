//! `_cat/indices` without `?v` has no header; people paste it that way. Its default columns are
//! fixed (`RestIndicesAction`): `health status index uuid pri rep docs.count docs.deleted
//! store.size pri.store.size`, plus `dataset.size` on Elasticsearch 8, and without `uuid` before
//! Elasticsearch 5. A row is read in that order only when its number of values picks one of the
//! three layouts and every value has the shape of its column (a health word, a status word, whole
//! numbers, sizes), so a custom `?h=` column list is refused rather than misread. A red or closed
//! index prints blank counts and sizes, which leaves nothing to place by; its leading values are
//! read when they have the shapes of health, status, index, uuid, pri and rep, and nothing follows.

use super::{cells, index_stats, Field};
use crate::bundle::{parse_human_size, IndexStats};
use crate::import::Ctx;

pub const WARNING: &str = "no header line (_cat/indices without ?v): rows are read in the default column order \
health status index uuid pri rep docs.count docs.deleted store.size pri.store.size (with dataset.size on \
Elasticsearch 8, without uuid before Elasticsearch 5), and only where every value fits that order";

const HEALTH: [&str; 3] = ["green", "yellow", "red"];
const STATUS: [&str; 2] = ["open", "close"];

use Field::*;
const WITH_UUID: [Option<Field>; 10] = [
    Some(Health),
    Some(Status),
    Some(Index),
    Some(Uuid),
    Some(Pri),
    Some(Rep),
    Some(DocsCount),
    Some(DocsDeleted),
    Some(StoreSize),
    Some(PriStoreSize),
];
const ES8: [Option<Field>; 11] = [
    Some(Health),
    Some(Status),
    Some(Index),
    Some(Uuid),
    Some(Pri),
    Some(Rep),
    Some(DocsCount),
    Some(DocsDeleted),
    Some(StoreSize),
    Some(PriStoreSize),
    None,
];
const NO_UUID: [Option<Field>; 9] = [
    Some(Health),
    Some(Status),
    Some(Index),
    Some(Pri),
    Some(Rep),
    Some(DocsCount),
    Some(DocsDeleted),
    Some(StoreSize),
    Some(PriStoreSize),
];

fn layout(n: usize) -> Option<&'static [Option<Field>]> {
    match n {
        9 => Some(&NO_UUID),
        10 => Some(&WITH_UUID),
        11 => Some(&ES8),
        _ => None,
    }
}

fn is_uint(v: &str) -> bool {
    !v.is_empty() && v.len() <= 19 && v.bytes().all(|b| b.is_ascii_digit())
}

fn is_uuid(v: &str) -> bool {
    v.len() >= 8 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') && !is_uint(v)
}

/// Whether `v` has the shape of column `f` (`None`: `dataset.size`). Blank fits anything but the
/// index name.
pub(super) fn fits(f: Option<Field>, v: &str) -> bool {
    if v.is_empty() {
        return f != Some(Index);
    }
    match f {
        Some(Health) => HEALTH.contains(&v),
        Some(Status) => STATUS.contains(&v),
        Some(Index) => !is_uint(v) && parse_human_size(v).is_err(),
        Some(Uuid) => is_uuid(v),
        Some(Pri | Rep | DocsCount | DocsDeleted) => is_uint(v),
        Some(StoreSize | PriStoreSize) | None => parse_human_size(v).is_ok(),
    }
}

/// The values of a line in a default layout, if every one fits it.
fn in_layout(line: &str) -> Option<Vec<(Option<Field>, String)>> {
    let (_, cells) = cells(line);
    let layout = layout(cells.len())?;
    let pairs: Vec<(Option<Field>, String)> = layout.iter().copied().zip(cells.into_iter().map(|c| c.text)).collect();
    pairs.iter().all(|(f, v)| fits(*f, v)).then_some(pairs)
}

/// Whether a line is a complete row in a default layout (content detection).
pub fn is_default_row(line: &str) -> bool {
    in_layout(line).is_some()
}

/// The leading values of a red or closed index: health, status, index, uuid, pri, rep.
fn prefix(line: &str) -> Option<Vec<(Option<Field>, String)>> {
    let (_, cells) = cells(line);
    let vals: Vec<String> = cells.into_iter().map(|c| c.text).filter(|t| !t.is_empty()).collect();
    let mut it = vals.into_iter().peekable();
    let mut out = Vec::new();
    for f in [Health, Status, Index, Uuid, Pri, Rep] {
        if let Some(v) = it.next_if(|v| fits(Some(f), v)) {
            out.push((Some(f), v));
        } else if f == Index {
            return None;
        }
    }
    let degraded =
        out.iter().any(|(f, v)| *f == Some(Health) && v == "red") || !out.iter().any(|(f, _)| *f == Some(Health));
    (it.peek().is_none() && degraded).then_some(out)
}

/// A headerless row, or why it is not one.
pub fn read(ctx: &mut Ctx, at: &str, line: &str) -> Result<IndexStats, String> {
    let pairs = in_layout(line).or_else(|| prefix(line)).ok_or("its values do not fit the default column order")?;
    let values = pairs.iter().filter_map(|(f, v)| f.map(|f| (f, Some(v.as_str()))));
    index_stats(ctx, at, values).ok_or_else(|| "no index name".to_string())
}
