//! Tests of gatling_log.
use super::*;
