//! The bundle loader (`bundle::load_bundle`) on arbitrary bytes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| runlens_fuzz::check_bundle(data));
