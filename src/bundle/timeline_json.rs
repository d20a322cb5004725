//! A transaction's timeline as a bundle carries it: the plain lists, or the compact steps the
//! writer writes (`cell_steps`, `value_steps`; samples and sums left out where the cells give them
//! exactly), both read into the one `TransactionTimeline` (decision 0061).

use super::timeline::TransactionTimeline;
use serde::{Deserialize, Serialize, Serializer};

fn is_false(v: &bool) -> bool {
    !*v
}

/// `TransactionTimeline` as a bundle carries it (its schema is this one's, described there).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename = "TransactionTimeline")]
pub struct TransactionTimelineJson {
    pub name: String,
    /// A JMeter Transaction Controller's parent sample (its children are counted on their own and
    /// it is left out of the run's totals).
    #[serde(default, skip_serializing_if = "is_false")]
    pub controller: bool,
    /// The run's samples as a whole, not a transaction: written where the tool counts no
    /// transaction over time (Locust's history without `--csv-full-history`). It counts in the
    /// run's figures over time and in a window's KPIs, and is never offered or matched as a
    /// transaction.
    #[serde(default, skip_serializing_if = "is_false")]
    pub total: bool,
    /// Samples per bucket. Required unless `cell_steps` is given; then, when missing, each
    /// bucket's samples are its cell's counts added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(with = "Vec<u64>"))]
    pub samples: Option<Vec<u64>>,
    /// Failed samples per bucket.
    pub errors: Vec<u64>,
    /// Sum of the samples' response times per bucket, milliseconds (so window means are exact).
    /// When missing and `cell_steps` is given: each bucket's value × count, added in the cell's
    /// order from 0 in 64-bit floating point; when missing otherwise: unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(with = "Vec<f64>"))]
    pub sum_ms: Option<Vec<f64>>,
    /// The response times cells point at, milliseconds, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values_ms: Vec<f64>,
    /// `values_ms` when they are whole milliseconds: the first value, then each value's
    /// difference from the one before (`[12, 3, 1]` is 12, 15 and 16 ms). At most 2^53 in size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub value_steps: Vec<i64>,
    /// True when the values are the samples' own values, so window percentiles are exact.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exact: bool,
    /// When not exact: each value stands for samples within this relative error (0.015 = ±1.5 %).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_error: Option<f64>,
    /// Per bucket, the distribution as `[value index, count, value index, count, …]`, value
    /// indices ascending; empty lists for buckets without timed samples.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<Vec<u64>>,
    /// `cells` in steps: per bucket, each value index as its difference from the previous index of
    /// the bucket (the first from 0), so indices strictly ascend, and after it −(count − 1) when
    /// the value was seen more than once: `[3, 2, -4]` is index 3 once and index 5 five times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cell_steps: Vec<Vec<i64>>,
}

impl TryFrom<TransactionTimelineJson> for TransactionTimeline {
    type Error = String;

    fn try_from(j: TransactionTimelineJson) -> Result<Self, String> {
        if !j.cells.is_empty() && !j.cell_steps.is_empty() {
            return Err("give `cells` or `cell_steps`, not both".into());
        }
        if !j.values_ms.is_empty() && !j.value_steps.is_empty() {
            return Err("give `values_ms` or `value_steps`, not both".into());
        }
        let values_ms = if j.value_steps.is_empty() { j.values_ms } else { values_of_steps(&j.value_steps)? };
        let stepped = !j.cell_steps.is_empty();
        let cells = if stepped { cells_of_steps(&j.cell_steps)? } else { j.cells };
        let samples = match j.samples {
            Some(s) => s,
            None if stepped => samples_of(&cells).ok_or("the cells' counts overflow `samples`")?,
            None => return Err("missing field `samples`".into()),
        };
        let sum_ms = match j.sum_ms {
            Some(s) => s,
            None if stepped => sums_of(&cells, &values_ms).ok_or("a cell step points past the values")?,
            None => Vec::new(),
        };
        Ok(TransactionTimeline {
            name: j.name,
            controller: j.controller,
            total: j.total,
            samples,
            errors: j.errors,
            sum_ms,
            values_ms,
            exact: j.exact,
            relative_error: j.relative_error,
            cells,
        })
    }
}

/// What the writer writes: `TransactionTimelineJson`'s fields, borrowed where they are written as
/// the model holds them.
#[derive(Serialize)]
struct Out<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "is_false")]
    controller: bool,
    #[serde(skip_serializing_if = "is_false")]
    total: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<&'a [u64]>,
    errors: &'a [u64],
    #[serde(skip_serializing_if = "Option::is_none")]
    sum_ms: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values_ms: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    value_steps: Vec<i64>,
    #[serde(skip_serializing_if = "is_false")]
    exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    relative_error: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<&'a [Vec<u64>]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cell_steps: Vec<Vec<i64>>,
}

