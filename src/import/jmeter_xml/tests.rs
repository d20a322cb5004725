//! Tests of the XML JTL importer.
