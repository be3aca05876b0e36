#![no_main]
//! Fuzz target `cdi_spec`: see `gpuctl_fuzz_harness::cdi_spec`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::cdi_spec(data));
