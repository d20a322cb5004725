//! Tests of the Aggregate/Summary Report importer.
