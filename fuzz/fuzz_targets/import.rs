//! The generic import entry (`import::import`): detection by name and content, decoding, and
//! whichever importer the input selects (see `check_import_target`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| runlens_fuzz::check_import_target(data));
