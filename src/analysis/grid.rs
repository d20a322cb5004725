//! Two-dimension grids: when the compared runs vary along two dimensions (release × users,
//! platform × users), one metric laid out as a grid with deltas along both axes.

use super::compare::{compare_one, Cell, Row};
use crate::bundle::Run;
use crate::model::Thresholds;

/// The two dimensions that vary among `runs` (at least two distinct values each), in the order
/// the first run lists them. None when fewer or more than two vary: a third varying dimension
/// would hide runs in the grid's cells.
pub fn grid_dims(runs: &[&Run]) -> Option<(String, String)> {
    let first = runs.first()?;
    let varying: Vec<String> = first
        .dimensions
        .keys()
        .filter(|k| {
            let mut vals: Vec<Option<&String>> = runs.iter().map(|r| r.dimensions.get(*k)).collect();
            crate::order::sort_by(&mut vals, Ord::cmp);
            vals.dedup();
            vals.len() >= 2 && runs.iter().all(|r| r.dimensions.contains_key(*k))
        })
        .cloned()
        .collect();
    match varying.as_slice() {
        [a, b] => Some((a.clone(), b.clone())),
        _ => None,
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GridCell {
    pub run_id: String,
    pub value: Option<f64>,
    /// Against the cell to the left (same row, previous column).
    pub vs_left: Option<Cell>,
    /// Against the cell above (same column, previous row).
    pub vs_above: Option<Cell>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub row_dim: String,
    pub col_dim: String,
    pub row_values: Vec<String>,
    pub col_values: Vec<String>,
    /// `cells[r][c]`; None where no run has that combination.
    pub cells: Vec<Vec<Option<GridCell>>>,
}

fn distinct(runs: &[&Run], dim: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in runs {
        if let Some(v) = r.dimensions.get(dim) {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
    }
    // Numbers in numeric order ("1" < "20"), text as first seen.
    let num = |v: &str| crate::number::parse_f64(v);
    if out.iter().all(|v| num(v).is_some()) {
        crate::order::sort_by(&mut out, |a, b| num(a).unwrap_or(0.0).total_cmp(&num(b).unwrap_or(0.0)));
    }
    out
}

/// Lays out `row` (a comparison row over `runs`, cells in the same order) on the grid of
/// `dims`, each cell judged against its neighbours as a comparison of the two runs would judge
/// it. The first run of a combination wins.
pub fn grid(runs: &[&Run], row: &Row, dims: (&str, &str), th: &Thresholds) -> Grid {
    let (rd, cd) = dims;
    let (row_values, col_values) = (distinct(runs, rd), distinct(runs, cd));
    let find = |rv: &str, cv: &str| {
        runs.iter().position(|r| {
            r.dimensions.get(rd).is_some_and(|v| v == rv) && r.dimensions.get(cd).is_some_and(|v| v == cv)
        })
    };
    let value = |i: usize| row.cells.get(i).and_then(|c| c.value);
    let index: Vec<Vec<Option<usize>>> =
        row_values.iter().map(|rv| col_values.iter().map(|cv| find(rv, cv)).collect()).collect();
    let cells = index
        .iter()
        .enumerate()
        .map(|(ri, cols)| {
            cols.iter()
                .enumerate()
                .map(|(ci, idx)| {
                    let i = (*idx)?;
                    let v = value(i);
                    let against = |other: Option<usize>| {
                        let o = other?;
                        compare_one(&[runs[o], runs[i]], th, row.section, &row.key, &row.metric)
                            .and_then(|r| r.cells.get(1).copied())
                    };
                    Some(GridCell {
                        run_id: runs[i].id.clone(),
                        value: v,
                        vs_left: if ci > 0 { against(index[ri][ci - 1]) } else { None },
                        vs_above: if ri > 0 { against(index[ri - 1][ci]) } else { None },
                    })
                })
                .collect()
        })
        .collect();
    Grid { row_dim: rd.into(), col_dim: cd.into(), row_values, col_values, cells }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{compare, Change, Verdict};

    fn run(id: &str, platform: &str, users: &str, secs: f64) -> Run {
        let mut r = Run { id: id.into(), label: id.into(), duration_s: Some(secs), ..Default::default() };
        r.dimensions.insert("platform".into(), platform.into());
        r.dimensions.insert("users".into(), users.into());
        r
    }

    #[test]
    fn lays_out_platform_by_users_with_deltas_on_both_axes() {
        let runs = [
            run("a", "classic", "20", 110.0),
            run("b", "eureka", "1", 90.0),
            run("c", "classic", "1", 100.0),
            run("d", "eureka", "20", 120.0),
        ];
        let refs: Vec<&Run> = runs.iter().collect();
        let dims = grid_dims(&refs).unwrap();
        assert_eq!(dims, ("platform".to_string(), "users".to_string()));
        let th = crate::model::Thresholds::default();
        let rows = compare(&refs, &th);
        let g = grid(&refs, &rows[0], (&dims.0, &dims.1), &th);
        assert_eq!(g.row_values, vec!["classic", "eureka"]);
        assert_eq!(g.col_values, vec!["1", "20"], "numeric order");
        let d = g.cells[1][1].as_ref().unwrap();
        assert_eq!((d.run_id.as_str(), d.value), ("d", Some(120.0)));
        let left = d.vs_left.unwrap();
        assert_eq!(left.verdict, Verdict::Regressed, "eureka 20 users vs eureka 1 user");
        assert!(matches!(left.change, Some(Change::Rel(r)) if (r - 1.0 / 3.0).abs() < 1e-9), "{left:?}");
        let above = d.vs_above.unwrap();
        assert!(matches!(above.change, Some(Change::Rel(r)) if (r - 10.0 / 110.0).abs() < 1e-9), "{above:?}");
        assert_eq!(above.verdict, Verdict::Regressed, "eureka vs classic at 20 users, +9.1 %");
        let failed = Run { status: crate::bundle::RunStatus::Failed, ..runs[1].clone() };
        let with_failed = [runs[0].clone(), failed, runs[2].clone(), runs[3].clone()];
        let refs2: Vec<&Run> = with_failed.iter().collect();
        let g2 = grid(&refs2, &compare(&refs2, &th)[0], (&dims.0, &dims.1), &th);
        assert_eq!(
            g2.cells[1][1].as_ref().unwrap().vs_left.unwrap().verdict,
            Verdict::NotComparable,
            "against a failed run"
        );
        assert!(g.cells[0][0].as_ref().unwrap().vs_left.is_none());
    }

    #[test]
    fn one_or_three_varying_dimensions_make_no_grid() {
        let runs = [run("a", "x", "1", 1.0), run("b", "x", "2", 2.0)];
        assert_eq!(grid_dims(&runs.iter().collect::<Vec<_>>()), None);
        let mut three = [run("a", "x", "1", 1.0), run("b", "y", "2", 2.0)];
        three[0].dimensions.insert("region".into(), "eu".into());
        three[1].dimensions.insert("region".into(), "us".into());
        assert_eq!(grid_dims(&three.iter().collect::<Vec<_>>()), None);
    }
}
