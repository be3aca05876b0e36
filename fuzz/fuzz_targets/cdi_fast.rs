#![no_main]
//! Fuzz target `cdi_fast`: see `gpuctl_fuzz_harness::cdi_fast`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpuctl_fuzz_harness::cdi_fast(data));
