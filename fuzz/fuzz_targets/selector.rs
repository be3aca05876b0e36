#![no_main]
//! Fuzz target `selector`: see `gpuctl_fuzz_harness::selector`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::selector(data));
