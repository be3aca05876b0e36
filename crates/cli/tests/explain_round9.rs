//! Issue 31, round 9: what the held-out sets P and Q and round 8's known misses showed explain
//! reading wrongly or not at all, fixed as classes. Lines are composed from each emitter's own
//! format string (named beside it), not copied from the threads; the look-alikes share the
//! rules' words and are not the GPU stack's.

use gpuctl_core::commands::explain::explain;
use gpuctl_core::plugin::Registry;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::{assert_read_by_emitter, read};

#[rstest]
// the kernel's crash line for libnvidia-container's driver service (show_signal_msg), then the
// hook's wrapper
#[case("nvidia-container-cli", "initialise", "crashed", "nvc:[driver][2211]: segfault at 0 ip 00007f3a1c2b4e10 sp 00007ffd0c1f2a80 error 4 in libnvidia-container.so.1.10.0[7f3a1c29a000+3a000]\nnvidia-container-cli: initialization error: driver error: failed to process request")]
// the audit record of its abnormal end (AUDIT_ANOM_ABEND)
#[case("nvidia-container-cli", "initialise", "meta-tegra", "audit: type=1701 audit(1700000000.100:12): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=512 comm=\"nvc:[driver]\" exe=\"/usr/bin/nvidia-container-cli\" sig=11 res=1\nstderr: nvidia-container-cli: initialization error: driver error: failed to process request: unknown")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

#[rstest]
// another program's crash in the kernel's words: no GPU component
#[case(
    "python3[4411]: segfault at 8 ip 00007f00aa01 sp 00007ffc error 4 in libpython3.11.so.1.0[7f00a9e00000+2d0000]"
)]
// an audit record of a shell's abnormal end
#[case(
    "audit: type=1701 audit(1700000000.100:12): auid=1000 uid=1000 gid=1000 ses=3 pid=900 comm=\"bash\" exe=\"/usr/bin/bash\" sig=11 res=1"
)]
fn look_alikes_are_left_alone(#[case] text: &str) {
    assert!(
        explain(text, Registry::discovered(), None).is_none(),
        "claimed: {:?}",
        read(text)
    );
}
