#![no_main]
//! Fuzz target `cdi_dir`: see `gpuctl_fuzz_harness::cdi_dir`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::cdi_dir(data));
