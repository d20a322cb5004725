//! Helpers shared by test files (`mod support;`): `snapshot`, the import tests' one snapshot harness.

pub mod snapshot;
