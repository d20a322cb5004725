//! The model: a workspace of loaded bundles whose runs are flattened into comparable facts.
//! No UI and no I/O: it knows nothing of where a bundle came from.

pub mod dist;
mod facts;
pub mod labels;
pub mod metric;
mod workspace;

pub use facts::{facts, key_facts, transaction_samples, Fact, Section};
pub use metric::{Family, Measure, Spec, Thresholds};
pub use workspace::{Source, Workspace, WorkspaceRun};
