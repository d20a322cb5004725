//! Imported files assembled into runs and bundles; not importers. `group` merges the runs of one
//! test's files into one run (the import panel, CLI `runlens import --run`) and puts runs into a
//! bundle; `session` is the import panel's state: its files, groups and dimensions.

pub mod group;
pub mod session;
