//! Tests of k6_summary.
use super::*;
