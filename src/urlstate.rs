//! The URL contract: one typed struct with `parse` and `to_query`.
