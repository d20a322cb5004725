//! Errors by cause, shared by the importers of raw samples: failed samples counted per
//! (transaction, response code, normalised message), with first and last occurrence, one original
//! message and counts per second, merged exactly across the byte ranges of one file.
//!
//! `Causes::add` is called for failed samples only (a successful sample costs nothing);
//! `entries` gives the run's `errors`, `cause_timelines` its timeline's `causes`. The message
//! rules are in `normalise`.

mod accumulator;
pub mod normalise;

pub use accumulator::{Cause, Causes, MAX_CAUSES, MAX_TRACKED, OTHER_CAUSES};
pub use normalise::{normalise, CONTROLLER_CAUSE};

#[cfg(test)]
mod tests;
