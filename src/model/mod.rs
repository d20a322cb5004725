//! The model: a workspace of loaded bundles and facets keyed for comparison. No UI, no I/O.
