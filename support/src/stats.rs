//! Medians of timings. Two kinds, as their users always had them: [`median`] averages the two
//! middle values of an even count, [`median_high`] takes the higher one (the same for odd counts).

/// The median: the middle value, or the mean of the two middle values of an even count. Sorts `v`.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The high median: the value at `len / 2` once sorted (Python's `statistics.median_high`), always
/// one of the values. Sorts `v`.
pub fn median_high(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_counts_agree_and_even_counts_differ_as_said() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_high(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median_high(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
    }
}
