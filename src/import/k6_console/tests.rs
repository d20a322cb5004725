//! Tests of k6_console.
use super::*;
