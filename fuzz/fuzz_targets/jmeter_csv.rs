//! The JMeter CSV (JTL) importer, chosen explicitly so every input reaches it.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| runlens_fuzz::check_import(
    "results.jtl",
    data,
    Some(runlens::import::Format::JmeterCsv)
));
