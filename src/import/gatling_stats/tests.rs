//! Tests of gatling_stats.
use super::*;
