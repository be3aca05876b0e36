#![no_main]
//! Fuzz target `ids`: see `gpuctl_fuzz_harness::ids`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::ids(data));