/// Written compactly where that reads back bit for bit: steps for cells in canonical form
/// (indices strictly ascending, counts from 1) and for whole-millisecond values; samples and sums
/// left out where the cells give them exactly. Anything else is written as it is held.
impl Serialize for TransactionTimeline {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value_steps = value_steps(&self.values_ms).unwrap_or_default();
        let cell_steps = if self.cells.is_empty() { None } else { cell_steps(&self.cells) };
        let stepped = cell_steps.is_some();
        let derived_samples = stepped && samples_of(&self.cells).is_some_and(|d| d == self.samples);
        let derived_sums = stepped
            && !self.sum_ms.is_empty()
            && sums_of(&self.cells, &self.values_ms).is_some_and(|d| same_floats(&d, &self.sum_ms));
        Out {
            name: &self.name,
            controller: self.controller,
            total: self.total,
            samples: (!derived_samples).then_some(&self.samples[..]),
            errors: &self.errors,
            sum_ms: (!derived_sums && (stepped || !self.sum_ms.is_empty())).then_some(&self.sum_ms[..]),
            values_ms: (value_steps.is_empty() && !self.values_ms.is_empty()).then_some(&self.values_ms[..]),
            value_steps,
            exact: self.exact,
            relative_error: self.relative_error,
            cells: (!stepped && !self.cells.is_empty()).then_some(&self.cells[..]),
            cell_steps: cell_steps.unwrap_or_default(),
        }
        .serialize(s)
    }
}

/// Largest whole number every f64 up to it holds exactly.
const EXACT_INTEGER: i64 = 1 << 53;

fn same_floats(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The values as steps, or None when one is not a whole number of at most 2^53 that reads back bit
/// for bit (−0.0 does not).
fn value_steps(values: &[f64]) -> Option<Vec<i64>> {
    let mut prev = 0i64;
    let mut out = Vec::with_capacity(values.len());
    for &v in values {
        // `as` saturates and maps NaN to 0: the bit comparison catches both.
        let i = v as i64;
        if i.unsigned_abs() > EXACT_INTEGER as u64 || (i as f64).to_bits() != v.to_bits() {
            return None;
        }
        out.push(i - prev);
        prev = i;
    }
    Some(out)
}

fn values_of_steps(steps: &[i64]) -> Result<Vec<f64>, String> {
    let mut v = 0i64;
    let mut out = Vec::with_capacity(steps.len());
    for (k, &d) in steps.iter().enumerate() {
        v = v.checked_add(d).filter(|v| v.unsigned_abs() <= EXACT_INTEGER as u64).ok_or_else(|| {
            format!("value_steps[{k}]: the value passes 2^53 ms, which a JSON number cannot carry exactly")
        })?;
        out.push(v as f64);
    }
    Ok(out)
}

/// The cells as steps, or None when a cell is not in canonical form.
fn cell_steps(cells: &[Vec<u64>]) -> Option<Vec<Vec<i64>>> {
    cells
        .iter()
        .map(|cell| {
            if !cell.len().is_multiple_of(2) {
                return None;
            }
            let mut out = Vec::with_capacity(cell.len() / 2);
            let mut prev: Option<u64> = None;
            for p in cell.chunks_exact(2) {
                let (i, c) = (p[0], p[1]);
                let step = match prev {
                    Some(q) if i <= q => return None,
                    Some(q) => i - q,
                    None => i,
                };
                out.push(i64::try_from(step).ok()?);
                if c == 0 {
                    return None;
                }
                if c > 1 {
                    out.push(-i64::try_from(c - 1).ok()?);
                }
                prev = Some(i);
            }
            Some(out)
        })
        .collect()
}

fn cells_of_steps(steps: &[Vec<i64>]) -> Result<Vec<Vec<u64>>, String> {
    let mut cells = Vec::with_capacity(steps.len());
    for (b, row) in steps.iter().enumerate() {
        let at = |k: usize, what: &str| format!("cell_steps[{b}][{k}]: {what}");
        let mut cell: Vec<u64> = Vec::with_capacity(row.len() * 2);
        // The last value index, and whether its count was given already.
        let mut last: Option<(u64, bool)> = None;
        for (k, &d) in row.iter().enumerate() {
            let step = d.unsigned_abs();
            match (d < 0, last) {
                (true, Some((i, false))) => {
                    // At most 2^63 + 1: no overflow.
                    cell.pop();
                    cell.push(step + 1);
                    last = Some((i, true));
                }
                (true, _) => return Err(at(k, "a count (a negative step) must follow a value index")),
                (false, Some(_)) if step == 0 => {
                    return Err(at(k, "value indices must ascend (a step of 0 after the first)"))
                }
                (false, prev) => {
                    let i = match prev {
                        Some((q, _)) => q.checked_add(step).ok_or_else(|| at(k, "the value index overflows"))?,
                        None => step,
                    };
                    cell.extend([i, 1]);
                    last = Some((i, false));
                }
            }
        }
        cells.push(cell);
    }
    Ok(cells)
}

/// Each bucket's samples: its cell's counts added; None on overflow.
fn samples_of(cells: &[Vec<u64>]) -> Option<Vec<u64>> {
    cells.iter().map(|c| c.iter().skip(1).step_by(2).try_fold(0u64, |a, &n| a.checked_add(n))).collect()
}

/// Each bucket's sum of response times: value × count, added in the cell's order; None when a
/// cell points past the values.
fn sums_of(cells: &[Vec<u64>], values: &[f64]) -> Option<Vec<f64>> {
    cells
        .iter()
        .map(|c| {
            c.chunks_exact(2).try_fold(0f64, |s, p| {
                let v = values.get(usize::try_from(p[0]).ok()?)?;
                Some(s + v * p[1] as f64)
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "timeline_json_tests.rs"]
mod tests;
