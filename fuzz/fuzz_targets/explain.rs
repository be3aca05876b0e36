#![no_main]
//! Fuzz target `explain`: see `gpuctl_fuzz_harness::explain`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::explain(data));
