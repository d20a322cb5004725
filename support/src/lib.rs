//! What runlens' host tests, benches and e2e tests generate alike: synthetic bundles
//! ([`bundle`]; a nightly history with known shifts, [`history`]), JTL text ([`jtl`]) and medians
//! ([`stats`]), and where the corpus of real files is ([`corpus`]). Every generator is
//! deterministic: the same arguments give the same bytes.

pub mod bundle;
pub mod corpus;
pub mod history;
pub mod jtl;
pub mod stats;
