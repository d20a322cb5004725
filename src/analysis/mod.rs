//! Analysis: deltas between runs and verdicts that know each metric's direction.
