//! Newcombe's hybrid score interval for the difference of two error rates.

use super::{Interval, Z95};
use crate::number::clamp;

/// Wilson score interval of a proportion x / n.
fn wilson(x: f64, n: f64) -> (f64, f64) {
    let p = x / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// 95 % interval of the change in error rate, b − a, in percentage points (Newcombe's hybrid
/// score interval). None without samples.
pub fn error_rate_change(errors_a: f64, samples_a: f64, errors_b: f64, samples_b: f64) -> Option<Interval> {
    if !(samples_a > 0.0 && samples_b > 0.0) {
        return None;
    }
    let (xa, xb) = (clamp(errors_a, 0.0, samples_a), clamp(errors_b, 0.0, samples_b));
    let (pa, pb) = (xa / samples_a, xb / samples_b);
    let ((la, ua), (lb, ub)) = (wilson(xa, samples_a), wilson(xb, samples_b));
    let d = pb - pa;
    let lo = d - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt();
    let hi = d + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt();
    Some(Interval { lo: lo * 100.0, hi: hi * 100.0 })
}
