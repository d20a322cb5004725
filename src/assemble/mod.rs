//! Imported files assembled into runs and bundles; not importers. `clock` moves a file's times
//! (`--clock-offset`) and resource series onto their run's start; `group` merges the runs of one
//! test's files into one run (the import panel, CLI `runlens import --run`) and puts runs into a
//! bundle; `merge` adds up the samples of several load generators of one test exactly; `sets`
//! groups files dropped together into runs as the tools name them; `session` is the import panel's state: its files, groups and dimensions.

pub mod clock;
pub mod group;
pub mod merge;
pub mod session;
pub mod sets;
