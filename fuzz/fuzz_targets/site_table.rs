#![no_main]
//! Fuzz target `site_table`: see `gpuctl_fuzz_harness::site_table`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::site_table(data));
